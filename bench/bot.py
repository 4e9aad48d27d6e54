"""Bot benchmark: with many games in progress at once, through the offline Discord server (the
real discord.py client, the real bot, a real SQLite file, the real renderer), how fast each
interaction is acknowledged and how fast the table follows a click.

    python -m bench.bot [--json] [--scenario default|ai-heavy] [--game puerto-rico|san-juan]
                        [--games 50] [--moves 8] [--think 3] [--players 3] [--ai-seats 1]
                        [--ai-level heuristic|strong|random] [--ai-budget N]
                        [--advance 0] [--no-render] [--profile FILE] [--backend postgresql]
    python -m bench.bot --processes N [--backend postgresql|sqlite] [--shard-count S]
                        [--logs DIR] [the options above but --no-render and --profile]
    python -m bench.bot --compare [--processes 2] [...]   # 1 process, then N: side by side
    python -m bench.bot --scenario reminders [--games 10000] [--json]  # bench/reminders.py

The scenarios, what each option does and what each figure of the output means (``ack_ms``,
``update_ms``, ``loop_lag_ms``, ``work``; with ``--processes``, ``cpu`` and ``by_shard``):
docs/benchmarks.md, "bench.bot".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import multiprocessing
import os
import pickle
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, cast

from bench import reminders
from bench.processes import (
    Cpu,
    MachineCpu,
    postmaster_pid,
    process_cpu,
    processes_cpu,
    shard_groups,
)
from bot import history as bot_history
from bot.client import GovernorBot
from bot.games import PACKAGES, presenter_for
from bot.i18n import CATALOG
from bot.settings import Settings
from engine import game_names
from engine.core import get_game
from engine.policies import make_policy
from engine.search import DEFAULT_BUDGET
from storage import GameRecord, GameStatus, LoadedGame, Storage
from storage.database import DatabaseBusy, parse_url
from storage.pgserver import temporary_server
from tests.e2e.processes import BotProcesses, guild_on_shard, shards_text
from tests.offline_discord import (
    DISCORD_ACK_TIMEOUT,
    Channel,
    InteractionHandle,
    OfflineDiscordServer,
    OfflineDiscordTimeout,
    ScriptedUser,
    StoredMessage,
    running_client,
)

GAME = next(iter(PACKAGES))
"""The game every table plays unless ``--game`` says: the bot catalog's first."""


class BenchBot(GovernorBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


SCENARIOS: dict[str, dict[str, Any]] = {
    "default": {"games": 50, "moves": 8, "think": 3.0, "players": 3, "ai_seats": 1,
                "advance": 0},
    "ai-heavy": {"games": 110, "moves": 6, "think": 10.0, "players": 4, "ai_seats": 3,
                 "advance": 30},
    # the reminder pass over games that all wait (bench/reminders.py): only --games, --json
    "reminders": {"games": 10_000, "moves": 0, "think": 0.0, "players": 3, "ai_seats": 0,
                  "advance": 0},
}


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.updates: list[float] = []
        self.clicks: list[float] = []  # when each move's click was made (monotonic)
        self.refused: Counter[str] = Counter()  # clicks refused, made again (by reply)

    async def ack(self, handle: InteractionHandle) -> None:
        response = await handle.response(timeout=30)
        self.latencies.append((response.at - handle.created_at) * 1000)


def thread_cpu() -> dict[str, float]:
    """CPU seconds of this process's threads by group: ``loop`` (the event loop: the bot, the
    offline Discord and the scripted people), ``render`` (image threads), ``sqlite``,
    ``other``, and of its child processes (``image_processes``).  Linux only."""
    groups: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for thread in threading.enumerate():
        try:
            with open(f"/proc/self/task/{thread.native_id}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        group = ("loop" if thread is threading.main_thread()
                 else "render" if thread.name.startswith("render-")
                 else "sqlite" if "_connection_worker_thread" in thread.name else "other")
        groups[group] = groups.get(group, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    for child in multiprocessing.active_children():  # the bot's image processes
        try:
            with open(f"/proc/{child.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        groups["image_processes"] = (groups.get("image_processes", 0.0)
                                     + (int(fields[11]) + int(fields[12])) / tick)
    return dict(groups)


class Work:
    """Counts of what the bot does while the moves are made (wrappers around the bot's storage,
    renderer and the offline server; nothing of the bot is changed)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.cpu_started = time.process_time()
        self.threads_started: dict[str, float] = {}
        self.original: dict[str, Any] = {}
        """The unwrapped methods (the bench's own reads are not counted)."""
        self.tables = TableWatch()
        self._drawn: set[int] = set()
        self._lock = threading.Lock()

    def reset(self) -> None:
        with self._lock:
            self.counts.clear()
            self.cpu_started = time.process_time()
        self.threads_started = thread_cpu()

    def add(self, key: str, n: int = 1) -> None:
        with self._lock:
            self.counts[key] += n

    async def install(self, server: OfflineDiscordServer, governor: BenchBot) -> None:
        service, games = governor.service, governor.storage.games
        drawing = service.drawing
        draw_image = getattr(drawing, "_draw", None)  # an image drawn (not one kept)
        if draw_image is not None:
            async def drawn(view: Mapping[str, Any], *args: Any) -> bytes | None:
                self.image(view, args)
                return cast(bytes | None, await draw_image(view, *args))

            setattr(drawing, "_draw", drawn)  # noqa: B010  (an instance attribute)
        elif (renderer := drawing.renderer) is not None:  # a bot that draws every image asked
            def draw(view: Mapping[str, Any], *args: Any) -> bytes:
                self.image(view, args)
                return renderer(view, *args)

            drawing.renderer = draw
        board = drawing.board

        async def board_asked(view: Mapping[str, Any], *args: Any, **kwargs: Any
                              ) -> bytes | None:
            kind = ("panel" if view.get("viewer") is not None
                    else "story" if kwargs.get("urgent") is False else "table")
            self.add(f"boards_asked_{kind}")
            return await board(view, *args, **kwargs)

        drawing.board = board_asked  # type: ignore[method-assign]
        self._wrap(games, "load", lambda *a, **k: "game_loads")
        for name in game_names():  # the engine's invariants, run by a load that checks them
            game = get_game(name)
            if hasattr(game, "invariants"):
                self._wrap(game, "invariants", lambda *a, **k: "invariant_checks")
        self._wrap(games, "commit_action", lambda *a, **k: (
            "moves_committed" if k.get("user_id") else "moves_committed_automatic"))
        self._wrap(games, "actions", lambda *a, **k: "log_reads", rows="log_rows_read")
        replay = getattr(bot_history, "views_after", None)
        if replay is not None:
            def views_after(game: Any, options: Any, seed: int, actions: Any, indexes: Any
                            ) -> Any:
                self.add("log_replays")
                self.add("log_replay_actions", max(indexes, default=-1) + 1)
                return replay(game, options, seed, actions, indexes)

            bot_history.views_after = views_after  # type: ignore[attr-defined]
        await governor.storage.db.set_trace(lambda _sql: self.add("sql_statements"))
        self._wrap(server, "create_message", lambda channel, *a, **k: (
            "dms_sent" if channel.guild_id is None
            else "private_messages" if k.get("flags", 0) & 64 else "channel_posts"),
            then=self.tables.stored)
        self._wrap(server, "edit_message", lambda message, *a, **k: (
            "private_edits" if message.ephemeral or message.guild_id is None
            else "channel_edits"), then=self.tables.stored)

    def image(self, view: Mapping[str, Any], args: tuple[Any, ...]) -> None:
        try:  # the same board (view, highlights) drawn again?
            key = hash(pickle.dumps((view, *args[:2])))
        except Exception:
            key = hash(repr((view, *args[:2])))
        with self._lock:
            self.counts["images" if view.get("viewer") is None else "images_private"] += 1
            self.counts["images_again"] += key in self._drawn
            self._drawn.add(key)

    def _wrap(self, owner: Any, name: str, key: Callable[..., str], *, rows: str = "",
              then: Callable[[Any], object] | None = None) -> None:
        inner = self.original[name] = getattr(owner, name)
        if asyncio.iscoroutinefunction(inner):
            async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
                self.add(key(*args, **kwargs))
                result = await inner(*args, **kwargs)
                if rows:
                    self.add(rows, len(result))
                return result

            setattr(owner, name, wrapped_async)
        else:
            def wrapped(*args: Any, **kwargs: Any) -> Any:
                self.add(key(*args, **kwargs))
                result = inner(*args, **kwargs)
                if then is not None:
                    then(result)
                return result

            setattr(owner, name, wrapped)

    def per_move(self, moves: int) -> dict[str, float]:
        with self._lock:
            out = {k: round(v / max(moves, 1), 2) for k, v in sorted(self.counts.items())}
        out["process_cpu_ms"] = round(
            (time.process_time() - self.cpu_started) * 1000 / max(moves, 1), 1)
        for group, total in thread_cpu().items():
            spent = total - self.threads_started.get(group, 0.0)
            out[f"cpu_ms_{group}"] = round(spent * 1000 / max(moves, 1), 1)
        return out


def shown_version(message: StoredMessage | None, game_id: int) -> int:
    """The version the table message was drawn for (its buttons carry it)."""
    for comp in message.iter_components() if message else ():
        custom_id = str(comp.get("custom_id", ""))
        if custom_id.startswith(f"t:{game_id}:"):
            return int(custom_id.split(":")[2])
    return -1


class TableWatch:
    """Wakes a player when the offline server stores their table drawn for a later version.

    Told of every message stored (no polling): with a hundred tables waiting, the server's
    ``wait_for`` (every waiter checked on every change and every 20 ms) costs the shared event
    loop more than the bot's own work, and the figures would measure the bench."""

    def __init__(self) -> None:
        self.waiting: dict[int, list[tuple[int, int, asyncio.Future[None]]]] = {}

    def stored(self, message: StoredMessage) -> None:
        for entry in list(self.waiting.get(message.id, ())):
            game_id, version, future = entry
            if not future.done() and shown_version(message, game_id) > version:
                future.set_result(None)

    async def wait(self, server: OfflineDiscordServer, table_id: int, game_id: int,
                   version: int, timeout: float) -> None:
        if shown_version(server.get_message(table_id), game_id) > version:
            return
        entry = (game_id, version, asyncio.get_running_loop().create_future())
        self.waiting.setdefault(table_id, []).append(entry)
        try:
            await asyncio.wait_for(entry[2], timeout)
        finally:
            self.waiting[table_id].remove(entry)


@dataclass
class Table:
    channel: Channel
    people: list[ScriptedUser]  # the creator first
    game: str = GAME
    game_id: int = 0
    ai_level: str = "heuristic"
    stuck: bool = False
    """The game waits on its AI seats, which the bot does not play (their moves failed:
    the database was busy); left out of the moves."""

    @property
    def stuck_after(self) -> float:
        """Seconds a person waits on the AI seats before the game counts as stuck: a strong
        seat thinks (queued behind the other games' seats), the others play at once."""
        return 300.0 if self.ai_level == "strong" else 30.0


AGAIN = {key: CATALOG.t("en", key, game="\0").split("\0") for key in (
    "err.database_busy", "reply.outdated", "reply.outdated_table", "reply.outdated_panel",
    "err.stale")}
"""The replies (their words around the game's number) by which the bot refuses a click that
a person makes again: the database was busy ("try again in a moment"); the button was drawn
for an older state (a Start that failed after changing the lobby, a move after such a
failure)."""


def refusal(handle: InteractionHandle) -> str | None:
    """The key of the bot's reply to ``handle`` if it refused the click as one to make again."""
    for reply in (*handle.followups, handle.original_message_or_none):
        text = reply.text() if reply is not None else ""
        for key, parts in AGAIN.items():
            if all(part in text for part in parts):
                return key
    return None


async def answered(server: OfflineDiscordServer, rec: Recorder,
                   click: Callable[[], Awaitable[InteractionHandle]], channel: Channel,
                   changed: Callable[[StoredMessage], bool]) -> bool:
    """``click()``, then wait until a message of ``channel`` posted or edited since is
    ``changed`` (what the click was for): ``True``; or until the bot refused it as a click to
    make again (:data:`AGAIN`): ``False``, the refusal counted in ``rec``."""
    since = server.mark()
    handle = await click()
    await rec.ack(handle)

    def check() -> bool | None:
        for message in reversed(server.messages(channel)):
            if message.version > since and changed(message):
                return True
        if (key := refusal(handle)) is None:
            return None
        rec.refused[key] += 1
        return False

    return await server.wait_for(check, timeout=60, what=f"the answer to {handle!r}")


async def open_table(
    server: OfflineDiscordServer, table: Table, players: int, ai_seats: int, rec: Recorder,
    storage: Storage,
) -> None:
    """``/game new``, the others join, the creator starts: the game is in progress."""
    channel, creator = table.channel, table.people[0]
    mark = server.mark()
    handle = await creator.run(
        f"/game new game:{table.game} max_players:{players} ai_seats:{ai_seats}"
        f" ai_level:{table.ai_level}", channel=channel)
    await rec.ack(handle)
    # The reply follows the lobby's id stored: a Join sooner (on its message, already posted)
    # is refused as a click on a message not the game's (the bot in another process is seen
    # between the two; a person is not that quick).
    await handle.original_message(timeout=60)
    lobby = await server.wait_for_message(
        channel, lambda m: m.find_component(custom_id_prefix="l:") is not None, since=mark,
        timeout=60,
    )

    def seated(user: ScriptedUser) -> Callable[[StoredMessage], bool]:
        return lambda m: m.id == lobby.id and f"<@{user.id}>" in m.text()

    for guest in table.people[1:]:  # the lobby redrawn with the guest seated
        while not await answered(server, rec, partial(guest.click, lobby, label="Join"),
                                 channel, seated(guest)):
            pass  # refused (the database was busy): the guest clicks again

    def started(message: StoredMessage) -> bool:
        return "round 1" in message.text()

    while not await answered(server, rec, partial(creator.click, lobby, label="Start"),
                             channel, started):
        # Refused: the database was busy, or the lobby changed by a Start that failed: the
        # creator clicks again, unless the game started after all (the refusal was of the AI
        # seats' moves that follow the Start: the table comes once they are made).
        if lobby.find_component(label="Start") is None:
            try:
                await server.wait_for_message(channel, started, timeout=table.stuck_after)
            except OfflineDiscordTimeout:
                table.stuck = True
            break
    found = await storage.games.find_by_channel(channel.id)
    assert found is not None
    table.game_id = found.id


async def advance(governor: BenchBot, table: Table, decisions: int) -> None:
    """Play ``table``'s game on past ``decisions`` of its people (the heuristic for every seat)
    through the storage, up to a person's decision; then publish its table once."""
    made = await advance_stored(governor.storage, table, decisions)
    if made and governor.publisher is not None:
        await governor.publisher.publish_table(await governor.service.table(table.game_id))


async def advance_stored(storage: Storage, table: Table, decisions: int) -> int:
    """Play ``table``'s game on past ``decisions`` of its people (the heuristic for every seat)
    through ``storage``, up to a person's decision; the decisions of people made."""
    games, game = storage.games, get_game(table.game)
    loaded = await games.load(table.game_id)
    record, state, made = loaded.record, loaded.state, 0
    while (prompt := game.prompt(state)) is not None:
        people = [s for s in prompt.seats if (r := record.seat(s)) and r.user_id]
        if people and made >= decisions:
            break
        seat = prompt.seats[0]
        user_id = record.seat(seat).user_id  # type: ignore[union-attr]
        action = make_policy("heuristic", table.game, record.seq).choose(
            game, state, seat, game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        while True:
            try:
                record = (await games.commit_action(
                    table.game_id, expected_version=record.version, seat=seat,
                    code=game.encode_action(action), state=state, events=events,
                    user_id=user_id,
                )).record
                break
            except DatabaseBusy:  # PostgreSQL: many games at once (the bench's, no bot's)
                await asyncio.sleep(0.1)
        made += user_id is not None
    return made


async def play_table(
    server: OfflineDiscordServer,
    load: Callable[[int], Awaitable[LoadedGame]],
    table: Table,
    moves: int,
    think: float,
    rec: Recorder,
    watch: TableWatch,
    seed: int | None = None,
) -> None:
    """``moves`` decisions of the people of one game, each after thinking a while (``seed``
    of the think times: the table's channel id unless given).  ``load`` reads the game as the
    players see it (not counted in the bot's work).  A move the bot refuses as one to make
    again (:data:`AGAIN`: the database was busy) is made again half a second later (counted in
    ``rec.refused``); its update counts from the first click."""
    rng = random.Random(table.channel.id if seed is None else seed)
    for step in range(moves if not table.stuck else 0):
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        first: float | None = None
        while True:
            made = await click_move(server, load, table, step, rec)
            if made is None:
                return  # the game is over
            click, record = made
            first = click.created_at if first is None else first
            if (key := await shown(server, watch, click, record)) is None:
                break
            rec.refused[key] += 1
            await asyncio.sleep(0.5)
        rec.updates.append((time.monotonic() - first) * 1000)
        rec.clicks.append(first)


async def click_move(server: OfflineDiscordServer, load: Callable[[int], Awaitable[LoadedGame]],
                     table: Table, step: int, rec: Recorder
                     ) -> tuple[InteractionHandle, GameRecord] | None:
    """Read the game, choose the person's move (the heuristic) and click it: a role button on
    the table, or **My turn** and the panel's control.  The click and the game as it was read;
    ``None`` when the game is over or stuck (``table.stuck``)."""
    users = {u.id: u for u in table.people}
    game = get_game(table.game)
    loaded = await load(table.game_id)
    record, prompt = loaded.record, game.prompt(loaded.state)
    waited = 0.0
    while prompt is not None and not any(
            (r := record.seat(s)) and r.user_id for s in prompt.seats):
        await asyncio.sleep(0.25)  # a strong AI seat thinks: the person waits for it
        waited += 0.25
        if waited > table.stuck_after:
            table.stuck = True
            return None
        loaded = await load(table.game_id)
        record, prompt = loaded.record, game.prompt(loaded.state)
    if prompt is None:
        return None
    seat, user_id = next((s, r.user_id) for s in prompt.seats
                         if (r := record.seat(s)) and r.user_id)
    user = users[int(user_id or 0)]
    action = make_policy("heuristic", table.game, step).choose(
        game, loaded.state, seat, game.legal_actions(loaded.state, seat)
    )
    code = game.encode_action(action)
    table_message = server.get_message(record.messages["table"])
    assert table_message is not None
    role = f"g:{record.id}:{record.version}:{code}"
    if code.startswith("r.") and table_message.find_component(custom_id=role) is not None:
        click = await user.click(table_message,
                                 custom_id=f"g:{record.id}:{record.version}:{code}")
    else:
        opened = await user.click(table_message, label="My turn")
        await rec.ack(opened)
        click = await in_panel(user, await opened.original_message(timeout=60), record,
                               code, table.game)
    await rec.ack(click)
    return click, record


async def shown(server: OfflineDiscordServer, watch: TableWatch, click: InteractionHandle,
                record: GameRecord, timeout: float = 60) -> str | None:
    """Wait until the table shows a version after ``record``'s (the move made): ``None``; or
    until the bot refused ``click`` as one to make again: the key of its reply."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            await watch.wait(server, record.messages["table"], record.id, record.version,
                             max(0.0, min(1.0, deadline - loop.time())))
            return None
        except TimeoutError:
            if (key := refusal(click)) is not None:
                return key
            if loop.time() >= deadline:
                raise


async def in_panel(user: ScriptedUser, panel: StoredMessage, record: Any, code: str,
                   game: str) -> InteractionHandle:
    """Click the panel's control for ``code``: its button, the menu offering it, the values of
    a multi-select that stand for it (San Juan's payment); else the Mayor draft's
    confirmation."""
    custom_id = f"g:{record.id}:{record.version}:{code}"
    if panel.find_component(custom_id=custom_id) is not None:
        return await user.click(panel, custom_id=custom_id)
    presenter = presenter_for(game)
    for select in panel.selects():
        values = [str(o["value"]) for o in select.get("options", ())]
        chosen = presenter.decompose(str(select["custom_id"]).split(":")[3], code, values)
        if chosen is not None:
            return await user.select(panel, chosen, custom_id=select["custom_id"])
    if panel.find_component(custom_id_prefix=f"mb:{record.id}:") is None:
        raise AssertionError(f"game {record.id} v{record.version}: no control for {code!r} in "
                             f"{[b.get('custom_id') for b in panel.buttons()]}")
    return await user.click(panel, custom_id_prefix=f"mb:{record.id}:")


async def loop_lag(lags: list[float], period: float = 0.01) -> None:
    """How late the event loop runs a timer (every ``period``): everything on the loop (the
    bot's callbacks, its storage's results coming back from SQLite's thread) waits as long."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + period
        await asyncio.sleep(period)
        lags.append((loop.time() - due) * 1000)


def busy_rate(clicks: list[float]) -> float:
    """Moves per second while every game is playing: the middle 80 % of the clicks over the
    time they span (the first moves wait a think time, the last games finish alone)."""
    clicks = sorted(clicks)
    first, last = len(clicks) // 10, len(clicks) - 1 - len(clicks) // 10
    span = clicks[last] - clicks[first] if last > first else 0.0
    return round((last - first) / span, 1) if span > 0 else 0.0


def figures(values: list[float]) -> dict[str, float]:
    values = sorted(values) or [0.0]
    return {
        "p50": round(statistics.median(values), 2),
        "p95": round(values[min(len(values) - 1, int(0.95 * len(values)))], 2),
        "max": round(values[-1], 2),
    }


async def measure(games: int, moves: int, render: bool, think: float, *, players: int = 3,
                  ai_seats: int = 1, advanced: int = 0, profile: str | None = None,
                  game: str = GAME, ai_level: str = "heuristic",
                  ai_budget: int | None = None, database_url: str | None = None
                  ) -> dict[str, Any]:
    """The bench with the bot in this process, on ``database_url`` (default: a new SQLite
    file)."""
    if not 0 <= ai_seats < players:
        raise ValueError("--ai-seats must leave a seat for a person")
    rec, work = Recorder(), Work()
    with tempfile.TemporaryDirectory(prefix="governor-bench-") as tmp:
        async with OfflineDiscordServer(ack_timeout=DISCORD_ACK_TIMEOUT) as server:  # the 3 s rule
            guild = server.add_guild("Bench")
            tables = []
            for i in range(games):
                channel = server.add_text_channel(guild, f"table-{i}")
                people = [server.add_user(f"creator{i}", guild=guild)]
                people += [server.add_user(f"guest{i}-{j}", guild=guild)
                           for j in range(players - ai_seats - 1)]
                tables.append(Table(channel, people, game, ai_level=ai_level))
            settings = Settings(token=server.bot_token,
                                database_url=database_url or str(Path(tmp) / "bench.db"),
                                dev_guild_id=guild.id,
                                ai_budget=DEFAULT_BUDGET if ai_budget is None else ai_budget)
            options: dict[str, Any] = {"guild_ready_timeout": 0.05}
            if not render:
                options["renderer"] = None
            governor = BenchBot(settings, **options)
            async with running_client(server, governor):
                await server.wait_for_command_sync(guild)
                await work.install(server, governor)
                opened = time.perf_counter()
                await asyncio.gather(*(open_table(server, t, players, ai_seats, rec,
                                                  governor.storage) for t in tables))
                if advanced:
                    await asyncio.gather(*(advance(governor, t, advanced) for t in tables))
                await governor.wait_idle()
                setup_s = time.perf_counter() - opened
                work.reset()
                print(f"set up in {setup_s:.1f} s; the moves begin", file=sys.stderr, flush=True)
                profiler = cProfile.Profile() if profile else None
                if profiler is not None:
                    profiler.enable()
                started = time.perf_counter()
                lags: list[float] = []
                lagging = asyncio.create_task(loop_lag(lags))
                load = work.original.get("load", governor.storage.games.load)
                await asyncio.gather(*(play_table(server, load, t, moves, think, rec,
                                                  work.tables) for t in tables))
                seconds = time.perf_counter() - started
                lagging.cancel()
                per_move = work.per_move(len(rec.updates))
                if profiler is not None and profile:
                    profiler.disable()
                    profiler.dump_stats(profile)
                await governor.wait_idle()
            failed = len(server.failed_interactions)
    postgresql = {} if database_url is None else {
        "backend": "postgresql", "refused": dict(rec.refused),
        "stuck_games": [t.game_id for t in tables if t.stuck]}
    return {
        "game": game,
        "ack_ms": figures(rec.latencies),
        "update_ms": figures(rec.updates),
        "loop_lag_ms": figures(lags),
        "interactions": len(rec.latencies),
        "moves": len(rec.updates),
        "failed_interactions": failed,
        "games": games,
        "players": players,
        "ai_seats": ai_seats,
        "ai_level": ai_level,
        "ai_budget": settings.ai_budget,
        "advance": advanced,
        "moves_per_game": moves,
        "think_s": think,
        "render": render,
        "setup_s": round(setup_s, 2),
        "seconds": round(seconds, 2),
        "moves_per_s": round(len(rec.updates) / seconds, 1) if seconds else 0.0,
        "moves_per_s_busy": busy_rate(rec.clicks),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "work": per_move,
        **postgresql,
    }


OPENING = 4
"""Games opened at once by the bench with the bot in processes (on PostgreSQL).  All of
them at once, or ten at once, exhausted the storage's retries of serialization failures (a
Start refused as "the game database is busy"; or the AI seats' moves after it, the game then
waiting on them until the bot restarts)."""


def watch_tables(server: OfflineDiscordServer, watch: TableWatch) -> None:
    """Tell ``watch`` of every message ``server`` stores (posted or edited)."""
    def telling(inner: Callable[..., StoredMessage]) -> Callable[..., StoredMessage]:
        def stored(*args: Any, **kwargs: Any) -> StoredMessage:
            message = inner(*args, **kwargs)
            watch.stored(message)
            return message

        return stored

    for name in ("create_message", "edit_message"):
        setattr(server, name, telling(getattr(server, name)))


async def settle(server: OfflineDiscordServer, storage: Storage, tables: list[Table],
                 bots: BotProcesses, timeout: float, stall: float = 60) -> None:
    """Wait until every game in progress shows its stored version on its table and the bot
    processes are quiet (less than 5 % of a core each over a second): what ``wait_idle`` is for
    a bot in this process (its DMs and story posts done).  Games whose tables stay behind
    for ``stall`` seconds are ``stuck`` (left out)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    behind: list[Table] = []
    last, changed = [-1], loop.time()
    while loop.time() < deadline:
        behind = []
        for table in tables:
            if table.stuck:
                continue
            record = await storage.games.get(table.game_id)
            message = server.get_message(record.messages.get("table", 0))
            if (record.status is GameStatus.ACTIVE
                    and shown_version(message, record.id) < record.version):
                behind.append(table)
        if [t.game_id for t in behind] != last:
            last, changed = [t.game_id for t in behind], loop.time()
        if behind and loop.time() - changed > stall:
            print(f"games stuck (their tables behind their stored state for {stall:.0f} s): "
                  f"{last}", file=sys.stderr, flush=True)
            for table in behind:
                table.stuck = True
            return
        if behind:
            await asyncio.sleep(0.5)
            continue
        def busy() -> float:
            return sum(c.total for c in processes_cpu(bots.pids()).values())

        before = busy()
        await asyncio.sleep(1.0)
        if busy() - before < 0.05 * len(bots.running):
            return
    raise TimeoutError(f"the bot processes did not settle in {timeout:.0f} s (tables behind "
                       f"their games: {[t.game_id for t in behind][:10]})")


async def measure_processes(
    games: int, moves: int, think: float, *, processes: int, shard_count: int,
    database_url: str, log_dir: Path, players: int = 3, ai_seats: int = 1, advanced: int = 0,
    game: str = GAME, ai_level: str = "heuristic", ai_budget: int | None = None,
    postgres_dir: Path | None = None,
) -> dict[str, Any]:
    """The bench with the bot as ``processes`` processes of ``python -m bot`` sharing
    ``shard_count`` shards, on ``database_url``; their logs in ``log_dir``."""
    if not 0 <= ai_seats < players:
        raise ValueError("--ai-seats must leave a seat for a person")
    groups = shard_groups(processes, shard_count)
    recs = {shard: Recorder() for shard in range(shard_count)}
    watch = TableWatch()
    async with OfflineDiscordServer(ack_timeout=DISCORD_ACK_TIMEOUT) as server:  # the 3 s rule
        watch_tables(server, watch)
        guilds = [guild_on_shard(server, shard, shard_count, f"Bench {shard}")
                  for shard in range(shard_count)]
        tables: list[tuple[int, Table]] = []  # (shard, table): game i in the server of shard i % S
        for i in range(games):
            shard = i % shard_count
            guild = guilds[shard]
            channel = server.add_text_channel(guild, f"table-{i}")
            people = [server.add_user(f"creator{i}", guild=guild)]
            people += [server.add_user(f"guest{i}-{j}", guild=guild)
                       for j in range(players - ai_seats - 1)]
            tables.append((shard, Table(channel, people, game, ai_level=ai_level)))
        # The players' own reading of the games (as people read the tables); opened first, so
        # the database's schema is made before the bots start.
        storage = await Storage.open(database_url)
        bots = BotProcesses(server, database_url, log_dir, shard_count=shard_count,
                            ai_budget=ai_budget)
        try:
            await bots.sync_commands()
            await bots.start_all(groups)
            print(f"{processes} bot process(es) ready: shards "
                  f"{[shards_text(g) for g in groups]} of {shard_count}, pids "
                  f"{list(bots.pids().values())}; logs in {log_dir}", file=sys.stderr, flush=True)
            opened = time.perf_counter()
            opening = asyncio.Semaphore(OPENING)

            async def open_one(shard: int, table: Table) -> None:
                async with opening:
                    await open_table(server, table, players, ai_seats, recs[shard], storage)

            await asyncio.gather(*(open_one(shard, t) for shard, t in tables))
            everything = [t for _, t in tables]
            if advanced:  # through the storage, bots stopped; at start-up each publishes its
                await bots.stop()  # servers' tables again (they are behind the stored games)
                await asyncio.gather(*(advance_stored(storage, t, advanced) for t in everything))
                await bots.start_all(groups)
            await settle(server, storage, everything, bots, timeout=600)
            setup_s = time.perf_counter() - opened
            print(f"set up in {setup_s:.1f} s; the moves begin", file=sys.stderr, flush=True)
            postmaster = postmaster_pid(postgres_dir) if postgres_dir is not None else None
            cpu_before = processes_cpu(bots.pids())
            pg_before = process_cpu(postmaster) if postmaster is not None else Cpu()
            bench_before, machine_before = time.process_time(), MachineCpu.now()
            started = time.perf_counter()
            await asyncio.gather(*(
                play_table(server, storage.games.load, t, moves, think, recs[shard], watch,
                           seed=i)
                for i, (shard, t) in enumerate(tables)))
            seconds = time.perf_counter() - started
            cpu_spent = {i: c - cpu_before[i] for i, c in processes_cpu(bots.pids()).items()}
            pg_spent = (process_cpu(postmaster) - pg_before if postmaster is not None else None)
            bench_spent = time.process_time() - bench_before
            machine_after = MachineCpu.now()
            machine_busy = machine_after.share_since(machine_before)
            machine_s = machine_after.seconds_since(machine_before)
            with contextlib.suppress(TimeoutError):  # the last moves' DMs and story posts
                await settle(server, storage, everything, bots, timeout=60)
        finally:
            await bots.stop()
            await storage.close()
        failed = len(server.failed_interactions)
    problems = bots.problems()
    for name, lines in problems.items():
        print(f"{name}: {len(lines)} ERROR/traceback lines; the first ones:", file=sys.stderr)
        for line in lines[:10]:
            print(f"  {line}", file=sys.stderr)
    every = Recorder()
    for rec in recs.values():
        every.latencies += rec.latencies
        every.updates += rec.updates
        every.clicks += rec.clicks
    moved = len(every.updates)
    bot_cpu = sum(c.total for c in cpu_spent.values())
    return {
        "game": game,
        "processes": processes,
        "backend": parse_url(database_url)[0],
        "shard_count": shard_count,
        "shards": [shards_text(g) for g in groups],
        "ack_ms": figures(every.latencies),
        "update_ms": figures(every.updates),
        "interactions": len(every.latencies),
        "moves": moved,
        "failed_interactions": failed,
        "refused": dict(sum((rec.refused for rec in recs.values()), Counter[str]())),
        "stuck_games": [t.game_id for _, t in tables if t.stuck],
        "games": games,
        "players": players,
        "ai_seats": ai_seats,
        "ai_level": ai_level,
        "ai_budget": DEFAULT_BUDGET if ai_budget is None else ai_budget,
        "advance": advanced,
        "moves_per_game": moves,
        "think_s": think,
        "render": True,
        "setup_s": round(setup_s, 2),
        "seconds": round(seconds, 2),
        "moves_per_s": round(moved / seconds, 1) if seconds else 0.0,
        "moves_per_s_busy": busy_rate(every.clicks),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "by_shard": {str(shard): {"ack_ms": figures(rec.latencies),
                                  "update_ms": figures(rec.updates), "moves": len(rec.updates)}
                     for shard, rec in recs.items()},
        "cpu": {
            "bot_processes": [
                {"shards": shards_text(groups[i]), "cpu_s": round(c.own, 2),
                 "core_share": round(c.own / seconds, 3) if seconds else 0.0,
                 "workers_cpu_s": round(c.children, 2)}
                for i, c in sorted(cpu_spent.items())],
            "bot_cpu_ms_per_move": round(bot_cpu * 1000 / max(moved, 1), 1),
            "postgresql_cpu_s": None if pg_spent is None else round(pg_spent.total, 2),
            "bench_cpu_s": round(bench_spent, 2),
            "machine_busy": machine_busy,
            "cores": os.cpu_count(),
            "other_cpu_s": round(max(0.0, machine_s - bot_cpu - bench_spent
                                     - (pg_spent.total if pg_spent is not None else 0.0)), 2),
        },
        "log_problems": sum(len(lines) for lines in problems.values()),
    }


SIDE_BY_SIDE: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    ("processes (shards)", lambda r: f"{r['processes']} ({', '.join(r['shards'])})"),
    ("ack ms p50 / p95", lambda r: f"{r['ack_ms']['p50']} / {r['ack_ms']['p95']}"),
    ("update ms p50 / p95", lambda r: f"{r['update_ms']['p50']} / {r['update_ms']['p95']}"),
    ("update ms max", lambda r: r["update_ms"]["max"]),
    ("moves/s (busy)", lambda r: f"{r['moves_per_s']} ({r['moves_per_s_busy']})"),
    ("interactions / failed", lambda r: f"{r['interactions']} / {r['failed_interactions']}"),
    ("refused, made again", lambda r: ", ".join(
        f"{n} {key}" for key, n in sorted(r["refused"].items())) or 0),
    ("games stuck on AI seats", lambda r: len(r["stuck_games"])),
    ("bot CPU s per process", lambda r: " + ".join(
        str(p["cpu_s"]) for p in r["cpu"]["bot_processes"])),
    ("bot core share", lambda r: " + ".join(
        str(p["core_share"]) for p in r["cpu"]["bot_processes"])),
    ("workers CPU s", lambda r: " + ".join(
        str(p["workers_cpu_s"]) for p in r["cpu"]["bot_processes"])),
    ("bot CPU ms per move", lambda r: r["cpu"]["bot_cpu_ms_per_move"]),
    ("PostgreSQL CPU s", lambda r: r["cpu"]["postgresql_cpu_s"]),
    ("bench CPU s", lambda r: r["cpu"]["bench_cpu_s"]),
    ("machine busy", lambda r: r["cpu"]["machine_busy"]),
    ("other processes' CPU s", lambda r: r["cpu"]["other_cpu_s"]),
    ("log ERROR/tracebacks", lambda r: r["log_problems"]),
]


def side_by_side(results: list[dict[str, Any]]) -> str:
    """The figures of process runs in columns, one per run."""
    rows = [(label, [str(show(r)) for r in results]) for label, show in SIDE_BY_SIDE]
    width = max(len(label) for label, _ in rows)
    columns = [max(len(row[1][i]) for row in rows) for i in range(len(results))]
    return "\n".join(f"{label:<{width}}  " + "  ".join(
        f"{cell:>{columns[i]}}" for i, cell in enumerate(cells)) for label, cells in rows)


def run_processes(args: argparse.Namespace, chosen: dict[str, Any], counts: list[int],
                  backend: str) -> list[dict[str, Any]]:
    """The process runs of ``counts`` (processes per run), one after the other, each on a new
    database of one server: PostgreSQL (durable, a server of the bench's own) or SQLite."""
    shard_count = args.shard_count or max(2, *counts)
    results = []
    with tempfile.TemporaryDirectory(prefix="governor-bench-") as tmp, \
            contextlib.ExitStack() as stack:
        logs = Path(args.logs) if args.logs else Path(tmp) / "logs"
        postgres = (stack.enter_context(temporary_server(Path(tmp) / "postgresql", durable=True))
                    if backend == "postgresql" else None)
        for run, processes in enumerate(counts, 1):
            name = f"run{run}-processes{processes}"
            log_dir = logs / name
            log_dir.mkdir(parents=True, exist_ok=True)
            url = (postgres.create_database(name.replace("-", "_")) if postgres is not None
                   else f"sqlite:///{Path(tmp) / name}.db")
            print(f"{name}: {processes} bot process(es) on {backend}", file=sys.stderr,
                  flush=True)
            result = asyncio.run(measure_processes(
                chosen["games"], chosen["moves"], chosen["think"], processes=processes,
                shard_count=shard_count, database_url=url, log_dir=log_dir,
                players=chosen["players"], ai_seats=chosen["ai_seats"],
                advanced=chosen["advance"], game=args.game, ai_level=args.ai_level,
                ai_budget=args.ai_budget,
                postgres_dir=Path(tmp) / "postgresql" if postgres is not None else None))
            results.append({"scenario": args.scenario, **result})
            print(f"{name}: {result['interactions']} interactions, {result['moves']} moves in "
                  f"{result['seconds']} s", file=sys.stderr, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="default")
    parser.add_argument("--games", type=int, help="games in progress at once")
    parser.add_argument("--moves", type=int, help="decisions of the people of each game")
    parser.add_argument("--think", type=float,
                        help="mean seconds a player thinks before a move")
    parser.add_argument("--game", choices=list(PACKAGES), default=GAME,
                        help="the game every table plays")
    parser.add_argument("--players", type=int, help="seats of each game")
    parser.add_argument("--ai-seats", type=int, help="AI seats of each game")
    parser.add_argument("--advance", type=int,
                        help="decisions of the people played through the storage first")
    parser.add_argument("--ai-level", choices=("random", "heuristic", "strong"),
                        default="heuristic", help="the AI seats' level")
    parser.add_argument("--ai-budget", type=int,
                        help="the strong seats' engine actions per decision (AI_BUDGET)")
    parser.add_argument("--no-render", action="store_true", help="text tables only")
    parser.add_argument("--profile", metavar="FILE",
                        help="cProfile the event loop's thread while the moves are made "
                             "(bot and offline Discord; the render threads are not in it), "
                             "stats to FILE, the top 25 by cumulative time to stderr")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"),
                        help="the database: sqlite (the default in this process) or "
                             "postgresql (a durable server of the bench's own; the default "
                             "with --processes)")
    parser.add_argument("--processes", type=int, metavar="N",
                        help="run the bot as N processes of python -m bot (the shards split "
                             "evenly), not in this process")
    parser.add_argument("--shard-count", type=int, metavar="S",
                        help="with --processes: the bot's shards, one server of games each "
                             "(default: 2, or N when more)")
    parser.add_argument("--compare", action="store_true",
                        help="run 1 process, then --processes (default 2), same load; "
                             "print both side by side")
    parser.add_argument("--logs", metavar="DIR",
                        help="with --processes: keep the bot processes' logs in DIR")
    args = parser.parse_args(argv)
    chosen = {key: value if (value := getattr(args, key)) is not None else default
              for key, default in SCENARIOS[args.scenario].items()}
    if args.scenario == "reminders":  # no Discord: the pass over the stored waits
        return reminders.main([f"--games={chosen['games']}", *(["--json"] if args.json else [])])
    if args.compare or args.processes is not None:
        counts = [1, args.processes or 2] if args.compare else [args.processes]
        backend = args.backend or "postgresql"
        if min(counts) < 1:
            parser.error("--processes must be at least 1")
        if backend == "sqlite" and max(counts) > 1:
            parser.error("several processes share a PostgreSQL database, not an SQLite file")
        if args.no_render or args.profile:
            parser.error("--no-render and --profile are for the bot in this process; the "
                         "bot's processes draw their images and are not profiled")
        try:
            for processes in counts:
                shard_groups(processes, args.shard_count or max(2, *counts))
        except ValueError as exc:
            parser.error(str(exc))
        results = run_processes(args, chosen, counts, backend)
        table = side_by_side(results)
        if args.json:
            print(json.dumps({"compare": results} if args.compare else results[0]))
            print(table, file=sys.stderr)
        else:
            for result in results:
                for key, value in result.items():
                    print(f"{key}: {value}")
                print()
            print(table)
        return 1 if any(r["failed_interactions"] for r in results) else 0
    with tempfile.TemporaryDirectory(prefix="governor-bench-") as tmp, \
            contextlib.ExitStack() as stack:
        database_url = None
        if args.backend == "postgresql":
            postgres = stack.enter_context(temporary_server(Path(tmp) / "postgresql",
                                                            durable=True))
            database_url = postgres.create_database("bench")
        result = asyncio.run(measure(
            chosen["games"], chosen["moves"], not args.no_render, chosen["think"],
            players=chosen["players"], ai_seats=chosen["ai_seats"], advanced=chosen["advance"],
            profile=args.profile, game=args.game, ai_level=args.ai_level,
            ai_budget=args.ai_budget, database_url=database_url))
    result = {"scenario": args.scenario, **result}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    print(f"{result['interactions']} interactions, {result['moves']} moves in "
          f"{result['seconds']} s", file=sys.stderr)
    if args.profile:
        pstats.Stats(args.profile, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    return 1 if result["failed_interactions"] else 0


if __name__ == "__main__":
    sys.exit(main())
