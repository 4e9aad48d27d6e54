"""1897's words read back into the kernel's, for the presentation (docs/engine-1897.md,
"Names").

The engine speaks 1897's words at its contract (``names``: codes, prompt kinds, events, views,
options), and stored games hold them.  The presentation of 1897 is classic Puerto Rico's
(render/puerto_rico, bot/games/puerto_rico), which reads the kernel's codes, views and events;
so the renderer and the presenter of 1897 read each 1897 value back through this module, the
one place that decides how, by the engine's own word table (``names.REVERSE``, no second copy),
and put what they hand back to the engine (codes, a view they changed) into 1897's words again.

Which side a value is on is never guessed (``zoning_office`` is a different building in each
edition's words): each function takes one side's words and gives the other's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..core import Event
from ..puerto_rico.data import GOODS
from . import names
from .data import EXPANSION_MODULES
from .view import KernelView, PuertoRico1897View

PUERTOMA = "puertoma"
"""The view's Puertoma part (§8; only with Puertomas)."""
MODULES = "modules"
"""The kernel's option naming the modules (1897's ``expansions``)."""


def kernel_code(code: str) -> str:
    """An 1897 action code in the kernel's words (``p.fruit`` -> ``s.indigo``)."""
    return names.classic_code(code)


def edition_code(kernel: str) -> str:
    """A kernel action code in 1897's words (what the engine and Discord's components carry)."""
    return names.code(kernel)


def kernel_word(word: str) -> str:
    """One 1897 word (a prompt kind, a role, a building, an event type) in the kernel's."""
    return names.word(word, names.REVERSE)


def edition_word(kernel: str) -> str:
    """One kernel word in 1897's."""
    return names.word(kernel)


def kernel_data(data: Any) -> Any:
    """A JSON-like value of 1897's (an event's data, a score's breakdown) in the kernel's
    words: its keys and string values."""
    return names.data(data, reverse=True)


def kernel_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """1897's options in the kernel's words, its expansions (§7) also as the kernel's
    ``modules``."""
    out: dict[str, Any] = names.data(dict(options), reverse=True)
    out[MODULES] = [
        EXPANSION_MODULES[n] for n in options.get("expansions") or () if n in EXPANSION_MODULES
    ]
    return out


def kernel_view(view: Mapping[str, Any]) -> KernelView:
    """An 1897 view in the kernel's words, its expansions as the kernel's modules.  The
    Puertoma part is 1897's own and already names its fields in 1897's words (``properties``,
    ``workers``, ``level``: no classic words, so the engine left them as they were): only its
    values (Fruit, the Recruiter, a building) are read back, where a whole reading would turn
    its fields into classic words nobody wrote (``plantations``, ``colonists``, ``column``).

    Typed as the kernel's view (:class:`~.view.KernelView`): a word-by-word reading of a
    :class:`~.view.PuertoRico1897View` is one, which mypy cannot follow through the word table
    (the presentation's one cast for 1897: a test checks it on random games)."""
    out: dict[str, Any] = names.data(_without_puertoma(view), reverse=True)
    out["options"] = kernel_options(view.get("options") or {})
    _puertoma_back(view, out)
    return cast(KernelView, out)


def edition_view(view: Mapping[str, Any]) -> PuertoRico1897View:
    """A view in the kernel's words (from :func:`kernel_view`, perhaps changed by the classic
    presentation: a Mayor draft drawn in) in 1897's words again."""
    out: PuertoRico1897View = names.data(view)
    options = dict(out["options"])
    options.pop(MODULES, None)
    out["options"] = options
    return out


def kernel_event(event: Event | Mapping[str, Any]) -> Event:
    """An 1897 event (or its JSON) in the kernel's words."""
    return names.event(event if isinstance(event, Event) else Event.from_json(event),
                       reverse=True)


def kernel_outcome(outcome: Mapping[str, Any]) -> Mapping[str, Any]:
    """A final outcome's JSON in the kernel's words (its breakdown's parts, its end reasons); a
    finished view given in its place is read as :func:`kernel_view` reads it (a score sheet
    then draws the Puertomas' boards)."""
    if "scores" not in outcome and isinstance(outcome.get("outcome"), Mapping):
        return kernel_view(outcome)
    out: dict[str, Any] = names.data(_without_puertoma(outcome), reverse=True)
    _puertoma_back(outcome, out)
    return out


def _without_puertoma(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return {k: v for k, v in data.items() if k != PUERTOMA} if PUERTOMA in data else data


def _puertoma_back(given: Mapping[str, Any], out: dict[str, Any]) -> None:
    """The Puertoma part of ``given`` into ``out`` as the kernel's view has it."""
    part = given.get(PUERTOMA)
    if isinstance(part, Mapping):
        out[PUERTOMA] = _values_back(part)


def _values_back(obj: Any) -> Any:
    if isinstance(obj, str):
        return kernel_word(obj)
    if isinstance(obj, Mapping):  # its keys are its own, but for a good's (the VP area's Fruit)
        return {_good_back(k): _values_back(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_values_back(v) for v in obj]
    return obj


def _good_back(key: Any) -> Any:
    word = kernel_word(key) if isinstance(key, str) else key
    return word if word in GOODS else key
