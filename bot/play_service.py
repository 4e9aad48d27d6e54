"""Playing a running game: a person's move (:meth:`PlayService.submit`), a seat handed to an AI,
a game moved to another channel.

One move, once the Discord side has parsed the click and deferred it, is a few named steps
under the game's lock (one change of a game at a time, in every process on the database):

* :meth:`PlayService.seated` and :meth:`PlayService.check_version` -- the game is running,
  the user is seated, and the click was drawn for this version (or still means what it meant:
  :meth:`PlayService.still_valid`);
* :meth:`PlayService.apply` -- the engine applies every code, all validated before anything
  is stored; a refusal says why with the seat's numbers (:mod:`bot.refusals`);
* :meth:`PlayService.commit` -- each step stored with the version it was applied to
  (``StaleVersion`` if another writer won, :meth:`bot.history.History.commit`);
* :meth:`bot.ai_turns.AiTurns.play` -- the forced decisions and the AI seats that follow;
* :meth:`bot.publishing.Publishing.publish` -- the table drawn and published, then the turn
  notices (the publisher's).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.core import Event, Game, GameOver, IllegalAction, NotYourTurn, get_game
from storage import (
    CHANNEL_GONE_KIND,
    DatabaseUnavailable,
    GameRecord,
    GameStatus,
    LoadedGame,
    NotActive,
    NotSeated,
    SeatRecord,
    StaleVersion,
    Storage,
)
from storage.handovers import Reason

from .ai_turns import AiTurns
from .changes import SubmitResult, TableUpdate, record_waiting
from .errors import UserError
from .games.contract import Situation
from .history import History
from .publishing import Publishing
from .refusals import situate
from .seats import AI_LEVELS, Actor, check_manager

log = logging.getLogger(__name__)

Step = tuple[str, Any, list[Event]]
"""One applied code: the code, the state after it and its events."""


class PlayService:
    def __init__(self, storage: Storage, history: History, publishing: Publishing,
                 ai: AiTurns) -> None:
        self.storage = storage
        self.history = history
        self.publishing = publishing
        self.ai = ai

    async def submit(
        self, game_id: int, user_id: int, expected_version: int | None, code: str | Sequence[str]
    ) -> SubmitResult:
        """Apply ``code`` for the seat of ``user_id``, drawn at ``expected_version``.

        Refused with ``StaleVersion`` when the game changed since, unless the change left this
        seat's decision as it was (:meth:`still_valid`: another seat's part of a simultaneous
        decision); ``NotSeated`` for a stranger; engine errors for an illegal move.
        ``expected_version=None`` (a slash command, typed for the game as it is now) skips the
        version check; legality is the engine's as always.  A sequence of codes (a whole Mayor
        arrangement) is applied in order for the same seat and committed only if every one is
        legal: the first illegal one is refused and nothing changes."""
        codes = [code] if isinstance(code, str) else list(code)
        if not codes:
            raise UserError("err.unknown_action")
        async with self.storage.db.lock(game_id):
            loaded = await self.storage.games.load(game_id)
            record, state = loaded.record, loaded.state
            mine = self.seated(record, user_id)
            game = get_game(record.game)
            actions = [game.decode_action(c) for c in codes]
            self.check_version(game, record, state, mine.seat, game.encode_action(actions[0]),
                               expected_version)
            steps = await self.apply(game, record, state, mine.seat, actions)
            current = await self.commit(game, record, mine.seat, steps, user_id)
            state, events = steps[-1][1], [e for _, _, new in steps for e in new]
            try:
                state, current, more = await self.ai.play(current, state)
            except DatabaseUnavailable as exc:  # the move is stored: the rest once it is back
                log.warning("game %s: the moves after v%s wait for the database (%s)", game_id,
                            current.version, exc)
                more = []
            update = await self.publishing.publish(
                current, state, [*events, *more], before=record_waiting(record), actor=user_id
            )
            return SubmitResult(current, mine.seat, steps[0][0], update)

    def seated(self, record: GameRecord, user_id: int) -> SeatRecord:
        """The seat of ``user_id`` in the running game ``record``: ``NotActive``,
        ``NotSeated``."""
        if record.status is not GameStatus.ACTIVE:
            raise NotActive(record.id, record.status)
        mine = record.seat_of(user_id)
        if mine is None:
            raise NotSeated(record.id, user_id=user_id)
        return mine

    def check_version(self, game: Game[Any], record: GameRecord, state: Any, seat: int,
                      code: str, expected_version: int | None) -> None:
        """``StaleVersion`` unless the click on ``code`` was drawn for this version
        (``expected_version``; ``None``: typed for the game as it is now) or still means what
        it meant then (:meth:`still_valid`)."""
        seen = record.version if expected_version is None else expected_version
        if record.version != seen and not self.still_valid(game, record, state, seat, code,
                                                           seen):
            raise StaleVersion(record.id, seen, record.version)

    async def apply(self, game: Game[Any], record: GameRecord, state: Any, seat: int,
                    actions: Sequence[Any]) -> list[Step]:
        """Every action applied in order for ``seat``, before anything is stored: the engine's
        refusal of any one of them carries the seat's situation (why, with its numbers)."""
        steps: list[Step] = []
        for action in actions:
            try:
                state, new = game.apply(state, seat, action)
            except NotYourTurn as exc:
                raise situate(UserError("err.not_your_turn", game=record.id), await
                              self.situation(game, record, state, seat,
                                             game.encode_action(action))) from exc
            except IllegalAction as exc:  # the refusal says why, with this seat's numbers
                situate(exc, await self.situation(game, record, state, seat,
                                                  game.encode_action(action)))
                raise
            except GameOver as exc:
                raise UserError("err.game_over", game=record.id) from exc
            steps.append((game.encode_action(action), state, new))
        return steps

    async def commit(self, game: Game[Any], record: GameRecord, seat: int,
                     steps: Sequence[Step], user_id: int) -> GameRecord:
        """Store each step of ``seat`` (chosen by ``user_id``), one commit each."""
        current = record
        for code, state, new in steps:
            current = await self.history.commit(game, current, seat, code, state, new,
                                                user_id=user_id)
        return current

    def still_valid(
        self, game: Game[Any], record: GameRecord, state: Any, seat: int, code: str, seen: int
    ) -> bool:
        """Whether an action drawn for the older version ``seen`` may still be applied now.

        It may when the click means exactly what it meant when its panel was drawn: the seat is
        still asked, and its own situation and legal choices are unchanged.  Precisely, all of:

        * ``0 <= seen < version`` (anything else is not a version this game showed before now);
        * the current prompt names the seat, and the seat's current wait began at or before
          ``seen`` (``SeatRecord.waiting_version``).  A wait ends when the seat acts (acting
          begins a new wait, even when the seat is named again) or stops being named, so the
          seat has been asked without a break since ``seen`` and has not acted since: a double
          click, or a panel drawn before the seat's own last move, is refused;
        * so every change since ``seen`` was another seat's action taken while the prompt named
          this seat too (or a seat changing hands, or such an action taken back).  Seats a
          prompt names together decide independently: that is the engine's contract for a
          prompt naming several seats (arranging colonists, choosing the barrels to keep), and
          each of them only touches its own board.  None of those changes touched this seat's
          board or its choices.  How many seats the prompt names *now* does not matter: once
          the others are done, the last one to confirm is named alone;
        * the action is legal now (the engine checks every action again when applying it).
        """
        prompt = game.prompt(state)
        if prompt is None or seat not in prompt.seats or not 0 <= seen < record.version:
            return False
        mine = record.seat(seat)
        if mine is None or mine.waiting_version is None or mine.waiting_version > seen:
            return False
        return code in {game.encode_action(a) for a in game.legal_actions(state, seat)}

    async def situation(self, game: Game[Any], record: GameRecord, state: Any, seat: int,
                        action: str | None = None) -> Situation:
        """What a refusal needs to say why (:mod:`bot.refusals`): the seat's view now."""
        prompt = game.prompt(state)
        legal = tuple(game.encode_action(a) for a in game.legal_actions(state, seat)) if (
            prompt is not None and seat in prompt.seats) else ()
        return Situation(record.id, seat, game.view(state, seat),
                         await self.publishing.names(record), legal, action, record.game)

    async def hand_to_ai(
        self,
        game_id: int,
        seat: int,
        level: str,
        *,
        user_id: int,
        waiting_since: datetime | None = None,
        reason: Reason = "left",
    ) -> TableUpdate:
        """Give ``seat`` of a running game to an AI playing ``level`` (its player left, the
        table voted, or their bank ran out: the ``reason`` the history keeps) and let the AI play
        at once if the game waits on it.  For ``timeout`` the AI stands in for the player until
        they come back (:meth:`come_back`); while no person is left at the table the stand-ins
        wait for one (:meth:`bot.ai_turns.AiTurns.choice`).

        Refused with ``UserError("err.seat_moved_on")`` when the seat is no longer
        ``user_id``'s or, with ``waiting_since``, no longer in that wait (its player played)."""
        if level not in AI_LEVELS:
            raise UserError("err.invalid_options", code="bad_ai_level")
        async with self.storage.db.lock(game_id):
            loaded = await self._running(game_id)
            record = loaded.record
            current = record.seat(seat)
            if current is None or current.user_id != user_id or (
                waiting_since is not None and current.waiting_since != waiting_since
            ):
                raise UserError("err.seat_moved_on", game=game_id)
            handed = await self.storage.games.replace_seat(
                game_id, seat, ai_policy=level, expected_version=record.version, reason=reason,
                stand_in_for=user_id if reason == "timeout" else None)
            log.info("game %s: seat %s of user %s to an AI (%s)", game_id, seat, user_id, reason)
            return await self._play_on(loaded, handed)

    async def come_back(self, game_id: int, user_id: int) -> TableUpdate:
        """``user_id`` takes back the seat an AI kept for them (``/game rejoin``, or any click
        of theirs on the game) from its next decision, with a bank of what the pace gives one
        move (:attr:`storage.timebank.Pace.comeback_ms`).  The stand-ins of a table that waited
        for a person play on.  ``UserError("err.not_stood_in")`` when no AI keeps a seat of
        this game for them."""
        async with self.storage.db.lock(game_id):
            loaded = await self._running(game_id)
            record = loaded.record
            seat = record.stand_in_of(user_id)
            if seat is None:
                raise UserError("err.not_stood_in", game=game_id)
            back = await self.storage.games.replace_seat(
                game_id, seat.seat, user_id=user_id, expected_version=record.version,
                reason="returned",
                bank_ms=None if record.pace is None else record.pace.comeback_ms)
            log.info("game %s: user %s took seat %s back", game_id, user_id, seat.seat)
            return await self._play_on(loaded, back)

    async def _running(self, game_id: int) -> LoadedGame:
        """The running game (under its lock): ``NotActive`` otherwise."""
        loaded = await self.storage.games.load(game_id)
        if loaded.record.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, loaded.record.status)
        return loaded

    async def _play_on(self, before: LoadedGame, handed: GameRecord) -> TableUpdate:
        """After a seat changed hands: the AI seats and forced decisions that follow, then
        the table."""
        state, handed, events = await self.ai.play(handed, before.state)
        return await self.publishing.publish(handed, state, events,
                                             before=record_waiting(before.record))

    async def move(self, game_id: int, actor: Actor, channel_id: int, guild_id: int | None
                   ) -> TableUpdate:
        """Continue in ``channel_id`` a game whose channel was deleted (its creator or a
        Manage Server holder, in a channel of the game's server): its table is posted there,
        and its story goes on in a thread started from it at the next phase's end.  The AI
        seats and forced decisions that waited meanwhile play.  ``UserError`` for a game that
        still has its channel or belongs to another server; ``ChannelBusy``."""
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            if record.guild_id != guild_id:
                raise UserError("err.move_other_server", game=game_id)
            check_manager(record, actor)
            if CHANNEL_GONE_KIND not in record.messages:
                raise UserError("err.move_not_gone", game=game_id, channel=record.channel_id)
            await self.storage.games.move_channel(game_id, channel_id, guild_id=guild_id)
            loaded = await self.storage.games.load(game_id)
            state, moved, events = await self.ai.play(loaded.record, loaded.state)
            log.info("game %s: moved from channel %s to %s", game_id, record.channel_id,
                     channel_id)
            return await self.publishing.publish(moved, state, events,
                                                 before=record_waiting(record))
