"""Puerto Rico 1897 (rules spec ``puerto-rico-1897.md``): an edition of the Puerto Rico kernel.

Where the editions share a rule they share the code (``engine.puerto_rico``, the kernel, which
imports nothing from here).  This package holds what is 1897's own: its data (``data.EDITION``:
VP tokens, coins, the rule options of §9.3 and §10, and the structural points of §6 the kernel
reads as flags), its names (``names``: the English Special Edition's words at the boundary of
the engine contract; ``vocabulary``: the same read back for the presentation), and its own
modules and seats: the Festival's reward workers (``festival_workers``), Expansion V's Festival
Activities (``festival_activities``), Expansion VI's Achievements (``achievements``), the
Puertoma (``puertoma``) and their format-1 saves (``save_v1``).

Importing the package registers all of them on the kernel's hook points and registries
(``buildings``, ``extensions``, ``save``, ``save_v1``) before the game itself, in this order:
the order of a registry is the order of the parts it runs (the view's keys, the invariants).
"""

# the order of registration (above): not sorted
# isort: off
from . import festival_workers as _festival_workers  # noqa: F401  (the Festival's rewards, X4-3)
from . import festival_activities as _activities  # noqa: F401  (Expansion V)
from . import achievements as _achievements  # noqa: F401  (Expansion VI)
from . import puertoma as _puertoma  # noqa: F401  (§8, the automated opponent)
from . import save_v1 as _save_v1  # noqa: F401  (their fields in format-1 saves)
from . import game as _game  # noqa: F401  (registers the edition, the game and its policies)
# isort: on
