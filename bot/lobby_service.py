"""A game before it starts: its lobby created, joined and left, its AI seats and optional rules
changed, then started (random seating, a random seed, the automatic decisions up to the first
person's) or cancelled.

Every change runs under the game's lock; the changes a menu or a button drawn for one version
of the lobby asks for (adding or removing a seat, the rules, the start) check that version, so
a double click acts once.  Who may do what is :mod:`bot.seats`'.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from storage import GameRecord, GameStatus, StaleVersion, Storage
from storage.timebank import Pace, Quiet

from .ai_turns import AiTurns
from .changes import TableUpdate
from .errors import UserError
from .games import PACKAGES, presenter_for
from .publishing import Publishing
from .seatnames import escape_name
from .seats import AI_LEVELS, Actor, capacity, check_level, check_manager, is_manager, offered_seats


class LobbyService:
    def __init__(self, storage: Storage, rng: random.Random, ai: AiTurns,
                 publishing: Publishing) -> None:
        self.storage = storage
        self.rng = rng
        self.ai = ai
        self.publishing = publishing

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
        pace: Pace | None = None,
        quiet: Quiet | None = None,
        variants: Sequence[str] = (),
        hints: bool = False,
    ) -> GameRecord:
        """A new lobby of ``game`` (default: the first the bot offers) in ``channel_id`` with
        its creator seated and ``ai_seats`` AI seats; ``max_players`` defaults to the game's
        largest table.  ``pace``: its time control (:mod:`bot.banks`; ``None``: unlimited);
        ``quiet``: its own quiet time (``None``: its server's)."""
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
        unknown = [v for v in variants if v not in presenter.variants]
        if unknown:
            raise UserError("err.no_such_variant", variant=escape_name(unknown[0][:40]),
                            title=presenter.title(language))
        check_level(presenter, ai_level, language)
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
            pace=pace,
            quiet=quiet,
        )
        for _ in range(ai_seats):
            record = await self.storage.games.add_ai(record.id, ai_level)
        return record

    async def join(self, game_id: int, user_id: int) -> GameRecord:
        """Take the next free seat.  No version check: joining means the same whatever the
        lobby looked like, and a double click is refused by ``SeatTaken``."""
        async with self.storage.db.lock(game_id):
            return await self.storage.games.join(game_id, user_id)

    async def leave(self, game_id: int, user_id: int) -> GameRecord:
        """Give up one's lobby seat (no version check, as for :meth:`join`)."""
        async with self.storage.db.lock(game_id):
            return await self.storage.games.leave(game_id, user_id=user_id)

    async def add_ai(
        self, game_id: int, actor: Actor, expected_version: int, level: str
    ) -> GameRecord:
        """Seat an AI of ``level`` (or a seat the game plays itself: ``GamePresenter.automata``)
        where the game may still start with it (:func:`bot.seats.offered_seats`).  The version
        is checked, so a double click adds one AI, not two."""
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            presenter = presenter_for(record.game)
            lang = record.language or "en"
            check_level(presenter, level, lang)
            check_manager(record, actor)
            if record.version != expected_version:  # the menu showed other seats
                raise StaleVersion(game_id, expected_version, record.version)
            if record.status is GameStatus.LOBBY and level not in offered_seats(record):
                refused = presenter.seat_refusal(
                    [s.ai_policy for s in record.seats], level, capacity(record), lang)
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
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            check_manager(record, actor)
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
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            check_manager(record, actor)
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
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            check_manager(record, actor)
            return await self.storage.games.abandon(game_id, expected_version=expected_version)

    async def start(self, game_id: int, actor: Actor, expected_version: int) -> TableUpdate:
        """Start the game: random seating order, a random seed (stored), then the automatic
        decisions up to the first person's, and the table published."""
        async with self.storage.db.lock(game_id):
            record = await self.storage.games.get(game_id)
            if record.version != expected_version:
                raise StaleVersion(game_id, expected_version, record.version)
            if record.status is not GameStatus.LOBBY:
                raise UserError("err.not_in_lobby", game=game_id, status=record.status)
            presenter = presenter_for(record.game)
            low, high = presenter.players
            full = len(record.seats) >= int(record.options.get("players", high))
            seated = record.seat_of(actor.user_id) is not None
            if not (is_manager(record, actor) or (full and seated)):
                raise UserError("err.start_early", game=game_id)
            if len(record.seats) < low:
                raise UserError("err.too_few_players", game=game_id, seats=len(record.seats))
            if not record.user_ids:
                raise UserError("err.no_humans", game=game_id)
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
            state, record, events = await self.ai.play(loaded.record, loaded.state)
            return await self.publishing.publish(record, state, events, before={})
