"""A play-through as new players and a new admin would do it, on the offline Discord, with
everything anyone sees written down: not a test (pytest does not collect it), a tool to read.

    .venv/bin/python -m tests.e2e.playthrough --out /tmp/playthrough

Two games: a complete three-person game in English (ana's Discord client is in Spanish, cleo
leaves half-way and an AI takes her seat) and a short Spanish game (two people and one AI, a
few rounds).  Moves are made the way people make them: role buttons on the table, **My turn**
and its buttons and menus, the Mayor draft, slash commands with autocomplete; with the
mistakes of new players (out of turn, double clicks, an unaffordable building typed by name,
a typed rules topic).  ``transcript.txt`` gets every message as it is posted or edited
(channel, story thread, ephemeral replies with whom they are for, DMs), in order, and every
image goes to ``NNN-<where>.png``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.puerto_rico.catalog import CATALOG
from bot.settings import Settings
from engine.policies import make_policy
from storage import GameRecord, GameStatus
from tests.e2e.conftest import NoShuffle, OfflineGovernor, World
from tests.e2e.game_play import COMMANDS, GAME, Players, load, settled, shown_version
from tests.offline_discord import (
    Channel,
    OfflineDiscordServer,
    Perm,
    ScriptedUser,
    StoredMessage,
    running_client,
)
from tests.offline_discord.models import ComponentType

JSON = dict[str, Any]


async def started(bot: OfflineGovernor, record: GameRecord) -> GameRecord:
    """``record``'s game once it is active with its table posted (after Start), the bot idle."""
    for _ in range(500):
        record = await bot.storage.games.get(record.id)
        if record.status is GameStatus.ACTIVE and record.messages.get("table"):
            break
        await asyncio.sleep(0.02)
    assert record.status is GameStatus.ACTIVE, record.status
    await bot.wait_idle()
    return record


# ----------------------------------------------------------------------------------------------
# The recorder: every message as it is created or edited, every new image
# ----------------------------------------------------------------------------------------------


@dataclass
class Recorder:
    server: OfflineDiscordServer
    out: Path
    lines: list[str] = field(default_factory=list)
    images: int = 0
    seen_files: set[int] = field(default_factory=set)
    last_text: dict[int, str] = field(default_factory=dict)

    def install(self) -> None:
        server = self.server
        create, edit, delete = server.create_message, server.edit_message, server.delete_message

        def created(*args: Any, **kwargs: Any) -> StoredMessage:
            msg = create(*args, **kwargs)
            if msg.author.id == server.bot_user.id:
                self.record("NEW", msg)
            return msg

        def edited(msg: StoredMessage, *args: Any, **kwargs: Any) -> StoredMessage:
            result = edit(msg, *args, **kwargs)
            if msg.author.id == server.bot_user.id:
                self.record("EDIT", result)
            return result

        def deleted(msg: StoredMessage) -> None:
            delete(msg)
            self.lines.append(f"--- DELETED {self.where(msg)} message {msg.id}")

        server.create_message = created  # type: ignore[method-assign]
        server.edit_message = edited  # type: ignore[method-assign]
        server.delete_message = deleted  # type: ignore[method-assign]

    def where(self, msg: StoredMessage) -> str:
        channel = self.server.channels.get(msg.channel_id)
        if channel is None:
            place = f"channel {msg.channel_id}"
        elif channel.is_dm:
            who = [u.username for u in channel.recipients] if getattr(
                channel, "recipients", None) else ["?"]
            place = "dm-" + "-".join(str(w) for w in who)
        elif channel.is_thread:
            place = f"thread({channel.name})"
        else:
            place = f"#{channel.name}"
        if msg.ephemeral:
            meta = msg.interaction_metadata or {}
            user = (meta.get("user") or {}).get("username", "?")
            place += f" [ephemeral for {user}]"
        return place

    def note(self, text: str) -> None:
        self.lines.append(f"\n»»» {text}")

    def record(self, kind: str, msg: StoredMessage) -> None:
        if msg.loading:
            self.lines.append(f"--- {kind} {self.where(msg)} message {msg.id}: (thinking…)")
            return
        body = describe(msg)
        if kind == "EDIT" and self.last_text.get(msg.id) == body:
            self.lines.append(f"--- EDIT {self.where(msg)} message {msg.id}: (no visible change)")
        else:
            self.lines.append(f"--- {kind} {self.where(msg)} message {msg.id}:")
            self.lines.extend("    " + line for line in body.splitlines())
        self.last_text[msg.id] = body
        slug = "".join(c if c.isalnum() else "-" for c in self.where(msg)).strip("-")
        for att in msg.attachments:
            if att.id in self.seen_files or not att.is_png:
                continue
            self.seen_files.add(att.id)
            self.images += 1
            name = f"{self.images:03d}-{slug}-{att.filename}"
            (self.out / name).write_bytes(att.data)
            self.lines.append(f"    [image saved: {name} {att.image_size()}]")

    def write(self) -> None:
        (self.out / "transcript.txt").write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def describe(msg: StoredMessage) -> str:
    """What a person sees: the text, the embeds, the buttons and menus, the files."""
    parts = [msg.text()]
    for comp in msg.iter_components():
        kind = comp.get("type")
        if kind == ComponentType.BUTTON:
            label = comp.get("label") or ""
            emoji = (comp.get("emoji") or {}).get("name", "")
            flag = " (disabled)" if comp.get("disabled") else ""
            link = f" -> {comp['url']}" if comp.get("url") else ""
            parts.append(f"[button: {emoji}{' ' if emoji and label else ''}{label}{flag}{link}]")
        elif kind in ComponentType.SELECTS:
            head = f"[menu: {comp.get('placeholder', '')}"
            head += f" (pick {comp.get('min_values', 1)}-{comp.get('max_values', 1)})"
            if comp.get("disabled"):
                head += " (disabled)"
            parts.append(head + "]")
            for opt in comp.get("options", ()):
                mark = "*" if opt.get("default") else "-"
                desc = f" — {opt['description']}" if opt.get("description") else ""
                parts.append(f"    {mark} {opt.get('label', '')}{desc}")
    for att in msg.attachments:
        parts.append(f"[file: {att.filename}]")
    return "\n".join(p for p in parts if p)


# ----------------------------------------------------------------------------------------------
# People
# ----------------------------------------------------------------------------------------------


def label(lang: str, key: str) -> str:
    return CATALOG.t(lang, key)


@dataclass
class Table(Players):
    """Players who also make the mistakes of new players, and say what they do."""

    rec: Recorder | None = None
    channel: Channel | None = None
    lang: str = "en"
    names: dict[int, str] = field(default_factory=dict)

    async def open_panel(self, user: ScriptedUser) -> StoredMessage:
        table = await self.table()
        assert self.rec is not None
        self.rec.note(f"{user.username} clicks '{label(self.lang, 'button.my_turn')}'")
        handle = await user.click(table, label=label(self.lang, "button.my_turn"))
        return await handle.original_message()

    async def table(self) -> StoredMessage:
        record = await self.bot.storage.games.get(self.game_id)

        def check() -> StoredMessage | None:
            message = self.world.server.get_message(record.messages.get("table", 0))
            if message is None:
                return None
            done = record.status is not GameStatus.ACTIVE
            return message if done or shown_version(message, self.game_id) >= record.version \
                else None

        return await self.world.server.wait_for(check, timeout=10, what="the table")

    async def make(self, user: ScriptedUser, code: str) -> None:
        assert self.rec is not None
        self.rec.note(f"{user.username} decides {code}")
        record = await self.bot.storage.games.get(self.game_id)
        head = code.split(".", 1)[0]
        if head == "r" and self.rng.random() >= self.command_share:
            table = await self.table()
            handle = await user.click(table, custom_id=f"g:{self.game_id}:{record.version}:{code}")
            await handle.response()
            self.count("role button")
            await settled(self.world, self.bot, self.game_id, record.version)
            await self.table()
            return
        await self.generic(user, code, record)

    async def generic(self, user: ScriptedUser, code: str, record: GameRecord) -> None:
        head = code.split(".", 1)[0]
        if head in COMMANDS and self.rng.random() < self.command_share:
            await self.by_command(user, code)
        elif code == "pass" and self.rng.random() < self.command_share:
            handle = await user.run("/pr pass", channel=self.ch)
            await handle.response()
            self.count("/pr pass")
        elif head == "r":
            await self.by_command(user, code)
        else:
            await self.in_panel(user, code, record)
        await settled(self.world, self.bot, self.game_id, record.version)
        await self.table()

    async def by_command(self, user: ScriptedUser, code: str) -> None:
        assert self.rec is not None
        head = "o" if code == "m.privilege" else code.split(".", 1)[0]
        command, option = COMMANDS[head]
        typed = await user.autocomplete(command, {option: ""}, focused=option,
                                        channel=self.ch)
        offered = await typed.choices()
        self.rec.note(f"{user.username} types /{command} {option}: and sees the suggestions "
                      + " | ".join(f"{c['name']}" for c in offered))
        chosen = next((c for c in offered if c["value"] == code), None)
        assert chosen is not None, (code, offered)
        handle = await user.run(f"/{command} {option}:{code}", channel=self.ch)
        await handle.response()
        self.count(f"/{command}")

    @property
    def ch(self) -> Channel:
        assert self.channel is not None
        return self.channel

    async def quiet(self) -> None:
        await self.bot.wait_idle()
        await asyncio.sleep(0.05)


async def run_command(rec: Recorder, bot: OfflineGovernor, user: ScriptedUser, line: str,
                      channel: Channel) -> None:
    rec.note(f"{user.username} runs {line}")
    handle = await user.run(line, channel=channel)
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.wait_for_followup(timeout=3)
    await bot.wait_idle()


async def autocomplete(rec: Recorder, user: ScriptedUser, command: str, option: str, typed: str,
                       channel: Channel) -> list[JSON]:
    handle = await user.autocomplete(command, {option: typed}, focused=option, channel=channel)
    choices = await handle.choices()
    rec.note(f"{user.username} types /{command} {option}:{typed!r} and sees: "
             + " | ".join(f"{c['name']} ({c['value']})" for c in choices))
    return choices


# ----------------------------------------------------------------------------------------------
# The games
# ----------------------------------------------------------------------------------------------


async def lobby(world: World, rec: Recorder, bot: OfflineGovernor, creator: ScriptedUser,
                others: list[ScriptedUser], args: str, channel: Channel, lang: str
                ) -> GameRecord:
    server = world.server
    await run_command(rec, bot, creator, f"/game new {args}", channel)
    record = await bot.storage.games.find_by_channel(channel.id)
    assert record is not None
    lobby_msg = server.get_message(record.messages["lobby"]) if "lobby" in record.messages \
        else None
    if lobby_msg is None:
        lobby_msg = next(m for m in reversed(server.messages(channel, include_ephemeral=False))
                         if m.find_component(custom_id_prefix="l:") is not None)
    for person in others:
        rec.note(f"{person.username} clicks {label(lang, 'button.join')}")
        handle = await person.click(server.get_message(lobby_msg.id) or lobby_msg,
                                    label=label(lang, "button.join"))
        await handle.response()
        await bot.wait_idle()
        await asyncio.sleep(0.1)
    # A double click on Join by the last one.
    rec.note(f"{others[-1].username} clicks {label(lang, 'button.join')} again (already seated)")
    handle = await others[-1].click(server.get_message(lobby_msg.id) or lobby_msg,
                                    label=label(lang, "button.join"))
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.wait_for_followup(timeout=2)
    rec.note(f"{creator.username} clicks {label(lang, 'button.start')}")
    handle = await creator.click(server.get_message(lobby_msg.id) or lobby_msg,
                                 label=label(lang, "button.start"))
    await handle.response()
    return await started(bot, record)


async def mistakes_at_role_choice(t: Table, rec: Recorder) -> None:
    """Someone not choosing clicks a role; the chooser double-clicks hers."""
    record, state = await load(t.bot, t.game_id)
    prompt = GAME.prompt(state)
    assert prompt is not None
    chooser = record.seat(prompt.seats[0])
    others = [u for uid, u in t.people.items() if chooser is None or uid != chooser.user_id]
    table = await t.table()
    roles = [b for b in table.buttons() if str(b.get("custom_id", "")).startswith("g:")
             and not b.get("disabled")]
    intruder = others[0]
    rec.note(f"{intruder.username} (not their turn) clicks the role button "
             f"'{roles[0].get('label')}'")
    handle = await intruder.click(table, custom_id=roles[0]["custom_id"])
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.wait_for_followup(timeout=3)
    rec.note(f"{intruder.username} (not their turn) clicks "
             f"'{label(t.lang, 'button.my_turn')}'")
    handle = await intruder.click(table, label=label(t.lang, "button.my_turn"))
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.original_message()
    await t.quiet()
    if chooser is None or not chooser.user_id:
        return
    user = t.people[int(chooser.user_id)]
    policy = make_policy("heuristic", "puerto-rico", record.version)
    action = policy.choose(GAME, state, prompt.seats[0], GAME.legal_actions(state, prompt.seats[0]))
    code = GAME.encode_action(action)
    rec.note(f"{user.username} double-clicks the role button for {code}")
    custom_id = f"g:{t.game_id}:{record.version}:{code}"
    first = await user.click(table, custom_id=custom_id)
    second = await user.click(table, custom_id=custom_id)
    await first.response()
    await second.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await second.wait_for_followup(timeout=3)
    await settled(t.world, t.bot, t.game_id, record.version)
    await t.table()
    await t.quiet()


async def unaffordable_build(t: Table, rec: Recorder, user: ScriptedUser, typed: str) -> None:
    await autocomplete(rec, user, "pr build", "building", typed[:3], t.ch)
    await run_command(rec, t.bot, user, f"/pr build building:{typed}", t.ch)


async def play(t: Table, rec: Recorder, *, until_round: int | None = None,
               hooks: dict[str, Callable[[], Any]] | None = None,
               on_round: dict[int, Callable[[], Any]] | None = None) -> None:
    done_rounds: set[int] = set()
    hooks = dict(hooks or {})
    on_round = dict(on_round or {})
    for _ in range(5000):
        record, state = await load(t.bot, t.game_id)
        if record.status is not GameStatus.ACTIVE:
            return
        if until_round is not None and state.round > until_round:
            return
        if state.round not in done_rounds:
            done_rounds.add(state.round)
            rec.note(f"===== round {state.round} begins (game {t.game_id}) =====")
            if state.round in on_round:
                await on_round.pop(state.round)()
                continue
        prompt = GAME.prompt(state)
        if prompt is None:
            return
        for key in list(hooks):
            kind, _, after = key.partition("@")
            seat_users = [record.seat(s) for s in prompt.seats]
            if prompt.kind == kind and state.round >= int(after or 0) and all(
                    s and s.user_id for s in seat_users):
                await hooks.pop(key)()
                break
        else:
            move = await t.next_move()
            if move is None:
                return
            user, _, code = move
            await t.make(user, code)
            continue


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    server = OfflineDiscordServer()
    await server.start()
    rec = Recorder(server, out)
    rec.install()
    try:
        guild = server.add_guild("Friends of Puerto Rico")
        general = server.add_text_channel(guild, "general")
        mesa = server.add_text_channel(guild, "mesa")
        admin_role = server.add_role(guild, "Admin", permissions=Perm.MANAGE_GUILD)
        gm = server.add_user("gm", guild=guild, roles=[admin_role])
        ana = server.add_user("ana", guild=guild, locale="es-ES")
        ben = server.add_user("ben", guild=guild)
        cleo = server.add_user("cleo", guild=guild, dms_open=False)
        diego = server.add_user("diego", guild=guild, locale="es-ES")
        world = World(server, guild, general, admin_role, gm, ana, ben)
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(token=server.bot_token, database_url=str(Path(tmp) / "g.db"),
                                dev_guild_id=guild.id)
            bot = OfflineGovernor(settings, rng=NoShuffle(7), guild_ready_timeout=0.05)
            async with running_client(server, bot):
                await server.wait_for_command_sync(guild)
                await first_game(world, rec, bot, gm, ana, ben, cleo, general)
                rec.write()
                await second_game(world, rec, bot, diego, ana, mesa)
                await bot.wait_idle()
            failed = server.failed_interactions
            rec.note(f"END: failed interactions: {len(failed)}")
    finally:
        rec.write()
        await server.stop()
    print(f"{len(rec.lines)} lines, {rec.images} images in {out}")


async def first_game(world: World, rec: Recorder, bot: OfflineGovernor, gm: ScriptedUser,
                     ana: ScriptedUser, ben: ScriptedUser, cleo: ScriptedUser,
                     general: Channel) -> None:
    rec.note("GAME 1: a complete three-person game in English; ana's client is Spanish")
    await run_command(rec, bot, gm, "/game server", general)
    await run_command(rec, bot, gm, "/game server reminder_hours:12", general)
    await run_command(rec, bot, ana, "/game rules", general)
    await autocomplete(rec, ana, "game rules", "topic", "alcal", general)
    await run_command(rec, bot, ana, "/game rules topic:alcalde", general)
    await run_command(rec, bot, ben, "/game rules topic:harbour", general)
    record = await lobby(world, rec, bot, ben, [ana, cleo], "max_players:3", general, "en")
    people = {p.id: p for p in (ana, ben, cleo)}
    t = Table(world, bot, record.id, people, rng=random.Random(11), command_share=0.25,
              rec=rec, channel=general, lang="en")

    async def round2() -> None:
        await mistakes_at_role_choice(t, rec)

    async def round3() -> None:
        await run_command(rec, bot, cleo, "/game status", general)
        await run_command(rec, bot, ana, "/game board", general)
        await run_command(rec, bot, ben, "/game log show", general)

    async def round6() -> None:
        await run_command(rec, bot, ana, "/game games", general)
        await run_command(rec, bot, gm, "/game status", general)
        rec.note("cleo leaves the game in the middle")
        handle = await cleo.run("/game leave", channel=general)
        await handle.response()
        confirm = await handle.wait_for_followup()
        button = next(b for b in confirm.buttons() if not b.get("disabled"))
        rec.note(f"cleo clicks '{button.get('label')}'")
        click = await cleo.click(confirm, custom_id=button["custom_id"])
        await click.response()
        await bot.wait_idle()
        await asyncio.sleep(0.2)
        await bot.wait_idle()
        await run_command(rec, bot, cleo, "/game status", general)

    async def builder() -> None:
        record, state = await load(bot, t.game_id)
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = record.seat(prompt.seats[0])
        assert seat is not None and seat.user_id
        user = people[int(seat.user_id)]
        other = next(p for p in people.values() if p.id != user.id)
        rec.note(f"{other.username} (not their turn) runs /pr build")
        await run_command(rec, bot, other, "/pr build building:\"Small market\"", general)
        await unaffordable_build(t, rec, user, "Fortaleza" if user is ana else "Fortress")
        await run_command(rec, bot, user, "/pr build building:castle", general)
        await run_command(rec, bot, user, "/game undo", general)

    await play(t, rec, hooks={"build": builder, "role@2": round2},
               on_round={3: round3, 6: round6})
    await bot.wait_idle()
    await asyncio.sleep(0.3)
    await bot.wait_idle()
    await run_command(rec, bot, ana, "/game status", general)
    await run_command(rec, bot, ben, "/game games", general)


async def second_game(world: World, rec: Recorder, bot: OfflineGovernor, diego: ScriptedUser,
                      ana: ScriptedUser, mesa: Channel) -> None:
    rec.note("GAME 2: a short Spanish game, diego and ana (Spanish clients) and one AI")
    record = await lobby(world, rec, bot, diego, [ana],
                         "max_players:3 ai_seats:1 language:es", mesa, "es")
    people = {p.id: p for p in (diego, ana)}
    t = Table(world, bot, record.id, people, rng=random.Random(3), command_share=0.3,
              rec=rec, channel=mesa, lang="es")

    async def round2() -> None:
        await mistakes_at_role_choice(t, rec)
        await run_command(rec, bot, ana, "/game rules topic:puerto", mesa)
        await run_command(rec, bot, diego, "/game status", mesa)
        await run_command(rec, bot, diego, "/game log show", mesa)

    async def builder() -> None:
        record, state = await load(bot, t.game_id)
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = record.seat(prompt.seats[0])
        assert seat is not None and seat.user_id
        user = people[int(seat.user_id)]
        await unaffordable_build(t, rec, user, "Ayuntamiento")

    await play(t, rec, until_round=4, hooks={"build": builder, "role@2": round2})
    await run_command(rec, bot, ana, "/game board", mesa)
    await run_command(rec, bot, diego, "/game games", mesa)
    for _ in range(3):  # the AI's moves and their posts, before the bot closes
        await t.table()
        await t.quiet()
        await asyncio.sleep(0.3)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/playthrough"))
    asyncio.run(main(parser.parse_args().out))
