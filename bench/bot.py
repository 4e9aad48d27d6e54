"""Bot benchmark: with many games in progress at once, through the offline Discord server (the
real discord.py client, the real bot, a real SQLite file, the real renderer), how fast each
interaction is acknowledged and how fast the table follows a click.

    python -m bench.bot [--json] [--scenario default|ai-heavy] [--game puerto-rico|san-juan]
                        [--games 50] [--moves 8] [--think 3] [--players 3] [--ai-seats 1]
                        [--ai-level heuristic|strong|random] [--ai-budget N]
                        [--advance 0] [--no-render] [--profile FILE]

Each of ``--games`` channels runs at the same time: ``/game new`` of ``--game`` (``--players``
seats, ``--ai-seats`` of them AI), the other people click Join, the creator clicks Start (random
seating, AI turns, the table rendered and posted, the first player notified); then ``--moves``
decisions are made with the real controls (the code chosen by the heuristic policy): a role
button on the table, or **My turn** and the private panel's button or menu.  The moves begin
once every game has started; each player thinks ``--think`` seconds on average (0.5x to 1.5x)
before a move, so the tables are busy at the same time without moving in lock step.

Scenarios (the options given explicitly win):

* ``default``: 50 games of 2 people and 1 AI seat, 8 moves each, 3 s think.
* ``ai-heavy``: 110 games of 1 person and 3 AI seats, each first played on to its 30th
  decision of the person (``--advance``: about round 4 of 15, so the log is long enough to
  cost something), then 6 moves each, 10 s think: about 10 person-moves/s in all, each followed
  by the AI seats' moves (and their phase ends).

``--ai-level strong`` seats the strong AI: its decisions are thought in the bot's AI worker
process (about a second each at the default budget, queued when many games wait on it) while
the bot serves every other click; a person whose turn waits on a thinking AI waits for it (the
wait is not an update).  The figures to compare are those of the same run with the heuristic.

``--advance N`` plays every game on, past N decisions of its people, before the moves are
measured: straight through the storage (the heuristic for every seat, no table drawn at each
step), then the table is published once as the game stands.

* ``ack_ms``: every interaction, from its dispatch to the bot's callback
  (``handle.created_at`` -> ``response.at``).
* ``update_ms``: every move, from the click that made it to the moment the offline server holds
  the table message drawn for the new state (its buttons carry the game version).
* ``loop_lag_ms``: how late the event loop runs a 10 ms timer while the moves are made.

``--json`` prints only ``{"ack_ms": {"p50", "p95", "max"}, "update_ms": {...},
"loop_lag_ms": {...}, "interactions", "moves", "games", ..., "work"}``; details go to stderr.
``moves_per_s`` counts the person-moves over the time the moves took (after every game
started); ``moves_per_s_busy`` while all the games play (the middle 80 % of the clicks).
``work`` is what the bot did meanwhile, per person-move: moves committed (the AI seats' and
forced ones included), boards asked by kind (the table, private panels, the story's phase
boards), images drawn (and drawn again: the same inputs as an earlier image), SQL statements
(the bench's own read before each move included), full game loads, log reads and rows, log
replays and the actions they re-applied, messages posted and edited in the channels and DMs
sent, and CPU milliseconds: the whole process, its threads by group and the image worker
processes.
"""

from __future__ import annotations

import argparse
import asyncio
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from bot import service as bot_service
from bot.client import GovernorBot
from bot.games import PACKAGES, presenter_for
from bot.settings import Settings
from engine.core import get_game
from engine.policies import make_policy
from engine.search import DEFAULT_BUDGET
from tests.offline_discord import (
    DISCORD_ACK_TIMEOUT,
    Channel,
    InteractionHandle,
    OfflineDiscordServer,
    ScriptedUser,
    StoredMessage,
    running_client,
)


class BenchBot(GovernorBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


SCENARIOS: dict[str, dict[str, Any]] = {
    "default": {"games": 50, "moves": 8, "think": 3.0, "players": 3, "ai_seats": 1,
                "advance": 0},
    "ai-heavy": {"games": 110, "moves": 6, "think": 10.0, "players": 4, "ai_seats": 3,
                 "advance": 30},
}


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.updates: list[float] = []
        self.clicks: list[float] = []  # when each move's click was made (monotonic)

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
        self._wrap(games, "commit_action", lambda *a, **k: (
            "moves_committed" if k.get("user_id") else "moves_committed_automatic"))
        self._wrap(games, "actions", lambda *a, **k: "log_reads", rows="log_rows_read")
        replay = getattr(bot_service, "views_after", None)
        if replay is not None:
            def views_after(game: Any, options: Any, seed: int, actions: Any, indexes: Any
                            ) -> Any:
                self.add("log_replays")
                self.add("log_replay_actions", max(indexes, default=-1) + 1)
                return replay(game, options, seed, actions, indexes)

            bot_service.views_after = views_after  # type: ignore[attr-defined]
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
    game: str = "puerto-rico"
    game_id: int = 0
    ai_level: str = "heuristic"


async def open_table(
    server: OfflineDiscordServer, table: Table, players: int, ai_seats: int, rec: Recorder,
    governor: BenchBot,
) -> None:
    """``/game new``, the others join, the creator starts: the game is in progress."""
    channel, creator = table.channel, table.people[0]
    mark = server.mark()
    handle = await creator.run(
        f"/game new game:{table.game} max_players:{players} ai_seats:{ai_seats}"
        f" ai_level:{table.ai_level}", channel=channel)
    await rec.ack(handle)
    lobby = await server.wait_for_message(
        channel, lambda m: m.find_component(custom_id_prefix="l:") is not None, since=mark,
        timeout=60,
    )
    for guest in table.people[1:]:
        mark = server.mark()
        await rec.ack(await guest.click(lobby, label="Join"))
        await server.wait_for_message(channel, lambda m: m.id == lobby.id, since=mark,
                                      timeout=60)  # the lobby redrawn with the guest seated
    mark = server.mark()
    await rec.ack(await creator.click(lobby, label="Start"))
    await server.wait_for_message(channel, lambda m: "round 1" in m.text(), since=mark, timeout=60)
    found = await governor.storage.games.find_by_channel(channel.id)
    assert found is not None
    table.game_id = found.id


async def advance(governor: BenchBot, table: Table, decisions: int) -> None:
    """Play ``table``'s game on past ``decisions`` of its people (the heuristic for every seat)
    through the storage, up to a person's decision; then publish its table once."""
    games, game = governor.storage.games, get_game(table.game)
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
        record = (await games.commit_action(
            table.game_id, expected_version=record.version, seat=seat,
            code=game.encode_action(action), state=state, events=events, user_id=user_id,
        )).record
        made += user_id is not None
    if made and governor.publisher is not None:
        await governor.publisher.publish_table(await governor.service.table(table.game_id))


async def play_table(
    server: OfflineDiscordServer,
    governor: BenchBot,
    table: Table,
    moves: int,
    think: float,
    rec: Recorder,
    work: Work,
) -> None:
    """``moves`` decisions of the people of one game, each after thinking a while."""
    users = {u.id: u for u in table.people}
    game = get_game(table.game)
    rng = random.Random(table.channel.id)
    load = work.original.get("load", governor.storage.games.load)
    for step in range(moves):
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        loaded = await load(table.game_id)
        record, prompt = loaded.record, game.prompt(loaded.state)
        while prompt is not None and not any(
                (r := record.seat(s)) and r.user_id for s in prompt.seats):
            await asyncio.sleep(0.25)  # a strong AI seat thinks: the person waits for it
            loaded = await load(table.game_id)
            record, prompt = loaded.record, game.prompt(loaded.state)
        if prompt is None:
            return
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        user = users[int(record.seat(seat).user_id or 0)]
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
        await work.tables.wait(server, record.messages["table"], record.id, record.version, 60)
        rec.updates.append((time.monotonic() - click.created_at) * 1000)
        rec.clicks.append(click.created_at)


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
                  game: str = "puerto-rico", ai_level: str = "heuristic",
                  ai_budget: int | None = None) -> dict[str, Any]:
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
            settings = Settings(token=server.bot_token, database_url=str(Path(tmp) / "bench.db"),
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
                await asyncio.gather(*(open_table(server, t, players, ai_seats, rec, governor)
                                       for t in tables))
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
                await asyncio.gather(
                    *(play_table(server, governor, t, moves, think, rec, work) for t in tables)
                )
                seconds = time.perf_counter() - started
                lagging.cancel()
                per_move = work.per_move(len(rec.updates))
                if profiler is not None and profile:
                    profiler.disable()
                    profiler.dump_stats(profile)
                await governor.wait_idle()
            failed = len(server.failed_interactions)
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="default")
    parser.add_argument("--games", type=int, help="games in progress at once")
    parser.add_argument("--moves", type=int, help="decisions of the people of each game")
    parser.add_argument("--think", type=float,
                        help="mean seconds a player thinks before a move")
    parser.add_argument("--game", choices=list(PACKAGES), default=next(iter(PACKAGES)),
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
    args = parser.parse_args(argv)
    chosen = {key: value if (value := getattr(args, key)) is not None else default
              for key, default in SCENARIOS[args.scenario].items()}
    result = asyncio.run(measure(
        chosen["games"], chosen["moves"], not args.no_render, chosen["think"],
        players=chosen["players"], ai_seats=chosen["ai_seats"], advanced=chosen["advance"],
        profile=args.profile, game=args.game, ai_level=args.ai_level,
        ai_budget=args.ai_budget))
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
