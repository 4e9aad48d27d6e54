"""Options of a Puerto Rico game and the ruleset compiled from them (edition tables, the
buildings in play, their hooks and per-building arrays for the hot paths)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from threading import Lock
from typing import Any, Final

from ..core import InvalidSetup
from . import actions as A
from . import festival as _festival  # noqa: F401  (registers the Exp. 4 module's handlers)
from .actions import CATALOG, Action
from .buildings import MODULE_NEEDS, MODULE_OPTIONS, STARTED_ROLES, Handler, compile_hooks
from .data import (
    ALL_ROLES,
    EDITIONS,
    MODULE_BUILDINGS,
    MODULE_ROLE_CARDS,
    NGOODS,
    NO_DOUBLOON_ROLES,
    Edition,
)
from .extensions import OPTION_RULES
from .state import (
    State,
)

MAYOR_PLACEMENTS: Final = ("simultaneous", "sequential")
BUILDING_SELECTIONS: Final = ("draft", "random")
# The four expansions of the 2020 rulebook (rules spec §10-§13), in catalog order: normalized
# options list the chosen ones in this order.
MODULES: Final = ("new_buildings", "nobles", "buccaneer", "festival")
# The modules that are fully built; the others raise ``module_not_available`` so that nothing
# half-built is playable (all four are built).
AVAILABLE_MODULES = frozenset({"new_buildings", "nobles", "buccaneer", "festival"})


def edition_modules() -> tuple[str, ...]:
    """The modules of one edition only (``Edition.own_modules``, registered with their edition:
    1897's Expansions V and VI), in catalog order after the four.  Another edition refuses them
    (``module_not_in_edition``); a module may need another (``buildings.MODULE_NEEDS``)."""
    return tuple(dict.fromkeys(m for e in EDITIONS.values() for m in e.own_modules))


# per catalog index, for the hot paths (the same in every game)
_COST: Final = tuple(b.cost for b in CATALOG)
_COLUMN: Final = tuple(b.column for b in CATALOG)
_SIZE: Final = tuple(b.size for b in CATALOG)
_CIRCLES: Final = tuple(b.circles for b in CATALOG)
_PRODUCTION: Final = tuple(b.production for b in CATALOG)
_VIOLET: Final = tuple(b.violet for b in CATALOG)


class Ruleset:
    """Everything derived from the options: edition tables, buildings in play, compiled hooks."""

    def __init__(self, options: Mapping[str, Any], buildings: tuple[int, ...] = ()) -> None:
        self.options = dict(options)  # for ``on_board``
        self.edition: Edition = EDITIONS[options["edition"]]
        self.n: int = options["players"]
        self.row = self.edition.setup[self.n]
        self.sequential_mayor = options["mayor_placement"] == "sequential"
        edition = self.edition
        # the edition's structural points and its own rule options (all off in classic games)
        self.market_before_start = edition.market_before_start
        self.vp_end_at_captain = edition.vp_end_at_captain
        self.hospice_either_tile = edition.hospice_either_tile
        self.wharf_holds_cargo = edition.wharf_holds_cargo
        self.end_after_phase = options.get("end_timing") == "phase"
        self.production_choice = options.get("production") == "full_or_decline"
        self.hacienda_recycles = options.get("hacienda_empty_bag") == "recycle"
        self.corn_start_discount = 1 if options.get("alternative_start") else 0
        self.raid_discards = options.get("lure_surplus") == "discard"  # 1897 X3-C, A-19
        self.normal_colonists = options.get("all_workers") is False  # 1897 X2, A-21
        self.jeweler_cap = 3 if options.get("tailor_cap") else None  # 1897 §9.3
        self.modules: tuple[str, ...] = tuple(options["modules"])
        # Exp. 1 (§10.1): the violet buildings are drafted (or drawn at random) onto the board's
        # spaces before the game; without it every building of the edition and of the modules
        # is in the market (Exp. 2 without Exp. 1: ruling A21).
        self.draft = "new_buildings" in self.modules
        self.random_selection = options.get("building_selection") == "random"
        self.exclusive_forest_house = bool(options.get("exclusive_forest_house"))
        self.exclusive_villa_jeweler = bool(options.get("exclusive_villa_jeweler"))  # 1897
        self.copies = [(b.copies_2p if self.n == 2 else b.copies) for b in CATALOG]
        self.festival = "festival" in self.modules
        # the seats the engine plays itself (an edition's option rules: 1897's Puertomas, the
        # last seats); ``buildings.AUTOMATON`` decides for them
        automata: frozenset[int] = frozenset()
        for name in edition.option_rules:
            automata |= OPTION_RULES[name].automata(options)
        self.automata = automata
        self.cost, self.column, self.size, self.circles = _COST, _COLUMN, _SIZE, _CIRCLES
        if options.get("cost_swap"):  # 1897's alternative rule: University 7, Factory 8
            cost = list(_COST)
            for name, value in (("university", 7), ("factory", 8)):
                cost[A.BUILDING_INDEX[name]] = value
            self.cost = tuple(cost)
        self.picks_per_round = 6 if self.n == 2 else self.n
        # role cards: the setup row's, then the modules' (Exp. 3 adds the Buccaneer, §12, at
        # every player count, [A]); ROLE action per card, and card per action code
        self.cards: tuple[int, ...] = self.row.roles + tuple(
            role for m in self.modules for role in MODULE_ROLE_CARDS.get(m, ())
        )
        self.no_doubloon = [role in NO_DOUBLOON_ROLES for role in self.cards]
        self.card_actions: list[Action] = []
        seen: dict[int, int] = {}
        for role in self.cards:
            nth = seen.get(role, 0)
            seen[role] = nth + 1
            self.card_actions.append(A.ROLE_ACTIONS[role][nth])
        self.card_of = {a.code: i for i, a in enumerate(self.card_actions)}
        base = tuple(A.BUILDING_INDEX[b.name] for b in self.edition.buildings)
        added = tuple(
            A.BUILDING_INDEX[b.name] for m in self.modules for b in MODULE_BUILDINGS.get(m, ())
        )
        # every building that may be in this game (the draft's candidates included), or
        # exactly ``buildings`` (``on_board``)
        self._compile(buildings or (base + added))

    def on_board(self, drafted: tuple[int, ...]) -> Ruleset:
        """The same rules once the Exp. 1 draft is over: exactly the buildings on the board (the
        production buildings and ``drafted``), so that the hooks of the buildings left in the
        box cost nothing.  (A new ruleset of the same options, not ``copy.copy``: a class
        compiled by mypyc, ``engine.native``, cannot be copied that way.)"""
        production = [b for b in self.buildings if self._undrafted_production(b)]
        return Ruleset(self.options, tuple(sorted({*production, *drafted})))

    def _undrafted_production(self, b: int) -> bool:
        """A production building in the market from the start (1897 drafts the Tailor)."""
        return _PRODUCTION[b] and CATALOG[b].name not in self.edition.drafted_production

    def _compile(self, buildings: tuple[int, ...]) -> None:
        """Everything that depends on the buildings in the game."""
        self.buildings: tuple[int, ...] = buildings
        # the buildings in the market from the start: all of them, or with the draft only the
        # production buildings (violet ones join as they are drafted, ``State.drafted``)
        self.setup_buildings: tuple[int, ...] = (
            tuple(b for b in buildings if self._undrafted_production(b))
            if self.draft
            else buildings
        )
        # the draft's pool: the violet buildings (1897: and the Tailor, X2-1)
        self.draftable = tuple(
            b
            for b in buildings
            if _VIOLET[b] or (_PRODUCTION[b] and not self._undrafted_production(b))
        )
        self.hooks = compile_hooks(buildings, self.modules)
        # the buildings of at most each printed cost, in catalog order: the only ones a player
        # with that much money and occupied quarries may buy without another discount (§6)
        self.max_cost = max(self.cost[b] for b in buildings)
        by_cost: list[list[int]] = [[] for _ in range(self.max_cost + 1)]
        for b in buildings:
            by_cost[self.cost[b]].append(b)
        self.buildings_upto: list[tuple[int, ...]] = []
        row: list[int] = []
        for same in by_cost:
            if same:
                row = sorted(row + same)
            self.buildings_upto.append(tuple(row))
        # the Builder's options go the slow way (price() per building) with any discount hook
        # or a building that adds ways to build (Exp. 1 Black Market)
        self.build_discounts = bool(self.hooks["build_discount"] or self.hooks["build_options"])
        self.privilege_hooks = self.hooks["privilege_bonus"]
        self.turn_extras = self.hooks["turn_extras"]
        self.captain_turn = self.hooks["captain_turn"]
        self.arrange_hooks = self.hooks["arrange_options"]
        # 1897 Exp. VI: actions at any moment, the checks after each action and each VP gained
        self.anytime = self.hooks["anytime"]
        self.anytime_open = self.hooks["anytime_open"]
        self.action_done = self.hooks["action_done"]
        self.vp_gained = self.hooks["vp_gained"]
        # a decision may hold actions of these hook points (``legality.legal``)
        self.adds_actions = bool(self.turn_extras or self.anytime)
        # ``phases.apply_unchecked`` has more to do than the base game's
        self.hooked_actions = bool(self.anytime or self.hooks["interlude"] or self.action_done)
        # the Mayor's arrangement is the base game's: its list of places left can be kept from
        # one colonist to the next (``phases.apply_unchecked``, the simulation path)
        self.plain_arrange = not (
            self.arrange_hooks or self.anytime or self.action_done or self.sequential_mayor
        )
        # every card nobody took is a choice (no Exp. 3 Buccaneer token refusing one)
        self.plain_roles = not self.hooks["roles_refused"]
        # the ``phase_started`` handlers of each role's phase
        self.phase_started: list[list[tuple[int, Handler]]] = [
            [(b, fn) for b, fn in self.hooks["phase_started"] if role in STARTED_ROLES[fn]]
            for role in range(len(ALL_ROLES))
        ]
        # production buildings by good (§5)
        self.processors: list[list[int]] = [[] for _ in range(NGOODS)]
        for b in buildings:
            good = CATALOG[b].good
            if _PRODUCTION[b] and good is not None:
                self.processors[good].append(b)

    def privilege(self, s: State, seat: int) -> int:
        """Size of a role privilege: 1, more with an occupied building on ``privilege_bonus``
        (Exp. 1's Library doubles it)."""
        size = 1
        if self.privilege_hooks:
            bw = s.players[seat].bw
            for b, fn in self.privilege_hooks:
                if bw[b] > 0:
                    size += int(fn(s, seat))
        return size


_RULESETS: Final[dict[tuple[Any, ...], Ruleset]] = {}
"""By options: one entry per distinct normalized option set (a few dozen at most)."""
_BOARDS: Final[OrderedDict[tuple[Any, ...], Ruleset]] = OrderedDict()
"""By options and drafted buildings: nearly one per Exp. 1 game, so the least recently used
go beyond ``BOARDS_KEPT`` (a long-running bot plays thousands of drafts)."""
BOARDS_KEPT: Final = 256
_BOARDS_LOCK: Final = Lock()


def ruleset(options: Mapping[str, Any], drafted: tuple[int, ...] = ()) -> Ruleset:
    """The compiled ruleset of these options (cached); with the buildings of a finished Exp. 1
    draft, the ruleset of exactly those."""
    key = tuple(sorted((k, str(v)) for k, v in options.items()))
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = Ruleset(options)
    if not drafted:
        return rs
    board = (*key, tuple(sorted(drafted)))
    with _BOARDS_LOCK:
        on_board = _BOARDS.get(board)
        if on_board is not None:
            _BOARDS.move_to_end(board)
            return on_board
    on_board = rs.on_board(drafted)  # outside the lock: a lost race compiles it twice
    with _BOARDS_LOCK:
        _BOARDS[board] = on_board
        while len(_BOARDS) > BOARDS_KEPT:
            _BOARDS.popitem(last=False)
    return on_board


def state_ruleset(options: Mapping[str, Any], draft_left: list[int], drafted: list[int]) -> Ruleset:
    """The ruleset a state plays by: after an Exp. 1 draft (or random selection), the one
    compiled for the board's buildings."""
    if draft_left and not any(draft_left):
        return ruleset(options, tuple(drafted))
    return ruleset(options)


def editions_of(game: str) -> list[str]:
    """The editions played as ``game``, the default first."""
    return [name for name, e in EDITIONS.items() if e.game == game]


def normalize_options(options: Mapping[str, Any], game: str = "puerto-rico") -> dict[str, Any]:
    """Validate options and fill defaults.  Raises :class:`InvalidSetup` with a specific code.
    ``game``: the game played, whose editions (``Edition.game``) are the ones allowed; an
    edition's own rule options (``Edition.options``) are known in it only."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("options_not_an_object")
    editions = editions_of(game)
    edition = options.get("edition", editions[0] if editions else None)
    if edition not in editions:
        raise InvalidSetup("unknown_edition", option="edition", value=str(edition))
    own = EDITIONS[edition].options
    playable = AVAILABLE_MODULES | set(EDITIONS[edition].own_modules)
    option_rules = {name: rules.names for name, rules in OPTION_RULES.items()}
    module_options = {m: opts for m, opts in MODULE_OPTIONS.items() if m in playable}
    known = {
        "players",
        "edition",
        "expansions",
        "modules",
        "mayor_placement",
        "building_selection",
        "exclusive_forest_house",
        *(name for names in option_rules.values() for name in names),
        *(o.name for o in own),
        *(o.name for opts in module_options.values() for o in opts),
    }
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidSetup("unknown_option", option=unknown[0])
    players = options.get("players")
    if type(players) is not int:
        raise InvalidSetup("players_required", option="players")
    if not 2 <= players <= 5:
        raise InvalidSetup("bad_player_count", option="players", value=players, min=2, max=5)
    # ``expansions`` is the option of the games stored before issue #11: always [] there (no
    # expansion could be chosen), read as no modules.
    expansions = options.get("expansions", [])
    if not isinstance(expansions, list | tuple) or any(not isinstance(e, str) for e in expansions):
        raise InvalidSetup("bad_expansions", option="expansions")
    if expansions:
        raise InvalidSetup("expansion_not_available", option="expansions", value=expansions[0])
    modules = normalize_modules(options.get("modules", []), EDITIONS[edition])
    placement = options.get("mayor_placement", "simultaneous")
    if placement not in MAYOR_PLACEMENTS:
        raise InvalidSetup("bad_mayor_placement", option="mayor_placement", value=str(placement))
    out = {
        "players": players,
        "edition": edition,
        "modules": modules,
        "mayor_placement": placement,
    }
    for name, names in option_rules.items():  # an edition's own option rules (1897 §8)
        if any(option in options for option in names):
            if name not in EDITIONS[edition].option_rules:
                raise InvalidSetup("unknown_option", option=names[0])
            out.update(OPTION_RULES[name].normalize(options, EDITIONS[edition], players, modules))
    for option in own:  # the edition's own rules: always stored, so a game never changes
        value = options.get(option.name, option.default)
        if value not in option.values or type(value) is not type(option.default):
            raise InvalidSetup(f"bad_{option.name}", option=option.name, value=str(value))
        out[option.name] = value
    for module, opts in module_options.items():  # stored only with their module (1897 Exp. VI)
        for option in opts:
            value = options.get(option.name)
            if module not in modules:
                if value is not None:
                    raise InvalidSetup(f"{option.name}_without_{module}", option=option.name)
                continue
            value = option.default if value is None else value
            if value not in option.values or type(value) is not type(option.default):
                raise InvalidSetup(f"bad_{option.name}", option=option.name, value=str(value))
            out[option.name] = value
    # Exp. 1 (§10.1): the violet buildings are drafted by the players, or (a quick start, public
    # source) drawn at random for each space; only with the module
    selection = options.get("building_selection")
    if "new_buildings" in modules:
        selection = "draft" if selection is None else selection
        if selection not in BUILDING_SELECTIONS:
            raise InvalidSetup(
                "bad_building_selection", option="building_selection", value=str(selection)
            )
        out["building_selection"] = selection
    elif selection is not None:
        raise InvalidSetup("building_selection_without_new_buildings", option="building_selection")
    # ruling A22: [A] lets the Hacienda and the Forest House both be drafted; the 2004 rule
    # (public source) keeps them apart: once one is on the board the other goes to the box
    exclusive = options.get("exclusive_forest_house", False)
    if type(exclusive) is not bool:
        raise InvalidSetup("bad_exclusive_forest_house", option="exclusive_forest_house")
    if exclusive:
        if "new_buildings" not in modules:
            raise InvalidSetup(
                "exclusive_forest_house_without_new_buildings", option="exclusive_forest_house"
            )
        out["exclusive_forest_house"] = True
    return out


def normalize_modules(modules: Any, edition: Edition | None = None) -> list[str]:
    """The ``modules`` option: a list of distinct known module names, returned in catalog order
    (the four expansions, then the editions' own modules).  A module of another edition's own
    is refused (``module_not_in_edition``: the classic game has no Festival Activities), and a
    module needing another without it (``module_needs_module``)."""
    if not isinstance(modules, list | tuple) or any(not isinstance(m, str) for m in modules):
        raise InvalidSetup("bad_modules", option="modules")
    only = edition_modules()
    catalog = MODULES + only
    for m in modules:
        if m not in catalog:
            raise InvalidSetup("unknown_module", option="modules", value=m)
    if len(set(modules)) != len(modules):
        dup = next(m for m in modules if list(modules).count(m) > 1)
        raise InvalidSetup("duplicate_module", option="modules", value=dup)
    own = () if edition is None else edition.own_modules
    for m in modules:
        if m in only and m not in own:
            raise InvalidSetup("module_not_in_edition", option="modules", value=m)
        if m not in AVAILABLE_MODULES and m not in own:
            raise InvalidSetup("module_not_available", option="modules", value=m)
        needed = MODULE_NEEDS.get(m)
        if needed is not None and needed not in modules:
            raise InvalidSetup("module_needs_module", option="modules", value=m, needs=needed)
    return [m for m in catalog if m in modules]


# ----------------------------------------------------------------------------------------------
# Setup (§2)
# ----------------------------------------------------------------------------------------------
