"""Discord's length limits (bot/limits.py): the cut itself, and every presenter's output checked
against the offline server's validation (Discord's rules) over whole games: the table, the
story posts, the final standings of 5 players with 32-character names, every private panel,
the lobby, the log pages and every help topic, in both languages."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import ui

from bot import limits
from bot.changes import TableUpdate
from bot.errors import UserError, message_for
from bot.games import presenters
from bot.games.puerto_rico.catalog import CATALOG
from bot.help import help_text
from bot.limits import fit, fit_embed, fit_message, fit_texts, fit_view, quote
from bot.panels import PanelView
from bot.presenters import closed_lobby_embed, lobby_embed
from bot.service import GameService
from bot.table import TableMessages
from bot.turns import TurnService
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from storage import GameRecord, Storage
from tests.offline_discord.errors import DiscordAPIError
from tests.offline_discord.validation import validate_message

GAME = get_game("puerto-rico")
V2 = 1 << 15
NAMES = [n.ljust(32, "x")[:32] for n in (  # 32 characters each, spaces included
    "Maximiliana de las Mercedes Oro", "Bartholomew Fitzgerald-Smithson",
    "Guadalupe Hernández y Castañeda", "Wolfgang Amadeus Schwarzenegger",
    "Anne-Marie Catherine Villeneuve")]


# --- the cut ----------------------------------------------------------------------------------


def test_fit_cuts_at_a_word_boundary_with_an_ellipsis() -> None:
    assert fit("short", 10) == "short"
    assert fit("one two three four five", 16) == "one two three…"
    assert fit("x" * 50, 10) == "x" * 9 + "…"  # no space late enough: a hard cut
    assert fit("abc", 1) == "…" and fit("abc", 0) == ""


@pytest.mark.parametrize("seed", range(20))
def test_fit_always_fits_and_keeps_a_prefix(seed: int) -> None:
    rng = random.Random(seed)
    words = ["a", "doubloon", "Hacienda", "añil", "\n", "🎲", "x" * 30]
    text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 400)))
    for limit in (1, 2, 45, 80, 100, 256, 1024, 2000):
        cut = fit(text, limit)
        assert len(cut) <= limit
        assert cut == text or (cut.endswith("…") and text.startswith(cut[:-1].rstrip()))
        assert len(cut) >= min(len(text), limit * 2 // 3) or limit < 3


def test_quote_keeps_what_was_typed_short_and_on_one_line() -> None:
    assert quote("  harbor\n\nwharf ") == "harbor wharf"
    typed = "plantation " * 200
    assert len(quote(typed)) <= limits.QUOTE and quote(typed).endswith("…")
    text = message_for(UserError("err.no_such_choice", game=3, choice=typed), "en")
    assert len(text) < 300 and "plantation plantation" in text


def test_fit_texts_shares_the_total_fairly() -> None:
    texts = fit_texts(["a" * 3000, "b" * 3000, "c" * 100], 4000)
    assert sum(map(len, texts)) <= 4000 and texts[2] == "c" * 100
    assert abs(len(texts[0]) - len(texts[1])) <= 1


def test_fit_embed_and_view_and_message() -> None:
    embed = discord.Embed(title="t" * 300, description="d " * 3000)
    for _ in range(30):
        embed.add_field(name="n" * 300, value="v " * 700)
    embed.set_footer(text="f" * 3000)
    check({"embeds": [fit_embed(embed).to_dict()]})
    layout = ui.LayoutView()
    box: ui.Container[Any] = ui.Container()
    for _ in range(3):
        box.add_item(ui.TextDisplay("word " * 600))
    box.add_item(ui.MediaGallery(discord.MediaGalleryItem("attachment://a.png",
                                                          description="alt " * 500)))
    row: ui.ActionRow[Any] = ui.ActionRow()
    row.add_item(ui.Select(custom_id="s", placeholder="p" * 200, options=[
        discord.SelectOption(label="l " * 80, value="v", description="d" * 150)]))
    box.add_item(row)
    buttons: ui.ActionRow[Any] = ui.ActionRow()
    buttons.add_item(ui.Button(label="b" * 120, custom_id="b"))
    box.add_item(buttons)
    layout.add_item(box)
    check_view(fit_view(layout))
    fields = fit_message(content="c " * 1500)
    check({"content": fields["content"]})


# --- Discord's rules, as the offline server applies them --------------------------------------


def check(payload: dict[str, Any], files: int = 0) -> None:
    try:
        validate_message(payload, file_count=files, creating=True)
    except DiscordAPIError as exc:  # pragma: no cover - the failure is the point
        raise AssertionError(f"{exc}: {exc.errors}") from None


def components_of(layout: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = layout.to_components()
    return out


def check_view(layout: ui.LayoutView | ui.View, files: int = 0) -> None:
    v2 = isinstance(layout, ui.LayoutView)
    check({"components": components_of(layout), "flags": V2 if v2 else 0}, files)


def check_text(text: str) -> None:
    check({"content": text})


# --- every presenter over whole games ---------------------------------------------------------


class Publisher:
    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.tables: list[TableUpdate] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: self.names[s.seat] for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        self.tables.append(update)

    async def notify_turn(self, update: TableUpdate) -> None:
        return None


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


def fake_render(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
                labels: Mapping[str, str]) -> bytes:
    return b"\x89PNG fake"


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


@pytest.mark.parametrize(("lang", "render"), [("es", True), ("en", False)])
async def test_every_presenter_output_of_a_whole_game_fits(
    storage: Storage, lang: str, render: bool
) -> None:
    publisher = Publisher(NAMES)
    svc = GameService(storage, publisher, rng=Keep(3),
                      renderer=fake_render if render else None)
    turns = TurnService(svc)
    users = [101, 102, 103, 104, 105]
    record = await svc.create_lobby(creator_id=users[0], guild_id=5, channel_id=10,
                                    language=lang, max_players=5, ai_seats=0)
    for user in users[1:]:
        record = await svc.join(record.id, user)
    for level in ("heuristic", "random"):
        check({"embeds": [lobby_embed(record, lang, level, CATALOG).to_dict()]})
    from bot.seats import Actor

    await svc.start(record.id, Actor(users[0], can_manage=True), record.version)
    policy = make_policy("random", "puerto-rico", 11)
    checked = panels = 0
    while True:
        loaded = await storage.games.load(record.id)
        prompt = GAME.prompt(loaded.state)
        if prompt is None:
            break
        seat = prompt.seats[0]
        if checked % 7 == 0:  # a private panel for everyone asked, now and then
            for asked in prompt.seats:
                panel = await turns.panel(record.id, users[asked], render=False)
                layout, files = PanelView(panel, lang, CATALOG).build(reuse_image=True)
                check_view(layout, len(files))
                panels += 1
        checked += 1
        action = policy.choose(GAME, loaded.state, seat, GAME.legal_actions(loaded.state, seat))
        await svc.submit(record.id, users[seat], None, GAME.encode_action(action))
    assert panels > 20
    link = "https://discord.com/channels/5/10/99"
    for update in publisher.tables:
        draw = TableMessages(update.record, update.names, lang, CATALOG)
        layout, files = draw.table(update)
        check_view(layout, len(files))
        phases = await update.ended_phases()
        if phases:
            story, story_files = draw.story(phases, update.recent, link,
                                            over=bool(update.view.get("game_over")))
            check_view(story, len(story_files))
        if update.view.get("game_over"):
            final, final_files = draw.final(update, link)
            check_view(final, len(final_files))
            assert all(name[:20] in str(components_of(final)) for name in NAMES)
    last = publisher.tables[-1]
    assert last.view.get("game_over")
    check_view(TableMessages(last.record, last.names, lang, CATALOG).closed())
    check({"embeds": [closed_lobby_embed(last.record, lang, "lobby.started", None,
                                         CATALOG).to_dict()]})
    _, lines = await turns.log_lines(record.id, lang, last=100)
    assert len("\n".join(lines)) > 2000  # the log page is cut, not refused
    from bot.play import LOG_LIMIT

    check_text(f"**{CATALOG.t(lang, 'reply.log_title', game=record.id)}**\n"
               + "\n".join(lines)[-LOG_LIMIT:])


@pytest.mark.parametrize("lang", CATALOG.languages)
def test_every_help_topic_fits_in_one_message(lang: str) -> None:
    for presenter in presenters():
        for topic in presenter.help_topics():
            check_text(help_text(presenter, topic, lang, {"game": 10**18, presenter.command: 1}))
