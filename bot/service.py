"""The game service: the one place where engine, storage and render meet.

Cogs and components parse, defer, call a method here and present what comes back.  Every change
of a game runs under that game's ``asyncio.Lock`` and is committed through the storage with the
version the caller saw, so a double click or an outdated button is refused (``StaleVersion``)
instead of being applied twice.  After each commit the service lets the AI seats and the forced
decisions play until a person must decide, renders the public view off the event loop and hands
the result to a :class:`Publisher` (the Discord side: table message, turn notifications).

Refusals are :class:`bot.errors.UserError` (rules of the table) or the storage and engine errors
themselves; :mod:`bot.errors` words all of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import Event, Game, GameOver, IllegalAction, NotYourTurn, get_game
from engine.policies import make_policy
from storage import (
    CHANNEL_GONE_KIND,
    ActionRecord,
    CommitResult,
    DatabaseUnavailable,
    GameRecord,
    GameStatus,
    NotActive,
    NotSeated,
    StaleVersion,
    Storage,
)
from storage.handovers import Reason

from .errors import ChannelGone, PostingBlocked, PublishFailed, UserError
from .gamelog import (
    chose_role,
    phase_actions,
    phase_end_points,
    phase_events,
    views_after,
)
from .games import PACKAGES, presenter_for
from .games.contract import GamePresenter
from .i18n import CATALOG, Catalog
from .publishing import PUBLISH_WAIT, Publications
from .refusals import Situation, situate
from .rendering import Drawing, Renderer, ScoreRenderer
from .seatnames import SeatNames, escape_name, everyone
from .thinking import Thinker

if TYPE_CHECKING:
    from render.timelapse import Timelapse

log = logging.getLogger(__name__)

AI_LEVELS = ("random", "heuristic", "strong")  # stored as the seat's ai_policy
TAKEOVER_DEFAULT = "heuristic"
"""The level of a seat taken over at a table that names none (:func:`takeover_level`)."""
THINKING_LEVELS = frozenset({"strong"})
"""The levels whose decisions are searches: thought in :class:`Thinker`'s workers, after the
table is shown, never inside an interaction (:meth:`GameService._think_later`)."""
MAX_CLOCK_DAYS = 60
MAX_AUTOMATIC_STEPS = 5000  # a whole game is ~1000 actions; this only stops a runaway loop
PHASE_VIEWS = 512  # phase-end views kept for the story (one or two per game in progress)
LOG_TAIL = 120  # actions read with each update: the current phase's highlights and the log lines
KEPT_TAILS = 1024  # games whose end of the log is kept in memory (:meth:`GameService.recent`)
# a game whose AI seat has been asked that long is stuck: its move failed
# (:meth:`GameService.resume_stalled`)
STALLED_AFTER = timedelta(minutes=2)
BEHIND_FINISHED = timedelta(days=7)
"""How long after its end a game whose last table failed to show is still published again."""

@dataclass(frozen=True, slots=True)
class Actor:
    """Who clicked: the user and whether they hold Manage Server where the game is."""

    user_id: int
    can_manage: bool = False


def _hidden(action: ActionRecord) -> bool:
    """Whether an event of ``action`` shows the table something else than its seat."""
    return any(e.get("private_to") is not None and e.get("public_data") != e.get("data")
               for e in action.events)


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """A game as it stands after a change, ready to be shown in its channel."""

    record: GameRecord
    view: dict[str, Any]
    """The public view (``game.view(state, None)``)."""
    events: tuple[Event, ...]
    """Public forms of the events of this change (for highlights and the log)."""
    names: dict[int, str]
    image: bytes | None
    """PNG of the public view, or ``None`` when rendering is unavailable (text only)."""
    newly_waiting: tuple[int, ...]
    """Users the prompt now names who were not waiting before (to notify)."""
    recent: tuple[ActionRecord, ...] = ()
    """The end of the log (actions that count, oldest first): the table's last lines."""
    phases: tuple[PhaseEnd, ...] = ()
    """The role phases this change ended, oldest first, when already drawn (else ``story``)."""
    scoresheet: bytes | None = None
    """PNG of the final scores once the game is over."""
    chart: bytes | None = None
    """PNG of the score by round once the game is over (posted with the score sheet)."""
    notes: tuple[str, ...] = ()
    """Lines for the table in the game's language about this change (an undo...)."""
    story: Callable[[], Awaitable[tuple[PhaseEnd, ...]]] | None = None
    """Draws the role phases this change ended (a board image each for the channel); called
    after the table is shown, since it replays the log and renders."""
    ratings: tuple[RatingLine, ...] = ()
    """Once the game is over: each rated person's rating before and after it (by place)."""
    rating: str | None = None
    """Once the game is over: ``rated``, or why not (``storage.ratings``)."""
    late: bool = False
    """The table was not shown in time (:mod:`bot.publishing`): its publication goes on, or
    failed and the reminder pass publishes the game again.  The player is told it will catch
    up."""

    async def ended_phases(self) -> tuple[PhaseEnd, ...]:
        return self.phases or (await self.story() if self.story is not None else ())


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A person's rating change in a finished game, for the final post."""

    name: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class PhaseEnd:
    """A role phase that ended: the public board at its end and what changed during it."""

    seq: int
    role: str
    chooser: int | None
    round: int
    """The phase's round (its board is as it stood when the phase ended, before the end of
    the round that the same action may have brought: :func:`bot.gamelog.view_at_phase_end`)."""
    view: dict[str, Any]
    events: tuple[Event, ...]
    image: bytes | None
    chosen: int | None = None
    """The ``seq`` of the phase's role choice (to name who chose it then)."""
    part: int = 0
    """Which ``PhaseEnded`` of its action ended it (1 when one action ended two phases)."""


@dataclass(frozen=True, slots=True)
class SubmitResult:
    record: GameRecord
    seat: int
    code: str
    update: TableUpdate


class Publisher(Protocol):
    """The Discord side of a change (``bot.publisher.DiscordPublisher``; a fake in tests)."""

    async def seat_names(self, record: GameRecord) -> dict[int, str]: ...

    async def publish_table(self, update: TableUpdate) -> None: ...

    async def notify_turn(self, update: TableUpdate) -> None: ...


_DEFAULT: Any = object()


class GameService:
    def __init__(
        self,
        storage: Storage,
        publisher: Publisher | None = None,
        *,
        rng: random.Random | None = None,
        renderer: Renderer | None = None,
        catalog: Catalog = CATALOG,
        score_renderer: ScoreRenderer | None = _DEFAULT,
        thinker: Thinker | None = None,
        publish_wait: float = PUBLISH_WAIT,
    ) -> None:
        self.storage = storage
        self.publications = Publications(publish_wait)
        """Each game's publications in order, in the background (:mod:`bot.publishing`)."""
        self.thinker = thinker or Thinker()
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._wanted: set[int] = set()
        self.publisher = publisher
        self.rng = rng or random.SystemRandom()
        self.renderer = renderer
        self.catalog = catalog
        self.drawing = (Drawing(renderer, catalog=catalog) if score_renderer is _DEFAULT
                        else Drawing(renderer, score_renderer, catalog))
        self._phase_views: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        """The public view right after each action that ended a role phase, by (game, seq),
        kept from the change that played it until its story is told: the story needs no replay
        of the log from the start (:meth:`_phase_ends`).  A ``seq`` is never reused."""
        self._tails: OrderedDict[int, tuple[int, tuple[ActionRecord, ...]]] = OrderedDict()
        """The end of each game's log with the version it is the end of (:meth:`recent`)."""

    def close(self) -> None:
        """Let the render threads and the AI workers go (the bot is closing)."""
        for task in self._thinking.values():
            task.cancel()
        self.publications.close()
        self.drawing.close()
        self.thinker.close()

    async def settled(self) -> None:
        """Wait until no AI seat is thinking and no table is being published in any game
        (tests, and a clean shutdown)."""
        while self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)
        await self.publications.settled()

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's lock: one change of a game at a time, in every process on the database
        (:meth:`storage.Database.lock`)."""
        return self.storage.db.lock(game_id)

    # --- lobby ----------------------------------------------------------------------------------

    async def create_lobby(
        self,
        *,
        creator_id: int,
        guild_id: int | None,
        channel_id: int,
        language: str,
        game: str | None = None,
        max_players: int | None = None,
        ai_seats: int = 0,
        ai_level: str = "heuristic",
        clock_days: int | None = None,
        variants: Sequence[str] = (),
        hints: bool = False,
    ) -> GameRecord:
        """A new lobby of ``game`` (default: the first the bot offers) in ``channel_id`` with
        its creator seated and ``ai_seats`` AI seats; ``max_players`` defaults to the game's
        largest table.  ``clock_days``: the game's clock (see :mod:`bot.clock`); ``None`` for
        none."""
        if game is None:
            game = next(iter(PACKAGES))
        if game not in PACKAGES:
            raise UserError("err.invalid_options", code="unknown_game")
        presenter = presenter_for(game)
        low, high = presenter.players
        if max_players is None:
            max_players = high
        if not low <= max_players <= high:
            raise UserError("err.invalid_options", code="bad_player_count")
        if clock_days is not None and not 1 <= clock_days <= MAX_CLOCK_DAYS:
            raise UserError("err.invalid_options", code="bad_clock_days")
        unknown = [v for v in variants if v not in presenter.variants]
        if unknown:
            raise UserError("err.no_such_variant", variant=escape_name(unknown[0][:40]),
                            title=presenter.title(language))
        _check_level(presenter, ai_level, language)
        if not 0 <= ai_seats <= max_players - 1:
            raise UserError("err.too_many_ai", ai=ai_seats, max=max_players)
        existing = await self.storage.games.find_by_channel(channel_id)
        if existing is not None:
            raise UserError("err.channel_busy", game=existing.id, status=existing.status)
        record = await self.storage.games.create_lobby(
            game,
            creator_id=creator_id,
            guild_id=guild_id,
            channel_id=channel_id,
            options=presenter.lobby_options(max_players, variants),
            language=language,
            ai_level=ai_level if ai_level in AI_LEVELS else None,
            hints=hints,
        )
        if clock_days is not None:
            await self.storage.reminders.set_timers(record.id, clock_days=clock_days)
        for _ in range(ai_seats):
            record = await self.storage.games.add_ai(record.id, ai_level)
        return record

    async def join(self, game_id: int, user_id: int) -> GameRecord:
        """Take the next free seat.  No version check: joining means the same whatever the
        lobby looked like, and a double click is refused by ``SeatTaken``."""
        async with self.lock(game_id):
            return await self.storage.games.join(game_id, user_id)

    async def leave(self, game_id: int, user_id: int) -> GameRecord:
        """Give up one's lobby seat (no version check, as for :meth:`join`)."""
        async with self.lock(game_id):
            return await self.storage.games.leave(game_id, user_id=user_id)

    async def add_ai(
        self, game_id: int, actor: Actor, expected_version: int, level: str
    ) -> GameRecord:
        """Seat an AI of ``level`` (or a seat the game plays itself: ``GamePresenter.automata``)
        where the game may still start with it (:func:`offered_seats`).  The version is
        checked, so a double click adds one AI, not two."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            presenter = presenter_for(record.game)
            lang = record.language or "en"
            _check_level(presenter, level, lang)
            self._check_manager(record, actor)
            if record.version != expected_version:  # the menu showed other seats
                raise StaleVersion(game_id, expected_version, record.version)
            if record.status is GameStatus.LOBBY and level not in offered_seats(record):
                refused = presenter.seat_refusal(
                    [s.ai_policy for s in record.seats], level, _capacity(record), lang)
                if refused is not None:  # else the table is full: the storage says so
                    raise UserError(refused[0], **refused[1])
            return await self.storage.games.add_ai(
                game_id, level, expected_version=expected_version
            )

    async def remove_ai(
        self, game_id: int, actor: Actor, expected_version: int, seat: int
    ) -> GameRecord:
        """Free the lobby's AI seat ``seat`` (an AI or a seat the game plays itself; creator or
        Manage Server); later seats move down.  The version is checked: a seat number means
        the seat it was drawn for."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            self._check_manager(record, actor)
            if record.version != expected_version:  # seat numbers are the drawn version's
                raise StaleVersion(game_id, expected_version, record.version)
            if record.status is GameStatus.LOBBY:
                target = record.seat(seat)
                if target is None or target.ai_policy is None:
                    raise UserError("err.not_an_ai_seat", game=game_id, seat=seat + 1)
            return await self.storage.games.leave(
                game_id, seat=seat, expected_version=expected_version)

    async def set_variants(self, game_id: int, actor: Actor, expected_version: int,
                           variants: Sequence[str]) -> GameRecord:
        """Turn the game's optional rules ``variants`` on, the others off (creator or Manage
        Server, in the lobby; the version is checked)."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            self._check_manager(record, actor)
            presenter = presenter_for(record.game)
            unknown = [v for v in variants if v not in presenter.variants]
            if unknown:
                raise UserError("err.no_such_variant", variant=escape_name(unknown[0][:40]),
                                title=presenter.title(record.language or "en"))
            _, high = presenter.players
            options = presenter.lobby_options(int(record.options.get("players", high)), variants)
            return await self.storage.games.set_options(
                game_id, options, expected_version=expected_version)

    async def cancel(
        self, game_id: int, actor: Actor, expected_version: int | None = None
    ) -> GameRecord:
        """Cancel a lobby or abandon a running game (creator or Manage Server only)."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            self._check_manager(record, actor)
            return await self.storage.games.abandon(game_id, expected_version=expected_version)

    async def start(self, game_id: int, actor: Actor, expected_version: int) -> TableUpdate:
        """Start the game: random seating order, a random seed (stored), then the automatic
        decisions up to the first person's, and the table published."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            if record.version != expected_version:
                raise StaleVersion(game_id, expected_version, record.version)
            if record.status is not GameStatus.LOBBY:
                raise UserError("err.not_in_lobby", game=game_id, status=record.status)
            low, high = presenter_for(record.game).players
            capacity = int(record.options.get("players", high))
            full = len(record.seats) >= capacity
            seated = record.seat_of(actor.user_id) is not None
            if not (self._is_manager(record, actor) or (full and seated)):
                raise UserError("err.start_early", game=game_id)
            if len(record.seats) < low:
                raise UserError("err.too_few_players", game=game_id, seats=len(record.seats))
            if not record.user_ids:
                raise UserError("err.no_humans", game=game_id)
            presenter = presenter_for(record.game)
            refused = presenter.start_refusal([s.ai_policy for s in record.seats],
                                              record.language or "en")
            if refused is not None:  # the game's own seating rules
                raise UserError(refused[0], **refused[1])
            automata = [s.seat for s in record.seats if s.ai_policy in presenter.automata]
            order = [s.seat for s in record.seats if s.seat not in automata]
            self.rng.shuffle(order)
            order += automata  # after every other seat (1897 PTM-MODE-4)
            options = presenter.seated_options(  # the table's size: the seats taken
                {**record.options, "players": len(record.seats)} if automata else record.options,
                [s.ai_policy or "" for s in record.seats if s.seat in automata])
            seed = self.rng.randrange(2**32)
            # one transaction: a refused start leaves the lobby's options and seats as they were
            record = await self.storage.games.start(
                game_id, seed=seed, expected_version=record.version, options=options, order=order
            )
            loaded = await self.storage.games.load(game_id)
            state, record, events = await self._play_automatic(loaded.record, loaded.state)
            return await self._publish(record, state, events, before={})

    # --- playing --------------------------------------------------------------------------------

    async def submit(
        self, game_id: int, user_id: int, expected_version: int | None, code: str | Sequence[str]
    ) -> SubmitResult:
        """Apply ``code`` for the seat of ``user_id``, drawn at ``expected_version``.

        Refused with ``StaleVersion`` when the game changed since, unless the change left this
        seat's decision as it was (:meth:`_still_valid`: another seat's part of a simultaneous
        decision); ``NotSeated`` for a stranger; engine errors for an illegal move.
        ``expected_version=None`` (a slash command, typed for the game as it is now) skips the
        version check; legality is the engine's as always.  A sequence of codes (a whole Mayor
        arrangement) is applied in order for the same seat and committed only if every one is
        legal: the first illegal one is refused and nothing changes."""
        codes = [code] if isinstance(code, str) else list(code)
        if not codes:
            raise UserError("err.unknown_action")
        async with self.lock(game_id):
            loaded = await self.storage.games.load(game_id)
            record, state = loaded.record, loaded.state
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            mine = record.seat_of(user_id)
            if mine is None:
                raise NotSeated(game_id, user_id=user_id)
            game = get_game(record.game)
            actions = [game.decode_action(c) for c in codes]
            first = game.encode_action(actions[0])
            seen = record.version if expected_version is None else expected_version
            if record.version != seen and not self._still_valid(
                game, record, state, mine.seat, first, seen
            ):
                raise StaleVersion(game_id, seen, record.version)
            steps: list[tuple[str, Any, list[Event]]] = []
            try:
                for action in actions:  # every one validated before anything is stored
                    state, new = game.apply(state, mine.seat, action)
                    steps.append((game.encode_action(action), state, new))
            except NotYourTurn as exc:
                raise situate(UserError("err.not_your_turn", game=game_id), await self._situation(
                    game, record, state, mine.seat, game.encode_action(action))) from exc
            except IllegalAction as exc:  # the refusal says why, with this seat's numbers
                situate(exc, await self._situation(game, record, state, mine.seat,
                                                   game.encode_action(action)))
                raise
            except GameOver as exc:
                raise UserError("err.game_over", game=game_id) from exc
            current, events = record, []
            for step_code, step_state, new in steps:
                result = await self.storage.games.commit_action(
                    game_id, expected_version=current.version, seat=mine.seat, code=step_code,
                    state=step_state, events=new, user_id=user_id,
                )
                self._committed(current.version, result)
                current = result.record
                self._keep_phase_view(game, current, step_state, new)
                events.extend(new)
            try:
                state, new_record, more = await self._play_automatic(current, state)
            except DatabaseUnavailable as exc:  # the move is stored: the rest once it is back
                log.warning("game %s: the moves after v%s wait for the database (%s)", game_id,
                            current.version, exc)
                new_record, more = current, []
            update = await self._publish(
                new_record, state, [*events, *more], before=record_waiting(record), actor=user_id
            )
            return SubmitResult(new_record, mine.seat, first, update)

    def _still_valid(
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
        """Give ``seat`` of a running game to an AI playing ``level`` (its player left or ran
        out of time, :mod:`bot.clock`: the ``reason`` the history keeps) and let the AI play at
        once if the game waits on it.

        Refused with ``UserError("err.seat_moved_on")`` when the seat is no longer
        ``user_id``'s or, with ``waiting_since``, no longer in that wait (its player played)."""
        if level not in AI_LEVELS:
            raise UserError("err.invalid_options", code="bad_ai_level")
        async with self.lock(game_id):
            loaded = await self.storage.games.load(game_id)
            record = loaded.record
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            current = record.seat(seat)
            if current is None or current.user_id != user_id or (
                waiting_since is not None and current.waiting_since != waiting_since
            ):
                raise UserError("err.seat_moved_on", game=game_id)
            record = await self.storage.games.replace_seat(
                game_id, seat, ai_policy=level, expected_version=record.version, reason=reason
            )
            state, record, events = await self._play_automatic(record, loaded.state)
            return await self._publish(
                record, state, events, before=record_waiting(loaded.record)
            )

    async def resume(self, game_id: int) -> TableUpdate | None:
        """Bring a game's Discord side up to its stored state (at start-up, after a crash):
        let AI seats and forced decisions play if the game waits on them, and publish the
        table again when the publish record (:mod:`storage.publications`) is behind the stored
        version: the table as it stands, the story of the phases ended since the table last
        shown, and a turn DM to each person asked since then who has not acted since.  Turn
        notices handed over but never sent (no claim in ``seat_alerts``) are sent again; the
        claims make every DM go out at most once per wait however often this runs.

        Returns the update when the table was published again, ``None`` otherwise (also when
        a publication of the game is under way: its end records what it showed)."""
        async with self.lock(game_id):
            if self.publications.busy(game_id):
                return None
            loaded = await self.storage.games.load(game_id)
            status = loaded.record.status
            if status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
                return None
            if CHANNEL_GONE_KIND in loaded.record.messages:
                return None  # its channel was deleted: it waits for /game move
            state, record, _ = loaded.state, loaded.record, []
            if status is GameStatus.ACTIVE:
                state, record, _ = await self._play_automatic(record, state)
            shown = await self.storage.publications.get(game_id)
            shown_version, shown_seq = (shown.version, shown.seq) if shown else (-1, 0)
            waiting = {s.seat: s for s in record.seats
                       if s.user_id is not None and s.waiting_since is not None}
            newly: list[int] = []
            if shown is not None:  # notices handed over with the last table, still due
                newly += [waiting[seat].user_id or 0 for seat, since in shown.due
                          if seat in waiting and waiting[seat].waiting_since == since]
            if shown_version >= record.version:
                if newly and self.publisher is not None:
                    await self._notify_again(record, state, tuple(dict.fromkeys(newly)))
                return None
            since = await self.storage.games.actions(game_id, after_seq=shown_seq)
            acted = {a.user_id for a in since if a.user_id is not None}
            newly += [s.user_id for s in waiting.values() if s.user_id is not None
                      and (s.waiting_version or 0) > shown_version and s.user_id not in acted]
            events = [Event.from_json(e) for a in since for e in a.events]
            log.info("game %s: publishing v%s again (shown: v%s)", game_id, record.version,
                     shown_version)
            return await self._publish(record, state, events, before={},
                                       newly=tuple(dict.fromkeys(newly)))

    async def move(self, game_id: int, actor: Actor, channel_id: int, guild_id: int | None
                   ) -> TableUpdate:
        """Continue in ``channel_id`` a game whose channel was deleted (its creator or a
        Manage Server holder, in a channel of the game's server): its table is posted there,
        and its story goes on in a thread started from it at the next phase's end.  The AI
        seats and forced decisions that waited meanwhile play.  ``UserError`` for a game that
        still has its channel or belongs to another server; ``ChannelBusy``."""
        async with self.lock(game_id):
            record = await self.storage.games.get(game_id)
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            if record.guild_id != guild_id:
                raise UserError("err.move_other_server", game=game_id)
            self._check_manager(record, actor)
            if CHANNEL_GONE_KIND not in record.messages:
                raise UserError("err.move_not_gone", game=game_id, channel=record.channel_id)
            await self.storage.games.move_channel(game_id, channel_id, guild_id=guild_id)
            loaded = await self.storage.games.load(game_id)
            state, moved, events = await self._play_automatic(loaded.record, loaded.state)
            log.info("game %s: moved from channel %s to %s", game_id, record.channel_id,
                     channel_id)
            return await self._publish(moved, state, events, before=record_waiting(record))

    async def _notify_again(self, record: GameRecord, state: Any, users: tuple[int, ...]
                            ) -> None:
        """Hand turn notices to the publisher without drawing the table again."""
        assert self.publisher is not None
        view = get_game(record.game).view(state, None)
        update = TableUpdate(record, view, (), await self._names(record), None, users)
        try:
            await self.publisher.notify_turn(update)
        except Exception:
            log.exception("game %s: could not notify the next players", record.id)

    async def resume_all(self, owns: Callable[[int | None], bool] = lambda _id: True) -> int:
        """At start-up, :meth:`resume` every game whose Discord side lags behind its stored
        state (``storage.publications.lagging``) and every active game waiting on an AI seat,
        among the servers this process serves (``owns``, its shards); returns how many tables
        were published again."""
        ids = set(await self._ai_waiting(before=self.storage.db.clock()))
        after = 0
        while page := await self.storage.publications.lagging(after_id=after):
            ids.update(page)
            after = page[-1]
        return await self._resume_each(sorted(ids), owns, lambda _record: True)

    async def resume_stalled(self, owns: Callable[[int | None], bool], now: datetime,
                             skip: Callable[[int], bool] = lambda _id: False) -> int:
        """While running (the reminder pass calls it): :meth:`resume` the games of this
        process's servers that are stuck --

        * the active games that have waited on an AI seat since :data:`STALLED_AFTER` or
          longer (an AI move that failed: its worker died, the database refused it) and that
          this process is not thinking about (a strong seat takes its time);
        * the games whose table shows an older version than the stored one (a publication
          that failed: a lasting 5xx from Discord, the database gone meanwhile) for
          :data:`STALLED_AFTER` or longer, active or finished within :data:`BEHIND_FINISHED`,
          unless a publication of theirs is under way
          (:meth:`resume` skips those) or ``skip`` says another retry takes them (a channel
          refusing our posts: ``DiscordPublisher.retry_blocked``)."""
        ids = set(await self._ai_waiting(before=now - STALLED_AFTER))
        ids -= set(self._thinking)
        behind: list[int] = []
        while page := await self.storage.publications.behind(
                changed_before=now - STALLED_AFTER, finished_since=now - BEHIND_FINISHED,
                after_id=behind[-1] if behind else 0):
            behind += page
        ids |= {game_id for game_id in behind if not skip(game_id)}
        return await self._resume_each(sorted(ids), owns,
                                       lambda record: record.id not in self._thinking)

    async def _ai_waiting(self, *, before: datetime) -> list[int]:
        """The active games whose AI seat has been asked since ``before`` or earlier, by id."""
        ids: list[int] = []
        while page := await self.storage.reminders.stalled_ai(
                before=before, after_id=ids[-1] if ids else 0):
            ids += page
        return ids

    async def _resume_each(self, ids: Sequence[int], owns: Callable[[int | None], bool],
                           keep: Callable[[GameRecord], bool]) -> int:
        moved = 0
        for game_id in ids:
            try:
                record = await self.storage.games.get(game_id)
                if not owns(record.guild_id):
                    continue  # another process's server: it resumes its own
                if keep(record):
                    moved += await self.resume(game_id) is not None
            except PostingBlocked:
                continue  # the channel refuses us: the blocked channels' retry takes it on
            except Exception:
                log.exception("could not resume game %s", game_id)
        return moved

    async def table(self, game_id: int) -> TableUpdate:
        """The game as it stands (for ``/game show`` and after a refused outdated click)."""
        loaded = await self.storage.games.load(game_id)
        if loaded.record.status is GameStatus.LOBBY:
            raise UserError("err.not_active", game=game_id, status=loaded.record.status)
        names = await self._names(loaded.record)
        return await self._update(loaded.record, loaded.state, [], names, ())

    # --- helpers --------------------------------------------------------------------------------

    def _is_manager(self, record: GameRecord, actor: Actor) -> bool:
        return actor.can_manage or (
            record.creator_id is not None and actor.user_id == record.creator_id
        )

    def _check_manager(self, record: GameRecord, actor: Actor) -> None:
        if not self._is_manager(record, actor):
            raise UserError("err.not_allowed", game=record.id)

    async def _play_automatic(
        self, record: GameRecord, state: Any
    ) -> tuple[Any, GameRecord, list[Event]]:
        """Apply forced decisions and the AI seats' choices until the prompt names only people
        with a real choice (or the game is over).  Each action is its own commit."""
        game = get_game(record.game)
        events: list[Event] = []
        for _ in range(MAX_AUTOMATIC_STEPS):
            prompt = game.prompt(state)
            if prompt is None:
                break
            choice = self._automatic_choice(game, record, state, prompt.seats, prompt.forced)
            if choice is None:
                break
            if isinstance(choice, Thought):
                self._think_later(record.id)
                break
            seat, action = choice
            state, new = game.apply(state, seat, action)
            result = await self.storage.games.commit_action(
                record.id,
                expected_version=record.version,
                seat=seat,
                code=game.encode_action(action),
                state=state,
                events=new,
            )
            self._committed(record.version, result)
            record = result.record
            self._keep_phase_view(game, record, state, new)
            events.extend(new)
        else:  # pragma: no cover - the engine bounds every game
            log.error("game %s: automatic steps did not stop", record.id)
        return state, record, events

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

    def _committed(self, version: int, result: CommitResult) -> None:
        """Add an action this service just committed at ``version`` to the kept end of its
        game's log (when that end was the log at ``version``)."""
        record = result.record
        kept = self._tails.pop(record.id, None)
        if kept is not None and kept[0] == version:
            self._tails[record.id] = (record.version, tuple(
                a for a in (*kept[1], result.action) if a.seq > record.seq - LOG_TAIL))

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

    def _keep_phase_view(self, game: Game[Any], record: GameRecord, state: Any,
                         events: Sequence[Event]) -> None:
        """Keep the public view after the action ``record.seq`` if it ended a role phase."""
        if any(e.type == "PhaseEnded" for e in events):
            self._phase_views[(record.id, record.seq)] = game.view(state, None)
            while len(self._phase_views) > PHASE_VIEWS:
                self._phase_views.popitem(last=False)

    def _automatic_choice(
        self,
        game: Game[Any],
        record: GameRecord,
        state: Any,
        seats: Sequence[int],
        forced: bool,
    ) -> tuple[int, Any] | Thought | None:
        """The next decision the game takes itself (a forced one, an AI seat's), or a
        :class:`Thought` for a seat whose level searches (:data:`THINKING_LEVELS`)."""
        for number in seats:
            seat = record.seat(number)
            legal = game.legal_actions(state, number)
            if not legal:
                continue
            if forced and len(seats) == 1 and len(legal) == 1:
                return number, legal[0]
            if seat is not None and seat.ai_policy is not None:
                # Seeded from (game seed, log position, seat): the same game replays the same
                # AI moves, and a restart changes nothing.
                policy_seed = ((record.seed or 0) * 1_000_003 + record.seq * 31 + number) % 2**63
                if seat.ai_policy in THINKING_LEVELS:
                    return Thought(number, policy_seed)
                try:
                    policy = make_policy(seat.ai_policy, record.game, policy_seed)
                except ValueError:
                    log.error("game %s seat %s: unknown AI %r", record.id, number, seat.ai_policy)
                    policy = make_policy("random", record.game, policy_seed)
                return number, policy.choose(game, state, number, legal)
        return None

    def _think_later(self, game_id: int) -> None:
        """Let the game's strong seat think, after whatever holds the game's lock now (the
        table of the change that led to it is shown first).  One thinking task per game: a
        second call while it runs makes it look at the game again when done."""
        self._wanted.add(game_id)
        if game_id not in self._thinking:
            self._thinking[game_id] = asyncio.get_running_loop().create_task(
                self._thinking_loop(game_id), name=f"think-{game_id}")

    async def _thinking_loop(self, game_id: int) -> None:
        try:
            while game_id in self._wanted:
                self._wanted.discard(game_id)
                try:
                    await self._think_once(game_id)
                except Exception:
                    log.exception("game %s: the AI could not play", game_id)
        finally:
            self._thinking.pop(game_id, None)

    async def _think_once(self, game_id: int) -> None:
        """One strong decision: searched from the stored position without the game's lock
        (people may look at the table meanwhile), then applied under the lock if the game is
        still where it was; if it moved on (an action, an undo, a seat handed over) the game
        is looked at again."""
        loaded = await self.storage.games.load(game_id)
        record, state = loaded.record, loaded.state
        if record.status is not GameStatus.ACTIVE:
            return
        game = get_game(record.game)
        prompt = game.prompt(state)
        if prompt is None:
            return
        choice = self._automatic_choice(game, record, state, prompt.seats, prompt.forced)
        if not isinstance(choice, Thought):
            if choice is not None:  # e.g. left over by a restart: play it as a change would
                async with self.lock(game_id):
                    current = await self.storage.games.load(game_id)
                    if current.record.version == record.version:
                        state, new_record, more = await self._play_automatic(record, state)
                        if more:
                            await self._publish(new_record, state, more,
                                                before=record_waiting(record))
            return
        code = await self.thinker.choose(record.game, game.dump(state), choice.seat,
                                         choice.seed)
        async with self.lock(game_id):
            current = await self.storage.games.load(game_id)
            if current.record.version != record.version:
                self._wanted.add(game_id)
                return
            action = game.decode_action(code)
            state, new = game.apply(state, choice.seat, action)
            result = await self.storage.games.commit_action(
                game_id, expected_version=record.version, seat=choice.seat,
                code=game.encode_action(action), state=state, events=new)
            self._committed(record.version, result)
            self._keep_phase_view(game, result.record, state, new)
            state, new_record, more = await self._play_automatic(result.record, state)
            await self._publish(new_record, state, [*new, *more],
                                before=record_waiting(record))

    async def _situation(self, game: Game[Any], record: GameRecord, state: Any, seat: int,
                         action: str | None = None) -> Situation:
        """What a refusal needs to say why (:mod:`bot.refusals`): the seat's view now."""
        prompt = game.prompt(state)
        legal = tuple(game.encode_action(a) for a in game.legal_actions(state, seat)) if (
            prompt is not None and seat in prompt.seats) else ()
        return Situation(record.id, seat, game.view(state, seat), await self._names(record),
                         legal, action, record.game)

    async def _names(self, record: GameRecord) -> dict[int, str]:
        if self.publisher is None:
            return {s.seat: f"Seat {s.seat + 1}" for s in record.seats}
        return await self.publisher.seat_names(record)

    async def _update(
        self,
        record: GameRecord,
        state: Any,
        events: Sequence[Event],
        names: dict[int, str],
        newly_waiting: tuple[int, ...],
        notes: tuple[str, ...] = (),
    ) -> TableUpdate:
        """The public view, its image (highlighting the current role phase), the end of the log,
        a board image for every role phase this change ended, and the score sheet at the end."""
        game = get_game(record.game)
        view = game.view(state, None)
        public = tuple(e for e in (ev.for_viewer(None) for ev in events) if e is not None)
        recent = await self.recent(record)
        highlights = phase_events(recent, openers=presenter_for(record.game).phase_openers)
        lang = record.language
        image = await self._render(view, highlights, names, lang)
        scores = chart = None
        ratings: tuple[RatingLine, ...] = ()
        rating = None
        if view.get("game_over") and view.get("outcome"):
            # the finished view (its outcome, and the boards a sheet may draw: the Puertomas')
            scores = await self.drawing.scores(record.game, view, everyone(names), lang)
            chart = await self._chart(record, names)
            ratings, rating = await self._ratings(record, names)
        ended = sum(1 for e in events if e.type == "PhaseEnded")
        story = functools.partial(self._story, record, game, ended, view, names) if ended \
            else None
        return TableUpdate(record, view, public, names, image, newly_waiting, recent,
                           scoresheet=scores, chart=chart, notes=notes, story=story,
                           ratings=ratings, rating=rating)

    async def _chart(self, record: GameRecord, names: Mapping[int, str]) -> bytes | None:
        """The chart of a finished game: its log (the actions that count) replayed and drawn
        off the event loop."""
        if record.seed is None:
            return None
        log_all = await self.storage.games.actions(record.id)
        return await self.drawing.chart(record.game, record.options, record.seed,
                                        [(a.seat, a.code) for a in log_all], everyone(names),
                                        record.language)

    async def _ratings(self, record: GameRecord, names: Mapping[int, str]
                       ) -> tuple[tuple[RatingLine, ...], str | None]:
        """The rating changes of a finished game, each named as the table names its seat (one
        who left by the name they played under)."""
        changes = await self.storage.ratings.changes(record.id)
        seat_of = {s.user_id: s.seat for s in record.seats if s.user_id is not None}
        lines = []
        for change in changes:
            seat = seat_of.get(change.user_id)
            name = names.get(seat) if seat is not None else None
            if name is None and isinstance(names, SeatNames):
                name = names.person(change.user_id)
            lines.append(RatingLine(name or f"<@{change.user_id}>", change.points_before,
                                    change.points_after))
        return tuple(lines), await self.storage.ratings.status(record.id)

    async def _story(
        self, record: GameRecord, game: Game[Any], ended: int, view: dict[str, Any],
        names: Mapping[int, str],
    ) -> tuple[PhaseEnd, ...]:
        """The phases a change ended with their images: drawn after the table is shown (it
        replays the log and draws).  Each image says what ended instead of whose turn it is."""
        phases = await self._phase_ends(record, game, ended, view)
        writer = presenter_for(record.game).log_writer(names,
                                                      record.language or self.catalog.default)
        drawn = await asyncio.gather(*(
            self.drawing.board(p.view, p.events, names, record.language, urgent=False,
                               status=writer.phase_ended(p.round, p.role, p.chooser, p.chosen))
            for p in phases))
        return tuple(dataclasses.replace(p, image=image)
                     for p, image in zip(phases, drawn, strict=True))

    async def timelapse(self, game_id: int, limit: int) -> Timelapse:
        """A game that is over as one animated image of at most ``limit`` bytes: the public
        board at the end of every role phase, each saying what ended (as the story's images),
        then the final board.  Drawn behind the tables, without pushing them out of the cache.
        ``UserError`` for a game still played or with nothing to show."""
        record = await self.storage.games.get(game_id)
        if record.status.is_open:
            raise UserError("err.replay_not_over", game=record.id)
        if record.seed is None:  # abandoned in its lobby
            raise UserError("err.replay_empty", game=record.id)
        loaded = await self.storage.games.load(game_id)
        game = get_game(record.game)
        view = game.view(loaded.state, None)
        whole = await self.storage.games.actions(record.id)
        count = len(phase_end_points(whole))
        phases = await self._phase_ends(record, game, count, view, whole) if count else []
        if not phases:
            raise UserError("err.replay_empty", game=record.id)
        names = await self._names(record)
        writer = presenter_for(record.game).log_writer(names,
                                                      record.language or self.catalog.default)
        frames = await asyncio.gather(*(
            self.drawing.board(p.view, p.events, names, record.language, urgent=False,
                               status=writer.phase_ended(p.round, p.role, p.chooser, p.chosen),
                               keep=False)
            for p in phases))
        final = await self.drawing.board(view, (), names, record.language, urgent=False,
                                         keep=False)
        drawn = [f for f in (*frames, final) if f]
        if not drawn:
            raise UserError("err.replay_no_images")
        try:
            return await self.drawing.timelapse(drawn, limit)
        except ValueError as exc:
            log.warning("game %d: no time-lapse within %d bytes (%s)", record.id, limit, exc)
            raise UserError("err.replay_too_big", game=record.id) from exc

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
        if not over and any(_hidden(a) for a in log_all):
            raise UserError("err.export_hidden", game=record.id)
        return record, {
            "game": record.game,
            "options": record.options,
            "seed": record.seed if over else None,
            "actions": [[a.seat, a.code] for a in log_all],
        }

    async def _phase_ends(
        self, record: GameRecord, game: Game[Any], ended: int, view: dict[str, Any],
        whole: Sequence[ActionRecord] | None = None,
    ) -> list[PhaseEnd]:
        """The last ``ended`` phase ends of the log, each with the public board as it stood
        when the phase ended (replayed from the log; the current view when nothing happened
        since) and that phase's round.  ``whole``: the whole log, when the caller has it."""
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

    async def _render(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        names: Mapping[int, str],
        language: str | None,
    ) -> bytes | None:
        return await self.drawing.board(view, events, names, language)

    async def _publish(
        self,
        record: GameRecord,
        state: Any,
        events: Sequence[Event],
        *,
        before: Mapping[int, object],
        actor: int | None = None,
        notes: tuple[str, ...] = (),
        newly: tuple[int, ...] | None = None,
    ) -> TableUpdate:
        """Render and hand the new table to the publisher.  The change is already committed, so
        a Discord failure here is logged, never reported as a failed action.  The user who just
        acted is not notified (they are at the table right now); ``newly`` overrides who is.

        Once the table is shown, the publish record says so (with the turn notices handed
        over), before the notices go out: a crash before it leaves the record behind the
        stored version, and :meth:`resume` publishes the game again at the next start.

        The publication runs in the background (:mod:`bot.publishing`), after the game's
        previous one; this waits for it a few seconds at most, then returns the update marked
        ``late``.  So does a database that stopped answering after the commit (the table is
        drawn once it is back: ``bot/outage.py``, or the reminder pass)."""
        if newly is None:
            newly = tuple(
                s.user_id
                for s in record.seats
                if s.user_id is not None
                and s.user_id != actor
                and s.waiting_since is not None
                and before.get(s.seat) != s.waiting_since
            )
        try:
            names = await self._names(record)
            update = await self._update(record, state, events, names, newly, notes)
        except DatabaseUnavailable as exc:
            log.warning("game %s: v%s is not drawn, the database does not answer (%s)",
                        record.id, record.version, exc)
            view = get_game(record.game).view(state, None)
            return TableUpdate(record, view, (), {}, None, newly, late=True)
        if self.publisher is not None:
            deliver = functools.partial(self._deliver, update, newly)
            if not await self.publications.run(record.id, deliver):
                update = dataclasses.replace(update, late=True)
        return update

    async def _deliver(self, update: TableUpdate, newly: Sequence[int]) -> bool:
        """The publication of ``update`` (a task of :attr:`publications`): the table, its
        publish record, then the turn notices.  Whether the table was shown."""
        assert self.publisher is not None
        record = update.record
        shown = False
        try:
            if self.publications.missed(record.id):  # the story the last one could not tell
                update = await self._with_untold_story(update)
            await self.publisher.publish_table(update)
        except (PostingBlocked, PublishFailed, ChannelGone):
            pass  # told and logged by the publisher; published again once it can post
        except DatabaseUnavailable as exc:
            log.warning("game %s: the table was not published, the database does not answer "
                        "(%s); published again once it is back", record.id, exc)
        except Exception:
            log.exception("game %s: could not publish the table", record.id)
        else:
            shown = True
            await self._published(record, newly)
        try:
            await self.publisher.notify_turn(update)
        except DatabaseUnavailable as exc:
            log.warning("game %s: the turn notices wait for the database (%s)", record.id, exc)
        except Exception:
            log.exception("game %s: could not notify the next players", record.id)
        return shown

    async def _with_untold_story(self, update: TableUpdate) -> TableUpdate:
        """``update`` telling the role phases ended since the table last shown, not only its
        own: a publication of the game failed before it (those already told are skipped by
        the publisher)."""
        record = update.record
        shown = await self.storage.publications.get(record.id)
        since = await self.storage.games.actions(record.id, after_seq=shown.seq if shown else 0)
        ended = sum(1 for a in since if a.seq <= record.seq
                    for e in a.events if e.get("type") == "PhaseEnded")
        if not ended:
            return update
        story = functools.partial(self._story, record, get_game(record.game), ended,
                                  update.view, update.names)
        return dataclasses.replace(update, phases=(), story=story)

    async def _published(self, record: GameRecord, newly: Sequence[int]) -> None:
        """Record that the table shows ``record.version`` and the turn notices due to ``newly``
        (their waits) are being handed over."""
        due = [(s.seat, s.waiting_since) for s in record.seats
               if s.user_id in newly and s.waiting_since is not None]
        try:
            await self.storage.publications.published(
                record.id, version=record.version, seq=record.seq, due=due)
        except DatabaseUnavailable as exc:  # shown again once the database is back
            log.warning("game %s: the publication of v%s was not recorded (%s)", record.id,
                        record.version, exc)
        except Exception:
            log.exception("game %s: could not record the publication", record.id)


@dataclass(frozen=True, slots=True)
class Thought:
    """A decision of a seat whose level searches: taken off the event loop, by ``seed``."""

    seat: int
    seed: int


def takeover_level(record: GameRecord) -> str:
    """The AI level for a taken-over seat (its player left, or the clock's vote): the table's
    (``/game new ai_level``, which the lobby shows), else normal.  Never the level of the
    table's AI seats, which the lobby may seat at any level each (nor a seat kind the game
    plays itself, 1897's Puertoma)."""
    if record.ai_level in AI_LEVELS:
        return record.ai_level
    return TAKEOVER_DEFAULT


def _capacity(record: GameRecord) -> int:
    """The seats of a lobby's table (its ``players`` option, else the game's largest)."""
    return int(record.options.get("players", presenter_for(record.game).players[1]))


def offered_seats(record: GameRecord) -> list[str]:
    """The seat kinds a lobby offers to add now: every AI level, then every seat kind the game
    plays itself, while a seat is free and the game allows one more of that kind
    (``GamePresenter.seat_refusal``: a start it could never accept is not offered)."""
    presenter = presenter_for(record.game)
    capacity = _capacity(record)
    if record.status is not GameStatus.LOBBY or len(record.seats) >= capacity:
        return []
    kinds = [s.ai_policy for s in record.seats]
    lang = record.language or "en"
    return [kind for kind in (*AI_LEVELS, *presenter.automata)
            if presenter.seat_refusal(kinds, kind, capacity, lang) is None]


def record_waiting(record: GameRecord) -> dict[int, object]:
    """``waiting_since`` by seat (to tell who is newly asked to decide after a change)."""
    return {s.seat: s.waiting_since for s in record.seats}


def _check_level(presenter: GamePresenter, level: str, lang: str) -> None:
    """An AI level, or a seat kind the game plays itself; else a specific refusal."""
    if level in presenter.automata:
        return
    if level not in AI_LEVELS:
        raise UserError("err.no_such_seat_kind", level=escape_name(level[:40]),
                        title=presenter.title(lang))
