"""Puerto Rico on Discord (bot/games/puerto_rico/): its words, panels, help, log and refusals."""
