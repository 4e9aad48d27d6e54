"""San Juan's private panel: every decision offers exactly the legal choices; the payment, the
Councillor's keep and the hand-limit discard are one multi-select of exactly the number asked,
whose every selection of that size composes into a legal code (and every legal code is one such
selection); Discord's limits hold; a wrong count is refused by the engine and changes nothing."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel
from bot.games.san_juan.panels import compose
from bot.panels import PanelView
from engine import get_game
from engine.core import IllegalAction
from engine.policies import make_policy
from storage import GameRecord, GameStatus, SeatRecord

SJ = presenter_for("san-juan")
GAME = get_game("san-juan")
AT = datetime(2026, 1, 1, tzinfo=UTC)
MULTI = {"pay", "keep", "discard"}


def record(players: int, variant: bool = False) -> GameRecord:
    seats = tuple(SeatRecord(n, 100 + n, None, AT) for n in range(players))
    return GameRecord(7, "san-juan", {"players": players, "variant_start": variant}, 1,
                      GameStatus.ACTIVE, 42, 40, 1, 2, 100, "en", AT, AT, AT, AT, None, seats)


def panel_of(state: Any, seat: int, players: int) -> Panel:
    view = GAME.view(state, seat)
    prompt = GAME.prompt(state)
    codes = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
    kind = prompt.kind if codes and prompt else None
    return Panel(record(players), seat, view, kind, codes, {n: f"P{n}" for n in range(players)},
                 extras=SJ.panel_extras(GAME, state, seat, view, codes, kind))


def decisions(players: int, seed: int, variant: bool = False) -> Iterator[tuple[Any, int]]:
    state = GAME.setup({"players": players, "variant_start": variant}, seed)
    policy = make_policy("random", "san-juan", seed)
    while (prompt := GAME.prompt(state)) is not None:
        for seat in prompt.seats:
            yield state, seat
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components", []))
        if "accessory" in comp:
            yield comp["accessory"]


def multiset(code: str) -> Counter[str]:
    """The cards and goods a multi-card code names, as option idents (``c.smithy``)."""
    out: Counter[str] = Counter()
    for part in code.split("+"):
        head, _, body = part.partition(".")
        prefix = "g" if head == "g" else "c"
        for item in body.split(","):
            if item:
                name, _, n = item.partition("*")
                out[f"{prefix}.{name}"] += int(n) if n else 1
    return out


@pytest.mark.parametrize(("players", "seed", "variant"),
                         [(2, 1, False), (3, 2, True), (4, 3, False), (4, 4, True)])
def test_every_decision_offers_exactly_the_legal_choices(players: int, seed: int,
                                                         variant: bool) -> None:
    rng = random.Random(seed)
    kinds = set()
    for state, seat in decisions(players, seed, variant):
        panel = panel_of(state, seat, players)
        if panel.kind is None:
            continue
        kinds.add(panel.kind)
        layout, _ = PanelView(panel, rng.choice(["en", "es"])).build()
        every = list(walk(layout.to_components()))  # type: ignore[no-untyped-call]
        assert len(every) <= 40
        assert all(len(str(c.get("custom_id", ""))) <= 100 for c in every)
        assert all(len(c.get("options", ())) <= 25 for c in every)
        assert all(len(str(c.get("label", ""))) <= 80 for c in every)
        assert all(len(str(o.get("label", ""))) <= 100 for c in every for o in c.get("options", ()))
        buttons = {str(c["custom_id"]).split(":", 3)[3] for c in every
                   if str(c.get("custom_id", "")).startswith("g:") and not c.get("disabled")}
        menus = [c for c in every if str(c.get("custom_id", "")).startswith("gs:")
                 and not c.get("disabled")]
        legal = set(panel.legal)
        assert buttons <= legal, panel.kind
        multi = [m for m in menus if m["custom_id"].split(":")[3] in MULTI]
        single = {o["value"] for m in menus if m not in multi for o in m["options"]}
        assert single <= legal
        if panel.kind == "councillor" and legal == {"draw", "pass"}:
            assert buttons == legal and not multi  # draw or pass, before seeing a card
            continue
        if panel.kind in ("pay", "councillor", "variant_keep", "hand_limit"):
            assert len(multi) == 1, panel.kind
            menu = multi[0]
            name = menu["custom_id"].split(":")[3]
            size = menu["min_values"]
            assert menu["max_values"] == size
            values = [o["value"] for o in menu["options"]]
            offered = Counter(v.rpartition(".")[0] for v in values)
            # every legal code of this menu is one selection of exactly its size
            family = {"pay": "p", "keep": "k.", "discard": "d."}[name]
            of_menu = {c for c in legal if c.startswith(family)}
            assert of_menu
            for code in of_menu:
                wanted = multiset(code)
                assert sum(wanted.values()) == size and not wanted - offered, (code, values)
            # every selection of exactly that size is legal (sampled), the preselection too
            defaults = [o["value"] for o in menu["options"] if o.get("default")]
            assert len(defaults) == size
            assert compose(name, defaults) in legal
            allowed = int(panel.view["pending"].get("goods_allowed") or 0)
            for _ in range(5):
                chosen = rng.sample(values, size)
                if sum(v.startswith("g.") for v in chosen) > allowed:
                    continue  # one menu cannot cap the goods: the engine refuses the third
                assert compose(name, chosen) in legal
            assert buttons | (legal - of_menu) >= {c for c in legal if c == "pass"}
        else:
            assert not multi
            assert buttons | single == legal, panel.kind
    assert {"role", "build", "produce", "sell", "councillor"} <= kinds


def test_a_wrong_count_is_refused_and_changes_nothing() -> None:
    """A forged payment of one card too few: the engine refuses it (``wrong_amount``), and
    the refusal names the numbers."""
    for state, seat in decisions(3, 11):
        panel = panel_of(state, seat, 3)
        if panel.kind == "pay" and panel.view["pending"]["cost"] >= 2:
            break
    else:
        pytest.fail("no payment of 2 or more in this game")
    hand = panel.view["hand"]
    short = compose("pay", [f"c.{hand[0]}.0"])
    assert short is not None
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, GAME.decode_action(short))
    assert refused.value.code == "wrong_amount"
    assert GAME.dump(state) == before


def test_compose_refuses_what_the_panel_never_offers() -> None:
    assert compose("pay", ["c.no_such_card.0"]) is None
    assert compose("keep", ["g.indigo.0"]) is None
    assert compose("pay", ["c.smithy.0", "c.smithy.0"]) is None
    assert compose("discard", ["c.well.0", "c.smithy.1"]) == "d.smithy,well"
    assert compose("pay", ["c.smithy.0", "g.indigo.0"]) == "p.smithy+g.indigo"


def test_decompose_is_the_inverse_of_compose() -> None:
    values = ["c.smithy.0", "c.smithy.1", "c.well.0", "g.indigo.0"]
    chosen = SJ.decompose("pay", "p.smithy*2+g.indigo", values)
    assert chosen == ["c.smithy.0", "c.smithy.1", "g.indigo.0"]
    assert compose("pay", chosen) == "p.smithy*2+g.indigo"
    assert SJ.decompose("keep", "k.well", values) == ["c.well.0"]
    assert SJ.decompose("keep", "d.well", values) is None
    assert SJ.decompose("pay", "p.smithy*3", values) is None
    # a menu of codes (many goods to produce): the code itself
    assert SJ.decompose("produce_1", "pr.sugar*2,coffee", ["pr.sugar*2,coffee"]) == [
        "pr.sugar*2,coffee"]
    assert SJ.decompose("produce_1", "pr.indigo", ["pr.sugar"]) is None
