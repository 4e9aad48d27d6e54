"""The log of Puerto Rico's Exp. 2, the Nobles, in English and Spanish (the 2020 names): a
line for every new event and reason (the nobles gained from the ship, the Villa and a Raid, the
ship's refill and Raid with nobles, the Land office's purchase and sale, the Hunting lodge's
discard, the Royal supplier's trade, the Chapel's, Jeweler's and Hunting lodge's doubloons and VP
chips, the offers declined); VP chips by their public amount, never a total; whole games' logs
and the table at their phase ends without an id or a "?" (rules spec §11)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.gamelog import phase_ends, views_after
from bot.games.puerto_rico.gamelog import PrLogWriter
from bot.i18n import LANGUAGES
from engine.core import Event
from engine.policies import make_policy
from storage import ActionRecord
from tests.bot.puerto_rico.test_pr_nobles_words import (
    ALL_MODULES,
    ENGLISH_IN_SPANISH,
    GAME,
    LEAK,
    NAMES,
    NEW_EVENTS,
    NEW_REASONS,
    PR,
    played,
    reason,
)

AT = datetime(2024, 5, 1, tzinfo=UTC)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_event_makes_a_line(lang: str) -> None:
    _, events, _ = played()
    writer = PrLogWriter(NAMES, lang)
    seen = set()
    for event in events:
        if event.type in NEW_EVENTS or reason(event) in NEW_REASONS:
            line = writer.event_line(event)
            assert line and not LEAK.search(line), (lang, event, line)
            assert lang != "es" or not ENGLISH_IN_SPANISH.search(line), line
            seen.add(event.type)
    assert seen >= NEW_EVENTS


def test_log_lines_in_both_languages() -> None:
    en, es = PrLogWriter(NAMES, "en"), PrLogWriter(NAMES, "es")

    def lines(kind: str, seat: int | None, data: dict[str, Any]) -> tuple[str, str]:
        event = Event(kind, seat, data)
        return str(en.event_line(event)), str(es.event_line(event))

    assert lines("NobleGained", 1, {"target": "san_juan", "source": "ship", "by": "mayor"}) == (
        "bob took the noble from the colonist ship.",
        "bob tomó el noble del barco de colonos.",
    )
    assert lines("NobleGained", 0, {"target": "san_juan", "source": "supply", "by": "villa"}) == (
        "alice's Villa: a noble from the supply in San Juan.",
        "Villa de alice: un noble de la reserva en San Juan.",
    )
    assert lines("NobleGained", 2, {"target": "chapel", "source": "ship", "by": "raid"})[0] == (
        "carol placed a raided noble on the Chapel."
    )
    assert lines("ColonistGained", 3, {"target": "san_juan", "source": "supply", "by": "villa"})[
        1
    ] == ("Villa de dave: no quedan nobles, un colono en San Juan.")
    assert lines("ColonistShipRefilled", None, {"count": 3, "needed": 4, "nobles": 1}) == (
        "The colonist ship now carries 3 colonists and a noble.",
        "El barco de colonos lleva ahora 3 colonos y un noble.",
    )
    assert lines("ColonistShipRefilled", None, {"count": 4, "needed": 4, "nobles": 0})[0] == (
        "The colonist ship now carries 4 colonists."
    )
    assert lines("ColonistShipRaided", 1, {"removed": 4, "kept": 2, "nobles": 1})[0] == (
        "bob raided the colonist ship: 4 pieces taken off, 2 to place at once, 1 noble among them."
    )
    assert lines("PlantationTaken", 4, {"tile": "indigo", "source": "land_office", "price": 1}) == (
        "erin bought an indigo plantation with their Land office for 1 doubloon.",
        "erin compró una plantación de añil con su Registro por 1 doblón.",
    )
    assert lines("PlantationSold", 0, {"tile": "corn", "price": 1, "displaced": "noble"}) == (
        "alice sold a corn plantation with their Land office for 1 doubloon. Its noble goes to "
        "San Juan.",
        "alice vendió una plantación de maíz con su Registro por 1 doblón. Su noble va a San Juan.",
    )
    assert lines("PlantationSold", 0, {"tile": "forest", "price": 1, "displaced": None})[0] == (
        "alice sold a forest with their Land office for 1 doubloon."
    )
    assert lines(
        "PlantationDiscarded", 2, {"tile": "sugar", "by": "hunting_lodge", "displaced": "colonist"}
    ) == (
        "carol discarded a sugar plantation with their Hunting lodge. Its colonist goes to San "
        "Juan.",
        "carol descartó una plantación de azúcar con su Refugio de caza. Su colono va a San Juan.",
    )
    assert lines("GoodsTraded", 1, {"goods": ["corn", "coffee"], "by": "royal_supplier"}) == (
        "bob traded corn and coffee with their Royal supplier.",
        "bob cambió maíz y café con su Proveedor real.",
    )
    assert lines("OfferDeclined", 1, {"offer": "royal_supplier"})[0] == (
        "bob traded nothing with their Royal supplier."
    )
    assert lines("OfferDeclined", 2, {"offer": "hunting_lodge"})[1] == (
        "carol no descartó nada con su Refugio de caza."
    )
    assert lines("DoubloonsEarned", 0, {"amount": 3, "reason": "jeweler"}) == (
        "alice earned 3 doubloons with the Jeweler.",
        "alice ganó 3 doblones con el Joyero.",
    )
    assert lines("DoubloonsEarned", 0, {"amount": 1, "reason": "chapel"})[1] == (
        "alice ganó 1 doblón con la Capilla."
    )


def test_vp_chips_are_told_by_their_amount_never_a_total() -> None:
    """The ruling beside ``gain_vp``: a VP chip's amount is public, a player's total hidden;
    the public form of each Exp. 2 VpEarned names its building."""
    for why, en, es in (
        ("chapel", "bob took 1 VP chip for the Chapel.", "bob tomó 1 ficha de PV por la Capilla."),
        (
            "hunting_lodge",
            "bob took 2 VP chips for the Hunting lodge (most empty island spaces).",
            "bob tomó 2 fichas de PV por el Refugio de caza (más espacios vacíos en la isla).",
        ),
        (
            "royal_supplier",
            "bob took 2 VP chips for the Royal supplier.",
            "bob tomó 2 fichas de PV por el Proveedor real.",
        ),
    ):
        amount = 1 if why == "chapel" else 2
        private = Event(
            "VpEarned",
            1,
            {"amount": amount, "reason": why},
            private_to=1,
            public_data={"amount": amount, "reason": why},
        )
        public = private.for_viewer(None)
        assert public is not None and public.data == {"amount": amount, "reason": why}
        assert PrLogWriter(NAMES, "en").event_line(public) == en
        assert PrLogWriter(NAMES, "es").event_line(public) == es


def whole_game(seed: int, players: int, modules: list[str]) -> list[ActionRecord]:
    """A seeded random game's log as the bot stores it (seats 0 and 1 people, the others AI)."""
    state = GAME.setup({"players": players, "modules": modules}, seed)
    policy = make_policy("random", "puerto-rico", seed)
    log: list[ActionRecord] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        log.append(
            ActionRecord(
                1,
                len(log) + 1,
                seat,
                GAME.encode_action(action),
                100 + seat if seat < 2 else None,
                AT,
                tuple(e.to_json() for e in events),
            )
        )
    return log


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_games_logs_and_phase_ends_have_no_ids(lang: str) -> None:
    """The story's lines of whole games with the Nobles, alone and with the three other
    modules, and the table as it stood at its phase ends: every line in words."""
    for seed, players, modules in ((3, 3, ["nobles"]), (4, 4, ALL_MODULES), (5, 2, ALL_MODULES)):
        log = whole_game(seed, players, modules)
        names = {seat: NAMES[seat] for seat in range(players)}
        writer = PR.log_writer(names, lang, humans=(0, 1))
        lines = writer.lines(log)
        assert len(lines) > 300
        assert not [line for line in lines if LEAK.search(line)], lang
        assert any(("nobre" if lang == "pt" else "noble") in line for line in lines)
        ends = phase_ends(log)[::7]
        options = {"players": players, "modules": modules}
        for end, view in zip(ends, views_after(GAME, options, seed, log, ends), strict=True):
            board = PR.view_at_phase_end(view, log, end)
            fields = dict(PR.summary(board, names, lang))
            assert all(not LEAK.search(v.replace("?", "")) for v in fields.values())
