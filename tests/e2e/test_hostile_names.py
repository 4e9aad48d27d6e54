"""Hostile names end to end (issue #33): in every game, four people named to ping and to format
(``@everyone``, a role and a bystander mentioned, ``# heading``, ``**bold**``, code, a masked
link, spoilers, a name of markdown only, a name of thousands of characters) in a server whose
name does the same play a game to its end: the lobby, the table, the panels, the story, a clock
vote with its reminder, a seat left to an AI, the score sheet, the turn and final DMs, and the
questions (``/game board``, ``status``, ``games``, ``log show``, ``leaderboard``, ``stats``).

Every message body the bot sends (as the offline server recorded it) must

* allow no ``@everyone``/role pings and list only people of the game whom its text mentions
  (the awaited player, the voters), and every stored message pings nobody else;
* show each name escaped where Discord reads markdown (no mention or markup of a name left
  unescaped) and plain where it does not (labels, image descriptions, thread names);
* fit Discord's limits (the server refuses it otherwise: 50035, which fails the interaction or
  logs an error).

The names drawn on the board images are the plain names (a backslash would be drawn)."""

from __future__ import annotations

import io
import logging
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
from PIL import Image

from bot.clock import needed
from bot.seatnames import MARKUP, escape_name
from engine.core import get_game
from engine.policies import make_policy
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import load, settled
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.e2e.test_every_game import move, open_panel
from tests.e2e.test_game_clock import AI, is_vote, vote_click
from tests.e2e.test_game_notify import FakeClock
from tests.manual_time import ManualTime
from tests.offline_discord import ComponentType, ScriptedUser, StoredMessage, running_client
from tests.offline_discord.models import JSON

GUILD = "**Mesa** @everyone <#1> ||dicas||"
"""The server's name: it shows in the turn DMs and in /game games."""
LONG = 4_000
"""The longest name: escaped, it alone passes the 4,000 characters of a message's text."""
MAX_MOVES = 3000
ESCAPED = re.compile(r"\\[" + re.escape(MARKUP) + "]")
"""An escape of :func:`bot.seatnames.escape_name` (it must never show where Discord does not
read markdown)."""
UNESCAPED_PINGS = re.compile(r"(?<!\\)(@everyone|@here|<@&\d+>)")


@pytest.fixture
def world(world: World) -> World:
    """The conftest's world in a server named to format and to ping."""
    world.guild.name = GUILD
    return world


def hostile_names(world: World) -> dict[str, str]:
    role, bystander = world.manager_role.id, world.bob.id
    piece = (f"@everyone @here <@&{role}> <@{bystander}> **bold** `code` [link](http://x) "
             "||spoiler|| ")
    return {
        "long": ("> " + piece * LONG)[:LONG],
        "heading": f"# heading **bold** __under__ ~~strike~~ <@&{role}>",
        "stars": "***",
        "here": f"-# @here <#{world.general.id}> [link](http://x) _it_ <@{bystander}>",
    }


def pieces(world: World) -> list[str]:
    """The parts of the names that would format or ping if they were not escaped."""
    role, bystander = world.manager_role.id, world.bob.id
    return ["@everyone", "@here", f"<@&{role}>", f"<@{bystander}>", "**bold**", "`code`",
            "[link](http://x)", "||spoiler||", "# heading", "__under__", "~~strike~~", "***",
            "-# @here", "_it_", "**Mesa**", "||dicas||", "<#1>"]


class DrawnNames:
    """A renderer that records the names it is asked to draw (and draws a small PNG)."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self._lock = threading.Lock()
        out = io.BytesIO()
        Image.new("RGB", (8, 8), "green").save(out, format="PNG")
        self.png = out.getvalue()

    def __call__(self, view: Mapping[str, Any], events: Sequence[Any], names: Mapping[int, str],
                 labels: Mapping[str, str]) -> bytes:
        with self._lock:
            self.names.extend(names.values())
        return self.png


# --- what a message body says -----------------------------------------------------------------


def components(items: Sequence[Any]) -> Iterator[JSON]:
    for item in items:
        if isinstance(item, dict):
            yield item
            yield from components(item.get("components") or [])
            yield from components([item[k] for k in ("accessory", "component") if k in item])


def markdown_texts(body: JSON) -> list[str]:
    """The texts of a message body that Discord reads as markdown (and mentions)."""
    texts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        texts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        texts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
    texts += [str(c.get("content", "")) for c in components(body.get("components") or [])
              if c.get("type") == ComponentType.TEXT_DISPLAY]
    return [t for t in texts if t]


def plain_texts(body: JSON) -> list[str]:
    """The texts Discord shows as they are: labels, placeholders, options, image descriptions,
    an embed's footer and author."""
    texts = []
    for embed in body.get("embeds") or []:
        texts += [str((embed.get("footer") or {}).get("text") or ""),
                  str((embed.get("author") or {}).get("name") or "")]
    for comp in components(body.get("components") or []):
        texts += [str(comp.get(k) or "") for k in ("label", "placeholder", "description")]
        for option in comp.get("options") or []:
            texts += [str(option.get("label") or ""), str(option.get("description") or "")]
        for item in comp.get("items") or []:
            texts.append(str(item.get("description") or ""))
    return [t for t in texts if t]


def unescaped(text: str, parts: Sequence[str]) -> list[str]:
    """The ``parts`` of a name that ``text`` shows raw (every occurrence of a part must be an
    escaped one), and any unescaped ``@everyone``, ``@here`` or role mention."""
    rest = text
    for part in sorted(parts, key=len, reverse=True):  # the longer first: "-# @here"
        rest = rest.replace(escape_name(part), "\0")  # not "": "**" + "**" is no "***"
    return [p for p in parts if p in rest] + UNESCAPED_PINGS.findall(text)


# --- the game ---------------------------------------------------------------------------------


async def open_game(world: World, bot: OfflineGovernor, game: str, people: list[ScriptedUser]
                    ) -> int:
    """``people[0]`` opens a lobby for four with a bank of two days, the others join in order,
    the creator starts (seats keep the lobby's order)."""
    lobby = await open_lobby(world, people[0], (f"game:{game} max_players:4"
                             " bank_days:2 increment_hours:24 cap_days:2"))
    for person in people[1:]:
        def seated(m: StoredMessage, mention: str = f"<@{person.id}>") -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, "Join", seated)
    await press(world, people[0], lobby, "Start", lambda m: "has started" in m.text())
    record = await bot.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.status is GameStatus.ACTIVE and record.game == game
    await bot.wait_idle()
    return record.id


async def prompted(bot: OfflineGovernor, game: str, game_id: int) -> list[int]:
    record, state = await load(bot, game_id)
    prompt = get_game(game).prompt(state)
    assert prompt is not None
    return [u for s in prompt.seats if (u := getattr(record.seat(s), "user_id", None))]


async def ask(world: World, user: ScriptedUser, command: str, **options: Any) -> StoredMessage:
    handle = await user.slash(command, options, channel=world.general)
    assert (await handle.response()).type == 5
    return await handle.wait_for_followup()


async def clock_vote(world: World, bot: OfflineGovernor, clock: FakeClock, late: ScriptedUser,
                     voters: list[ScriptedUser]) -> StoredMessage:
    """A day and a minute on, the pass reminds ``late`` (DMs closed: a mention in the channel)
    and warns them that half of their bank of two days is spent; the first voter opens the
    vote on their seat (``/game kick``); the voters give the seat to an AI."""
    server = world.server
    clock.advance(days=1, minutes=1)
    report = await bot.reminders.tick()
    assert [w[0] for w in report.warned] == [late.id] and late.id in report.nudged
    mark = server.mark()
    opened = await ask(world, voters[0], "game kick", player=late.user)
    assert opened.content.startswith("The vote is open") and not opened.mentions
    vote = await server.wait_for_message(world.general, is_vote, since=mark)
    for voter in voters[: needed(len(voters)) - 1]:
        assert (await vote_click(world, voter, vote, AI)).startswith("Your vote is counted")
    handle = await voters[needed(len(voters)) - 1].click(vote, label=AI)
    assert (await handle.response()).type == 6
    await server.wait_for_message(world.general,
                                  lambda m: m.id == vote.id and "now plays" in m.text())
    await bot.wait_idle()
    return vote


async def leave(world: World, bot: OfflineGovernor, user: ScriptedUser) -> None:
    handle = await user.run("/game leave", channel=world.general)
    confirm = await handle.wait_for_followup()
    click = await user.click(confirm, label="Leave the game")
    assert (await click.response()).type == 6
    await click.original_message(lambda m: "an AI plays your seat" in m.text())
    await bot.wait_idle()


async def play_out(world: World, bot: OfflineGovernor, game: str, game_id: int,
                   people: Mapping[int, ScriptedUser]) -> None:
    """The people left play every decision from their panels (the heuristic's choice) to the
    end; the AI seats play by themselves."""
    engine = get_game(game)
    for _ in range(MAX_MOVES):
        record, state = await load(bot, game_id)
        if record.status is not GameStatus.ACTIVE:
            return
        prompt = engine.prompt(state)
        assert prompt is not None
        seat = next((s for s in prompt.seats if getattr(record.seat(s), "user_id", None)), None)
        if seat is None:
            await settled(world, bot, game_id, record.version)  # the AI seats move
            continue
        user = people[int(record.seat(seat).user_id or 0)]  # type: ignore[union-attr]
        policy = make_policy("heuristic", game, record.version)
        code = engine.encode_action(policy.choose(engine, state, seat,
                                                  engine.legal_actions(state, seat)))
        panel = await open_panel(world, bot, game_id, user)
        handle = await move(user, panel, game, game_id, record.version, code)
        assert (await handle.response()).type == 6
        await settled(world, bot, game_id, record.version)
    raise AssertionError("the game did not end")


# --- the test ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "images"), [
    ("puerto-rico", True), ("puerto-rico-1897", False), ("san-juan", True)])
async def test_hostile_names_show_escaped_and_ping_nobody(
    world: World, make_governor: Callable[..., OfflineGovernor], game: str, images: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = world.server
    caplog.set_level(logging.WARNING, logger="bot")
    names = hostile_names(world)
    late = server.add_user("late", guild=world.guild, global_name=names["long"], dms_open=False)
    heading = server.add_user("heading", guild=world.guild, global_name=names["heading"])
    stars = server.add_user(names["stars"], guild=world.guild)  # the user name itself
    leaver = server.add_user("here", guild=world.guild, global_name=names["here"],
                             nick=names["here"])
    people = [late, heading, stars, leaver]
    seated = {p.id for p in people}
    clock = FakeClock()
    drawn = DrawnNames() if images else None
    seconds = ManualTime()  # the DM rate limit's waits pass at once (the same DMs, in order)
    bot = make_governor(renderer=drawn, clock=clock, reminder_period=None, dm_interval=0,
                        dm_clock=seconds, dm_sleep=seconds.skip)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game_id = await open_game(world, bot, game, people)
        assert await prompted(bot, game, game_id) == [late.id]
        shown = escape_name(names["long"])[:60]  # the long name, as far as a message shows it

        # The questions while the longest name is awaited; each reply fits and shows it escaped.
        board = await ask(world, heading, "game board")
        assert shown in board.text() and not board.ephemeral
        status = await ask(world, stars, "game status")
        assert shown in status.text()
        games = await ask(world, heading, "game games")
        assert escape_name(GUILD) in games.content
        panel = await open_panel(world, bot, game_id, leaver)
        assert shown in panel.text()

        vote = await clock_vote(world, bot, clock, late, [heading, stars, leaver])
        await leave(world, bot, leaver)
        await play_out(world, bot, game, game_id, {heading.id: heading, stars.id: stars})
        await bot.wait_idle()
        record = await bot.storage.games.get(game_id)
        assert record.status is GameStatus.FINISHED
        await server.wait_for_message(world.general, lambda m: "final scores" in m.text())
        await server.wait_for_dm(stars, lambda m: "is over" in m.text())

        result = await ask(world, heading, "game status")
        assert "is over" in result.content
        log = await ask(world, stars, "game log show", lines=100)
        lines = log.content.splitlines()
        assert any(line.startswith(escape_name(names["heading"])) for line in lines), lines
        for reply in (await ask(world, stars, "game leaderboard"),
                      await ask(world, stars, "game stats", player=heading.user)):
            assert f"<@{heading.id}>" in reply.content and not reply.mentions  # shown, no ping
        finished = await ask(world, heading, "game games")
        assert escape_name(GUILD) in finished.content
        await bot.wait_idle()
    server.assert_no_failed_interactions()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors  # a message Discord refused (50035) is logged as an error

    # --- pings: only whom the bot means to ------------------------------------------------------
    bodies = server.message_payloads()
    assert bodies
    for request, body in bodies:
        allowed = body.get("allowed_mentions")
        assert isinstance(allowed, dict), (request.route, body)
        assert allowed.get("parse") == [] and not allowed.get("roles"), allowed
        users = {int(u) for u in allowed.get("users", [])}
        written = {int(u) for u in re.findall(r"<@!?(\d+)>", str(body.get("content") or ""))}
        assert users <= seated and users <= written, (users, body.get("content"))
    messages = server.all_messages()
    for message in messages:
        pinged = {u.id for u in message.mentions}
        assert not message.mention_everyone and not message.mention_role_ids, message.text()
        assert pinged <= seated and world.bob.id not in pinged, message.text()
    # the late player was pinged for their turn and reminded; the vote pinged them and the voters
    in_channel = [m for m in messages if m.channel_id == world.general.id]
    turns = [m for m in in_channel if "it is your turn" in m.content]
    reminders = [m for m in in_channel if "a reminder" in m.content]
    assert turns and reminders
    assert all({u.id for u in m.mentions} == {late.id} for m in [*turns, *reminders])
    posted = server.get_message(vote.id)
    assert posted is not None and posted.revisions  # as posted, before the votes edited it
    assert {int(u["id"]) for u in posted.revisions[0]["mentions"]} == seated

    # --- the names: escaped where Discord reads markdown, plain elsewhere -------------------------
    parts = pieces(world)
    for _, body in bodies:
        for text in markdown_texts(body):
            assert not unescaped(text, parts), (unescaped(text, parts), text[:300])
        for text in plain_texts(body):
            assert not ESCAPED.search(text), text[:300]
    threads = server.requests_to("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    assert all(not ESCAPED.search(str(r.json.get("name"))) for r in threads)

    # literally readable: each short name whole, the long one as far as it fits
    texts = "\n".join(t for _, body in bodies for t in markdown_texts(body))
    for key in ("heading", "stars", "here"):
        assert escape_name(names[key]) in texts, key
    final = [m.text() for m in messages if "final scores" in m.text()]
    assert final and all(shown in text for text in final)  # as far as the text fits
    assert escape_name(names["here"]) + " left the game" in texts  # a seat's former holder
    dms = [text for p in (heading, stars, leaver) for m in server.dms(p)
           for text in (m.text(), m.sent_content)]  # (a turn DM says when its turn is over)
    assert any(escape_name(GUILD) in text for text in dms)  # a turn DM says where
    assert any(escape_name(names["stars"]) in text and "final" in text.lower() for text in dms)
    # a turn DM's recap names the others as the table does: escaped, never a ping
    assert any("Since your last turn:" in text and escape_name(names["heading"]) in text
               for text in dms)
    warned = [m for m in in_channel if "half of your time bank is spent" in m.content]
    assert warned and all({u.id for u in m.mentions} == {late.id} for m in warned)
    if drawn is not None:  # the images draw the names as they are
        assert {names["heading"], names["stars"], names["here"], names["long"]} <= set(
            drawn.names)
        assert not any(ESCAPED.search(name) for name in drawn.names)
