"""The private panel (bot/panels.py): exactly the legal choices, each reachable by one control;
Discord's limits kept (25 options a menu, 40 components, 100-character ids); builder menus by
column with this player's prices."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel
from bot.games.puerto_rico.choices import Effect
from bot.panels import PanelView
from engine import get_game
from engine.policies import make_policy
from storage import GameRecord, GameStatus, SeatRecord

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)


def record(players: int) -> GameRecord:
    seats = tuple(SeatRecord(n, 100 + n, None, AT) for n in range(players))
    return GameRecord(7, "puerto-rico", {"players": players}, 1, GameStatus.ACTIVE, 42, 40,
                      1, 2, 100, "en", AT, AT, AT, AT, None, seats)


def panel_of(state: Any, seat: int, players: int) -> Panel:
    view = GAME.view(state, seat)
    prompt = GAME.prompt(state)
    codes = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
    kind = prompt.kind if codes and prompt else None
    return Panel(
        record(players), seat, view, kind, codes, {n: f"P{n}" for n in range(players)},
        extras=PR.panel_extras(GAME, state, seat, view, codes, kind),
    )


def decisions(players: int, seed: int) -> Iterator[tuple[Any, int]]:
    state = GAME.setup({"players": players}, seed)
    policy = make_policy("random", "puerto-rico", seed)
    while (prompt := GAME.prompt(state)) is not None:
        for seat in prompt.seats:
            yield state, seat
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))


def components_of(layout: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = layout.to_components()
    return out


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components", []))
        if "accessory" in comp:
            yield comp["accessory"]


def reachable(components: list[dict[str, Any]]) -> set[str]:
    """Every action code one control of the panel submits."""
    out = set()
    for comp in walk(components):
        custom_id = str(comp.get("custom_id", ""))
        if custom_id.startswith("g:") and not comp.get("disabled"):
            out.add(custom_id.split(":", 3)[3])
        if custom_id.startswith("gs:") and not comp.get("disabled"):
            out.update(o["value"] for o in comp["options"])
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_every_decision_offers_exactly_the_legal_choices(players: int, seed: int) -> None:
    kinds = set()
    for state, seat in decisions(players, seed):
        panel = panel_of(state, seat, players)
        if panel.kind is None:
            continue
        kinds.add(panel.kind)
        layout, _ = PanelView(panel, "en").build()
        components = components_of(layout)
        every = list(walk(components))
        assert len(every) <= 40
        assert all(len(str(c.get("custom_id", ""))) <= 100 for c in every)
        assert all(len(c.get("options", ())) <= 25 for c in every)
        assert all(len(str(c.get("label", ""))) <= 80 for c in every)
        offered = reachable(components)
        if panel.kind == "arrange":
            assert "m.auto" in offered and any(str(c.get("custom_id", "")).startswith("mb:")
                                              for c in every)
            assert offered <= set(panel.legal)
        else:
            assert offered == set(panel.legal), panel.kind
    assert {"role", "settle", "build", "sell", "ship", "arrange"} <= kinds


def test_builder_menus_by_column_with_this_players_prices() -> None:
    for state, seat in decisions(3, 5):
        panel = panel_of(state, seat, 3)
        if panel.kind == "build" and len(panel.legal) > 4:
            break
    layout, _ = PanelView(panel, "en").build()
    menus = [c for c in walk(components_of(layout)) if str(c.get("custom_id", "")).startswith(
        "gs:7:42:build_")]
    assert [m["custom_id"][-1] for m in menus] == ["1", "2", "3", "4"]
    prices = {f"b.{b['building']}": b["price"] for b in panel.view["market"]}
    columns = {f"b.{b['building']}": b["column"] for b in panel.view["market"]}
    for menu in menus:
        for option in menu["options"]:
            if menu.get("disabled"):
                continue
            price = prices[option["value"]]
            assert f"— costs {price} doubloon" in option["label"], option  # issue #9: in words
            assert columns[option["value"]] == int(menu["custom_id"][-1])
    assert any(m.get("disabled") for m in menus) or all(m["options"] for m in menus)


def test_many_choices_become_menus_of_at_most_25() -> None:
    """A decision with more choices than buttons (here 60 barrels to keep) is paged into
    menus of 25, 25 and 10; ``pass`` stays a button."""
    state, seat = next(iter(decisions(3, 1)))
    codes = (*(f"keep.corn{n}" for n in range(1, 61)), "pass")
    panel = Panel(record(3), seat, GAME.view(state, seat), "keep", codes, {0: "a"},
                  extras={"effects": {"keep.corn1": Effect()}})
    layout, _ = PanelView(panel, "en").build()
    every = list(walk(components_of(layout)))
    menus = [c for c in every if c.get("type") == 3]
    assert [len(m["options"]) for m in menus] == [25, 25, 10]
    assert [m["placeholder"] for m in menus] == ["Choose… (1 of 3)", "Choose… (2 of 3)",
                                                 "Choose… (3 of 3)"]
    assert reachable(components_of(layout)) == set(codes)


def test_the_panel_shows_the_players_own_vp_chips_only() -> None:
    for state, seat in decisions(3, 2):
        if GAME.view(state, seat)["players"][seat]["vp"]:
            break
    panel = panel_of(state, seat, 3)
    text = PanelView(panel, "en").header()
    chips = panel.view["players"][seat]["vp"]
    assert f"{chips} VP chip{'' if chips == 1 else 's'} (only you see them)" in text
