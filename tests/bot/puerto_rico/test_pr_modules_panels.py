"""The private panel of Exp. 3's decisions (rules spec §12): the Buccaneer's options (a Piracy
menu per loaded ship, "keep 0 to 3", each saying what goes back to the supply; Plunder and Raid
buttons; a Capture button per unused role card) and the raided colonists' places (a button
per legal place and the pass) — exactly the legal codes, each reachable by one control,
within Discord's limits; the slash commands ``/pr buccaneer`` and ``/pr raid`` offer them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel
from bot.panels import PanelView
from engine import get_game
from engine.policies import make_policy
from storage import GameRecord, GameStatus, SeatRecord

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)
MODULES = ["buccaneer", "festival"]


def record(players: int) -> GameRecord:
    seats = tuple(SeatRecord(n, 100 + n, None, AT) for n in range(players))
    return GameRecord(
        7,
        "puerto-rico",
        {"players": players, "modules": MODULES},
        1,
        GameStatus.ACTIVE,
        42,
        40,
        1,
        2,
        100,
        "en",
        AT,
        AT,
        AT,
        AT,
        None,
        seats,
    )


def panels(kinds: tuple[str, ...]) -> Iterator[Panel]:
    """The panel of every decision of those kinds in seeded random games with the modules."""
    for seed in range(6):
        players = 2 + seed % 4
        state = GAME.setup({"players": players, "modules": MODULES}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            if prompt.kind in kinds:
                view = GAME.view(state, seat)
                codes = tuple(GAME.encode_action(a) for a in legal)
                yield Panel(
                    record(players),
                    seat,
                    view,
                    prompt.kind,
                    codes,
                    {n: f"P{n}" for n in range(players)},
                    extras=PR.panel_extras(GAME, state, seat, view, codes, prompt.kind),
                )
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components", []))


def controls(panel: Panel, lang: str = "en") -> list[dict[str, Any]]:
    built: Any = PanelView(panel, lang).build()[0]
    components: list[dict[str, Any]] = built.to_components()
    return list(walk(components))


def reachable(every: list[dict[str, Any]]) -> set[str]:
    out = set()
    for comp in every:
        custom_id = str(comp.get("custom_id", ""))
        if custom_id.startswith("g:") and not comp.get("disabled"):
            out.add(custom_id.split(":", 3)[3])
        if custom_id.startswith("gs:") and not comp.get("disabled"):
            out.update(o["value"] for o in comp["options"])
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_buccaneer_decision_offers_exactly_its_legal_choices(lang: str) -> None:
    seen = set()
    for panel in panels(("buccaneer", "raid_place")):
        seen.add(panel.kind)
        every = controls(panel, lang)
        assert len(every) <= 40
        assert all(len(str(c.get("custom_id", ""))) <= 100 for c in every)
        assert all(len(str(c.get("label", ""))) <= 80 for c in every)
        assert all(len(c.get("options", ())) <= 25 for c in every)
        assert all(len(str(c.get("placeholder", ""))) <= 150 for c in every)
        assert reachable(every) == set(panel.legal), panel.legal
    assert seen == {"buccaneer", "raid_place"}


def test_piracy_is_one_menu_per_loaded_ship_keep_0_to_3() -> None:
    panel = next(
        p
        for p in panels(("buccaneer",))
        if sum(c.endswith(".3") and c.startswith("bu.piracy.") for c in p.legal) >= 1
    )
    every = controls(panel)
    menus = {
        str(c["custom_id"]): c
        for c in every
        if str(c.get("custom_id", "")).startswith("gs:7:42:piracy_")
    }
    loaded = [i for i, s in enumerate(panel.view["ships"]) if s["count"]]
    assert sorted(int(k.rsplit("_", 1)[1]) for k in menus) == loaded
    for index in loaded:
        menu = menus[f"gs:7:42:piracy_{index}"]
        ship = panel.view["ships"][index]
        keep = min(3, ship["count"])
        assert [o["value"] for o in menu["options"]] == [
            f"bu.piracy.{index}.{n}" for n in range(keep + 1)
        ]
        assert menu["placeholder"].startswith(
            f"Piracy on ship {index + 1} ({ship['count']} {ship['good']}): keep how many?"
        )
        last = menu["options"][-1]["label"]
        lost = ship["count"] - keep
        assert last == (
            f"Keep {keep} {ship['good']} — {lost} barrel"
            f"{'s' if lost != 1 else ''} back to the supply"
            if lost
            else f"Keep all {keep} {ship['good']}"
        )
    buttons = {
        str(c["custom_id"]).split(":", 3)[3]: c["label"]
        for c in every
        if str(c.get("custom_id", "")).startswith("g:7:42:")
    }
    assert buttons["bu.raid"].startswith("Raid: ")
    captures = [c for c in panel.legal if c.startswith("bu.capture.")]
    assert captures and all(buttons[c].startswith("Capture the ") for c in captures)
    texts = " ".join(str(c.get("content", "")) for c in every)
    assert "**Piracy**" in texts and "**Capture**" in texts


def test_the_raid_places_and_their_pass() -> None:
    panel = next(panels(("raid_place",)))
    every = controls(panel, "es")
    texts = " ".join(str(c.get("content", "")) for c in every)
    assert "Coloca tu" in texts and "nunca en San Juan" in texts
    labels = {
        str(c["custom_id"]).split(":", 3)[3]: c.get("label")
        for c in every
        if str(c.get("custom_id", "")).startswith("g:7:42:")
    }
    assert labels.pop("pass") == "Devolver el resto a la reserva"
    assert labels and all(str(v).startswith("Colono del asalto en ") for v in labels.values())


def test_the_decision_commands_offer_the_new_codes() -> None:
    """``/pr buccaneer`` takes the four options, ``/pr raid`` the places; ``/pr role`` the
    Buccaneer card; ``/pr pass`` the pass of raid_place."""
    decisions = {d.name: d for d in PR.decisions}
    assert decisions["buccaneer"].matches("bu.capture.mayor")
    assert decisions["buccaneer"].matches("bu.piracy.0.3") and decisions["buccaneer"].matches(
        "bu.plunder"
    )
    assert decisions["raid"].matches("raid.harbor") and not decisions["raid"].matches("bu.raid")
    assert decisions["role"].matches("r.buccaneer")
    for panel in panels(("buccaneer", "raid_place")):
        for code in panel.legal:
            assert sum(d.matches(code) for d in PR.decisions) == 1, code
    for lang in ("en", "es"):
        assert PR.catalog.t(lang, "cmd.buccaneer.name") in ("buccaneer", "bucanero")
        assert PR.catalog.t(lang, "cmd.raid.name") in ("raid", "asalto")


def test_the_table_shows_the_buccaneer_card_as_a_role_button() -> None:
    view = GAME.view(GAME.setup({"players": 5, "modules": MODULES}, 3), None)
    buttons = PR.role_buttons(view)
    assert ("r.buccaneer", None) in buttons and len(buttons) == 9
