"""A play-through of Puerto Rico 1897 as new players would play it, on the offline Discord,
with everything anyone sees written down: not a test (pytest does not collect it), a tool to
read, modelled on :mod:`tests.e2e.playthrough` (whose recorder and helpers it reuses).

    .venv/bin/python -m tests.e2e.playthrough_1897 --out /tmp/pt1897

One complete three-person game in English with Expansions I-IV turned on in the lobby's menu
of optional rules; or (``--solo``) a solo game in Portuguese, from a Brazilian client, against
two hard Puertomas with Expansions IV-VI.  Moves are made the way people make them: role
buttons on the table, **My turn** and its buttons and menus (the draft of buildings, the
Builder's menus, the Recruiter's worker draft, the production decision, the Smuggler's
options), slash commands ``/pr1897 ...`` with autocomplete; with the mistakes of new players
(out of turn, an unaffordable building typed by name).  ``transcript.txt`` gets every
message as it is posted or edited (channel, story thread, ephemeral replies with whom they
are for, DMs), in order, and every image goes to ``NNN-<where>.png``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import presenter_for
from bot.games.contract import Decision
from bot.settings import Settings
from engine.core import get_game
from engine.policies import make_policy
from engine.puerto_rico_1897 import names
from storage import GameRecord, GameStatus
from tests.e2e.conftest import NoShuffle, OfflineGovernor, World
from tests.e2e.game_play import black_market, load, settled
from tests.e2e.playthrough import (
    Recorder,
    Table,
    autocomplete,
    label,
    run_command,
    started,
)
from tests.offline_discord import (
    Channel,
    InteractionHandle,
    OfflineDiscordServer,
    Perm,
    ScriptedUser,
    StoredMessage,
    running_client,
)

JSON = dict[str, Any]
GAME_NAME = "puerto-rico-1897"
GAME = get_game(GAME_NAME)
PRESENTER = presenter_for(GAME_NAME)
GROUP = PRESENTER.catalog.t("en", f"cmd.{PRESENTER.command}.name")  # pr1897
EXPANSIONS_I_IV = ["new_buildings", "nobles", "buccaneer", "festival"]
"""The lobby's optional rules that are 1897's Expansions I (New Buildings), II (Citizens),
III (Smuggler) and IV (Festival)."""
PLACEMENTS = ("w.", "wc.", "fw.")
"""The Recruiter's placements (a worker, a citizen, a forest worker): the draft of the panel."""


def decision_of(code: str) -> Decision | None:
    """The presenter's decision (its slash command) an 1897 code belongs to."""
    for decision in PRESENTER.decisions:
        if decision.option is not None and decision.matches(code):
            return decision
    return None


def command_of(decision: Decision) -> tuple[str, str]:
    """``("pr1897 build", "building")``: the command and option a player types."""
    catalog = PRESENTER.catalog
    name = catalog.t("en", f"cmd.{decision.name}.name")
    option = catalog.t("en", f"opt.{decision.option}.name")
    return f"{GROUP} {name}", option


# ----------------------------------------------------------------------------------------------
# People playing 1897
# ----------------------------------------------------------------------------------------------


@dataclass
class Table1897(Table):
    """The players of :class:`tests.e2e.playthrough.Table`, playing 1897: the engine, the
    heuristic, the commands and the panel's menus are 1897's (its menus hold the kernel's codes,
    which the presenter turns into 1897's)."""

    declines: int = 1
    """How many production decisions are declined (the first ones asked to a person)."""
    smuggler_taste: float = 0.5
    """How often the Smuggler takes another of his options than the heuristic's."""
    draft_share: float = 0.6
    """How often the Recruiter's placement is made in the draft's menus (else: as suggested)."""
    lured: bool = False
    """Whether a Lure was tried while the Agency held more pieces than players (once)."""
    hijack_seen: bool = False
    """Whether someone looked at a hijacked role's choice (once)."""
    view_now: Mapping[str, Any] = field(default_factory=dict)
    """The public view of the decision being made (for :meth:`prefer`)."""
    used_kinds: dict[str, int] = field(default_factory=dict)
    """How many decisions of each prompt kind were asked."""
    policy_shift: int = 0
    """Added to the game's version, the seed of the heuristic that picks each move."""

    async def next_move(self) -> tuple[ScriptedUser, int, str] | None:
        record, state = await load(self.bot, self.game_id)
        prompt = GAME.prompt(state)
        if prompt is None:
            return None
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        user_id = record.seat(seat).user_id  # type: ignore[union-attr]
        policy = make_policy("heuristic", GAME_NAME, record.version + self.policy_shift)
        legal = GAME.legal_actions(state, seat)
        code = GAME.encode_action(policy.choose(GAME, state, seat, legal))
        self.used_kinds[prompt.kind] = self.used_kinds.get(prompt.kind, 0) + 1
        self.view_now = GAME.view(state, None)
        return self.people[int(user_id or 0)], seat, self.prefer(
            [GAME.encode_action(a) for a in legal], code)

    def prefer(self, legal: list[str], code: str) -> str:
        if code == "produce" and "pass" in legal and self.declines > 0:
            self.declines -= 1
            return "pass"  # "Decline: produce nothing", once, to see it told
        smuggler = [c for c in legal if c.startswith("sm.")]
        agency = (self.view_now.get("workers") or {}).get("agency", 0) + (
            self.view_now.get("citizens") or {}).get("agency", 0)
        if "sm.lure" in legal and not self.lured and agency > self.view_now["players_count"]:
            self.lured = True  # curious: "Lure workers" while the Agency holds a citizen
            return "sm.lure"
        if code.startswith("sm.") and len(smuggler) > 1 and self.rng.random() < self.smuggler_taste:
            return self.rng.choice(smuggler)
        return code

    async def generic(self, user: ScriptedUser, code: str, record: GameRecord) -> None:
        decision = decision_of(code)
        if decision is not None and self.rng.random() < self.command_share:
            await self.by_command(user, code)
        elif code == "pass" and self.rng.random() < self.command_share:
            assert self.rec is not None
            self.rec.note(f"{user.username} runs /{GROUP} pass")
            handle = await user.run(f"/{GROUP} pass", channel=self.ch)
            await handle.response()
            self.count(f"/{GROUP} pass")
        elif code.startswith("r."):
            await self.by_command(user, code)
        else:
            await self.in_panel(user, code, record)
        await settled(self.world, self.bot, self.game_id, record.version)
        await self.table()

    async def by_command(self, user: ScriptedUser, code: str) -> None:
        assert self.rec is not None
        decision = decision_of(code)
        assert decision is not None, code
        command, option = command_of(decision)
        typed = await user.autocomplete(command, {option: ""}, focused=option, channel=self.ch)
        offered = await typed.choices()
        self.rec.note(f"{user.username} types /{command} {option}: and sees the suggestions "
                      + " | ".join(f"{c['name']}" for c in offered))
        chosen = next((c for c in offered if c["value"] == code), None)
        assert chosen is not None, (code, offered)
        self.rec.note(f"{user.username} picks '{chosen['name']}'")
        handle = await user.run(f"/{command} {option}:{code}", channel=self.ch)
        await handle.response()
        self.count(f"/{command}")

    async def in_panel(self, user: ScriptedUser, code: str, record: GameRecord) -> None:
        assert self.rec is not None
        panel = await self.open_panel(user)
        version = record.version
        button = panel.find_component(custom_id=f"g:{self.game_id}:{version}:{code}")
        if code.startswith(PLACEMENTS) and panel.find_component(custom_id_prefix="mb:") \
                and self.rng.random() < self.draft_share:
            handle = await self.arrange(user, panel, version)
        elif button is not None:
            self.rec.note(f"{user.username} clicks '{button.get('label')}'")
            handle = await user.click(panel, custom_id=button["custom_id"])
            self.count("panel button")
        elif names.classic_code(code).startswith("bm."):
            handle = await self.hidden_market(user, panel, code)
        else:
            handle = await self.pick_in_menu(user, panel, code)
        await handle.response()

    async def hidden_market(self, user: ScriptedUser, panel: StoredMessage, code: str
                            ) -> InteractionHandle:
        """Expansion I's Hidden Market, in its two menus (``game_play.black_market``: they
        hold the kernel's words)."""
        assert self.rec is not None
        self.rec.note(f"{user.username} builds with the Hidden Market: {code}")
        self.count("panel hidden market")
        return await black_market(user, panel, self.game_id, names.classic_code(code))

    async def pick_in_menu(self, user: ScriptedUser, panel: StoredMessage, code: str
                           ) -> InteractionHandle:
        """The menu of the panel whose option (a kernel code) is ``code`` in 1897's words."""
        assert self.rec is not None
        for select in panel.selects():
            custom_id = str(select["custom_id"])
            if not custom_id.startswith("gs:"):
                continue
            name = custom_id.split(":")[3]
            values = [o["value"] for o in select.get("options", ())]
            if select.get("max_values", 1) == 1:
                for option in select.get("options", ()):
                    if PRESENTER.select_code(name, [option["value"]]) == code:
                        self.rec.note(f"{user.username} picks '{option.get('label')}' in the "
                                      f"menu '{select.get('placeholder', '')}'")
                        self.count("panel menu")
                        return await user.select(panel, [option["value"]], custom_id=custom_id)
            else:
                chosen = PRESENTER.decompose(name, code, values)
                if chosen is not None:
                    labels = [o.get("label") for o in select["options"] if o["value"] in chosen]
                    self.rec.note(f"{user.username} picks {labels} in the menu "
                                  f"'{select.get('placeholder', '')}'")
                    self.count("panel menu (several)")
                    return await user.select(panel, chosen, custom_id=custom_id)
        raise AssertionError(f"no control of the panel makes {code}:\n{panel.text()}")

    async def arrange(self, user: ScriptedUser, panel: StoredMessage, version: int
                      ) -> InteractionHandle:
        """The Recruiter's draft: move one worker in a menu when possible, then confirm."""
        assert self.rec is not None
        menus = [s for s in panel.selects() if s["custom_id"].startswith("ma:")]
        before = panel.component(custom_id_prefix="mb:")["custom_id"]
        for menu in menus:
            chosen = [o["value"] for o in menu["options"] if o.get("default")]
            place = chosen[0].split(".")[0] if chosen else None
            free = [o for o in menu["options"]
                    if not o.get("default") and o["value"].split(".")[0] != place]
            if chosen and free:  # one worker to a circle of another place of the same menu
                self.rec.note(f"{user.username} moves a worker in the menu "
                              f"'{menu.get('placeholder', '')}' to '{free[0].get('label')}'")
                handle = await user.select(panel, [*chosen[1:], free[0]["value"]],
                                           custom_id=menu["custom_id"])
                await handle.response()
                panel = await handle.original_message(
                    lambda m: m.component(custom_id_prefix="mb:")["custom_id"] != before)
                self.count("recruiter menu")
                break
        confirm = panel.find_component(custom_id_prefix=f"mb:{self.game_id}:")
        assert confirm is not None and not confirm.get("disabled"), panel.text()
        self.rec.note(f"{user.username} clicks '{confirm.get('label')}'")
        self.count("recruiter confirm")
        return await user.click(panel, custom_id=confirm["custom_id"])


# ----------------------------------------------------------------------------------------------
# The lobby, the mistakes, the loop
# ----------------------------------------------------------------------------------------------


async def lobby_1897(world: World, rec: Recorder, bot: OfflineGovernor, creator: ScriptedUser,
                     others: list[ScriptedUser], channel: Channel) -> GameRecord:
    """``/game new`` (its variants looked at with autocomplete), Expansions I-IV chosen in the
    lobby's menu of optional rules (someone else tries it too), the others join, the creator
    starts."""
    server = world.server
    typed = await creator.autocomplete("game new", {"game": GAME_NAME, "variant": ""},
                                       focused="variant", channel=channel)
    rec.note(f"{creator.username} types /game new game:{GAME_NAME} variant: and sees: "
             + " | ".join(f"{c['name']} ({c['value']})" for c in await typed.choices()))
    await run_command(rec, bot, creator, f"/game new game:{GAME_NAME} max_players:3", channel)
    record = await bot.storage.games.find_by_channel(channel.id)
    assert record is not None

    found = server.get_message(record.messages["lobby"]) if "lobby" in record.messages \
        else None
    lobby_msg = found or next(m for m in reversed(server.messages(channel,
                                                                  include_ephemeral=False))
                              if m.find_component(custom_id_prefix="l:") is not None)
    menu = next(s for s in lobby_msg.selects() if str(s["custom_id"]).startswith("lr:"))
    wanted = [o for o in menu["options"] if o["value"] in EXPANSIONS_I_IV]
    rec.note(f"{creator.username} opens the menu '{menu.get('placeholder', '')}' and picks "
             + ", ".join(repr(o.get("label")) for o in wanted))
    handle = await creator.select(lobby_msg, [o["value"] for o in wanted],
                                  custom_id=menu["custom_id"])
    await handle.response()
    await bot.wait_idle()
    await asyncio.sleep(0.1)
    # someone who is not the creator tries the menu too
    rec.note(f"{others[0].username} (not the creator) tries the same menu")
    lobby_msg = server.get_message(lobby_msg.id) or lobby_msg
    menu = next(s for s in lobby_msg.selects() if str(s["custom_id"]).startswith("lr:"))
    handle = await others[0].select(lobby_msg, [], custom_id=menu["custom_id"])
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.wait_for_followup(timeout=3)
    for person in others:
        rec.note(f"{person.username} clicks {label('en', 'button.join')}")
        handle = await person.click(server.get_message(lobby_msg.id) or lobby_msg,
                                    label=label("en", "button.join"))
        await handle.response()
        await bot.wait_idle()
        await asyncio.sleep(0.1)
    rec.note(f"{creator.username} clicks {label('en', 'button.start')}")
    handle = await creator.click(server.get_message(lobby_msg.id) or lobby_msg,
                                 label=label("en", "button.start"))
    await handle.response()
    return await started(bot, record)


async def seat_user(t: Table1897) -> tuple[ScriptedUser, ScriptedUser, Any, Any]:
    """The person asked now, someone else, the record and the state."""
    record, state = await load(t.bot, t.game_id)
    prompt = GAME.prompt(state)
    assert prompt is not None
    seat = record.seat(prompt.seats[0])
    assert seat is not None and seat.user_id
    user = t.people[int(seat.user_id)]
    other = next(p for p in t.people.values() if p.id != user.id)
    return user, other, record, state


async def out_of_turn(t: Table1897, rec: Recorder) -> None:
    """Someone not choosing clicks a role and **My turn**; the chooser double-clicks hers."""
    user, intruder, record, state = await seat_user(t)
    table = await t.table()
    roles = [b for b in table.buttons() if str(b.get("custom_id", "")).startswith("g:")
             and not b.get("disabled")]
    rec.note(f"{intruder.username} (not their turn) clicks the role button "
             f"'{roles[0].get('label')}'")
    handle = await intruder.click(table, custom_id=roles[0]["custom_id"])
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.wait_for_followup(timeout=3)
    rec.note(f"{intruder.username} (not their turn) clicks '{label('en', 'button.my_turn')}'")
    handle = await intruder.click(table, label=label("en", "button.my_turn"))
    await handle.response()
    with contextlib.suppress(AssertionError, TimeoutError):
        await handle.original_message()
    await t.quiet()
    rec.note(f"{intruder.username} (not their turn) runs /{GROUP} role")
    await autocomplete(rec, intruder, f"{GROUP} role", "role", "", t.ch)
    await run_command(rec, t.bot, intruder, f"/{GROUP} role role:{roles[0]['label']}", t.ch)
    seat = GAME.prompt(state).seats[0]  # type: ignore[union-attr]
    policy = make_policy("heuristic", GAME_NAME, record.version)
    code = GAME.encode_action(policy.choose(GAME, state, seat, GAME.legal_actions(state, seat)))
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


async def look_at_a_hijacked_role(t: Table1897, rec: Recorder) -> None:
    """Once, when a role tile is hijacked and someone else than its hijacker is to choose a
    role: they read what the role would cost them in the autocomplete and their panel."""
    table = await t.table()
    labels = [str(b.get("label") or "") for b in table.buttons()]
    hijacked = [x for x in labels if "hijacked" in x]
    if not hijacked:
        return
    user, _other, _record, _state = await seat_user(t)
    holder = next((x.split("·", 1)[1].strip() for x in labels
                   if x.startswith("Smuggler ·")), "")
    if user.username == holder:
        return
    t.hijack_seen = True
    rec.note(f"{user.username} sees '{hijacked[0]}' on the table and looks at the choices")
    await autocomplete(rec, user, f"{GROUP} role", "role", "", t.ch)
    await t.open_panel(user)
    await t.quiet()


async def play(t: Table1897, rec: Recorder, *, hooks: dict[str, Any] | None = None,
               on_round: dict[int, Any] | None = None) -> None:
    """The game to its end; ``hooks``: ``kind[@round]`` -> once, when a person is asked that
    kind (from that round on), instead of the move; ``on_round``: once, when the round
    begins."""
    done_rounds: set[int] = set()
    hooks = dict(hooks or {})
    on_round = dict(on_round or {})
    for _ in range(5000):
        record, state = await load(t.bot, t.game_id)
        if record.status is not GameStatus.ACTIVE:
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
        if prompt.kind == "role" and not t.hijack_seen:
            await look_at_a_hijacked_role(t, rec)
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


# ----------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------


async def lobby_solo(rec: Recorder, bot: OfflineGovernor, creator: ScriptedUser,
                     channel: Channel, rules: list[str], kind: str) -> GameRecord:
    """``/game new`` in Portuguese, ``rules`` chosen in the lobby's menu, two Puertomas of
    ``kind`` added by the lobby's button, and the start."""
    server = creator.server
    await run_command(rec, bot, creator,
                      f"/game new game:{GAME_NAME} max_players:3 language:pt", channel)
    record = await bot.storage.games.find_by_channel(channel.id)
    assert record is not None
    lobby = next(m for m in reversed(server.messages(channel, include_ephemeral=False))
                 if m.find_component(custom_id_prefix="l:") is not None)
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    wanted = [o for o in menu["options"] if o["value"] in rules]
    rec.note(f"{creator.username} picks " + ", ".join(repr(o.get("label")) for o in wanted))
    handle = await creator.select(lobby, [o["value"] for o in wanted],
                                  custom_id=menu["custom_id"])
    await handle.response()
    await bot.wait_idle()
    for _ in range(2):
        await asyncio.sleep(0.3)  # the lobby message redrawn for its new version
        lobby = server.get_message(lobby.id) or lobby
        button = next(b for b in lobby.buttons()
                      if str(b.get("custom_id", "")).endswith(f":ai.{kind}"))
        rec.note(f"{creator.username} clicks {button.get('label')!r}")
        handle = await creator.click(lobby, custom_id=button["custom_id"])
        await handle.response()
        await bot.wait_idle()
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.3)
    lobby = server.get_message(lobby.id) or lobby
    start = next(b for b in lobby.buttons() if str(b.get("custom_id", "")).endswith(":start"))
    rec.note(f"{creator.username} clicks {start.get('label')!r}")
    handle = await creator.click(lobby, custom_id=start["custom_id"])
    await handle.response()
    return await started(bot, record)


async def the_solo_game(world: World, rec: Recorder, bot: OfflineGovernor, bia: ScriptedUser,
                        general: Channel) -> Table1897:
    rec.note("Puerto Rico 1897: a solo game in Portuguese against two hard Puertomas, "
             "Expansions IV-VI")
    await run_command(rec, bot, bia, "/game rules", general)
    await autocomplete(rec, bia, "game rules", "topic", "puer", general)
    record = await lobby_solo(rec, bot, bia, general,
                              ["festival", "festival_activities", "achievements"],
                              "puertoma_hard")
    t = Table1897(world, bot, record.id, {bia.id: bia}, rng=random.Random(5),
                  command_share=0.2, rec=rec, channel=general, lang="pt")

    async def round3() -> None:
        await run_command(rec, bot, bia, "/game status", general)
        await run_command(rec, bot, bia, "/game log show", general)

    await play(t, rec, on_round={3: round3})
    for _ in range(10):
        await bot.wait_idle()
        await asyncio.sleep(0.3)
    await run_command(rec, bot, bia, "/game status", general)
    return t


async def main(out: Path, solo: bool = False) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    started = time.monotonic()
    server = OfflineDiscordServer()
    await server.start()
    rec = Recorder(server, out)
    rec.install()
    t: Table1897 | None = None
    try:
        guild = server.add_guild("Board game night")
        general = server.add_text_channel(guild, "general")
        admin_role = server.add_role(guild, "Admin", permissions=Perm.MANAGE_GUILD)
        gm = server.add_user("gm", guild=guild, roles=[admin_role])
        ana = server.add_user("ana", guild=guild)
        ben = server.add_user("ben", guild=guild)
        cleo = server.add_user("cleo", guild=guild, dms_open=False)
        world = World(server, guild, general, admin_role, gm, ana, ben)
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(token=server.bot_token, database_url=str(Path(tmp) / "g.db"),
                                dev_guild_id=guild.id)
            bot = OfflineGovernor(settings, rng=NoShuffle(7), guild_ready_timeout=0.05)
            async with running_client(server, bot):
                await server.wait_for_command_sync(guild)
                if solo:
                    bia = server.add_user("bia", guild=guild, locale="pt-BR")
                    t = await the_solo_game(world, rec, bot, bia, general)
                else:
                    t = await the_game(world, rec, bot, ana, ben, cleo, general)
                await bot.wait_idle()
            failed = server.failed_interactions
            rec.note(f"END: failed interactions: {len(failed)}")
            for f in failed:
                rec.lines.append(f"    {f}")
    finally:
        if t is not None:
            rec.note(f"how the moves were made: {t.used}; prompts: {t.used_kinds}")
        rec.note(f"took {time.monotonic() - started:.0f} s")
        rec.write()
        await server.stop()
    print(f"{len(rec.lines)} lines, {rec.images} images in {out} "
          f"({time.monotonic() - started:.0f} s)")


async def the_game(world: World, rec: Recorder, bot: OfflineGovernor, ana: ScriptedUser,
                   ben: ScriptedUser, cleo: ScriptedUser, general: Channel) -> Table1897:
    rec.note("Puerto Rico 1897: a complete three-person game in English with Expansions I-IV")
    await run_command(rec, bot, ana, "/game rules", general)
    await autocomplete(rec, ana, "game rules", "topic", "recr", general)
    await run_command(rec, bot, ana, "/game rules topic:recruiter", general)
    await autocomplete(rec, ben, "game rules", "topic", "smug", general)
    record = await lobby_1897(world, rec, bot, ben, [ana, cleo], general)
    people = {p.id: p for p in (ana, ben, cleo)}
    t = Table1897(world, bot, record.id, people, rng=random.Random(11), command_share=0.25,
                  rec=rec, channel=general, lang="en")

    async def round2() -> None:
        await out_of_turn(t, rec)

    async def round3() -> None:
        await run_command(rec, bot, cleo, "/game status", general)
        await run_command(rec, bot, ana, "/game board", general)
        await run_command(rec, bot, ben, "/game log show", general)
        await autocomplete(rec, ben, "game rules", "topic", "hosp", general)
        await run_command(rec, bot, ben, "/game rules topic:hospital", general)
        await run_command(rec, bot, cleo, "/game rules", general)
        for typed in ("smug", "fest", "citiz"):
            offered = await autocomplete(rec, cleo, "game rules", "topic", typed, general)
            mine = [c for c in offered if str(c["value"]).startswith(f"{GAME_NAME}:")]
            if mine:
                rec.note(f"cleo picks '{mine[0]['name']}'")
                await run_command(rec, bot, cleo, f"/game rules topic:{mine[0]['value']}",
                                  general)

    async def round6() -> None:
        await run_command(rec, bot, ana, "/game games", general)
        await run_command(rec, bot, cleo, "/game status", general)

    async def builder() -> None:
        user, other, _record, _state = await seat_user(t)
        rec.note(f"{other.username} (not their turn) runs /{GROUP} build")
        await run_command(rec, bot, other, f"/{GROUP} build building:\"Small market\"", general)
        await autocomplete(rec, user, f"{GROUP} build", "building", "", general)
        await autocomplete(rec, user, f"{GROUP} build", "building", "res", general)
        await run_command(rec, bot, user, f"/{GROUP} build building:Residence", general)
        await run_command(rec, bot, user, f"/{GROUP} build building:\"Fire station\"", general)
        await run_command(rec, bot, user, f"/{GROUP} build building:castle", general)

    async def smuggler() -> None:
        user, _other, _record, _state = await seat_user(t)
        await autocomplete(rec, user, f"{GROUP} smuggler", "option", "", general)
        move = await t.next_move()
        assert move is not None
        await t.by_command(move[0], move[2])
        await settled(t.world, bot, t.game_id, _record.version)
        await t.table()

    async def produce_and_undo() -> None:
        move = await t.next_move()
        assert move is not None
        user, _, code = move
        await t.make(user, code)
        await run_command(rec, bot, user, "/game undo", general)
        await t.table()

    await play(t, rec, hooks={"build@2": builder, "role@2": round2, "smuggler@3": smuggler,
                              "produce@4": produce_and_undo},
               on_round={3: round3, 6: round6})
    for _ in range(10):  # the last move's reply, the score sheet, the story and the DMs
        await bot.wait_idle()
        await asyncio.sleep(0.3)
    await run_command(rec, bot, ana, "/game status", general)
    await run_command(rec, bot, ben, "/game games", general)
    await run_command(rec, bot, cleo, "/game log show", general)
    return t


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/pt1897"))
    parser.add_argument("--solo", action="store_true",
                        help="a solo game in Portuguese against two hard Puertomas")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.out, arguments.solo))
