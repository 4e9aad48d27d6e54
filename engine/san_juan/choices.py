"""Lists of legal actions that are computed on demand.

A payment, a Councillor's keep (with the Archive, a discard from the whole hand) or a hand-limit
discard is a *multiset* of card kinds, and their number grows fast with the hand (discarding 7 of
15 distinct cards: 6,435 ways).  :class:`Choices` is an immutable sequence of such actions that
knows its length from a small counting table and builds the ``k``-th action only when it is
asked for: a random seat asks for one, the legality check never lists them (see
``legality.is_legal``), and ``list(choices)`` gives exactly the full list, in the same order as
the enumeration :func:`multisets` (which the tests compare it with).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from .actions import Action

Multiset = tuple[int, ...]


class Multisets(Sequence[Multiset]):
    """Every distinct multiset of ``size`` items taken from ``counts`` (a count per item), as
    sorted tuples in lexicographic order: for each item in turn, the most copies first."""

    __slots__ = ("items", "size", "table")

    def __init__(self, counts: Sequence[int], size: int) -> None:
        self.items = [(k, c) for k, c in enumerate(counts) if c]
        self.size = size
        # table[i][need]: multisets of ``need`` items from items[i:]
        width = max(size, 0) + 1
        table = [[0] * width for _ in range(len(self.items) + 1)]
        table[-1][0] = 1
        for i in range(len(self.items) - 1, -1, -1):
            below, row, count = table[i + 1], table[i], self.items[i][1]
            window = 0  # below[need - count .. need]: taking 0..count copies of this item
            for need in range(width):
                window += below[need]
                if need > count:
                    window -= below[need - count - 1]
                row[need] = window
        self.table = table

    def __len__(self) -> int:
        return self.table[0][self.size] if self.size >= 0 else 0

    @overload
    def __getitem__(self, index: int) -> Multiset: ...

    @overload
    def __getitem__(self, index: slice) -> list[Multiset]: ...

    def __getitem__(self, index: int | slice) -> Multiset | list[Multiset]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        k = _index(index, len(self))
        out: list[int] = []
        need = self.size
        table = self.table
        for i, (item, count) in enumerate(self.items):
            if need == 0:
                break
            below = table[i + 1]
            for take in range(min(count, need), -1, -1):
                ways = below[need - take]
                if k < ways:
                    out.extend([item] * take)
                    need -= take
                    break
                k -= ways
        return tuple(out)


def _index(index: int, length: int) -> int:
    if index < 0:
        index += length
    if not 0 <= index < length:
        raise IndexError("choice index out of range")
    return index


Block = tuple[int, Callable[[int], Action]]


class Choices(Sequence[Action]):
    """A sequence of actions made of blocks, each ``(length, k -> the k-th action)``."""

    __slots__ = ("blocks", "length")

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.length = 0

    def add(self, length: int, make: Callable[[int], Action]) -> Choices:
        if length > 0:
            self.blocks.append((length, make))
            self.length += length
        return self

    def add_one(self, action: Action) -> Choices:
        return self.add(1, lambda _k: action)

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        k = _index(index, self.length)
        for length, make in self.blocks:
            if k < length:
                return make(k)
            k -= length
        raise IndexError("choice index out of range")  # pragma: no cover - lengths add up

    def __iter__(self) -> Iterator[Action]:
        for length, make in self.blocks:
            for k in range(length):
                yield make(k)


# --- enumerated multisets -----------------------------------------------------------------------

_MS_CACHE: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}


def multisets(counts: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of ``size`` items drawn from ``counts`` (a count per item), as
    sorted tuples in lexicographic order."""
    key = (tuple(counts), size)
    cached = _MS_CACHE.get(key)
    if cached is not None:
        return cached
    items = [(k, c) for k, c in enumerate(counts) if c]
    out: list[tuple[int, ...]] = []
    rest = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        rest[i] = rest[i + 1] + items[i][1]
    prefix: list[int] = []

    def walk(i: int, need: int) -> None:
        if need == 0:
            out.append(tuple(prefix))
            return
        if rest[i] < need:
            return
        kind, count = items[i]
        for take in range(min(count, need), -1, -1):
            prefix.extend([kind] * take)
            walk(i + 1, need - take)
            if take:
                del prefix[-take:]

    if 0 <= size <= rest[0]:
        walk(0, size)
    if len(_MS_CACHE) > 50_000:
        _MS_CACHE.clear()
    _MS_CACHE[key] = out
    return out


def counts_of(cards: Sequence[int], width: int) -> list[int]:
    out = [0] * width
    for c in cards:
        out[c] += 1
    return out


def multiset_seq(counts: Sequence[int], size: int) -> Multisets:
    """:class:`Multisets` of ``counts``, cached (a state asks for the same ones several times:
    its prompt, its legal actions, the check)."""
    key = (tuple(counts), size)
    found = _SEQ_CACHE.get(key)
    if found is None:
        if len(_SEQ_CACHE) > 20_000:
            _SEQ_CACHE.clear()
        found = _SEQ_CACHE[key] = Multisets(counts, size)
    return found


_SEQ_CACHE: dict[tuple[tuple[int, ...], int], Multisets] = {}
