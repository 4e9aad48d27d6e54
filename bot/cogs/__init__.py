"""Cogs: the slash commands.  Thin: each command hands the interaction to a flow
(:mod:`bot.lobby`, :mod:`bot.play`) which acknowledges, calls the service and presents."""
