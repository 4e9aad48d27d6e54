"""Reading a saved state's fields (``Game.load``): each reader returns the field checked for its
JSON type or raises :class:`~engine.core.CorruptState` naming it, so every game's loader says
the same thing about the same fault.  Pure, standard library only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core import CorruptState


def int_field(data: Mapping[str, Any], key: str) -> int:
    """An integer (``bad_field`` otherwise; a bool is not an integer here)."""
    value = data[key]
    if type(value) is not int:
        raise CorruptState("bad_field", field=key)
    return value


def int_list(data: Mapping[str, Any], key: str, length: int | None = None) -> list[int]:
    """A list of integers (``bad_field``), of ``length`` items when given (``bad_length``)."""
    value = data[key]
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise CorruptState("bad_field", field=key)
    if length is not None and len(value) != length:
        raise CorruptState("bad_length", field=key)
    return list(value)


def bool_list(data: Mapping[str, Any], key: str) -> list[bool]:
    value = data[key]
    if not isinstance(value, list) or any(type(v) is not bool for v in value):
        raise CorruptState("bad_field", field=key)
    return list(value)


def str_list(data: Mapping[str, Any], key: str) -> list[str]:
    value = data[key]
    if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
        raise CorruptState("bad_field", field=key)
    return list(value)


def mapping_field(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data[key]
    if not isinstance(value, Mapping):
        raise CorruptState("bad_field", field=key)
    return dict(value)
