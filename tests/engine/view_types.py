"""A value checked against its static type at run time: a game's view against the
``TypedDict`` its engine declares (``engine/<game>/view.py``), so the types that mypy checks
every reader with cannot drift from what the engine returns.

The check is strict: a ``TypedDict``'s required keys must be there, no key it does not declare
may be, and every value must have its declared type (``bool`` is not an ``int`` here, as JSON
tells them apart).  ``__required_keys__`` is not used: under ``from __future__ import
annotations`` Python 3.11 does not see ``NotRequired`` in it, so the keys are read from the
annotations themselves.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from engine import get_game
from engine.policies import make_policy

OPTIONAL = (NotRequired, Required)


@cache
def keys_of(td: Any) -> tuple[dict[str, Any], frozenset[str]]:
    """A ``TypedDict``'s value type by key, and its required keys."""
    # an empty ``localns``: each inherited key is then read in the module that declared it (a
    # ``TypedDict``'s bases are not in its MRO, and by default the subclass's module would win:
    # 1897's ``RoleCard`` for the kernel's in ``KernelView``)
    hints = typing.get_type_hints(td, localns={}, include_extras=True)
    types_by_key: dict[str, Any] = {}
    required: set[str] = set()
    for key, hint in hints.items():
        wrapper = get_origin(hint)
        if wrapper is Required or (wrapper is not NotRequired and td.__total__):
            required.add(key)
        types_by_key[key] = get_args(hint)[0] if wrapper in OPTIONAL else hint
    return types_by_key, frozenset(required)


Check = Callable[[object, str], list[str]]
"""(value, path) -> where the value is not of the type the check was made for."""


def mismatches(value: object, hint: Any, path: str = "view") -> list[str]:
    """Where ``value`` is not of type ``hint`` (empty: it is), each as ``path: what``."""
    return checker(hint)(value, path)


@cache
def checker(hint: Any) -> Check:
    """The check of ``hint``, made once per type (a view has thousands of values)."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return lambda value, path: []
    if hint is None or hint is type(None):
        return lambda value, path: [] if value is None else [f"{path}: {value!r} is not None"]
    if typing.is_typeddict(hint):
        return _typeddict(hint)
    if origin is Union or origin is types.UnionType:
        return _union(tuple(checker(a) for a in get_args(hint)))
    if origin is Literal:
        allowed = get_args(hint)
        return lambda value, path: [] if value in allowed else [
            f"{path}: {value!r} not in {allowed}"]
    if origin is list:
        return _items(list, checker(get_args(hint)[0]))
    if origin is dict:
        return _dict(*(checker(a) for a in get_args(hint)))
    if origin is tuple and len(get_args(hint)) == 2 and get_args(hint)[1] is Ellipsis:
        return _items(tuple, checker(get_args(hint)[0]))
    if hint in (int, str, bool):
        return lambda value, path: [] if type(value) is hint else [
            f"{path}: {value!r} is not a {hint.__name__}"]
    if hint is float:
        return lambda value, path: [] if type(value) in (int, float) else [
            f"{path}: {value!r} is not a float"]
    raise TypeError(f"the checker does not know {hint!r}")


def _typeddict(hint: Any) -> Check:
    declared, required = keys_of(hint)
    checks = {key: checker(sub) for key, sub in declared.items()}

    def check(value: object, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a {hint.__name__}"]
        out = [f"{path}: no {key!r}" for key in sorted(required - value.keys())]
        out += [f"{path}: {key!r} is not a key of {hint.__name__}"
                for key in sorted(value.keys() - checks.keys(), key=str)]
        for key, item in value.items():
            if key in checks:
                out += checks[key](item, f"{path}.{key}")
        return out

    return check


def _union(alternatives: tuple[Check, ...]) -> Check:
    def check(value: object, path: str) -> list[str]:
        found = []
        for alternative in alternatives:
            problems = alternative(value, path)
            if not problems:
                return []
            found.append(problems)
        return min(found, key=len)

    return check


def _items(kind: type, item: Check) -> Check:
    def check(value: object, path: str) -> list[str]:
        if not isinstance(value, kind) or not isinstance(value, list | tuple):
            return [f"{path}: {type(value).__name__} is not a {kind.__name__}"]
        return [m for i, v in enumerate(value) for m in item(v, f"{path}[{i}]")]

    return check


def _dict(key: Check, item: Check) -> Check:
    def check(value: object, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a dict"]
        return [m for k, v in value.items()
                for m in (*key(k, f"{path} key {k!r}"), *item(v, f"{path}[{k!r}]"))]

    return check


def view_type(game: Any) -> Any:
    """The type a game's ``view`` method declares it returns."""
    return typing.get_type_hints(type(game).view)["return"]


def check_view(view: Mapping[str, Any], hint: Any, where: str) -> None:
    problems = mismatches(view, hint)
    assert not problems, f"{where}: " + "; ".join(problems[:8])


EVERY = 5
"""Views are checked every few steps and at the end (whose view adds the outcome): a step
rarely changes their shape."""


def played(name: str, options: dict[str, Any], seed: int) -> Iterator[tuple[int, Any]]:
    """(step, state) along a random game, every :data:`EVERY` steps and the last one."""
    game = get_game(name)
    state = game.setup(options, seed)
    policy = make_policy("random", name, seed)
    step = 0
    while (prompt := game.prompt(state)) is not None:
        if step % EVERY == 0:
            yield step, state
        seat = prompt.seats[0]
        state, _ = game.apply(state, seat, policy.choose(game, state, seat,
                                                         game.legal_actions(state, seat)))
        step += 1
    yield step, state
