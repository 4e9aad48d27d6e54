"""Governor on Discord: slash commands, persistent buttons, the game service, notifications.

``python -m bot`` runs it (see ``bot/__main__.py`` and the README's "Set-up").  Only
the game service (:mod:`bot.service` and its parts) brings the engine, the storage and the
renderer together; everything else parses, acknowledges, calls the service and presents.
"""
