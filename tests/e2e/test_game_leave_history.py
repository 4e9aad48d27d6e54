"""History belongs to whoever acted at the time (issue #9), on the offline Discord: Bob plays
some moves by clicks, leaves with /game leave, an AI plays his seat to the end.  His moves keep
his name in the log, the table and the story; the AI's moves name the AI; the log says where
the seat changed hands; the final standings name both."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.policies import make_policy
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, Players, load, start, table_at
from tests.offline_discord import StoredMessage

LEFT = "bob left the game; AI 2 (normal) plays that seat from now on."
AI = "AI 2 (normal)"


async def play_to_the_end(bot: OfflineGovernor, game_id: int) -> None:
    """The people's heuristic choices straight through the service (the AI plays by itself)."""
    for _ in range(3000):
        record, state = await load(bot, game_id)
        prompt = GAME.prompt(state)
        if prompt is None:
            return
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        action = make_policy("heuristic", "puerto-rico", record.version).choose(
            GAME, state, seat, GAME.legal_actions(state, seat))
        user = record.seat(seat).user_id  # type: ignore[union-attr]
        assert user is not None
        await bot.service.submit(game_id, user, record.version, GAME.encode_action(action))
    raise AssertionError("the game did not end")


def story_lines(posts: list[StoredMessage]) -> list[str]:
    """Every line of the story posts, in order (titles and log lines)."""
    return [line.removeprefix("-# ") for m in posts if m.text().startswith("### Round")
            for line in m.text().splitlines()]


async def test_a_player_who_left_keeps_their_moves_and_the_ai_gets_its_own(
    world: World, governor: OfflineGovernor
) -> None:
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    record = await start(world, governor, world.alice, people[1:], "max_players:3")
    players = Players(world, governor, record.id, {p.id: p for p in people}, command_share=0)
    bob = world.bob
    # Bob plays until he has chosen a role and decided a few times, all by clicks.
    while True:
        move = await players.next_move()
        assert move is not None
        await players.make(move[0], move[2])
        log = await governor.storage.games.actions(record.id)
        bobs = [a for a in log if a.user_id == bob.id]
        if any(a.code.startswith("r.") for a in bobs) and len(bobs) >= 4:
            break
    left_after = (await governor.storage.games.get(record.id)).seq

    handle = await bob.run("/game leave", channel=world.general)
    confirm = await handle.wait_for_followup()
    click = await bob.click(confirm, label="Leave the game")
    assert (await click.response()).type == 6
    await click.original_message(lambda m: "an AI plays your seat" in m.text())
    [handover] = await governor.storage.games.handovers(record.id)
    assert (handover.seat, handover.after_seq, handover.from_user_id, handover.to_ai_policy,
            handover.reason) == (1, left_after, bob.id, "heuristic", "left")

    # The table's log and /game log: bob's moves are his, then the line saying he left.
    table = await table_at(world, governor, record.id)
    assert LEFT in table.text()
    shown = await (await world.alice.run("/game log show", channel=world.general)
                   ).wait_for_followup()
    lines = shown.content.splitlines()[1:]
    assert LEFT in lines
    before = lines[: lines.index(LEFT)]
    assert any(line.startswith("bob chose the ") for line in before), before
    assert not [line for line in before if AI in line]
    assert not [line for line in lines[lines.index(LEFT) + 1 :] if "bob" in line]

    drawing = governor.service.drawing
    sheet_names: list[dict[int, str]] = []
    draw = drawing.score_renderer
    assert draw is not None

    def score_sheet(game: str, outcome: Mapping[str, Any], names: Mapping[int, str],
                    labels: Mapping[str, str]) -> bytes:
        sheet_names.append(dict(names))
        return draw(game, outcome, names, labels)

    drawing.score_renderer = score_sheet
    await play_to_the_end(governor, record.id)
    await governor.wait_idle()
    record = await governor.storage.games.get(record.id)
    assert record.status is GameStatus.FINISHED

    # The story: the phases bob played name him, the AI's name the AI; one line tells the leave.
    story = story_lines(world.server.messages(record.messages["thread"]))  # the game's thread
    assert story.count(LEFT) == 1
    at = story.index(LEFT)
    assert any(re.match(r"bob (chose|took|built|sold|shipped|placed|passed)", line)
               for line in story[:at]), story[:at]
    assert any("(chosen by bob)" in line for line in story[:at])
    assert not [line for line in story[:at] if AI in line]
    after = story[at + 1 :]
    assert not [line for line in after if "bob" in line]
    assert any(line.startswith(f"{AI} chose the ") for line in after)
    assert any(f"(chosen by {AI})" in line for line in after)

    # The final standings and the winner line name both; the score sheet is there.
    final = await world.server.wait_for_message(
        world.general, lambda m: "final scores" in m.text() and any(
            a.filename.endswith("-scores.png") for a in m.attachments))
    assert re.search(r"\*\*bob → AI 2 \(normal\)\*\*: \d+ VP", final.text()), final.text()
    for name in ("alice", "carol"):
        assert re.search(rf"\*\*{name}\*\*: \d+ VP", final.text())
    assert sheet_names == [{0: "alice", 1: "bob → AI 2 (normal)", 2: "carol"}]
    # bob left: rated too, last, under his own name (storage/ratings.py's policy)
    assert re.search(r"\*\*bob\*\* \d+ \(\u2212\d+\)", final.text()), final.text()
    assert [c.user_id for c in await governor.storage.ratings.changes(record.id)][-1] == \
        world.bob.id
    # The end-of-game DM and /game status name both too.
    dm = [m.content for m in world.alice.dms if "final" in m.content.lower()
          or "is over" in m.content]
    assert dm and "bob → AI 2 (normal)" in dm[-1], dm
    status = await (await world.alice.run("/game status", channel=world.general)
                    ).wait_for_followup()
    winners = (record.outcome or {})["winners"]
    assert (1 not in winners) or "bob → AI 2 (normal)" in status.text(), status.text()
    assert (await governor.storage.verify([record.id])).ok
