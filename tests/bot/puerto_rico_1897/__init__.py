"""Puerto Rico 1897 on Discord (bot/games/puerto_rico_1897/)."""
