"""History belongs to whoever acted at the time (issue #9): after a seat changes hands, the log
keeps naming the person for their own moves, names the AI for the moves after the hand-over,
says where the seat changed hands, and the final standings name both."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime

import pytest

from bot.changes import PhaseEnd
from bot.games.puerto_rico.catalog import CATALOG
from bot.games.puerto_rico.gamelog import PrLogWriter as LogWriter
from bot.i18n import LANGUAGES
from bot.seatnames import SeatNames, everyone, with_history
from bot.table import TableMessages
from engine import get_game
from engine.policies import make_policy
from storage import ActionRecord, GameRecord, GameStatus, SeatRecord
from storage.handovers import Reason, SeatHandover

GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)
BOB = 101
LEFT_AFTER = 30  # bob's seat (1) changes hands after the 30th action


def game_with_a_hand_over(players: int = 3, seed: int = 10, back_after: int | None = None
                          ) -> list[ActionRecord]:
    """A whole game as the bot logs it: seat 0 and 2 are people, seat 1 is bob up to action
    ``LEFT_AFTER`` and an AI afterwards (bob again after ``back_after``); a person's forced
    moves have no user."""
    state = GAME.setup({"players": players}, seed)
    policy = make_policy("heuristic", "puerto-rico", seed)
    out: list[ActionRecord] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        legal = GAME.legal_actions(state, seat)
        action = policy.choose(GAME, state, seat, legal)
        state, events = GAME.apply(state, seat, action)
        seq = len(out) + 1
        person = seat != 1 or seq <= LEFT_AFTER or (back_after is not None and seq > back_after)
        user = (100 + seat) if person and not (prompt.forced and len(legal) == 1) else None
        out.append(ActionRecord(1, seq, seat, GAME.encode_action(action), user, AT,
                                tuple(e.to_json() for e in events)))
    return out


def names(lang: str, reason: Reason = "left") -> SeatNames:
    ai = "AI 2 (normal)" if lang == "en" else "IA 2 (normal)"
    handover = SeatHandover(1, 1, LEFT_AFTER, BOB, None, None, "heuristic", reason, AT)
    return with_history({0: "alice", 1: ai, 2: "carol"}, [handover], lang,
                        people={100: "alice", BOB: "bob", 102: "carol"})


def own_lines(writer: LogWriter, actions: list[ActionRecord], seat: int) -> dict[int, list[str]]:
    """By action: the lines of ``seat``'s own events in its actions (not the hand-over's)."""
    told = {writer.handover_line(f) for f in writer.formers}
    # a phase's summary of who could do nothing names the others, not the seat that ended it

    summaries = [
        re.compile(".*".join(map(re.escape, text.split("{names}"))))
        for key, text in CATALOG.tables[writer.lang].items()
        if key.startswith("log.could_not.") and isinstance(text, str)]
    out: dict[int, list[str]] = {}
    for action in actions:
        if action.seat != seat:
            continue
        for event in action.events:
            if event.get("seat") == seat:
                one = dataclasses.replace(action, events=(event,))
                out.setdefault(action.seq, []).extend(
                    line for line in writer.lines([one], trailing=False)
                    if line not in told and not any(p.fullmatch(line) for p in summaries))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_person_keeps_their_moves_after_leaving_and_the_ai_gets_its_own(lang: str) -> None:
    log = game_with_a_hand_over()
    seat_names = names(lang)
    ai = seat_names[1]
    writer = LogWriter(seat_names, lang, humans=(0, 2))
    mine = own_lines(writer, log, 1)
    bob_lines = [line for seq, ls in mine.items() if seq <= LEFT_AFTER for line in ls]
    ai_lines = [line for seq, ls in mine.items() if seq > LEFT_AFTER for line in ls]
    assert bob_lines and ai_lines
    assert all("bob" in line and ai not in line for line in bob_lines)
    assert all(ai in line and "bob" not in line for line in ai_lines)
    # A role chosen by bob is bob's, one chosen by the AI is the AI's.
    role_word = {"en": "chose", "es": "eligió", "pt": "escolheu"}[lang]
    assert any(line.startswith(f"bob {role_word}") for line in bob_lines)
    assert any(line.startswith(f"{ai} {role_word}") for line in ai_lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hand_over_is_a_line_at_its_place_in_the_history(lang: str) -> None:
    log = game_with_a_hand_over()
    seat_names = names(lang)
    writer = LogWriter(seat_names, lang, humans=(0, 2))
    left = writer.t("log.handover_left", name="bob", next=seat_names[1])
    assert "bob" in left and seat_names[1] in left
    whole = writer.lines(log)
    assert whole.count(left) == 1
    before = writer.lines(log[:LEFT_AFTER], trailing=False)
    assert whole[: len(before)] == before and whole[len(before)] == left
    # A window of the log that ends right there tells it last (the table's tail, /game log) ...
    assert writer.lines(log[LEFT_AFTER - 3 : LEFT_AFTER])[-1] == left
    # ... one that starts right after tells it first; a phase's story or an undone move that
    # ends there does not.
    assert writer.lines(log[LEFT_AFTER : LEFT_AFTER + 3])[0] == left
    assert left not in writer.lines(log[LEFT_AFTER - 3 : LEFT_AFTER], trailing=False)
    assert left not in writer.lines(log[: LEFT_AFTER - 3], trailing=False)
    assert left not in writer.lines(log[LEFT_AFTER + 1 :])


def test_the_clock_takeover_says_it_was_a_vote() -> None:
    writer = LogWriter(names("en", "clock"), "en", humans=(0, 2))
    lines = writer.lines(game_with_a_hand_over()[LEFT_AFTER - 1 : LEFT_AFTER + 1])
    assert "By vote, AI 2 (normal) now plays the seat of bob." in lines
    spanish = LogWriter(names("es", "clock"), "es", humans=(0, 2))
    assert any(line.startswith("Por votación, IA 2 (normal)") and "bob" in line
               for line in spanish.lines(game_with_a_hand_over()[LEFT_AFTER - 1:LEFT_AFTER]))


def test_forced_moves_are_automatic_while_a_person_held_the_seat_only() -> None:
    """A forced move of bob's (no user) is "automatic"; the AI's moves never are."""
    log = game_with_a_hand_over()
    writer = LogWriter(names("en"), "en", humans=(0, 2))
    marked = [a.seq for a in log if a.seat == 1 and any(
        "(automatic)" in line for line in writer.lines([a], trailing=False))]
    forced_bob = [a.seq for a in log if a.seat == 1 and a.user_id is None
                  and a.seq <= LEFT_AFTER]
    assert forced_bob, "the game should hold a forced move of bob's"
    assert set(marked) <= set(forced_bob)
    assert marked


def test_without_history_the_names_are_the_seats_occupants() -> None:
    plain = {0: "alice", 1: "AI 2 (normal)", 2: "carol"}
    assert everyone(plain) is plain
    writer = LogWriter(plain, "en", humans=(0, 2))
    assert all("bob" not in line for line in writer.lines(game_with_a_hand_over()))


def test_final_standings_and_story_name_everyone_at_their_time() -> None:
    seat_names = names("en")
    assert everyone(seat_names) == {0: "alice", 1: "bob → AI 2 (normal)", 2: "carol"}
    again = with_history({0: "alice", 1: "dan", 2: "carol"}, [
        SeatHandover(1, 1, LEFT_AFTER, BOB, None, None, "heuristic", "left", AT),
        SeatHandover(1, 1, LEFT_AFTER + 10, None, "heuristic", 103, None, "replaced", AT),
    ], "en", people={BOB: "bob", 103: "dan"})
    assert again.everyone()[1] == "bob → AI 2 (normal) → dan"
    assert [again.at(1, s) for s in (LEFT_AFTER, LEFT_AFTER + 1, LEFT_AFTER + 11)] == [
        "bob", "AI 2 (normal)", "dan"]
    assert [f.successor for f in again.formers] == ["AI 2 (normal)", "dan"]
    record = GameRecord(
        id=1, game="puerto-rico", options={"players": 3}, seed=5, status=GameStatus.FINISHED,
        version=1, seq=1, guild_id=None, channel_id=None, creator_id=100, language="en",
        created_at=AT, updated_at=AT, started_at=AT, last_action_at=AT, finished_at=AT,
        seats=(SeatRecord(0, 100, None, AT), SeatRecord(1, None, "heuristic", AT),
               SeatRecord(2, 102, None, AT)))
    messages = TableMessages(record, seat_names, "en")
    outcome = {"scores": [{"seat": s, "rank": s + 1, "total": 40 - s, "tiebreak": 3,
                           "breakdown": {"chips": 20, "buildings": 20 - s}} for s in range(3)],
               "winners": [1], "end_reasons": ["vp_chips"]}
    standings = messages.standings(outcome)
    assert "**bob → AI 2 (normal)**" in standings[1]
    log = game_with_a_hand_over()
    role_by_bob = next(a for a in log if a.seat == 1 and a.code.startswith("r.")
                       and a.seq <= LEFT_AFTER)
    phase = PhaseEnd(LEFT_AFTER + 5, "settler", 1, 2, {}, (), None)
    assert "(chosen by bob)" in messages.phase_title(phase, role_by_bob.seq)
    assert "(chosen by AI 2 (normal))" in messages.phase_title(phase, LEFT_AFTER + 1)


@pytest.mark.parametrize("players", [2, 5])
def test_the_score_sheet_names_everyone_who_held_a_seat_legibly(players: int) -> None:
    """The combined name fits its column, whole, on lines of at least 11 px on a phone."""
    from render import layout_scoresheet
    from render.scoresheet import name_lines
    from tests.render.helpers import problems

    handed = with_history(
        {s: f"AI {s + 1} (normal)" if s % 2 else f"player{s}" for s in range(players)},
        [SeatHandover(1, s, 10 * s, 200 + s, None, None, "heuristic", "left", AT)
         for s in range(1, players, 2)]
        + [SeatHandover(1, 0, 3, 300, None, 301, None, "replaced", AT)],
        "en", people={200 + s: name for s, name in enumerate(
            ["", "bob", "", "Maximilian von Habsburg-Lothringen", ""])} | {300: "Zoë Ñúñez"})
    names = everyone(handed)
    assert names[1] == "bob → AI 2 (normal)" and names[0] == "Zoë Ñúñez → player0"
    outcome = {"scores": [{"seat": s, "rank": s + 1, "total": 40 - s, "tiebreak": 3,
                           "breakdown": {"chips": 20, "buildings": 20 - s}}
                          for s in range(players)], "winners": [1],
               "end_reasons": ["vp_chips"]}
    scene = layout_scoresheet(outcome, game="puerto-rico", names=names)
    assert problems(scene) == []
    for seat in range(players):
        region = scene.regions[f"score:{seat}:name"]
        written = [t for t in scene.texts if region.contains(t.box)]
        assert written and all(t.size >= 20 for t in written)  # 11 px at 550 px wide
        if seat in (0, 1):  # short names are written whole, each player from a new line
            assert " ".join(t.text for t in written) == names[seat]
    bob = [t.text for t in scene.texts if scene.regions["score:1:name"].contains(t.box)]
    assert bob[0] == "bob →"
    words = " ".join(t.text for t in scene.texts)
    assert "bob → AI 2 (normal)" in words  # the winner's line
    assert len(name_lines("Maximilian von Habsburg-Lothringen → AI 4 (normal)", 115)) <= 3


BACK_AFTER = 60  # in the stand-in story, bob takes his seat back after the 60th action


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_stand_in_is_named_for_the_person_it_plays_for(lang: str) -> None:
    """bob ran out of time after action 30 (an AI stood in) and came back after action 60: the
    moves between are the stand-in's ("AI for bob"), the ones after are bob's again, and the
    log says both hand-overs where they happened."""
    log = game_with_a_hand_over(back_after=BACK_AFTER)
    out = SeatHandover(1, 1, LEFT_AFTER, BOB, None, None, "heuristic", "timeout", AT)
    back = SeatHandover(1, 1, BACK_AFTER, None, "heuristic", BOB, None, "returned", AT)
    seat_names = with_history({0: "alice", 1: "bob", 2: "carol"}, [out, back], lang,
                              people={100: "alice", BOB: "bob", 102: "carol"})
    stand_in = {"en": "AI for bob", "es": "IA por bob", "pt": "IA por bob"}[lang]
    assert seat_names.everyone()[1] == f"bob → {stand_in} → bob"
    writer = LogWriter(seat_names, lang, humans=(0, 1, 2))
    whole = writer.lines(log)
    timeout = writer.t("log.handover_timeout", name="bob", next=stand_in)
    returned = writer.t("log.handover_returned", name=stand_in, next="bob")
    assert whole.count(timeout) == 1 and whole.count(returned) == 1
    assert whole.index(timeout) < whole.index(returned)
    if lang == "en":
        assert timeout == ("bob's time bank ran out: AI for bob plays that seat until they come "
                           "back.")
        assert returned == "bob is back and plays their seat again."
    mine = own_lines(writer, log, 1)
    between = [line for seq, ls in mine.items() if LEFT_AFTER < seq <= BACK_AFTER for line in ls]
    after = [line for seq, ls in mine.items() if seq > BACK_AFTER for line in ls]
    assert between and after
    assert all(line.startswith(stand_in) for line in between if line.startswith(("AI", "IA")))
    assert any(line.startswith(stand_in) for line in between)
    assert not any(stand_in in line for line in after)

