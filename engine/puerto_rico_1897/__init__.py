"""Puerto Rico 1897 (rules spec ``puerto-rico-1897.md``): an edition of the Puerto Rico kernel.

Where the editions share a rule they share the code (``engine.puerto_rico``).  This package
supplies what is 1897's own: its data (``data.EDITION``: VP tokens, coins, the rule options of
§9.3 and §10, and the structural points of §6 the kernel reads as flags) and its names
(``names``: the English Special Edition's words, at the boundary of the engine contract).
"""

from . import game as _game  # noqa: F401  (registers the game and its policies)
