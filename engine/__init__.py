"""Governor's rules engine: pure, synchronous, standard library only.

Games are found by name in a registry (``get_game("puerto-rico")``; the catalog
:mod:`engine.games` names each game's package, imported the first time the game is asked for, so
this package imports no game) and all follow the contract of :mod:`engine.core`::

    normalize_options(options) -> options        bad options raise InvalidSetup(code)
    setup(options, seed) -> state                 the PRNG state lives in the game state
    prompt(state) -> Prompt | None                who must decide what (None: game over)
    legal_actions(state, seat) -> [Action]        the ONLY source of legality
    apply(state, seat, action) -> (state, [Event])   validates; never mutates its input
    view(state, viewer) -> dict                   the only road out for anything a person sees
    outcome(state) -> Outcome | None              scores with breakdown, tie-break, winners
    encode_action / decode_action                 short canonical text codes ("r.captain")
    dump(state) / load(data)                      versioned JSON
    replay(game, options, seed, actions)          (seat, code) pairs -> (state, events)
    option_sets()                                 the option dicts the generic tests play
    determinize(state, seat, seed) -> state       resample what ``seat`` cannot see

Hook points
-----------
Editions are data tables (``engine.puerto_rico.data``); buildings attach their effects to a short
list of named hook points (``engine.puerto_rico.buildings.HOOK_POINTS``) instead of ``if`` chains
in the role code.  The list was written after reading every expansion building of the rules
specifications once:

=================  ================================================================================
hook point         base game users; what the expansions will attach
=================  ================================================================================
settler_options    Hacienda draw; Exp. 1 Forest House (forest instead of plantation), Library
quarry_allowed     Construction Hut
tile_placed        Hospice; Exp. 1 Forest House colonist to San Juan (1897: the Hacienda's tile too)
settle_passed      1897 Hospital: a forest Hacienda tile's colonist to San Juan after a pass
island_gained      any tile joining an island (normal pick, Hacienda; Exp. 1 Library, Exp. 2
                   Hunting Lodge): Exp. 4 plantation goal
build_discount     (quarries and the Builder privilege are base rules); Exp. 1 Forest House;
                   Exp. 2 Zoning Office: doubloons off by the building's column
build_options      Exp. 1 Black Market: ways to build the buildings short of money
built              University; Exp. 1 Church; Exp. 4 construction goal
produced           Factory; Exp. 1 Aqueduct, Specialty Factory; Exp. 2 Jeweler; Exp. 4 goal
craftsman_ended    1897 Distillery (Specialty Factory): the Craftsman's privilege crates counted
sale_any_kind      Office
sale_bonus         Small Market, Large Market (Exp. 1 Trading Post sells elsewhere: a new action)
load_options       Wharf; Exp. 1 Small Wharf
loaded             Harbor; Exp. 1 Lighthouse
storage            Small and Large Warehouse; Exp. 1 Storehouse
final_bonus        the five large buildings; Exp. 1 Cloister; Exp. 2 Royal Garden, nobles
=================  ================================================================================

An expansion's rules that belong to no building (Exp. 4 goals) are module handlers
(``MODULE_EFFECTS``, registered with ``module_effect``) on the points that run them for every
player (``MODULE_HOOK_POINTS``: island_gained, built, produced), after the buildings' handlers of
the same point, plus a ``MODULE_SETUP`` step after the supplies are laid out.  1897's Expansion V
(the Festival Activities, ``festival_activities``: a module of that edition only) adds the points
``sold`` (a sale to the trading house, and whether it filled it), ``shipped`` (each load: the
cargo ship or a private one, the crates by good) and ``captain_ended``, and a
``MODULE_LATE_SETUP`` step after the starting plantations are dealt.  Its Expansion VI (the
Achievements, ``achievements``) adds ``bought`` (what a building cost), ``vp_gained`` (each VP
taken), ``action_done`` (after each action: the states a board meets), and the points of the
actions a seat may take at any moment, prompted or not (``anytime``, ``anytime_open``,
``ANYTIME_REFUSALS``: announcing a card changes neither the prompt nor the turn); a module's
phase may name several seats at once (``RolePhase.seats``: its draft) and a module may have
options of its own (``MODULE_OPTIONS``), stored only in the games that play it.

Module-only structural points (Exp. 3 Buccaneer): ``roles_refused`` (the token rule),
``role_chosen`` (the token moves, the Capture bonus) and ``round_ending`` (Appendix C end of
round step 1: the captured role played by the Buccaneer).  A module's role card is data
(``data.MODULE_ROLE_CARDS``, ``NO_DOUBLOON_ROLES``) and its phase a ``buildings.RolePhase``
registered with ``module_role`` (start, act, legal, prompt kind), which the round code, ``advance``
and the legality code dispatch to without naming it.

Exp. 2 The Nobles (``engine/puerto_rico/nobles.py``): nobles are a second kind of colonist, kept
as a count of nobles per place beside the pieces the base rules count, so only the points where
pieces are handed out or moved know them: the building points ``before_distribution`` (Villa)
and ``captain_turn`` (Royal Supplier), and the module points ``distribution`` (the Mayor's
noble-or-colonist takes), ``arrange_seat`` / ``arrange_options`` / ``arranged`` (where the nobles
go), ``ship_refill`` (a noble among the pieces, no E1), ``piece_moving`` (a piece leaving a place
unnamed: a colonist first, Exp. 1 Guest House and Black Market) and ``final_scoring`` (1 VP per
noble).  A module's decision with its own actions is an offer (``OFFER_LEGAL``, ``OFFER_ACTS``):
the Mayor's take, the Hunting Lodge's discard, the Royal Supplier's trade.

Structural points that are not a building's: ``Ruleset.privilege`` (Exp. 1 Library doubles
privileges), the role cards of the setup row (Exp. 3 Buccaneer adds an eighth card), phase
starts and ends (Exp. 2 Chapel, Villa, Hunting Lodge; Exp. 1 Union Hall, Library second pick),
the colonist kinds on the ship (Exp. 2 nobles are a second kind of colonist), the market setup
(Exp. 1 draft) and the end checks (1897 ends at the end of a phase; its fruit is a sixth good,
its workers and bag replace the colonist ship).  Offers (``OFFER_HANDLERS``) are optional
follow-ups a building grants; ``PERFORMERS`` apply the actions a building contributes.

The compiled build
------------------
``engine.native`` (``python -m engine.native build``) compiles the engine with mypyc out of
tree; when a build of exactly these sources exists, the import below runs the compiled modules
(``GOVERNOR_NATIVE=0``: pure Python always).  See that package for the mechanism.
"""

from . import native

native.activate()  # before any other engine module is imported

from .core import (  # noqa: E402 - after the compiled build, if any, is activated
    Action,
    CorruptState,
    EngineError,
    Event,
    Game,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSetup,
    NotYourTurn,
    Outcome,
    Prompt,
    ReplayError,
    ScoreLine,
    UnknownGame,
    apply_code,
    game_names,
    get_game,
    register,
    replay,
)

__all__ = [
    "Action",
    "CorruptState",
    "EngineError",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidSetup",
    "NotYourTurn",
    "Outcome",
    "Prompt",
    "ReplayError",
    "ScoreLine",
    "UnknownGame",
    "apply_code",
    "game_names",
    "get_game",
    "register",
    "replay",
]
