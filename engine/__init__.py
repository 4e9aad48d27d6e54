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
Buildings and expansion modules attach their effects to named hook points
(``engine.puerto_rico.buildings.HOOK_POINTS``, ``MODULE_HOOK_POINTS``) instead of ``if`` chains
in the role code.  Each point, what uses it and the module-only points: ``docs/architecture.md``,
"Hook points".

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
