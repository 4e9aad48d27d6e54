"""The story of a game (issue #9): each role phase's post and image show that phase's round and
the board as it stood when the phase ended, even for the last phase of a round (whose action
also ends the round); the image says what ended instead of who is awaited; a round's post where
the story has no thread."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from discord.ui import TextDisplay

from bot.changes import PhaseEnd, TableUpdate
from bot.gamelog import phase_ends, public_events, views_after
from bot.games.puerto_rico.gamelog import PrLogWriter as LogWriter
from bot.games.puerto_rico.gamelog import view_at_phase_end
from bot.games.puerto_rico.words import puerto_rico_view
from bot.posting import closes_round, round_phases
from bot.rendering import STATUS
from bot.seats import Actor
from bot.service import GameService
from bot.table import TableMessages
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from render import layout_table
from storage import ActionRecord, GameRecord, GameStatus, Storage
from storage.records import SeatRecord
from tests.bot.test_service import FakePublisher, Keep, lobby

GAME = get_game("puerto-rico")
NAMES = {0: "ann", 1: "bo", 2: "cy"}


class Recording(FakePublisher):
    """Draws the story of every change, as the Discord publisher does."""

    def __init__(self) -> None:
        super().__init__()
        self.phases: list[PhaseEnd] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: NAMES[s.seat] for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        await super().publish_table(update)
        self.phases.extend(await update.ended_phases())


class Statuses:
    """A renderer that keeps the status line of each image it draws."""

    def __init__(self) -> None:
        self.drawn: list[tuple[Mapping[str, Any], str | None]] = []

    def __call__(self, view: Mapping[str, Any], events: Sequence[Event],
                 names: Mapping[int, str], labels: Mapping[str, str]) -> bytes:
        self.drawn.append((view, labels.get(STATUS)))
        return f"png {len(self.drawn)}".encode()


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


async def play(storage: Storage, *, humans: int = 3, ai: int = 0, rounds: int | None = None
               ) -> tuple[GameRecord, Recording, Statuses]:
    """A 3-seat game through the service, the people choosing as the heuristic does, until
    ``rounds`` rounds ended (or the end)."""
    publisher, renderer = Recording(), Statuses()
    svc = GameService(storage, publisher, rng=Keep(1), renderer=renderer)
    record = await lobby(svc, humans=humans, ai=ai, size=3)
    record = (await svc.start(record.id, Actor(1), record.version)).record
    for _ in range(3000):
        log = await storage.games.actions(record.id)
        if rounds is not None and sum(closes_round(a) for a in log) >= rounds:
            break
        loaded = await storage.games.load(record.id)
        prompt = GAME.prompt(loaded.state)
        if prompt is None:
            break
        seat = next(s for s in prompt.seats if loaded.record.seat(s).user_id)  # type: ignore
        policy = make_policy("heuristic", "puerto-rico", loaded.record.version)
        action = policy.choose(GAME, loaded.state, seat,
                               GAME.legal_actions(loaded.state, seat))
        user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
        assert user is not None
        await svc.submit(record.id, user, loaded.record.version, GAME.encode_action(action))
    svc.close()
    return await storage.games.get(record.id), publisher, renderer


def round_of_role_choices(log: Sequence[ActionRecord], seq: int) -> dict[str, int]:
    """card -> seat of the role choices of the round that the action ``seq`` belongs to."""
    at = next(i for i, a in enumerate(log) if a.seq == seq)
    begin = at
    while begin > 0 and not closes_round(log[begin - 1]):
        begin -= 1
    return {str(e.data["card"]): int(e.seat or 0) for a in log[begin : at + 1]
            for e in public_events(a) if e.type == "RoleChosen"}


async def test_the_last_phase_of_a_round_shows_its_round_and_its_board(storage: Storage
                                                                        ) -> None:
    """The post and the image of the round's last phase say round 1, and its board still has
    the round's role cards taken (the chosen one among them), not the next round begun."""
    record, publisher, renderer = await play(storage, rounds=1)
    log = await storage.games.actions(record.id)
    closing = next(a for a in log if closes_round(a))
    last = next(p for p in publisher.phases if p.seq == closing.seq)
    assert last.round == 1 and last.view["round"] == 1
    taken = {r["card"]: r["taken_by"] for r in last.view["roles"]}
    assert {c: s for c, s in taken.items() if s is not None} == round_of_role_choices(
        log, closing.seq)
    card = next(str(e.data["card"]) for a in log for e in public_events(a)
                if e.type == "RoleChosen" and a.seq <= last.seq and e.data["role"] == last.role
                and a.seq >= (last.chosen or 0))
    assert taken[card] == last.chooser
    assert last.view["governor"] == 0 and not last.view["game_over"]
    # Its post: "Round 1 · Captain (chosen by cy)", never round 2.
    draw = TableMessages(record, NAMES, "en")
    story, _ = draw.story([last], tuple(log), "https://x")
    text = "\n".join(i.content for i in story.walk_children() if isinstance(i, TextDisplay))
    assert f"### Round 1 · {draw.t(f'role.{last.role}')} (chosen by" in text
    assert "Round 2" not in text
    # Its image: that board, titled with what ended.
    view, status = next((v, s) for v, s in renderer.drawn if v is last.view)
    assert status is not None and status.startswith(f"Round 1 · the {draw.t(f'role.{last.role}')} "
                                                    "phase (chosen by ")
    assert status.endswith(") ended") and view["round"] == 1


async def test_no_two_phases_of_a_whole_game_share_a_round_and_a_title(storage: Storage) -> None:
    """A whole 3-seat game with two AI seats: every phase told once, under its own round,
    rounds in order, each round's phases each with a role of their own."""
    record, publisher, renderer = await play(storage, humans=1, ai=2)
    assert record.outcome is not None
    log = await storage.games.actions(record.id)
    phases = publisher.phases
    assert [p.seq for p in phases] == [log[i].seq for i in phase_ends(log)]
    titles = [(p.round, p.role) for p in phases]
    assert len(set(titles)) == len(titles)
    assert [p.round for p in phases] == sorted(p.round for p in phases)
    rounds = sum(closes_round(a) for a in log)
    assert {p.round for p in phases} == set(range(1, rounds + 1))
    statuses = [s for _, s in renderer.drawn if s is not None]
    assert len(statuses) == len(phases) == len(set(statuses))
    assert all(p.view["round"] == p.round and not p.view["game_over"] for p in phases)


def test_the_board_at_a_phase_end_takes_back_only_the_end_of_the_round() -> None:
    """For every phase end of a whole game: a phase that did not end the round is the view
    after its action; one that did is that view with the round's end taken back (round,
    Governor, role cards with who took them and their doubloons, the game not over)."""
    state = GAME.setup({"players": 4}, 11)
    log: list[ActionRecord] = []
    seq = 0
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = make_policy("heuristic", "puerto-rico", seq).choose(
            GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        seq += 1
        log.append(ActionRecord(1, seq, seat, GAME.encode_action(action), None,
                                datetime.now(UTC), tuple(e.to_json() for e in events)))
    ends = phase_ends(log)
    after = views_after(GAME, {"players": 4}, 11, log, ends)
    before = views_after(GAME, {"players": 4}, 11, log, [i - 1 for i in ends])
    closed = 0
    for index, view, previous in zip(ends, after, before, strict=True):
        at_end = view_at_phase_end(puerto_rico_view(view), log, index)
        if not closes_round(log[index]):
            assert at_end == view
            continue
        closed += 1
        assert at_end["round"] == previous["round"] and at_end["governor"] == previous["governor"]
        assert [p["is_governor"] for p in at_end["players"]] == [
            p["is_governor"] for p in previous["players"]]
        # the cards as before the last action, plus the role it chose (a Prospector) if any
        for card, was in zip(at_end["roles"], previous["roles"], strict=True):
            if was["taken_by"] is not None:
                assert card["taken_by"] == was["taken_by"]
            assert card["doubloons"] == (0 if card["taken_by"] is not None else was["doubloons"])
        assert at_end["players"] == [{**p, "is_governor": q["is_governor"]} for p, q in zip(
            view["players"], previous["players"], strict=True)]
        assert at_end["prompt"] is None and not at_end["game_over"] and "outcome" not in at_end
        assert at_end["active_role"] is not None and at_end["chooser"] is not None
    assert closed == sum(closes_round(a) for a in log) > 5


def test_the_image_title_says_what_ended_instead_of_who_is_awaited() -> None:
    state = GAME.setup({"players": 3}, 3)
    state, _ = GAME.apply(state, 0, GAME.decode_action("r.builder"))
    view = GAME.view(state, None)
    names = ["ann", "bo", "cy"]
    live = [t.text for t in layout_table(view, names=names).texts]
    assert any("Waiting for" in t for t in live)
    status = LogWriter(NAMES, "en").phase_ended(3, "builder", 0, None)
    assert status == "Round 3 · the Builder phase (chosen by ann) ended"
    scene = layout_table(view, names=names, status=status)
    texts = [t.text for t in scene.texts]
    assert status in texts and not any("Waiting for" in t for t in texts)
    assert "Builder phase · ann" not in texts and "status_line" in scene.regions
    long = LogWriter({0: "x" * 32}, "es").phase_ended(12, "craftsman", 0, None)
    assert long.startswith("Ronda 12 · terminó la fase del Capataz")
    wrapped = [t.text for t in layout_table(view, names=names, status=long).texts
               if len(t.text) > 20 and t.text in long]
    assert " ".join(wrapped) == long and len(wrapped) == 2  # on two lines, whole


def test_a_round_in_one_post_where_the_story_has_no_thread() -> None:
    """The round's phases, each with its title and lines, and the board at the round's end."""
    state = GAME.setup({"players": 3}, 5)
    log: list[ActionRecord] = []
    while not any(closes_round(a) for a in log):
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        action = make_policy("heuristic", "puerto-rico", len(log)).choose(
            GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None,
                                datetime.now(UTC), tuple(e.to_json() for e in events)))
    end = next(Event.from_json(e) for e in log[-1].events if e["type"] == "PhaseEnded")
    last = PhaseEnd(log[-1].seq, str(end.data["role"]), end.seat, 1, {}, (), b"png")
    phases, actions = round_phases(log, last)
    assert len(phases) == 3 and phases[-1] is last and actions == log
    draw = TableMessages(_record(), NAMES, "en")
    layout, files = draw.round_story(phases, actions, "https://x")
    text = "\n".join(i.content for i in layout.walk_children() if isinstance(i, TextDisplay))
    assert text.startswith("### Round 1\n**Round 1 · ")
    assert text.count("**Round 1 · ") == 3 and "chose the" in text
    assert [f.filename for f in files] == [f"game-4-round-1-{last.seq}.png"]


def _record() -> GameRecord:
    now = datetime.now(UTC)
    seats = tuple(SeatRecord(s, s + 1, None, now) for s in range(3))
    return GameRecord(4, "puerto-rico", {"players": 3}, 1, GameStatus.ACTIVE, 9, 9, 5, 10, 1,
                      "en", now, now, now, now, None, seats)
