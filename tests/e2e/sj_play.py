"""Scripted San Juan players on the offline Discord (the model is :mod:`tests.e2e.game_play`,
Puerto Rico's): they click the table's role buttons, open their private panel with **My
turn**, click its buttons, pick in its single menus and its multi-selects (the payment, the
Councillor's keep, the hand-limit discard: the values whose composed code is the heuristic's),
sometimes click the panel's one-click suggestion, and type ``/sj …`` with autocomplete.  The
choice itself is the engine's heuristic policy (seeded); the way it is made is the test's.

Also here: what the leak check needs (the San Juan card names in both languages, the names the
game's public events made public, every text a message shows anyone)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.san_juan import CATALOG as SJ_WORDS
from bot.games.san_juan import DECISIONS
from bot.games.san_juan.panels import compose
from bot.games.san_juan.words import family, multiset, pay_parts
from bot.i18n import CATALOG as BOT_WORDS
from engine.core import Event, get_game
from engine.policies import make_policy
from storage import ActionRecord, GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import load, settled, table_at
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.offline_discord import WAIT_TIMEOUT, InteractionHandle, ScriptedUser, StoredMessage

GAME = get_game("san-juan")
I18N = Path(__file__).resolve().parents[2] / "bot" / "games" / "san_juan" / "i18n"
MENU_OF = {"pay": "pay", "keep": "keep", "discard": "discard"}
"""The multi-select (``panels.MENUS``) of each family of codes it composes."""


def card_names() -> dict[str, set[str]]:
    """Every card's names in every language of the catalog: ``{"well": {"Well", "Pozo"}}``."""
    out: dict[str, set[str]] = {}
    for path in sorted(I18N.glob("*.images.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            if key.startswith("card.") and isinstance(value, str):
                out.setdefault(key.removeprefix("card."), set()).add(value)
    return out


CARD_NAMES = card_names()
_NAME_PATTERNS = {
    card: re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in sorted(names)))
    for card, names in CARD_NAMES.items()
}
_CODE_PATTERNS = {card: re.compile(rf"(?<=[.,]){card}(?![a-z_])") for card in CARD_NAMES}
"""A card's id inside an action code (``c.well``, ``p.indigo_plant,well``)."""


def cards_named(text: str) -> set[str]:
    """The cards (ids) whose name, in any language, ``text`` mentions as a word (case matters:
    "Well" is the card, "well" is not)."""
    return {card for card, pattern in _NAME_PATTERNS.items() if pattern.search(text)}


def _chapel_count(lang: str) -> str:
    """The words after the count of one's Chapel cards in one's panel ("under your Chapel")."""
    line = SJ_WORDS.t(lang, "panel.me_chapel", chapel="§")
    found = re.search(r"§ (.+)$", line)
    assert found is not None, line
    return found[1]


NOT_CARDS = tuple(words for lang in ("en", "es")
                  for words in (SJ_WORDS.t(lang, "score.chapel"), _chapel_count(lang)))
"""Words that name a card but stand for no card of anyone's hand: the score sheet's part
"Chapel cards" and the panel's "2 under your Chapel" (the owner's count)."""


def visible_text(text: str) -> str:
    for words in NOT_CARDS:
        text = text.replace(words, "")
    return text


NOT_A_CARD = {"kind", "decision", "reason", "phase"}
"""Keys whose values name a decision or a cause, not a card (a prompt ``kind`` "carpenter")."""


def cards_in(data: Any) -> set[str]:
    """Card ids anywhere in an event's or a view's data (strings equal to a card id)."""
    if isinstance(data, str):
        return {data} if data in CARD_NAMES else set()
    out: set[str] = set()
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key not in NOT_A_CARD:
                out |= cards_in(value)
    elif isinstance(data, list | tuple):
        for value in data:
            out |= cards_in(value)
    return out


PUBLIC_CARD_EVENTS = {"BuildingBuilt": ("card", "over"), "GoldMineRevealed": ("cards",),
                      "GoldMineCardTaken": ("card", "discarded")}


def made_public(log: Sequence[ActionRecord]) -> set[str]:
    """The cards the game's public events name (everybody saw them: built, covered, turned up
    by a Gold mine, taken from it), as the public sees the events."""
    out: set[str] = set()
    for action in log:
        for data in action.events:
            event = Event.from_json(data).for_viewer(None)
            if event is not None:
                for key in PUBLIC_CARD_EVENTS.get(event.type, ()):
                    out |= cards_in(event.data.get(key))
    return out


def dealt_public(record: GameRecord) -> set[str]:
    """The cards on the table from the start (everybody's Indigo plant)."""
    return cards_in(GAME.view(GAME.setup(record.options, record.seed or 0), None))


def held_cards(record: GameRecord, log: Sequence[ActionRecord]) -> set[str]:
    """Every card that was in some seat's hand (or drawn and undecided) at some point of the
    game: the game replayed from its seed."""
    state = GAME.setup(record.options, record.seed or 0)
    held: set[str] = set()

    def note(state: Any) -> None:
        for seat in range(len(record.seats)):
            view = GAME.view(state, seat)
            held.update(view.get("hand") or (), view.get("drawn") or ())

    note(state)
    for action in log:
        state, _ = GAME.apply(state, action.seat, GAME.decode_action(action.code))
        note(state)
    return held


def strings(data: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, string) for every string in a message payload, however deep."""
    if isinstance(data, str):
        yield key, data
    elif isinstance(data, Mapping):
        for k, v in data.items():
            yield from strings(v, str(k))
    elif isinstance(data, list | tuple):
        for v in data:
            yield from strings(v, key)


NOT_TEXT = {"id", "url", "proxy_url", "channel_id", "guild_id", "application_id", "timestamp",
            "edited_timestamp", "webhook_id", "content_type", "avatar", "banner", "nonce"}


def shown_cards(message: StoredMessage) -> dict[str, set[str]]:
    """The cards a message names anywhere, in every version the server kept (its edits): text,
    embeds, labels, placeholders, option descriptions, attachment filenames and descriptions;
    the card ids in custom ids and option values.  ``{card: {where, ...}}``."""
    found: dict[str, set[str]] = {}
    for payload in (*message.revisions, message.to_payload()):
        for key, raw in strings(payload):
            if key in NOT_TEXT:
                continue
            text = visible_text(raw)
            named = cards_named(text) | {c for c, code in _CODE_PATTERNS.items()
                                         if code.search(text)}
            if key in ("custom_id", "value"):  # an embed field's value or an option's
                named |= {c for c in CARD_NAMES if re.search(rf"(?<![a-z_]){c}(?![a-z_])", text)}
            for card in named:
                found.setdefault(card, set()).add(f"{key}: {text[:120]}")
    return found


def multi_values(code: str) -> tuple[str, list[str]] | None:
    """The multi-select and the option values whose composed code is ``code`` (``None`` for a
    code no multi-select stands for)."""
    fam = family(code)
    if fam not in MENU_OF:
        return None
    if fam == "pay":
        cards, goods = pay_parts(code)
    else:
        cards, goods = multiset(code.split(".", 1)[1]), []
    values = [f"c.{name}.{i}" for name, n in cards for i in range(n)]
    values += [f"g.{good}.{i}" for good, n in goods for i in range(n)]
    menu = MENU_OF[fam]
    assert compose(menu, values) == code, (code, values)
    return menu, values


def command_for(code: str) -> tuple[str, str | None]:
    """The ``/sj`` subcommand and its option for ``code``."""
    decision = next(d for d in DECISIONS if d.matches(code))
    return f"sj {decision.name}", decision.option


def t(lang: str, key: str, **fields: Any) -> str:
    """A word of the bot's own catalog (buttons, titles) in ``lang``."""
    return BOT_WORDS.t(lang, key, **fields)


async def start_game(world: World, bot: OfflineGovernor, creator: ScriptedUser,
                     others: Sequence[ScriptedUser], args: str, lang: str = "en"
                     ) -> GameRecord:
    """``/game new game:san-juan …``, the others join, the creator starts; once the table is
    posted (in the game's language ``lang``)."""
    lobby = await open_lobby(world, creator, f"game:san-juan {args}")
    for person in others:
        mention = f"<@{person.id}>"

        def joined(m: StoredMessage, mention: str = mention) -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, t(lang, "button.join"), joined)
    await press(world, creator, lobby, t(lang, "button.start"))

    async def active() -> GameRecord | None:
        record = await bot.storage.games.find_by_channel(world.general.id)
        posted = record is not None and record.status is GameStatus.ACTIVE and bool(
            record.messages.get("table"))
        return record if posted else None

    loop = asyncio.get_running_loop()
    guard = loop.time() + WAIT_TIMEOUT
    while (record := await active()) is None:
        assert loop.time() < guard, "the game did not start"
        await asyncio.sleep(0.01)
    await table_at(world, bot, record.id)
    return record


async def open_panel(world: World, bot: OfflineGovernor, game_id: int, user: ScriptedUser
                     ) -> StoredMessage:
    """**My turn** on the table (whatever its language): the user's private panel."""
    table = await table_at(world, bot, game_id)
    button = next(b for b in table.buttons()
                  if str(b.get("custom_id", "")).startswith(f"t:{game_id}:")
                  and str(b["custom_id"]).endswith(":panel"))
    handle = await user.click(table, custom_id=button["custom_id"])
    return await handle.original_message()


@dataclass
class SanJuanPlayers:
    """The people of one San Juan game and how they make their moves."""

    world: World
    bot: OfflineGovernor
    game_id: int
    people: dict[int, ScriptedUser]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    command_share: float = 0.2
    """How often a decision is made with its slash command instead of a click."""
    suggestion_share: float = 0.5
    """How often the panel's one-click suggestion is clicked when it is the choice."""
    on_panel: Callable[[ScriptedUser, int, StoredMessage, Any], Awaitable[None]] | None = None
    """Called with each private panel opened (user, seat, panel, the state it was drawn for)."""
    used: dict[str, int] = field(default_factory=dict)

    def count(self, how: str) -> None:
        self.used[how] = self.used.get(how, 0) + 1

    async def next_move(self) -> tuple[ScriptedUser, int, str] | None:
        """Who decides next and what (the heuristic's choice); ``None`` at the end."""
        record, state = await load(self.bot, self.game_id)
        prompt = GAME.prompt(state)
        if prompt is None:
            return None
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        user_id = record.seat(seat).user_id  # type: ignore[union-attr]
        policy = make_policy("heuristic", "san-juan", record.version)
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        return self.people[int(user_id or 0)], seat, GAME.encode_action(action)

    async def play(self, max_moves: int = 2000) -> int:
        moves = 0
        while moves < max_moves and (move := await self.next_move()) is not None:
            user, seat, code = move
            await self.make(user, seat, code)
            moves += 1
        return moves

    async def make(self, user: ScriptedUser, seat: int, code: str) -> None:
        """Make the move, then wait until it is stored, the table shows it and the private
        answer (the redrawn panel, the command's reply) is there."""
        record = await self.bot.storage.games.get(self.game_id)
        answered: Callable[[], Awaitable[object]] | None = None
        if self.rng.random() < self.command_share:
            answered = (await self.by_command(user, code)).wait_for_followup
        elif code.startswith("r.") and await self.on_table(user, code, record):
            pass
        else:
            answered = await self.in_panel(user, seat, code, record)
        await settled(self.world, self.bot, self.game_id, record.version)
        if answered is not None:
            await answered()

    async def on_table(self, user: ScriptedUser, code: str, record: GameRecord) -> bool:
        """Click the table's role button for ``code`` (``False`` when the table has none: a
        plain role while the Library's doubled one is offered there)."""
        table = await table_at(self.world, self.bot, self.game_id)
        custom_id = f"g:{self.game_id}:{record.version}:{code}"
        if table.find_component(custom_id=custom_id) is None:
            return False
        handle = await user.click(table, custom_id=custom_id)
        assert (await handle.response()).type == 6
        self.count("role button")
        return True

    async def open_panel(self, user: ScriptedUser) -> StoredMessage:
        return await open_panel(self.world, self.bot, self.game_id, user)

    async def in_panel(self, user: ScriptedUser, seat: int, code: str, record: GameRecord
                       ) -> Callable[[], Awaitable[object]]:
        """Open the panel and make the move there; returns the wait for its redrawing."""
        server = self.world.server
        panel = await self.open_panel(user)
        if self.on_panel is not None:
            _, state = await load(self.bot, self.game_id)
            await self.on_panel(user, seat, panel, state)
        mark = server.mark()
        handle = await self.choose(user, panel, code, record.version)
        assert (await handle.response()).type == 6

        def redrawn() -> StoredMessage | None:
            message = server.get_message(panel.id)
            return message if message is not None and message.version > mark else None

        return lambda: server.wait_for(redrawn, what="the panel redrawn after the move")

    async def choose(self, user: ScriptedUser, panel: StoredMessage, code: str, version: int
                     ) -> InteractionHandle:
        """Make ``code`` in the panel: its button, its option in a single menu, or the values
        of the multi-select that compose it (or the suggestion button standing for them)."""
        button = panel.find_component(custom_id=f"g:{self.game_id}:{version}:{code}")
        multi = multi_values(code)
        if multi is not None:
            menu, values = multi
            custom_id = f"gs:{self.game_id}:{version}:{menu}"
            select = panel.find_component(custom_id=custom_id)
            if select is not None and (button is None
                                       or self.rng.random() >= self.suggestion_share):
                assert int(select["min_values"]) == int(select["max_values"]) == len(values)
                offered = {o["value"] for o in select["options"]}
                assert set(values) <= offered, (code, values, offered)
                self.count(f"{menu} multi-select")
                return await user.select(panel, values, custom_id=custom_id)
            if button is not None:
                self.count("suggestion button")
                return await user.click(panel, custom_id=button["custom_id"])
            raise AssertionError(f"no control for {code} in {panel.text()}")
        if button is not None:
            self.count("panel button")
            return await user.click(panel, custom_id=button["custom_id"])
        select = next((s for s in panel.selects() if s.get("max_values", 1) == 1
                       and any(o["value"] == code for o in s.get("options", ()))), None)
        assert select is not None, (code, panel.text(), panel.components)
        self.count("panel menu")
        return await user.select(panel, [code], custom_id=select["custom_id"])

    async def by_command(self, user: ScriptedUser, code: str) -> InteractionHandle:
        command, option = command_for(code)
        if option is None:
            handle = await user.run(f"/{command}", channel=self.world.general)
        else:
            offered: list[str] = []
            for typed_text in ("", code):  # "" shows 25 at most: then typing the code narrows
                typed = await user.autocomplete(command, {option: typed_text}, focused=option,
                                                channel=self.world.general)
                offered = [c["value"] for c in await typed.choices()]
                if code in offered:
                    break
            assert code in offered, (code, offered)
            handle = await user.run(f"/{command} {option}:{code}", channel=self.world.general)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command}")
        return handle


# ----------------------------------------------------------------------------------------------
# What anyone else can see
# ----------------------------------------------------------------------------------------------

def public_messages(world: World, record: GameRecord, people: Sequence[ScriptedUser]
                    ) -> list[StoredMessage]:
    """Every message of the game's channel and story thread that is not ephemeral, and every DM
    the bot sent each person (what anybody other than a panel's owner can see)."""
    server = world.server
    out = list(server.messages(world.general, include_ephemeral=False))
    thread = record.messages.get("thread")
    if thread:
        out += server.messages(thread, include_ephemeral=False)
    for person in people:
        out += server.dms(person)
    return out


@dataclass
class Secrets:
    """What a finished game made public and what stayed in hands."""

    public: set[str]
    held: set[str]
    checked: int

    @property
    def secret(self) -> set[str]:
        return self.held - self.public


async def check_no_leaks(world: World, bot: OfflineGovernor, game_id: int,
                         people: Sequence[ScriptedUser], *, at_least: int = 20) -> Secrets:
    """No message anyone else can see names a card the game never made public, in any of its
    versions, labels, filenames or alt texts; no public attachment is a seat image; and some
    cards were held and never made public (so the check means something)."""
    record = await bot.storage.games.get(game_id)
    log = await bot.storage.games.actions(game_id)
    told = await bot.storage.games.actions(game_id, include_undone=True)  # undone, yet shown
    public = made_public(told) | dealt_public(record)
    held = held_cards(record, log)
    assert held - public, "every card held was made public: the check would mean nothing"
    messages = public_messages(world, record, people)
    assert len(messages) >= at_least
    for message in messages:
        assert not message.ephemeral
        files = [str(a["filename"]) for p in (*message.revisions, message.to_payload())
                 for a in p.get("attachments", ())]
        assert not [f for f in files if "-seat-" in f], (message.id, files)
        leaked = {card: sorted(where)[:2] for card, where in shown_cards(message).items()
                  if card not in public}
        assert not leaked, (message.id, message.text(), leaked)
    return Secrets(public, held, len(messages))
