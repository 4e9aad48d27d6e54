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
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

OPTIONAL = (NotRequired, Required)


def keys_of(td: Any) -> tuple[dict[str, Any], set[str]]:
    """A ``TypedDict``'s value type by key, and its required keys."""
    hints = typing.get_type_hints(td, include_extras=True)
    types_by_key: dict[str, Any] = {}
    required: set[str] = set()
    for key, hint in hints.items():
        wrapper = get_origin(hint)
        if wrapper is Required or (wrapper is not NotRequired and td.__total__):
            required.add(key)
        types_by_key[key] = get_args(hint)[0] if wrapper in OPTIONAL else hint
    return types_by_key, required


def mismatches(value: object, hint: Any, path: str = "view") -> list[str]:
    """Where ``value`` is not of type ``hint`` (empty: it is), each as ``path: what``."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a {hint.__name__}"]
        declared, required = keys_of(hint)
        out = [f"{path}: no {key!r}" for key in sorted(required - value.keys())]
        out += [f"{path}: {key!r} is not a key of {hint.__name__}"
                for key in sorted(value.keys() - declared.keys(), key=str)]
        for key, sub in declared.items():
            if key in value:
                out += mismatches(value[key], sub, f"{path}.{key}")
        return out
    if origin is Union or origin is types.UnionType:
        found = [mismatches(value, alternative, path) for alternative in get_args(hint)]
        return [] if any(not f for f in found) else min(found, key=len)
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{path}: {value!r} not in {get_args(hint)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__} is not a list"]
        (item,) = get_args(hint)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__} is not a dict"]
        key_type, value_type = get_args(hint)
        return [m for k, v in value.items()
                for m in (*mismatches(k, key_type, f"{path} key {k!r}"),
                          *mismatches(v, value_type, f"{path}[{k!r}]"))]
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, tuple):
            return [f"{path}: {type(value).__name__} is not a tuple"]
        if len(args) == 2 and args[1] is Ellipsis:
            return [m for i, v in enumerate(value) for m in mismatches(v, args[0], f"{path}[{i}]")]
        if len(args) != len(value):
            return [f"{path}: {len(value)} items, not {len(args)}"]
        return [m for i, (v, a) in enumerate(zip(value, args, strict=True))
                for m in mismatches(v, a, f"{path}[{i}]")]
    if hint in (int, str, bool):
        return [] if type(value) is hint else [
            f"{path}: {value!r} is not a {hint.__name__}"]
    if hint is float:
        return [] if type(value) in (int, float) else [f"{path}: {value!r} is not a float"]
    raise TypeError(f"{path}: the checker does not know {hint!r}")


def view_type(game: Any) -> Any:
    """The type a game's ``view`` method declares it returns."""
    return typing.get_type_hints(type(game).view)["return"]


def check_view(view: Mapping[str, Any], hint: Any, where: str) -> None:
    problems = mismatches(view, hint)
    assert not problems, f"{where}: " + "; ".join(problems[:8])
