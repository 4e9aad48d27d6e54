"""San Juan on the offline Discord, end to end (issue #10): whole games of 2, 3 and 4 seats from
``/game new game:san-juan`` to the score sheet by clicks (role buttons, the panel's buttons,
menus and multi-selects, its one-click suggestion) and by ``/sj`` commands with autocomplete;
no hand card in anything anyone else can see; old buttons after a restart; undo refused after a
draw and accepted before one; a forged multi-select of the wrong count."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.games.san_juan import CATALOG as SJ_WORDS
from engine.policies import make_policy
from storage import GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import load, settled, table_at
from tests.e2e.sj_play import (
    GAME,
    SanJuanPlayers,
    cards_in,
    check_no_leaks,
    made_public,
    multi_values,
    open_panel,
    shown_cards,
    start_game,
    t,
)
from tests.offline_discord import ScriptedUser, StoredMessage, running_client


def channel_posts(world: World) -> list[StoredMessage]:
    return [m for m in world.server.messages(world.general, include_ephemeral=False)
            if m.author.id == world.server.bot_user.id]


async def check_the_end(world: World, bot: OfflineGovernor, game_id: int,
                        people: Sequence[ScriptedUser], lang: str = "en") -> None:
    """Finished in storage with its results; the log replays (verify); the last post is the
    score sheet (its PNG, the winner, each seat's total and breakdown as the outcome says), and
    everyone whose DMs are open gets the standings with its link; the table shows the final
    board without moves; one story image per role phase."""
    record = await bot.storage.games.get(game_id)
    assert record.status is GameStatus.FINISHED and record.outcome is not None
    assert len(await bot.storage.games.results(game_id)) == len(record.seats)
    assert (await bot.storage.verify([game_id])).ok
    title = t(lang, "final.title", title=SJ_WORDS.t(lang, "game.title"), game=game_id)
    final = await world.server.wait_for_message(
        world.general, lambda m: title in m.text() and any(
            a.filename.endswith("-scores.png") for a in m.attachments))
    for person in people:
        if person.user.dms_open:
            await world.server.wait_for_dm(person, lambda m: str(final.id) in m.text())
    await bot.wait_idle()
    posts = channel_posts(world)
    assert final.id == posts[-1].id and final.attachments[0].is_png
    text = final.text()
    assert bot.service.publisher is not None
    names = await bot.service.publisher.seat_names(record)
    outcome = record.outcome
    winners = [names[s] for s in outcome["winners"]]
    assert (t(lang, "final.winner", names=", ".join(winners)) in text
            or t(lang, "final.winners", names=", ".join(winners)) in text), text
    buildings, chapel = (SJ_WORDS.t(lang, f"score.{part}") for part in ("buildings", "chapel"))
    vp, tie = ("VP", "tie-break") if lang == "en" else ("PV", "desempate")
    for line in outcome["scores"]:
        parts = line["breakdown"]
        assert re.search(
            rf"^{line['rank']}\. \*\*{re.escape(names[line['seat']])}\*\*: {line['total']} {vp}"
            rf" \({buildings} {parts['buildings']} · {chapel} {parts['chapel']}( · [^)]+)?\)"
            rf" · {tie} {line['tiebreak']}$", text, re.MULTILINE), (line, text)
    table = world.server.get_message(record.messages["table"])
    assert table is not None and title in table.text()
    assert not [b for b in table.buttons() if str(b.get("custom_id", "")).startswith("g:")]
    log = await bot.storage.games.actions(game_id)
    phases = sum(e["type"] == "PhaseEnded" for a in log for e in a.events)
    thread = world.server.messages(record.messages["thread"], include_ephemeral=False)
    images = [a for m in thread for a in m.attachments if "-phase-" in a.filename]
    assert phases > 10 and len(images) == phases and all(a.is_png for a in images)


class PanelCheck:
    """Each private panel opened during a game shows its owner's hand (every card of it, in the
    owner's language), their own seat image only, and no card but those its owner may know:
    their own view and what the game made public so far."""

    def __init__(self, bot: OfflineGovernor, game_id: int) -> None:
        self.bot = bot
        self.game_id = game_id
        self.checked = 0
        self.languages: set[str] = set()
        self.others_held = 0
        """Panels drawn while another seat held a card this one could not know."""

    async def __call__(self, user: ScriptedUser, seat: int, panel: StoredMessage, state: Any
                      ) -> None:
        assert panel.ephemeral
        view = GAME.view(state, seat)
        known = cards_in(view) | made_public(await self.bot.storage.games.actions(self.game_id))
        shown = shown_cards(panel)
        assert set(shown) <= known, (seat, {c: sorted(w)[:2] for c, w in shown.items()
                                            if c not in known})
        text = panel.text()
        lang = SJ_WORDS.language_of(user.user.locale)
        for card in view["hand"]:
            assert SJ_WORDS.t(lang, f"card.{card}") in text, (card, lang, text)
        self.languages.add(lang)
        assert [a.filename for a in panel.attachments if "-seat-" in a.filename] == [
            f"game-{self.game_id}-seat-{seat + 1}.png"]
        others = {card for other in range(GAME.players(state)) if other != seat
                  for card in GAME.view(state, other)["hand"]}
        self.others_held += bool(others - known)
        self.checked += 1


async def whole_game(world: World, bot: OfflineGovernor, people: Sequence[ScriptedUser],
                     args: str, *, lang: str = "en", share: float = 0.2
                     ) -> tuple[GameRecord, SanJuanPlayers, PanelCheck]:
    """From ``/game new`` to the score sheet; every panel opened is checked."""
    record = await start_game(world, bot, people[0], people[1:], args, lang)
    players = SanJuanPlayers(world, bot, record.id, {p.id: p for p in people},
                             command_share=share)
    check = players.on_panel = PanelCheck(bot, record.id)
    await players.play()
    await check_the_end(world, bot, record.id, people, lang)
    secrets = await check_no_leaks(world, bot, record.id, people)
    assert secrets.secret and secrets.checked > 20
    assert check.checked > 10 and check.others_held > 0
    return await bot.storage.games.get(record.id), players, check


async def test_a_three_player_game_by_clicks_and_commands(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture
) -> None:
    """Three people (carol reads Spanish) play a whole game with nothing but clicks and slash
    commands: role buttons, panel buttons and menus, the multi-selects and the one-click
    suggestion, ``/sj`` with autocomplete.  Every decision is theirs (logged with their user
    id) or forced (logged as automatic); nobody ever sees a card of another's hand."""
    carol = world.server.add_user("carol", guild=world.guild, locale="es-ES")
    people = [world.alice, world.bob, carol]
    with caplog.at_level(logging.WARNING, logger="bot"):
        record, players, panels = await whole_game(world, governor, people, "max_players:3")
    assert panels.languages == {"en", "es"}
    used = players.used
    assert used["role button"] > 10 and used["panel button"] > 10, used
    assert used["pay multi-select"] > 3 and used["suggestion button"] > 0, used
    assert len([k for k in used if k.startswith("/sj")]) >= 4, used
    log = await governor.storage.games.actions(record.id)
    ids = {p.id for p in people}
    assert all(a.user_id in ids or a.user_id is None for a in log)
    assert sum(a.user_id is not None for a in log) == sum(used.values())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_two_player_game_with_the_variant_start(world: World,
                                                        governor: OfflineGovernor) -> None:
    """The variant start (everybody draws and keeps 4 of them, a multi-select each) and a
    whole two-player game, mostly by ``/sj`` commands whose autocomplete offers the code."""
    record, players, _ = await whole_game(world, governor, [world.alice, world.bob],
                                          "max_players:2 variant:variant_start", share=0.6)
    assert record.options["variant_start"] is True and len(record.seats) == 2
    log = await governor.storage.games.actions(record.id)
    assert [a.code[:2] for a in log[:2]] == ["k.", "k."]
    assert sum(n for how, n in players.used.items() if how.startswith("/sj")) > 30


async def test_a_four_player_game_in_spanish_with_ai_seats(world: World,
                                                           governor: OfflineGovernor) -> None:
    """Two people and two AI seats, the game in Spanish (the seed's card names): the AI seats
    play at once whenever it is their turn (logged without a user), to the score sheet."""
    record, _, _ = await whole_game(world, governor, [world.alice, world.bob],
                                    "max_players:4 ai_seats:2 language:es", lang="es")
    assert len(record.seats) == 4 and record.language == "es"
    ai = {s.seat for s in record.seats if s.ai_policy}
    assert len(ai) == 2
    log = await governor.storage.games.actions(record.id)
    assert any(a.seat in ai for a in log)
    assert all(a.user_id is None for a in log if a.seat in ai)


# ----------------------------------------------------------------------------------------------
# The controls one by one
# ----------------------------------------------------------------------------------------------


def heuristic(record: GameRecord, state: Any, seat: int) -> str:
    action = make_policy("heuristic", "san-juan", record.version).choose(
        GAME, state, seat, GAME.legal_actions(state, seat))
    return GAME.encode_action(action)


async def drive(bot: OfflineGovernor, game_id: int, until: Callable[[Any], bool],
                limit: int = 400) -> None:
    """Play the people's heuristic choices straight through the service until ``until(state)``
    (quicker than clicking, for getting to the position a test is about)."""
    for _ in range(limit):
        record, state = await load(bot, game_id)
        if until(state):
            return
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        user = record.seat(seat).user_id  # type: ignore[union-attr]
        assert user is not None
        await bot.service.submit(game_id, user, record.version, heuristic(record, state, seat))
    raise AssertionError("the position was never reached")


def asked(kind: str, seats: tuple[int, ...]) -> Callable[[Any], bool]:
    def check(state: Any) -> bool:
        prompt = GAME.prompt(state)
        return prompt is not None and prompt.kind == kind and tuple(prompt.seats) == seats
    return check


async def test_old_buttons_work_after_a_restart(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Controls drawn by one bot process are used with the next one over the same database:
    the keep multi-select of a private panel and another panel's one-click suggestion (the
    variant start, both seats at once), then the table's role button."""
    server = world.server
    alice, bob = world.alice, world.bob
    first = make_governor()
    async with running_client(server, first):
        await server.wait_for_command_sync(world.guild)
        record = await start_game(world, first, alice, [bob],
                                  "max_players:2 variant:variant_start")
        _, state = await load(first, record.id)
        assert asked("variant_keep", (0, 1))(state)
        panels = [await open_panel(world, first, record.id, person) for person in (alice, bob)]
        codes = [heuristic(record, state, seat) for seat in (0, 1)]
        await first.wait_idle()
    version = record.version
    second = make_governor()
    async with running_client(server, second):
        multi = multi_values(codes[0])
        assert multi is not None
        menu, values = multi
        handle = await alice.select(panels[0], values, custom_id=f"gs:{record.id}:{version}:{menu}")
        assert (await handle.response()).type == 6
        await settled(world, second, record.id, version)
        redrawn = await handle.original_message(lambda m: "Waiting for bob" in m.text())
        assert redrawn.id == panels[0].id and redrawn.ephemeral
        suggestion = next(b for b in panels[1].buttons()
                          if b["custom_id"].startswith(f"g:{record.id}:{version}:k."))
        now = await second.storage.games.get(record.id)
        handle = await bob.click(panels[1], custom_id=suggestion["custom_id"])
        assert (await handle.response()).type == 6
        moved = await settled(world, second, record.id, now.version)
        await handle.original_message(lambda m: "Waiting for alice" in m.text())
        log = await second.storage.games.actions(record.id)
        assert [(a.code, a.user_id) for a in log] == [
            (codes[0], alice.id), (suggestion["custom_id"].split(":", 3)[3], bob.id)]
        table = await table_at(world, second, record.id)
        await second.wait_idle()
    third = make_governor()
    async with running_client(server, third):
        custom_id = f"g:{record.id}:{moved.version}:r.builder"
        handle = await alice.click(table, custom_id=custom_id)
        assert (await handle.response()).type == 6
        panel = await handle.wait_for_followup(lambda m: "Your turn:** build" in m.text())
        assert panel.ephemeral
        after = await settled(world, third, record.id, moved.version)
        assert after.messages["table"] == table.id
        await third.wait_idle()
    assert len(server.gateway_events("identify")) == 3
    server.assert_no_failed_interactions()


async def test_undo_accepted_before_a_draw_and_refused_after_one(
    world: World, governor: OfflineGovernor
) -> None:
    """Choosing the Builder draws nothing: ``/game undo`` takes it back and it is Alice's
    choice again.  Choosing the Councillor draws cards for everybody: neither ``/game undo``
    nor her panel's Undo can take it back, and nothing changes."""
    server = world.server
    alice = world.alice
    record = await start_game(world, governor, alice, [world.bob], "max_players:2")
    game_id = record.id

    async def click_role(code: str) -> GameRecord:
        before = await governor.storage.games.get(game_id)
        table = await table_at(world, governor, game_id)
        handle = await alice.click(table, custom_id=f"g:{game_id}:{before.version}:{code}")
        assert (await handle.response()).type == 6
        moved = await settled(world, governor, game_id, before.version)
        panel = await handle.wait_for_followup()  # her panel opens: she decides next
        assert panel.ephemeral and "Your turn:**" in panel.text()
        return moved

    await click_role("r.builder")
    handle = await alice.run("/game undo", channel=world.general)
    reply = await handle.wait_for_followup()
    assert reply.ephemeral and t("en", "reply.undone") in reply.text()
    assert "Your turn:** choose a role" in reply.text()  # her panel, her choice again
    await governor.wait_idle()
    assert await governor.storage.games.actions(game_id) == []
    everything = await governor.storage.games.actions(game_id, include_undone=True)
    assert [a.code for a in everything] == ["r.builder"]
    _, state = await load(governor, game_id)
    assert asked("role", (0,))(state)
    table = await table_at(world, governor, game_id)
    assert "alice took back: alice chose the Builder." in table.text()

    chosen = await click_role("r.councillor")
    _, state = await load(governor, game_id)
    assert sum(len(GAME.view(state, seat)["drawn"]) for seat in (0, 1)) == 0  # §4.4: not yet
    await governor.service.submit(game_id, alice.id, chosen.version, "draw")
    await governor.wait_idle()
    moved, state = await load(governor, game_id)
    assert len(GAME.view(state, 0)["drawn"]) == 5
    revealed = t("en", "err.undo_revealed", game=game_id)
    handle = await alice.run("/game undo", channel=world.general)
    assert (await handle.wait_for_followup()).content == revealed
    panel = await open_panel(world, governor, game_id, alice)
    handle = await alice.click(panel, custom_id=f"t:{game_id}:{moved.version}:undo")
    assert (await handle.response()).type == 6
    await server.wait_for(lambda: [m for m in (*handle.followups, handle.original_message_or_none)
                                   if m is not None and revealed in m.text()] or None)
    await governor.wait_idle()
    now = await governor.storage.games.get(game_id)
    assert now.version == moved.version
    assert [a.code for a in await governor.storage.games.actions(game_id)] == [
        "r.councillor", "draw"]


async def test_a_wrong_count_is_refused_and_changes_nothing(
    world: World, governor: OfflineGovernor
) -> None:
    """A payment menu sent with one card too few (a modified client: Discord itself enforces
    the count) and one with too many: each gets one private line with the numbers, and the
    game stays as it was; the right count then pays."""
    server = world.server
    alice = world.alice
    record = await start_game(world, governor, alice, [world.bob], "max_players:2")
    game_id = record.id
    _, state = await load(governor, game_id)
    await governor.service.submit(game_id, alice.id, record.version, "r.builder")
    record, state = await load(governor, game_id)
    costs = GAME.view(state, 0)["pending"]["costs"]
    hand = len(GAME.view(state, 0)["hand"])
    build = next(code for code, cost in costs.items() if 2 <= cost < hand - 1)
    await governor.service.submit(game_id, alice.id, record.version, build)
    record, state = await load(governor, game_id)
    assert asked("pay", (0,))(state)
    cost = int(GAME.view(state, 0)["pending"]["cost"])
    panel = await open_panel(world, governor, game_id, alice)
    custom_id = f"gs:{game_id}:{record.version}:pay"
    menu = panel.component(custom_id=custom_id)
    assert menu["min_values"] == menu["max_values"] == cost
    values = [o["value"] for o in menu["options"]]
    card = SJ_WORDS.t("en", f"card.{build.split('.', 1)[1]}")
    for chosen in (values[: cost - 1], values[: cost + 1]):
        shown = server.get_message(panel.id)
        assert shown is not None
        forged = shown.component(custom_id=custom_id)
        forged["min_values"], forged["max_values"] = 1, 25  # what a modified client could send
        handle = await alice.select(panel, chosen, custom_id=custom_id)
        assert (await handle.response()).type == 6
        answer = await handle.wait_for_followup()
        assert answer.ephemeral
        assert SJ_WORDS.t("en", "why.pay_count", card=card, n=cost,
                          chosen=len(chosen)) in answer.text(), answer.text()
        await governor.wait_idle()
        assert (await governor.storage.games.get(game_id)).version == record.version
    panel = await open_panel(world, governor, game_id, alice)
    handle = await alice.select(panel, values[:cost], custom_id=custom_id)
    assert (await handle.response()).type == 6
    await settled(world, governor, game_id, record.version)
    await handle.original_message(lambda m: "Waiting for bob" in m.text())
    log = await governor.storage.games.actions(game_id)
    assert [a.code[:2] for a in log[-1:]] == ["p."]
    server.assert_no_failed_interactions()


async def test_an_undone_payment_names_no_card(world: World, governor: OfflineGovernor
                                               ) -> None:
    """A payment (which hand cards went to the discards) can be taken back when nothing was
    drawn after it; the table then says that Alice took back her last decision, never which
    cards it named (the log has no public line for it, and its code names her cards)."""
    alice = world.alice
    record = await start_game(world, governor, alice, [world.bob], "max_players:2")
    game_id = record.id
    await governor.service.submit(game_id, alice.id, record.version, "r.builder")
    record, state = await load(governor, game_id)
    view = GAME.view(state, 0)
    build = next(code for code, cost in view["pending"]["costs"].items()
                 if 1 <= cost < len(view["hand"]) - 1)
    await governor.service.submit(game_id, alice.id, record.version, build)
    record, state = await load(governor, game_id)
    assert asked("pay", (0,))(state)
    code = heuristic(record, state, 0)
    panel = await open_panel(world, governor, game_id, alice)
    multi = multi_values(code)
    assert multi is not None
    handle = await alice.select(panel, multi[1], custom_id=f"gs:{game_id}:{record.version}:pay")
    assert (await handle.response()).type == 6
    paid = await settled(world, governor, game_id, record.version)
    await handle.original_message(lambda m: "Waiting for bob" in m.text())
    undo = await alice.run("/game undo", channel=world.general)
    assert t("en", "reply.undone") in (await undo.wait_for_followup()).text()
    await governor.wait_idle()
    record, state = await load(governor, game_id)
    assert record.version > paid.version and asked("pay", (0,))(state)
    table = await table_at(world, governor, record.id)
    secrets = await check_no_leaks(world, governor, game_id, [alice, world.bob], at_least=3)
    assert {v.split(".")[1] for v in multi[1]} <= secrets.secret  # so never shown
    assert t("en", "log.undone_private", name="alice") in table.text()
