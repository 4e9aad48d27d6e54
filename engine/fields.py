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


# --- names (a save names a catalog's entries, never their place in a table) ----------------------


class Names:
    """The names a save gives the entries of one catalog (buildings, cards, goods...), and their
    indices in memory.  Writing turns an index into its name, reading a name back into the
    index of the catalog as it is now, so a table that grows anywhere changes no save."""

    __slots__ = ("index", "names", "what")

    def __init__(self, what: str, names: tuple[str, ...]) -> None:
        self.what = what
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}
        if len(self.index) != len(names):
            raise ValueError(f"{what}: a name appears twice")

    def __len__(self) -> int:
        return len(self.names)

    def of(self, value: Any, key: str) -> int:
        """The index named by ``value`` (``unknown_name`` when it names nothing here)."""
        try:
            return self.index[value]
        except (KeyError, TypeError):  # TypeError: not even hashable (a list, a dict)
            raise CorruptState(
                "unknown_name", field=key, catalog=self.what, name=repr(value)[:40]) from None

    def optional(self, value: Any, key: str) -> int:
        """An index or -1, saved as a name or null."""
        return -1 if value is None else self.of(value, key)

    def name_or_none(self, i: int) -> str | None:
        return None if i < 0 else self.names[i]

    def counts(self, values: list[int]) -> dict[str, int]:
        """A count per entry, saved as ``{name: count}`` without the zeros."""
        if not any(values):  # often: nothing of any kind
            return {}
        names = self.names
        return {names[i]: v for i, v in enumerate(values) if v}

    def read_counts(self, value: Any, key: str) -> list[int]:
        """Inverse of :meth:`counts`: a count for every entry (0 when not named)."""
        if not isinstance(value, dict):  # JSON's objects (faster than the Mapping ABC)
            raise CorruptState("bad_field", field=key)
        out = [0] * len(self.names)
        if not value:
            return out
        for name, count in value.items():
            if type(count) is not int:
                raise CorruptState("bad_field", field=key)
            out[self.of(name, key)] = count
        return out

    def list_of(self, indices: list[int]) -> list[str]:
        names = self.names
        return [names[i] for i in indices]

    def read_list(self, value: Any, key: str) -> list[int]:
        """Inverse of :meth:`list_of`."""
        if not isinstance(value, list):
            raise CorruptState("bad_field", field=key)
        return [self.of(v, key) for v in value]

    def bits(self, mask: int) -> list[str]:
        """A set of entries kept as bits (``1 << index``), saved as their names in table
        order."""
        names = self.names
        return [names[i] for i in range(len(names)) if mask >> i & 1]

    def read_bits(self, value: Any, key: str) -> int:
        mask = 0
        for i in self.read_list(value, key):
            if mask >> i & 1:
                raise CorruptState("bad_field", field=key)
            mask |= 1 << i
        return mask
