"""San Juan's action codes (``engine/san_juan/actions.py``): canonical, short, round-tripping;
anything else is ``InvalidAction``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import InvalidAction
from engine.san_juan import actions as A
from engine.san_juan.data import NGOODS, NKINDS

from .scenario import GAME


def test_every_fixed_code_round_trips() -> None:
    """Roles (with and without the Library), builds, Gold mine takes, Chapel cards, draw,
    reveal, pass."""
    codes = A.all_simple_codes()
    assert "r.builder.lib" in codes and "b.palace" in codes and "c.statue" in codes
    for code in codes:
        assert A.decode(code).code == code
        assert len(code) < 40


@given(
    st.lists(st.integers(0, NKINDS - 1), max_size=12),
    st.lists(st.integers(0, NGOODS - 1), max_size=3),
    st.sampled_from([A.PAY, A.KEEP, A.DISCARD, A.PRODUCE, A.SELL]),
)
@settings(max_examples=400)
def test_multiset_codes_round_trip(cards: list[int], goods: list[int], kind: int) -> None:
    """Payments, keeps, discards, production and sales name multisets canonically."""
    if kind in (A.PRODUCE, A.SELL):
        cards = []
    if kind in (A.KEEP, A.DISCARD):
        goods = []
    if not cards and not goods:
        return
    action = A.multi(kind, tuple(sorted(cards)), tuple(sorted(goods)))
    assert A.decode(action.code) == action
    assert A.decode(action.code).cards == action.cards
    assert A.decode(action.code).goods == action.goods
    assert len(action.code) < 200


@pytest.mark.parametrize(
    "code",
    [
        "",
        "r.",
        "r.mayor",
        "r.builder.LIB",
        "b.",
        "b.nothing",
        "b.smithy@",
        "b.smithy@01",
        "b.smithy@-1",
        "b.smithy@1000",
        "p",
        "p.",
        "p+g.",
        "p.well,smithy",
        "p.smithy*1",
        "p.smithy*01",
        "p.smithy,smithy",
        "p.smithy+g.silver,indigo",
        "p.smithy+indigo",
        "pr.",
        "pr.indigo*0",
        "s.gold",
        "k.",
        "d.palace*x",
        "c.",
        "gm.",
        "drawx",
        "PASS",
        "s.indigo,indigo",
        "k.well*2,smithy",
    ],
)
def test_malformed_or_non_canonical_codes_are_invalid(code: str) -> None:
    """A code names an action only in its canonical form (sorted, each kind once, ``*n`` for
    n >= 2 without a leading zero)."""
    with pytest.raises(InvalidAction) as err:
        GAME.decode_action(code)
    assert err.value.code == "unknown_action"


def test_build_over_and_pay_with_goods() -> None:
    """``b.<kind>@<i>`` builds over the area index ``i`` (the Crane); ``p.<cards>+g.<goods>``
    pays with the Black market; ``p+g.<goods>`` with goods only."""
    over = A.decode("b.palace@3")
    assert (over.kind, over.a, over.b) == (A.BUILD, A.KIND_NAMES.index("palace"), 3)
    pay = A.decode("p.indigo_plant*2,well+g.sugar,silver")
    assert pay.cards == (0, 0, A.KIND_NAMES.index("well")) and pay.goods == (1, 4)
    assert A.decode("p+g.indigo*2").goods == (0, 0)
