"""What an edition's or a module's own package adds to the kernel besides the rule hook points
(``buildings``): parts of the view, hidden information, invariants, option rules and the
heuristic's values.

The kernel calls these registries and names none of their users; 1897's package
(``engine.puerto_rico_1897``: the Puertoma, the Festival Activities, the Achievements) fills
them when it is imported, before any 1897 game is set up or loaded.  Each registry runs its
entries in the order they were registered, which 1897's ``__init__`` fixes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .actions import Action
    from .data import Edition
    from .state import State

VIEW_PARTS: Final[dict[str, Callable[[State, int | None], Any]]] = {}
"""View key -> (s, viewer) -> the part, or None when the game has none (the key is then left
out, so that other games' views stay as they were)."""

RESAMPLERS: Final[list[Callable[[State, int | None], None]]] = []
"""``determinize``: (s, seat) deals again what is hidden from ``seat`` (None: from everyone),
with the reseeded generator of the copy."""

REVEALERS: Final[list[Callable[[State, State], bool]]] = []
"""``reveals``: (before, after) -> whether the step showed something hidden besides a draw."""

FAILURES: Final[list[Callable[[State], list[str]]]] = []
"""The invariants of a part of the state: (s) -> every broken one (empty when sound)."""

HELD: Final[list[Callable[[State], Mapping[str, int]]]] = []
"""Conservation: (s) -> the pieces a part of the state holds off the supplies and the players'
boards, by the component counted (``colonists``, ``goods``, ``plantations``, ``quarries``,
``buildings``)."""

ACTION_VALUES: Final[dict[int, Callable[[State, int, Action], float]]] = {}
"""The heuristic: an action kind -> (s, seat, action) -> how much it wants it."""

BUILDING_VALUES: Final[list[Callable[[State, int, int], float]]] = []
"""The heuristic: (s, seat, building) -> what a building is worth more to ``seat``."""


class OptionRules:
    """Options of an edition's own that take more than a value from a list (1897's Puertomas:
    how many seats, at what difficulty).  ``names``: the options; ``normalize(options, edition,
    players, modules)``: their normalized values (stored only when it returns them); and
    ``automata(options)``: the seats the engine plays itself (``Ruleset.automata``)."""

    def __init__(
        self,
        names: tuple[str, ...],
        normalize: Callable[[Mapping[str, Any], Edition, int, list[str]], dict[str, Any]],
        automata: Callable[[Mapping[str, Any]], frozenset[int]],
    ) -> None:
        self.names = names
        self.normalize = normalize
        self.automata = automata


OPTION_RULES: Final[dict[str, OptionRules]] = {}
"""Name -> the rules; an edition plays those its ``Edition.option_rules`` names, and refuses
their options otherwise (``unknown_option``)."""

