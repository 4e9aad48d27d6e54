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
from itertools import compress
from math import comb
from typing import Final, overload

from .actions import Action, multi

Multiset = tuple[int, ...]


class Multisets(Sequence[Multiset]):
    """Every distinct multiset of ``size`` items taken from ``counts`` (a count per item), as
    sorted tuples in lexicographic order: for each item in turn, the most copies first.

    The counting table is a product of polynomials ``1 + x + ... + x^count`` (one per item,
    from the last), each kept as one integer whose ``bits``-wide digits are the coefficients
    of ``x^0 .. x^size``: ``rows[j]`` counts the multisets of every size up to ``size`` made
    of the last ``j`` items.  A digit never overflows: it is at most the number of multisets
    of ``size`` items of ``m`` kinds, ``comb(m + size - 1, size)``, which fits in ``bits``.
    Sizes 0 and 1 need no table.  Nothing is cached: a state's hands rarely repeat, and a
    cache of tables would only grow the heap the garbage collector walks."""

    __slots__ = ("bits", "counts", "kinds", "length", "rows", "size")
    counts: tuple[int, ...]

    def __init__(self, counts: Sequence[int], size: int) -> None:
        self.kinds = kinds = list(compress(range(len(counts)), counts))
        self.counts = counts = tuple(counts)  # a snapshot: the caller's hand may change later
        self.size = size
        self.bits = 0
        self.rows: list[int] = []
        if size <= 1:
            self.length = (len(kinds) if size == 1 else 1) if size >= 0 else 0
            return
        m = len(kinds)
        if not m:
            self.length = 0
            return
        self.bits = bits = comb(m + size - 1, size).bit_length() + 1
        mask = (1 << (bits * (size + 1))) - 1
        row = 1
        rows = [1]
        geometric = _GEOMETRIC
        for i in range(m - 1, -1, -1):
            count = min(counts[kinds[i]], size)
            factor = geometric.get((count, bits))
            if factor is None:
                factor = _geometric(count, bits)
            row = (row * factor) & mask
            rows.append(row)
        self.rows = rows
        self.length = (row >> (bits * size)) & ((1 << bits) - 1)

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Multiset: ...

    @overload
    def __getitem__(self, index: slice) -> list[Multiset]: ...

    def __getitem__(self, index: int | slice) -> Multiset | list[Multiset]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        k = _index(index, self.length)
        size = self.size
        if size <= 1:
            return (self.kinds[k],) if size == 1 else ()
        out: list[int] = []
        need = size
        rows = self.rows
        bits = self.bits
        low = (1 << bits) - 1
        counts = self.counts
        kinds = self.kinds
        j = len(kinds)
        for item in kinds:
            j -= 1
            below = rows[j]  # the items after this one
            count = counts[item]
            for take in range(count if count < need else need, -1, -1):
                ways = (below >> (bits * (need - take))) & low
                if k < ways:
                    if take:
                        out += [item] * take
                        need -= take
                    break
                k -= ways
            if need == 0:
                break
        return tuple(out)


_GEOMETRIC: Final[dict[tuple[int, int], int]] = {}


def _geometric(count: int, bits: int) -> int:
    """``1 + x + ... + x^count`` with ``x = 2**bits``."""
    factor = 0
    for t in range(count + 1):
        factor |= 1 << (bits * t)
    _GEOMETRIC[(count, bits)] = factor
    return factor


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


class MultisetActions(Sequence[Action]):
    """``multi(kind, m)`` for each multiset ``m`` of cards in ``seq``, then ``last`` when
    given (``pass``): the one-block case of :class:`Choices` without its closures, for the
    frequent payment, keep and discard decisions."""

    __slots__ = ("kind", "last", "length", "seq", "size")

    def __init__(self, kind: int, seq: Multisets, last: Action | None = None) -> None:
        self.kind = kind
        self.seq = seq
        self.last = last
        self.size = size = len(seq)
        self.length = size + (last is not None)

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
        if k < self.size:
            return multi(self.kind, self.seq[k])
        assert self.last is not None
        return self.last

    def __iter__(self) -> Iterator[Action]:
        for k in range(self.length):
            yield self[k]


# --- enumerated multisets -----------------------------------------------------------------------

_MS_CACHE: Final[dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]]] = {}


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
    """:class:`Multisets` of ``counts`` (built afresh: cheaper than a cache lookup for the
    small sizes of the game, and no table outlives the decision)."""
    return Multisets(counts, size)
