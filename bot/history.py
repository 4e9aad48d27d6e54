"""A game's history as the service keeps it: every action committed through here, the end of
the log kept in memory for the table's last lines, the public board at the end of each role
phase (the story's boards, without replaying the log), and the replay file.

The storage's log is the truth; what is kept here only spares reading or replaying it, and is
dropped whenever the game changed otherwise (an undo, a hand-over, another process): the next
read sees a version it does not know and reads the log again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, Game
from storage import ActionRecord, GameRecord, Storage

from .changes import PhaseEnd
from .errors import UserError
from .gamelog import chose_role, phase_actions, phase_end_points, phase_events, views_after
from .games import presenter_for

PHASE_VIEWS = 512  # phase-end views kept for the story (one or two per game in progress)
LOG_TAIL = 120  # actions read with each update: the current phase's highlights and the log lines
KEPT_TAILS = 1024  # games whose end of the log is kept in memory (:meth:`History.recent`)


def hidden(action: ActionRecord) -> bool:
    """Whether an event of ``action`` shows the table something else than its seat."""
    return any(e.get("private_to") is not None and e.get("public_data") != e.get("data")
               for e in action.events)


class History:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._phase_views: OrderedDict[tuple[int, int], Mapping[str, Any]] = OrderedDict()
        """The public view right after each action that ended a role phase, by (game, seq),
        kept from the change that played it until its story is told: the story needs no replay
        of the log from the start (:meth:`phase_ends`).  A ``seq`` is never reused."""
        self._tails: OrderedDict[int, tuple[int, tuple[ActionRecord, ...]]] = OrderedDict()
        """The end of each game's log with the version it is the end of (:meth:`recent`)."""

    async def commit(self, game: Game[Any], record: GameRecord, seat: int, code: str,
                     state: Any, events: Sequence[Event], *, user_id: int | None = None
                     ) -> GameRecord:
        """Store the action ``code`` of ``seat`` played on ``record`` (its version checked:
        ``StaleVersion`` if another writer won) with the state and events it led to, and keep
        it at the end of the log in memory; ``user_id``: the person who chose it (``None``: an
        AI seat's or a forced move).  The game as it stands after it."""
        result = await self.storage.games.commit_action(
            record.id, expected_version=record.version, seat=seat, code=code, state=state,
            events=events, user_id=user_id)
        after = result.record
        kept = self._tails.pop(after.id, None)
        if kept is not None and kept[0] == record.version:  # the log at ``record``: extend it
            self._tails[after.id] = (after.version, tuple(
                a for a in (*kept[1], result.action) if a.seq > after.seq - LOG_TAIL))
        if any(e.type == "PhaseEnded" for e in events):
            self._phase_views[(after.id, after.seq)] = game.view(state, None)
            while len(self._phase_views) > PHASE_VIEWS:
                self._phase_views.popitem(last=False)
        return after

    async def recent(self, record: GameRecord) -> tuple[ActionRecord, ...]:
        """The end of ``record``'s log: its last :data:`LOG_TAIL` actions that count, oldest
        first.  Kept in memory while only this service's commits change the game: any other
        change (an undo, a hand-over, another process) gives the game another version, and the
        next call reads the log again."""
        kept = self._tails.get(record.id)
        if kept is not None and kept[0] == record.version:
            self._tails.move_to_end(record.id)
            return kept[1]
        tail = tuple(await self.storage.games.actions(
            record.id, after_seq=max(0, record.seq - LOG_TAIL)))
        self._tails[record.id] = (record.version, tail)
        while len(self._tails) > KEPT_TAILS:
            self._tails.popitem(last=False)
        return tail

    def _tail_tells(self, record: GameRecord, tail: Sequence[ActionRecord],
                    ends: Sequence[int], ended: int) -> bool:
        """Whether the end of the log (:meth:`recent`) tells the last ``ended`` phases without
        the whole log: they all ended in it, the round of the first began in it (a phase's
        board takes the round's role choices back from the log) and the view at each end was
        kept when it was played (no replay from the start)."""
        if len(ends) < ended or not ends:
            return False
        if record.seq > LOG_TAIL and not any(
                e.get("type") == "RoundEnded" for a in tail[: ends[0]] for e in a.events):
            return False
        return all((record.id, tail[i].seq) in self._phase_views for i in ends)

    async def phase_ends(
        self, record: GameRecord, game: Game[Any], ended: int, view: Mapping[str, Any],
        whole: Sequence[ActionRecord] | None = None,
    ) -> list[PhaseEnd]:
        """The last ``ended`` phase ends of the log, each with the public board as it stood
        when the phase ended (kept when it was played, else replayed from the log; the current
        view when nothing happened since) and that phase's round, no image yet.  ``whole``: the
        whole log, when the caller has it."""
        log_all: Sequence[ActionRecord] = whole if whole is not None else await self.recent(
            record)
        points = phase_end_points(log_all)[-ended:]
        if whole is None and not self._tail_tells(record, log_all,
                                                  sorted({i for i, _ in points}), ended):
            log_all = await self.storage.games.actions(record.id)
            points = phase_end_points(log_all)[-ended:]
        if not points or record.seed is None:
            return []
        ends = sorted({i for i, _ in points})
        last = len(log_all) - 1
        replay_at = [i for i in ends if i != last or view.get("game_over")]
        views = {i: v for i in replay_at
                 if (v := self._phase_views.pop((record.id, log_all[i].seq), None)) is not None}
        replay_at = [i for i in replay_at if i not in views]  # not played here (a restart...)
        if replay_at:  # a replay of the log: in a thread, the loop keeps answering
            views.update(zip(replay_at, await asyncio.to_thread(
                views_after, game, record.options, record.seed, log_all, replay_at),
                strict=True))
        presenter = presenter_for(record.game)
        openers = presenter.phase_openers
        out = []
        for index, part in points:
            action = log_all[index]
            end = [Event.from_json(e) for e in action.events
                   if e.get("type") == "PhaseEnded"][part]
            at_end = presenter.view_at_phase_end(views.get(index, view), log_all, index, part)
            start = phase_actions(log_all, index, ended=True, part=part, openers=openers)[0]
            out.append(PhaseEnd(
                action.seq, str(end.data.get("role", "")), end.seat, int(at_end.get("round", 1)),
                at_end, tuple(phase_events(log_all, index, to_phase_end=True, part=part,
                                           openers=openers)),
                None, start.seq if chose_role(start, openers) else None, part,
            ))
        return out

    async def replay_file(self, game_id: int) -> tuple[GameRecord, dict[str, Any]]:
        """The game's replay file (``{"game", "options", "seed", "actions"}``, the format of
        ``python -m engine replay``): the actions that count, in order; the seed only once the
        game is over (it would tell every draw to come).  While a game is played, one whose
        moves carry hidden information (a San Juan payment names the cards paid) is refused:
        an action is hidden when an event of it reads otherwise for the table than for its
        seat."""
        record = await self.storage.games.get(game_id)
        if record.seed is None:
            raise UserError("err.export_not_started", game=record.id)
        log_all = await self.storage.games.actions(record.id)
        over = not record.status.is_open
        if not over and any(hidden(a) for a in log_all):
            raise UserError("err.export_hidden", game=record.id)
        return record, {
            "game": record.game,
            "options": record.options,
            "seed": record.seed if over else None,
            "actions": [[a.seat, a.code] for a in log_all],
        }
