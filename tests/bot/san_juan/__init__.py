"""San Juan on Discord (bot/games/san_juan/): its panels and words."""
