"""The in-game half of the game service: a player's private panel, undo, leaving a game, and
the read-only questions (status, log, a user's games).

Like the other parts of :mod:`bot.service` (whose history, drawing and publishing it uses),
this is where engine, storage and render meet; the Discord side only presents what comes back.
Every change runs under the game's lock and goes through the storage with the version the
caller saw.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from engine.advice import Advice
from engine.core import get_game
from engine.rng import seed_state
from storage import ActionRecord, GameRecord, GameStatus, NotActive, NotSeated, StaleVersion

from .changes import TableUpdate, record_waiting
from .errors import UserError
from .gamelog import LogWriter, phase_events
from .games import presenter_for
from .games.contract import Panel
from .seatnames import everyone
from .seats import takeover_level
from .service import GameService
from .undo import may_undo, plan_undo

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong AI's advice on a seat's decision: its panel (for the words) and the best
    choices with their figures, ranked by them (:mod:`engine.advice`)."""

    panel: Panel
    advice: Advice


HINT_CHOICES = 3


def hint_seed(game_id: int, seq: int, seat: int) -> int:
    """A hint's search seed: from the game's id and position, not from its secret seed (a
    hint must not depend on anything that decided the hidden cards)."""
    return seed_state(game_id * 1_000_003 + seq * 31 + seat) >> 1


def last_person(record: GameRecord, user_id: int) -> bool:
    """Whether ``user_id`` is the only person seated (an AI standing in for someone out of
    time keeps a person's seat): their leaving abandons the game (no result, nobody rated)
    instead of handing their seat to an AI."""
    return all(s.user_id in (None, user_id) and s.stand_in_for is None for s in record.seats)


class TurnService:
    def __init__(self, service: GameService) -> None:
        self.storage = service.storage
        self.catalog = service.catalog
        self.history = service.history
        self.publishing = service.publishing
        self.drawing = service.drawing
        self.play = service.play
        self.thinker = service.thinker

    # --- the private panel ------------------------------------------------------------------

    async def panel(self, game_id: int, user_id: int, *, render: bool = True) -> Panel:
        """The panel of ``user_id`` in ``game_id``: ``NotSeated`` for a stranger."""
        loaded = await self.storage.games.load(game_id)
        record, state = loaded.record, loaded.state
        if record.status is GameStatus.LOBBY or state is None:
            raise NotActive(game_id, record.status)
        mine = record.seat_of(user_id)
        if mine is None:
            raise NotSeated(game_id, user_id=user_id)
        game = get_game(record.game)
        seat = mine.seat
        view = game.view(state, seat)
        prompt = game.prompt(state)
        # a seat the prompt does not name may still have actions of any moment (1897's
        # Achievements are announced whenever their holder likes): the engine says which
        legal = game.legal_actions(state, seat) if prompt else []
        codes = tuple(game.encode_action(a) for a in legal)
        kind = prompt.kind if codes and prompt and seat in prompt.seats else None
        names = await self.publishing.names(record)
        recent = await self.history.recent(record)
        presenter = presenter_for(record.game)
        highlights = tuple(phase_events(recent, openers=presenter.phase_openers))
        panel = Panel(
            record, seat, view, kind, codes, names,
            extras=presenter.panel_extras(game, state, seat, view, codes, kind),
            highlights=highlights,
            can_undo=record.status is GameStatus.ACTIVE and may_undo(recent, user_id),
            recent=recent,
        )
        if render:
            image = await self.drawing.board(presenter.panel_view(panel, None), highlights,
                                             names, record.language)
            panel = dataclasses.replace(panel, image=image)
        return panel

    async def with_image(self, panel: Panel, draft: str | None = None, *,
                         language: str | None = None) -> Panel:
        """``panel`` with its board image (the seat's view: what only the seat sees); with a
        ``draft`` being arranged drawn on it (:meth:`GamePresenter.panel_view`).  The image
        speaks ``language``, the reader's (their panel's words are in it too), else the
        game's."""
        view = presenter_for(panel.record.game).panel_view(panel, draft)
        image = await self.drawing.board(view, panel.highlights, panel.names,
                                         language or panel.record.language)
        return dataclasses.replace(panel, image=image)

    # --- hints ------------------------------------------------------------------------------

    async def hint(self, game_id: int, user_id: int) -> Hint:
        """The strong AI's best choices for ``user_id``'s decision in ``game_id`` (a table with
        hints on, the seat asked, a real choice).  The search sees what the seat sees only: it
        deals everything else at random (:mod:`engine.advice`)."""
        loaded = await self.storage.games.load(game_id)
        record, state = loaded.record, loaded.state
        if record.status is not GameStatus.ACTIVE or state is None:
            raise NotActive(game_id, record.status)
        if record.seat_of(user_id) is None:
            raise NotSeated(game_id, user_id=user_id)
        if not record.hints:
            raise UserError("err.hints_off", game=game_id)
        panel = await self.panel(game_id, user_id, render=False)
        if panel.record.version != record.version:  # moved on meanwhile: the newer position
            return await self.hint(game_id, user_id)
        if panel.kind is None:
            raise UserError("err.hint_not_your_turn", game=game_id)
        if len(panel.legal) == 1:
            raise UserError("err.hint_forced", game=game_id)
        game = get_game(record.game)
        advice = await self.thinker.advise(
            record.game, game.dump(state), panel.seat,
            hint_seed(game_id, record.seq, panel.seat), HINT_CHOICES)
        return Hint(panel, advice)

    # --- undo and leaving -------------------------------------------------------------------

    async def undo(self, game_id: int, user_id: int, expected_version: int | None
                   ) -> TableUpdate:
        """Take back ``user_id``'s last decision (the rule: :mod:`bot.undo`)."""
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            if record.status is not GameStatus.ACTIVE or record.seed is None:
                raise NotActive(game_id, record.status)
            if record.seat_of(user_id) is None:
                raise NotSeated(game_id, user_id=user_id)
            if expected_version is not None and record.version != expected_version:
                raise StaleVersion(game_id, expected_version, record.version)
            game = get_game(record.game)
            history = await self.storage.games.actions(game_id)
            plan = plan_undo(game, record.options, record.seed, history, user_id,
                             game_id=game_id)
            result = await self.storage.games.undo_last(
                game_id, plan.count, expected_version=record.version, user_id=user_id)
            names = await self.publishing.names(record)
            lang = record.language or self.catalog.default
            what = self.writer(record, names, lang).lines([plan.decision], trailing=False)
            name = names.get(plan.decision.seat, "?")
            catalog = presenter_for(record.game).catalog
            # A decision with no public line (San Juan's payment, a card under the Chapel) is
            # never told by its code: the code may name the cards of a hand.
            note = (catalog.t(lang, "log.undone", name=name, what=" ".join(what)) if what
                    else catalog.t(lang, "log.undone_private", name=name))
            return await self.publishing.publish(result.record, result.state, [],
                                                 before=record_waiting(record), actor=user_id,
                                                 notes=(note,))

    async def leave(self, game_id: int, user_id: int) -> TableUpdate | None:
        """Give up one's seat of a running game: an AI takes it over and plays at once if the
        game waits on it.  When no person is left at the table, the game is abandoned and
        ``None`` is returned."""
        record = await self.storage.games.get(game_id)
        if record.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, record.status)
        mine = record.seat_of(user_id)
        if mine is None:
            raise NotSeated(game_id, user_id=user_id)
        if last_person(record, user_id):
            async with self.storage.db.lock(game_id):
                await self.storage.games.abandon(game_id)
            return None
        return await self.play.hand_to_ai(game_id, mine.seat, takeover_level(record),
                                          user_id=user_id, reason="left")

    # --- reading ----------------------------------------------------------------------------

    def writer(self, record: GameRecord, names: dict[int, str], lang: str) -> LogWriter:
        humans = [s.seat for s in record.seats if s.user_id is not None]
        return presenter_for(record.game).log_writer(names, lang, humans)

    async def log_lines(self, game_id: int, lang: str, *, last: int = 40
                        ) -> tuple[GameRecord, list[str]]:
        """The last ``last`` lines of a game's log in ``lang``."""
        record = await self.storage.games.get(game_id)
        actions: list[ActionRecord] = await self.storage.games.actions(
            game_id, after_seq=max(0, record.seq - 4 * last))
        names = await self.publishing.names(record)
        return record, self.writer(record, names, lang).lines(actions)[-last:]

    async def names(self, record: GameRecord) -> dict[int, str]:
        return await self.publishing.names(record)

    async def my_games(self, user_id: int) -> tuple[list[GameRecord], set[int]]:
        """``user_id``'s open games (latest first; then those where an AI keeps their seat
        while they are out of time) and the ids of those waiting on them."""
        games = [*await self.storage.games.list_for_user(user_id),
                 *await self.storage.games.list_stood_in(user_id)]
        waiting = {g.id for g in await self.storage.games.list_waiting_on(user_id)}
        return games, waiting

    async def finished(self, user_id: int, *, channel_id: int | None = None, limit: int = 3
                       ) -> list[GameRecord]:
        """``user_id``'s games that ended with a result lately (latest first), only those of
        ``channel_id`` when given."""
        games = await self.storage.games.list_for_user(
            user_id, statuses=(GameStatus.FINISHED,), limit=20 if channel_id else limit)
        if channel_id is not None:
            games = [g for g in games if g.channel_id == channel_id]
        return games[:limit]

    async def winners(self, record: GameRecord) -> list[str]:
        """The winners' names of a finished game (several on a shared victory)."""
        names = everyone(await self.publishing.names(record))  # all who held the seat
        return [names.get(int(w), "?") for w in (record.outcome or {}).get("winners", ())]

    async def check_seated(self, game_id: int, user_id: int) -> GameRecord:
        record = await self.storage.games.get(game_id)
        if record.seat_of(user_id) is None:
            raise NotSeated(game_id, user_id=user_id)
        if record.status is not GameStatus.ACTIVE:
            raise UserError("err.not_active", game=game_id, status=record.status)
        return record
