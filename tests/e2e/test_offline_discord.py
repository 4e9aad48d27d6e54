"""Self-tests of the offline Discord server, driving a small real discord.py bot."""

from __future__ import annotations

import asyncio
import io
import re
import time
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import handle_message_parameters
from PIL import Image

from tests.offline_discord import (
    WAIT_TIMEOUT,
    ComponentType,
    InteractionFailed,
    MessageFlag,
    OfflineDiscordServer,
    Perm,
    ScriptError,
    StoredMessage,
    parse_command_line,
    running_client,
)

from .conftest import World


def make_png(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (12, 8), color).save(buf, format="PNG")
    return buf.getvalue()


# ----------------------------------------------------------------------------------------------
# the probe bot
# ----------------------------------------------------------------------------------------------


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pr:join:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"pr:join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(label="Joined", disabled=True, custom_id=f"pr:joined:{self.game}")
        )
        await interaction.response.edit_message(
            content=f"Game {self.game}: {interaction.user.name} joined", view=view
        )


class NoteModal(discord.ui.Modal, title="Leave a note"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Note", custom_id="note_text", max_length=50
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}", ephemeral=True)


class CropSelect(discord.ui.View):
    @discord.ui.select(
        custom_id="pr:crop",
        placeholder="Pick a crop",
        options=[
            discord.SelectOption(label=c, value=c.lower()) for c in ("Corn", "Indigo", "Sugar")
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(
            content=f"picked {', '.join(select.values)}", view=None
        )


class BoardLayout(discord.ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        button: discord.ui.Button[Any] = discord.ui.Button(label="Pass", custom_id="layout:pass")
        button.callback = self.on_pass  # type: ignore[method-assign]
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Governor board"),
                discord.ui.ActionRow(button),
            )
        )

    async def on_pass(self, interaction: discord.Interaction) -> None:
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.TextDisplay(f"{interaction.user.name} passed"))
        await interaction.response.edit_message(view=view)


class InviteView(discord.ui.View):
    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="pr:invite", max_values=2)
    async def invite(
        self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]
    ) -> None:
        names = sorted(u.name for u in select.values)
        await interaction.response.edit_message(content=f"invited {', '.join(names)}", view=None)


@app_commands.context_menu(name="Invite to game")
async def invite_user(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(
        f"invite {member.name}?", view=InviteView(), ephemeral=True
    )


@app_commands.context_menu(name="Quote move")
async def quote_move(interaction: discord.Interaction, message: discord.Message) -> None:
    await interaction.response.send_message(f"quoted: {message.content}", ephemeral=True)


class PrGroup(app_commands.Group):
    def __init__(self, bot: ProbeBot) -> None:
        super().__init__(name="pr", description="Puerto Rico")
        self.bot = bot

    @app_commands.command(name="new", description="Open a new game")
    @app_commands.describe(players="How many players", opponent="Somebody to invite")
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 5],
        opponent: discord.Member | None = None,
    ) -> None:
        self.bot.calls.append(("new", players, opponent))
        against = f" against {opponent.name}" if opponent else ""
        await interaction.response.send_message(
            f"New game for {players} players{against}", ephemeral=True
        )
        game = 40 + players
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(
            f"Game {game} is open", view=discord.ui.View().add_item(JoinButton(game))
        )

    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = make_png("blue")
        self.bot.sent_files.append(png)
        await interaction.followup.send(
            "The board", file=discord.File(io.BytesIO(png), "board.png")
        )

    @app_commands.command(name="dm", description="Remind a player in DMs")
    async def dm(self, interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("It is your turn")
        except discord.Forbidden as exc:
            self.bot.errors.append(exc)
            await interaction.response.send_message(
                f"cannot DM {user.name} ({exc.code})", ephemeral=True
            )
        else:
            await interaction.response.send_message(f"reminded {user.name}", ephemeral=True)

    @app_commands.command(name="announce", description="Post in the channel")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(text)
        await interaction.edit_original_response(content="announced")

    @app_commands.command(name="snapshot", description="Reply with a picture")
    async def snapshot(self, interaction: discord.Interaction) -> None:
        png = make_png("green")
        self.bot.sent_files.append(png)
        await interaction.response.send_message(
            "snapshot", file=discord.File(io.BytesIO(png), "snap.png"), ephemeral=True
        )

    @app_commands.command(name="cleanup", description="Exercise every webhook route")
    async def cleanup(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        original = await interaction.original_response()
        await interaction.edit_original_response(content=f"edited {original.id}")
        note = await interaction.followup.send("secret", ephemeral=True, wait=True)
        await interaction.followup.edit_message(note.id, content="secret (edited)")
        await interaction.delete_original_response()

    @app_commands.command(name="thread", description="Open a thread for the game")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="Game 7", type=discord.ChannelType.public_thread
        )
        await thread.send("Welcome to game 7")
        await interaction.followup.send(f"thread {thread.id}", ephemeral=True)

    @app_commands.command(name="twice", description="Acknowledge twice (a bug on purpose)")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        try:
            await discord.InteractionResponse(interaction).send_message("second")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="slow", description="Answer too late")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="rename", description="Rename the game")
    async def rename(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"renamed to {name}", ephemeral=True)

    @rename.autocomplete("name")
    async def rename_autocomplete(self, interaction: discord.Interaction, current: str):
        names = ["Puerto Rico", "Puerto Rico 1897", "San Juan"]
        return [
            app_commands.Choice(name=n, value=n)
            for n in names
            if n.lower().startswith(current.lower())
        ]

    @app_commands.command(name="note", description="Leave a note")
    async def note(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @app_commands.command(name="pick", description="Pick a crop")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick one", view=CropSelect())

    @app_commands.command(name="layout", description="Components V2 board")
    async def layout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=BoardLayout())

    settings = app_commands.Group(name="settings", description="Game settings")

    @settings.command(name="speed", description="Set the game speed")
    @app_commands.choices(
        speed=[
            app_commands.Choice(name="Fast", value="fast"),
            app_commands.Choice(name="Slow", value="slow"),
        ]
    )
    async def speed(
        self,
        interaction: discord.Interaction,
        speed: app_commands.Choice[str],
        where: discord.TextChannel,
    ) -> None:
        await interaction.response.send_message(
            f"speed={speed.value} in #{where.name}", ephemeral=True
        )


@app_commands.command(name="config", description="Server configuration")
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def config_command(interaction: discord.Interaction) -> None:
    assert interaction.permissions.manage_guild
    await interaction.response.send_message("config ok", ephemeral=True)


@app_commands.command(name="ping", description="Are you there?")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
async def ping_command(interaction: discord.Interaction) -> None:
    where = "dm" if interaction.guild_id is None else "guild"
    await interaction.response.send_message(f"pong ({where}, {interaction.locale.value})")


class ProbeBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            help_command=None,
        )
        self.guild_id = guild_id
        self.calls: list[tuple[Any, ...]] = []
        self.errors: list[BaseException] = []
        self.sent_files: list[bytes] = []
        self.resumed = asyncio.Event()
        self.seen_messages: list[discord.Message] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # skip discord.py's 5 s pause before a re-IDENTIFY

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.add_command(PrGroup(self), guild=guild)
        self.tree.add_command(config_command, guild=guild)
        self.tree.add_command(invite_user, guild=guild)
        self.tree.add_command(quote_move, guild=guild)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self.tree.add_command(ping_command)
        self.add_dynamic_items(JoinButton)
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(
            error.original if isinstance(error, app_commands.CommandInvokeError) else error
        )

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.user:
            self.seen_messages.append(message)


@pytest.fixture
async def bot(world: World):
    probe = ProbeBot(world.guild.id)
    async with running_client(world.server, probe):
        yield probe
    world.server.assert_no_failed_interactions()


def ephemeral_reply(msg: StoredMessage) -> bool:
    return msg.ephemeral


# ----------------------------------------------------------------------------------------------
# tests
# ----------------------------------------------------------------------------------------------


async def test_startup_login_gateway_and_command_sync(world: World, bot: ProbeBot) -> None:
    server = world.server
    commands_ = await server.wait_for_command_sync(world.guild)
    assert {c["name"] for c in commands_} == {"pr", "config", "Invite to game", "Quote move"}
    pr = next(c for c in commands_ if c["name"] == "pr")
    subs = {o["name"]: o for o in pr["options"]}
    assert {"new", "board", "dm", "settings"} <= set(subs)
    assert subs["settings"]["type"] == 2
    config = next(c for c in commands_ if c["name"] == "config")
    assert config["default_member_permissions"] == str(discord.Permissions(manage_guild=True).value)

    fetched = await bot.tree.fetch_commands(guild=discord.Object(world.guild.id))
    assert sorted(c.name for c in fetched) == sorted(c["name"] for c in commands_)
    assert next(c for c in fetched if c.name == "pr").id == int(pr["id"])

    assert bot.user is not None and bot.user.id == server.bot_user.id
    assert bot.application_id == server.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.get_channel(world.general.id) is not None
    assert guild.get_role(world.manager_role.id) is not None
    assert server.requests_to("GET", "/users/@me")
    assert server.requests_to("GET", "/oauth2/applications/@me")
    assert server.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    await server.wait_for_gateway("heartbeat")
    connect = server.gateway_events("connect")[0]
    # zlib-stream, or zstd-stream when a zstd module is importable (discord.py picks by itself).
    assert connect.detail["compress"] in ("zlib-stream", "zstd-stream")
    assert connect.detail["v"] == "10" and connect.detail["encoding"] == "json"
    kinds = [e.kind for e in server.gateway_log]
    assert kinds[0] == "connect"
    assert kinds.index("identify") < kinds.index("ready")
    assert kinds.count("identify") == 1 and "resume" not in kinds
    assert not server.unhandled_requests
    beats = len(server.gateway_events("heartbeat"))
    server.request_heartbeat()
    await server.wait_for_gateway("heartbeat", beats + 1)


async def test_slash_command_with_options_answers_ephemerally(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr new players:3 opponent:@bob", channel=world.general)
    data = handle.payload["data"]
    assert data["options"][0]["name"] == "new" and data["options"][0]["type"] == 1
    assert {o["name"]: o["value"] for o in data["options"][0]["options"]} == {
        "players": 3,
        "opponent": str(world.bob.id),
    }
    assert str(world.bob.id) in data["resolved"]["members"]
    assert handle.payload["locale"] == "de"
    assert handle.payload["member"]["permissions"]

    response = await handle.response()
    assert response.type == 4
    assert response.ephemeral
    assert response.content == "New game for 3 players against bob"
    original = await handle.original_message()
    assert original.ephemeral and original.interaction_metadata is not None
    assert bot.calls[-1][:2] == ("new", 3)

    public = await world.server.wait_for_message(
        world.general, lambda m: "Game 43 is open" in m.content
    )
    assert public.find_component(label="Join") is not None
    assert world.server.messages(world.general, include_ephemeral=False) == [public]


async def test_deferred_response_then_followup_with_png(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr board", channel=world.general)
    response = await handle.response()
    assert response.type == 5 and not response.ephemeral
    followup = await handle.wait_for_followup()
    attachment = followup.attachment("board.png")
    assert attachment.is_png
    assert attachment.data == bot.sent_files[-1]
    assert attachment.image_size() == (12, 8)
    # The first followup after a deferral replaces the "thinking" message (documented behaviour).
    original = await handle.original_message()
    assert original is followup and original.content == "The board" and not original.loading
    # The attachment URL is served by the offline CDN.
    assert bot.http.connector is not None
    downloaded = await bot.http.get_from_cdn(attachment.url)
    assert downloaded == attachment.data


async def test_persistent_dynamic_button_edits_the_message(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr new players:2", channel=world.general)
    await handle.response()
    message = await world.server.wait_for_message(
        world.general, lambda m: m.find_component(label="Join") is not None
    )
    assert message.component(label="Join")["custom_id"] == "pr:join:42"

    click = await world.bob.click(message, label="Join")
    assert click.payload["message"]["id"] == str(message.id)
    response = await click.response()
    assert response.type == 7
    edited = world.server.get_message(message.id)
    assert edited is not None
    assert edited.content == "Game 42: bob joined"
    assert edited.component(label="Joined")["disabled"] is True
    assert edited.find_component(label="Join") is None
    assert len(edited.revisions) == 1 and edited.edited
    with pytest.raises(ScriptError, match="disabled"):
        await world.alice.click(edited, label="Joined")


async def test_dm_sent_and_closed_dms_give_forbidden_50007(world: World, bot: ProbeBot) -> None:
    ok = await world.manager.run(f"/pr dm user:{world.alice.mention}", channel=world.general)
    assert (await ok.response()).content == "reminded alice"
    dm = await world.server.wait_for_dm(world.alice)
    assert dm.content == "It is your turn"
    assert world.alice.dms == [dm]

    closed = await world.manager.run("/pr dm user:bob", channel=world.general)
    assert (await closed.response()).content == "cannot DM bob (50007)"
    error = bot.errors[-1]
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert world.bob.dms == []


async def test_rate_limited_send_is_retried(world: World, bot: ProbeBot) -> None:
    fault = world.server.inject_rate_limit(
        "POST", "/channels/{channel_id}/messages", retry_after=0.2
    )
    started = time.monotonic()
    handle = await world.alice.run('/pr announce text:"Harvest time"', channel=world.general)
    message = await world.server.wait_for_message(
        world.general, lambda m: m.content == "Harvest time"
    )
    assert time.monotonic() - started >= 0.2
    assert len(fault.hits) == 1
    sends = world.server.requests_to("POST", "/channels/{channel_id}/messages")
    assert [r.status for r in sends] == [429, 200]
    assert message.author.id == world.server.bot_user.id
    original = await handle.original_message()
    assert original.content == "announced" and original.ephemeral


async def test_dropped_gateway_is_resumed(world: World, bot: ProbeBot) -> None:
    server = world.server
    assert await server.drop_gateway() == 1
    await server.wait_for_gateway("resumed")
    await asyncio.wait_for(bot.resumed.wait(), WAIT_TIMEOUT)
    resume = server.gateway_events("connect")[-1]
    assert resume.detail["path"] == "/resume/"
    assert len(server.gateway_events("identify")) == 1

    handle = await world.alice.run("/pr new players:4", channel=world.general)
    assert (await handle.response()).content == "New game for 4 players"


async def test_events_during_an_outage_are_replayed_on_resume(world: World, bot: ProbeBot) -> None:
    server = world.server
    await server.drop_gateway(abort=True)
    # Dispatched while the bot is disconnected: buffered in the session, replayed on RESUME.
    handle = await world.alice.run("/pr new players:5", channel=world.general)
    await server.wait_for_gateway("resumed")
    assert server.gateway_events("resumed")[-1].detail["replayed"] >= 1
    assert (await handle.response()).content == "New game for 5 players"


async def test_invalidated_session_reidentifies(world: World, bot: ProbeBot) -> None:
    server = world.server
    await server.drop_gateway(invalidate_session=True)
    await server.wait_for_gateway("invalid_session")
    await server.wait_for_gateway("ready", 2)
    await server.wait_until_connected()
    assert len(server.gateway_events("identify")) == 2
    handle = await world.alice.run("/pr new players:2", channel=world.general)
    assert (await handle.response()).content == "New game for 2 players"


async def test_double_acknowledgement_is_rejected_with_40060(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr twice", channel=world.general)
    assert (await handle.response()).content == "first"
    rejection = await handle.wait_for_rejection(40060)
    assert rejection.status == 400
    error = await world.server.wait_for(  # the bot reads the 400 after the server sent it
        lambda: next((e for e in bot.errors if isinstance(e, discord.HTTPException)), None))
    assert error.code == 40060 and error.status == 400
    assert [m.content for m in world.server.messages(world.general)] == ["first"]


async def test_unacknowledged_interaction_fails_and_late_answer_gets_10062(
    world: World, bot: ProbeBot
) -> None:
    world.server.ack_timeout = 0.2
    handle = await world.alice.run("/pr slow seconds:0.4", channel=world.general)
    with pytest.raises(InteractionFailed, match="This interaction failed"):
        await handle.response()
    assert world.server.failed_interactions == [handle]
    await handle.wait_for_rejection(10062)
    await world.server.wait_for(  # the bot reads the 404 after the server sent it
        lambda: any(isinstance(e, discord.NotFound) and e.code == 10062 for e in bot.errors)
        or None)
    world.server.failed_interactions.clear()  # expected here; the fixture asserts none otherwise


async def test_injected_unknown_interaction_on_callback(world: World, bot: ProbeBot) -> None:
    world.server.ack_timeout = 0.3
    handle = await world.alice.run(
        "/pr rename name:x", channel=world.general, reject_callback_with=10062
    )
    rejection = await handle.wait_for_rejection(10062)
    assert rejection.status == 404
    await world.server.wait_for(
        lambda: any(isinstance(e, discord.NotFound) for e in bot.errors) or None
    )
    # The test injected the failure, so the ack deadline passing is expected too.
    await world.server.wait_for(lambda: handle.failed or None)
    world.server.failed_interactions.clear()


async def test_autocomplete_returns_choices(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.autocomplete(
        "pr rename", {"name": "puerto"}, focused="name", channel=world.general
    )
    option = handle.payload["data"]["options"][0]["options"][0]
    assert option == {"name": "name", "type": 3, "value": "puerto", "focused": True}
    choices = await handle.choices()
    assert [c["name"] for c in choices] == ["Puerto Rico", "Puerto Rico 1897"]


async def test_modal_opened_and_submitted(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr note", channel=world.general)
    modal = await handle.modal()
    assert modal["title"] == "Leave a note"
    submit = await world.alice.submit_modal(handle, {"note_text": "build a harbour"})
    response = await submit.response()
    assert response.content == "noted: build a harbour" and response.ephemeral
    with pytest.raises(ScriptError, match="longer than"):
        await world.alice.submit_modal(handle, {"Note": "x" * 51})


async def test_select_menu_values(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr pick", channel=world.general)
    message = await handle.original_message()
    assert message.selects()[0]["placeholder"] == "Pick a crop"
    pick = await world.alice.select(message, ["Indigo"])
    assert pick.payload["data"]["values"] == ["indigo"]
    await pick.response()
    edited = world.server.get_message(message.id)
    assert edited is not None and edited.content == "picked indigo" and edited.components == []


async def test_components_v2_message_and_button(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr layout", channel=world.general)
    message = await handle.original_message()
    assert message.flags & MessageFlag.IS_COMPONENTS_V2
    assert message.components[0]["type"] == ComponentType.CONTAINER
    assert "Governor board" in message.text()
    click = await world.bob.click(message, custom_id="layout:pass")
    await click.response()
    edited = world.server.get_message(message.id)
    assert edited is not None and edited.text() == "bob passed"


async def test_subcommand_group_choices_and_channel_option(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.slash(
        "pr settings speed", {"speed": "Fast", "where": world.general}, channel=world.general
    )
    group = handle.payload["data"]["options"][0]
    assert group["type"] == 2 and group["options"][0]["name"] == "speed"
    assert str(world.general.id) in handle.payload["data"]["resolved"]["channels"]
    assert (await handle.response()).content == "speed=fast in #general"
    with pytest.raises(ScriptError, match="not one of"):
        await world.alice.run(
            "/pr settings speed speed:Medium where:#general", channel=world.general
        )


async def test_manage_server_permission_gates_command(world: World, bot: ProbeBot) -> None:
    with pytest.raises(ScriptError, match="cannot see /config"):
        await world.alice.run("/config", channel=world.general)
    handle = await world.manager.run("/config", channel=world.general)
    assert (await handle.response()).content == "config ok"
    with pytest.raises(ScriptError, match="required"):
        await world.alice.run("/pr new", channel=world.general)
    with pytest.raises(ScriptError, match="max_value"):
        await world.alice.run("/pr new players:9", channel=world.general)


async def test_server_rejects_invalid_components_v2_message(world: World, bot: ProbeBot) -> None:
    params = handle_message_parameters(
        content="text is not allowed", flags=discord.MessageFlags(components_v2=True)
    )
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.send_message(world.general.id, params=params)
    assert info.value.code == 50035
    assert "content" in str(info.value)


def test_parse_command_line() -> None:
    assert parse_command_line('/pr new players:3 note:"two words"') == (
        "pr new",
        {"players": "3", "note": "two words"},
    )


async def test_server_without_bot_refuses_scripted_actions(
    discord_server: OfflineDiscordServer,
) -> None:
    guild = discord_server.add_guild()
    channel = discord_server.add_text_channel(guild, "lobby")
    user = discord_server.add_user("carol", guild=guild)
    with pytest.raises(ScriptError):
        await user.run("/anything", channel=channel)


async def test_webhook_routes_get_edit_followup_delete(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr cleanup", channel=world.general)
    await handle.response()
    secret = await handle.wait_for_followup()
    await world.server.wait_for_edit(secret, lambda m: m.content == "secret (edited)")
    assert secret.ephemeral
    original = world.server.get_message(handle.original_message_id or 0)
    assert original is not None
    await world.server.wait_for(lambda: original.deleted or None)
    assert original.content == f"edited {original.id}"
    assert [r["content"] for r in original.revisions] == ["working"]
    assert world.server.messages(world.general) == [secret]
    assert not world.server.unhandled_requests


async def test_thread_created_and_used(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr thread", channel=world.general)
    reply = await handle.wait_for_followup()
    thread_id = int(reply.content.split()[1])
    thread = world.server.channels[thread_id]
    assert thread.is_thread and thread.parent_id == world.general.id and thread.name == "Game 7"
    welcome = await world.server.wait_for_message(thread, lambda m: m.content.startswith("Welcome"))
    assert welcome.channel_id == thread_id
    await world.server.wait_for(lambda: bot.get_channel(thread_id) or None)


async def test_a_thread_started_from_a_message_follows_discords_rules(
    world: World, bot: ProbeBot
) -> None:
    """A thread from a message shares its id and marks the message; one thread per message;
    none inside a thread; Send Messages in Threads to post; an archived thread comes back with
    a post unless locked; a deleted one is gone (404) and frees its message."""
    server = world.server
    general = bot.get_channel(world.general.id)
    assert isinstance(general, discord.TextChannel)
    table = await general.send("the table")
    thread = await table.create_thread(name="Game #1 · story", auto_archive_duration=10080)
    assert thread.id == table.id and thread.type is discord.ChannelType.public_thread
    assert thread.auto_archive_duration == 10080 and thread.parent_id == world.general.id
    stored = server.get_message(table.id)
    assert stored is not None and stored.flags & MessageFlag.HAS_THREAD
    assert stored.to_payload()["thread"]["id"] == str(thread.id)
    with pytest.raises(discord.HTTPException) as again:
        await table.create_thread(name="again")
    assert (again.value.status, again.value.code) == (400, 160004)
    with pytest.raises(discord.HTTPException) as inner:
        await (await thread.send("first post")).create_thread(name="inner")
    assert (inner.value.status, inner.value.code) == (400, 50024)
    with pytest.raises(discord.HTTPException) as bad:
        await general.get_partial_message((await general.send("x")).id).create_thread(
            name="odd", auto_archive_duration=42)  # type: ignore[arg-type]
    assert bad.value.code == 50035

    # Archived for inactivity: discord.py forgets it; a post brings it back.
    channel = server.channels[thread.id]
    server.update_thread(channel, archived=True)
    await server.wait_for(lambda: bot.get_channel(thread.id) is None or None)
    partial = bot.get_partial_messageable(thread.id, guild_id=world.guild.id)
    await partial.send("back")
    assert not channel.archived
    assert [m.content for m in server.messages(channel)] == ["first post", "back"]

    # Locked and archived, without Manage Threads: refused; Send Messages does nothing there.
    server.set_overwrite(world.general, server.bot_user, deny=Perm.MANAGE_THREADS)
    server.update_thread(channel, archived=True, locked=True)
    with pytest.raises(discord.HTTPException) as locked:
        await partial.send("no")
    assert (locked.value.status, locked.value.code) == (400, 50083)
    server.update_thread(channel, archived=False, locked=False)
    server.set_overwrite(world.general, server.bot_user,
                         deny=Perm.SEND_MESSAGES_IN_THREADS, allow=Perm.SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await partial.send("no")
    server.set_overwrite(world.general, server.bot_user, deny=0)

    # The creator may unarchive and rename it (PATCH); a deleted thread is 404 and its
    # message may start another.
    server.update_thread(channel, archived=True)
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    edited = await fetched.edit(archived=False, name="Game #1 · the story")
    assert not edited.archived and channel.name == "Game #1 · the story"
    server.delete_channel(channel)
    with pytest.raises(discord.NotFound):
        await partial.send("gone")
    assert not stored.flags & MessageFlag.HAS_THREAD
    again_thread = await table.create_thread(name="Game #1 · story")
    assert again_thread.id == table.id
    assert not server.unhandled_requests


async def test_user_messages_reach_the_bot_with_content_intent_rules(
    world: World, bot: ProbeBot
) -> None:
    await world.alice.send(world.general, "hello there")
    await world.alice.send(world.general, f"{bot.user.mention if bot.user else ''} hello bot")
    await world.server.wait_for(lambda: len(bot.seen_messages) == 2 or None)
    plain, mention = bot.seen_messages
    # Without the privileged message-content intent Discord blanks the content...
    assert plain.content == "" and plain.author.id == world.alice.id
    # ...except for messages that mention the bot.
    assert mention.content.endswith("hello bot")
    assert bot.user in mention.mentions


async def test_autosharded_client_asks_gateway_bot(world: World) -> None:
    client = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with running_client(world.server, client):
        assert world.server.requests_to("GET", "/gateway/bot")
        identify = world.server.gateway_events("identify")[-1]
        assert identify.detail["shard"] == (0, 1)
        assert client.get_guild(world.guild.id) is not None


async def test_two_processes_share_the_shards(world: World) -> None:
    """Two sharded clients, one shard of two each: each IDENTIFYs with its shard, gets the
    GUILD_CREATE of its own servers only, and a server's interactions reach its shard's client
    alone; a direct message's reach shard 0 (``(guild_id >> 22) % shard_count``)."""
    server = world.server
    server.recommended_shards = 2
    other = server.add_guild("Second")
    while (other.id >> 22) % 2 == (world.guild.id >> 22) % 2:
        server.guilds.pop(other.id)
        other = server.add_guild("Second")
    channel = server.add_text_channel(other, "general")
    server.add_member(other, world.alice)
    seen: dict[int, list[int]] = {0: [], 1: []}

    class Shard(discord.AutoShardedClient):
        def __init__(self, shard: int) -> None:
            super().__init__(intents=discord.Intents.default(), shard_ids=[shard],
                             shard_count=2, guild_ready_timeout=0.05)
            self.tree = app_commands.CommandTree(self)
            self.shard = shard

            @self.tree.command(name="where", description="Which shard answers")
            async def where(interaction: discord.Interaction[Any]) -> None:
                seen[shard].append(interaction.guild_id or 0)
                await interaction.response.send_message("ok", ephemeral=True)

        async def setup_hook(self) -> None:
            if self.shard == 0:
                await self.tree.sync()  # the application's commands: synced once

    clients = [Shard(0), Shard(1)]
    async with running_client(server, clients[0]), running_client(server, clients[1]):
        shards = sorted(e.detail["shard"] for e in server.gateway_events("identify")[-2:])
        assert shards == [(0, 2), (1, 2)]
        for n, client in enumerate(clients):
            mine = {g.id for g in (world.guild, other) if (g.id >> 22) % 2 == n}
            assert {g.id for g in client.guilds} == mine
        for guild_channel in (world.general, channel):
            handle = await world.alice.run("/where", channel=guild_channel)
            assert (await handle.response()).type == 4
        handle = await world.alice.run("/where", channel=world.alice.dm_channel)
        assert (await handle.response()).type == 4
    by_shard = {(g >> 22) % 2: g for g in (world.guild.id, other.id)}
    assert seen == {0: [by_shard[0], 0], 1: [by_shard[1]]}
    assert not server.requests_to("GET", "/gateway/bot")  # the shard count was given


async def test_file_uploaded_with_the_interaction_response(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.run("/pr snapshot", channel=world.general)
    response = await handle.response()
    assert response.type == 4 and response.ephemeral and response.files == 1
    assert response.message is not None
    assert response.message.attachment("snap.png").data == bot.sent_files[-1]


async def test_dynamic_button_survives_a_bot_restart(world: World) -> None:
    first = ProbeBot(world.guild.id)
    async with running_client(world.server, first):
        handle = await world.alice.run("/pr new players:3", channel=world.general)
        await handle.response()
        message = await world.server.wait_for_message(
            world.general, lambda m: m.find_component(label="Join") is not None
        )
    second = ProbeBot(world.guild.id)
    async with running_client(world.server, second):
        click = await world.bob.click(message, label="Join")
        assert (await click.response()).type == 7
        edited = world.server.get_message(message.id)
        assert edited is not None and edited.content == "Game 43: bob joined"
    assert len(world.server.gateway_events("identify")) == 2
    world.server.assert_no_failed_interactions()


async def test_context_menus_and_user_select(world: World, bot: ProbeBot) -> None:
    handle = await world.alice.user_command("Invite to game", world.bob, channel=world.general)
    assert handle.payload["data"]["target_id"] == str(world.bob.id)
    reply = await handle.original_message()
    assert reply.content == "invite bob?" and reply.ephemeral
    with pytest.raises(ScriptError, match="not visible"):
        await world.bob.select(reply, [world.bob])
    pick = await world.alice.select(reply, [world.bob, "gm"])
    assert set(pick.payload["data"]["resolved"]["users"]) == {
        str(world.bob.id),
        str(world.manager.id),
    }
    await pick.response()
    assert (await pick.original_message()).content == "invited bob, gm"

    move = await world.alice.send(world.general, "I take the mayor")
    quote = await world.bob.message_command("Quote move", move)
    assert (await quote.response()).content == "quoted: I take the mayor"


async def test_global_command_in_a_dm_with_the_bot(world: World, bot: ProbeBot) -> None:
    synced = await world.server.wait_for_command_sync(None)
    assert [c["name"] for c in synced] == ["ping"] and synced[0]["contexts"] == [0, 1]
    handle = await world.alice.run("/ping", channel=world.alice.dm_channel)
    assert "member" not in handle.payload and handle.payload["user"]["id"] == str(world.alice.id)
    assert handle.payload["context"] == 1
    assert (await handle.response()).content == "pong (dm, de)"
    assert [m.content for m in world.alice.dms] == ["pong (dm, de)"]
    in_guild = await world.bob.run("/ping", channel=world.general)
    assert (await in_guild.response()).content == "pong (guild, en-US)"
    with pytest.raises(ScriptError, match="not synced"):
        await world.alice.run("/config", channel=world.alice.dm_channel)


async def test_allowed_mentions_decide_who_is_pinged(world: World, bot: ProbeBot) -> None:
    """Discord pings what a message's ``allowed_mentions`` allow of the mentions in its content
    and its text displays (all of them when none are given), refuses ``parse: ["users"]``
    together with user ids, and the server lists every message body the bot sent."""
    server = world.server
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    alice, bob, role = world.alice, world.bob, world.manager_role
    text = f"<@{alice.id}> <@{bob.id}> <@&{role.id}> @everyone"

    anything = await channel.send(text)  # the probe sets no default: everything is parsed
    stored = server.get_message(anything.id)
    assert stored is not None and stored.allowed_mentions is None
    assert [u.id for u in stored.mentions] == [alice.id, bob.id]
    assert stored.mention_role_ids == [role.id] and stored.mention_everyone

    only = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(alice.id)],
                                   replied_user=False)
    one = await channel.send(text, allowed_mentions=only)
    stored = server.get_message(one.id)
    assert stored is not None
    assert stored.allowed_mentions == {"parse": [], "users": [alice.id]}
    assert [u.id for u in stored.mentions] == [alice.id]
    assert stored.mention_role_ids == [] and not stored.mention_everyone
    assert anything.mention_everyone and not one.mention_everyone  # as discord.py reads them

    layout = discord.ui.LayoutView()
    layout.add_item(discord.ui.TextDisplay(f"<@{bob.id}>"))
    shown = await channel.send(view=layout)  # a text display pings like content
    stored = server.get_message(shown.id)
    assert stored is not None and [u.id for u in stored.mentions] == [bob.id]
    await shown.edit(view=layout, allowed_mentions=discord.AllowedMentions.none())
    assert stored.allowed_mentions == {"parse": []} and stored.mentions == []

    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(
            discord.http.Route("POST", "/channels/{channel_id}/messages",
                               channel_id=world.general.id),
            json={"content": text, "allowed_mentions": {"parse": ["users"],
                                                        "users": [str(alice.id)]}})
    assert refused.value.code == 50035

    sent = [body for _, body in server.message_payloads()]
    assert [body.get("allowed_mentions") for body in sent] == [
        None, {"parse": [], "users": [alice.id]}, None, {"parse": []},
        {"parse": ["users"], "users": [str(alice.id)]}]
