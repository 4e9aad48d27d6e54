"""Paces as ``/game new`` takes them and banks as the lobby and the table show them
(issue #35; bot/banks.py), in the three languages."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from bot.banks import (
    LOW_MS,
    banks_line,
    chosen_pace,
    chosen_quiet,
    describe,
    describe_quiet,
    own_bank,
    quiet_window,
    server_quiet,
    zone_choices,
)
from bot.errors import UserError
from bot.i18n import CATALOG
from bot.presenters import lobby_embed
from storage import GameRecord, GameStatus, SeatRecord
from storage.timebank import DAY_MS, HOUR_MS, PRESETS, Pace, Quiet

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
NAMES = {0: "ana", 1: "bob", 2: "AI 3 (normal)"}


def record(pace: Pace | None, banks: tuple[int | None, ...], waiting: int | None = None,
           *, status: GameStatus = GameStatus.ACTIVE, at: datetime = T0) -> GameRecord:
    seats = tuple(
        SeatRecord(n, None if bank is None else 100 + n, "heuristic" if bank is None else None,
                   T0, waiting_since=T0 if n == waiting else None,
                   waiting_version=1 if n == waiting else None, bank_ms=bank)
        for n, bank in enumerate(banks))
    return GameRecord(7, "puerto-rico", {"players": len(seats)}, 1, status, 3, 2, 5, 10, 100,
                      "en", T0, at, T0, T0, None, seats=seats, pace=pace)


# --- /game new ----------------------------------------------------------------------------------


def test_the_presets_and_unlimited() -> None:
    assert chosen_pace(None) is None
    assert chosen_pace("unlimited") is None
    for name, pace in PRESETS.items():
        assert chosen_pace(name) == pace
    assert PRESETS["normal"] == Pace("normal", 3 * DAY_MS, DAY_MS, 5 * DAY_MS)  # issue #35


def test_custom_figures_make_a_custom_pace_and_the_rest_are_the_normal_paces() -> None:
    assert chosen_pace(None, bank_days=2) == Pace("custom", 2 * DAY_MS, DAY_MS, 5 * DAY_MS)
    assert chosen_pace("custom", increment_hours=6) == Pace(
        "custom", 3 * DAY_MS, 6 * HOUR_MS, 5 * DAY_MS)
    assert chosen_pace("custom", bank_days=7, increment_hours=0, cap_days=7) == Pace(
        "custom", 7 * DAY_MS, 0, 7 * DAY_MS)
    assert chosen_pace("custom", bank_days=9) == Pace("custom", 9 * DAY_MS, DAY_MS, 9 * DAY_MS)


@pytest.mark.parametrize(("args", "key"), [
    (("fast", 2, None, None), "err.pace_figures_custom"),
    (("sometime", None, None, None), "err.bad_pace"),
    (("custom", 0, None, None), "err.pace_range"),
    (("custom", 61, None, None), "err.pace_range"),
    (("custom", None, 721, None), "err.pace_range"),
    (("custom", None, None, 91), "err.pace_range"),
    (("custom", 4, None, 3), "err.pace_cap"),
    (("custom", 1, 48, 1), "err.pace_cap"),
])
def test_a_pace_that_cannot_be_is_refused_saying_why(
        args: tuple[str, int | None, int | None, int | None], key: str) -> None:
    with pytest.raises(UserError) as refused:
        chosen_pace(*args)
    assert refused.value.key == key
    for lang in ("en", "es", "pt"):
        text = CATALOG.t(lang, key, **refused.value.fields)
        assert "{" not in text and len(text) < 300


# --- what people read ---------------------------------------------------------------------------


def test_the_lobby_says_the_pace_in_each_language() -> None:
    lobby = record(PRESETS["normal"], (None,), status=GameStatus.LOBBY)
    texts = {lang: "\n".join(str(f.value) for f in lobby_embed(lobby, lang, "heuristic").fields)
             for lang in ("en", "es", "pt")}
    assert "Pace: normal: 3d to start, +1d a move, at most 5d" in texts["en"]
    assert "Ritmo: normal: 3d al empezar, +1d por jugada, máximo 5d" in texts["es"]
    assert "Ritmo: normal: 3 dias no início, +1 dia por jogada, no máximo 5 dias" in texts["pt"]
    unlimited = lobby_embed(record(None, (None,), status=GameStatus.LOBBY), "en", "heuristic")
    shown = "\n".join(str(f.value) for f in unlimited.fields)
    assert "Pace: unlimited (no clock)" in shown and "Quiet time" not in shown  # no bank: moot
    assert describe(Pace("custom", DAY_MS, 0, DAY_MS), "en") == (
        "custom: 1d to start, +0 a move, at most 1d")


def test_the_table_shows_each_persons_bank_and_when_the_waiting_one_runs_out() -> None:
    game = record(PRESETS["fast"], (2 * DAY_MS, 11 * HOUR_MS, None), waiting=1,
                  at=T0 + timedelta(hours=1))
    out = int((T0 + timedelta(hours=11)).timestamp())
    assert banks_line(game, NAMES, "en") == (
        f"⏳ Time banks (fast): ana 2d · bob 🔴: runs out <t:{out}:R>")
    assert banks_line(game, NAMES, "es") == (
        f"⏳ Tiempo de reserva (rápido): ana 2d · bob 🔴: se agota <t:{out}:R>")
    later = banks_line(game, NAMES, "pt", now=T0 + timedelta(hours=12))
    assert later == "⏳ Bancos de tempo (rápido): ana 2 dias · bob: sem tempo"
    assert LOW_MS == 12 * HOUR_MS
    calm = record(PRESETS["fast"], (2 * DAY_MS, 11 * HOUR_MS, None), waiting=0)
    assert banks_line(calm, NAMES, "en") == (
        f"⏳ Time banks (fast): ana: runs out <t:{int((T0 + timedelta(days=2)).timestamp())}:R>"
        " · bob 🔴 11h")
    assert own_bank(calm, 0, "en") == (
        f"⏳ Your time bank runs out <t:{int((T0 + timedelta(days=2)).timestamp())}:R>"
        " unless you play")
    assert own_bank(calm, 1, "pt") == "⏳ O seu banco de tempo: 11 h"
    assert own_bank(calm, 2, "en") is None  # the AI seat
    assert banks_line(record(None, (None, None)), NAMES, "en") is None  # no pace, no line


# --- quiet time ---------------------------------------------------------------------------------


def test_quiet_hours_are_read_as_people_write_them() -> None:
    assert quiet_window("22-08") == (22 * 60, 8 * 60)
    assert quiet_window(" 23:30 – 7:05 ") == (23 * 60 + 30, 7 * 60 + 5)
    assert quiet_window("none") is None and quiet_window("ninguna") is None
    for bad in ("22", "25-08", "22:61-08", "8-8", "tonight"):
        with pytest.raises(UserError) as refused:
            quiet_window(bad)
        assert refused.value.key == "err.quiet_hours"


def test_a_games_quiet_time_and_the_servers() -> None:
    assert chosen_quiet(None, None, None, "Europe/Madrid") is None  # the server's applies
    assert chosen_quiet(None, True, None, "Europe/Madrid") == Quiet("Europe/Madrid", True)
    assert chosen_quiet("america/sao_paulo", None, "22-7", None) == Quiet(
        "America/Sao_Paulo", False, (22 * 60, 7 * 60))
    assert chosen_quiet(None, False, None, None) == Quiet("UTC")  # this game: none at all
    with pytest.raises(UserError) as refused:
        chosen_quiet("Mars/Base", None, None, None)
    assert refused.value.key == "err.time_zone"
    was = Quiet("Europe/Madrid", True, (60, 120))
    assert server_quiet(was, None, None, "none") == Quiet("Europe/Madrid", True)
    assert server_quiet(was, "Asia/Tokyo", False, None) == Quiet("Asia/Tokyo", False, (60, 120))
    assert server_quiet(None, None, True, None) == Quiet("UTC", True)
    assert "America/Sao_Paulo" in zone_choices("sao") and len(zone_choices("")) == 25
    assert zone_choices("europe/mad") == ["Europe/Madrid"]


def test_the_lobby_says_the_quiet_time() -> None:
    lobby = dataclasses.replace(
        record(PRESETS["normal"], (None,), status=GameStatus.LOBBY),
        quiet=Quiet("Europe/Madrid", True, (22 * 60, 8 * 60)))
    text = "\n".join(str(f.value) for f in lobby_embed(lobby, "es", "heuristic").fields)
    assert "Descanso: fines de semana y 22:00–08:00 (Europe/Madrid)" in text
    assert describe_quiet(None, "pt") == "nenhum (conta cada hora)"
    assert describe_quiet(Quiet("UTC"), "en") == "none (every hour counts)"


def test_a_waiting_seats_deadline_skips_the_quiet_time() -> None:
    friday = datetime(2026, 12, 4, 20, tzinfo=UTC)
    game = dataclasses.replace(
        record(PRESETS["fast"], (DAY_MS, None), waiting=0), quiet=Quiet("UTC", weekends=True))
    game = dataclasses.replace(game, seats=tuple(
        dataclasses.replace(s, waiting_since=friday if s.seat == 0 else None)
        for s in game.seats))
    monday = int(datetime(2026, 12, 7, 20, tzinfo=UTC).timestamp())
    assert own_bank(game, 0, "en") == f"⏳ Your time bank runs out <t:{monday}:R> unless you play"
