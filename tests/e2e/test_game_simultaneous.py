"""The Mayor's arrangement end to end: three people open their panels at the same version and
confirm one after the other; every confirmation is accepted, the last one too (by then the
prompt names that person alone), and nobody loses their draft."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, settled, table_at
from tests.e2e.test_game_controls import drive, three


async def test_three_people_confirm_their_arrangements_one_after_the_other(
    world: World, governor: OfflineGovernor
) -> None:
    server = world.server
    record, people = await three(world, governor)

    def everyone_arranging(state: Any) -> bool:
        prompt = GAME.prompt(state)
        return prompt is not None and prompt.kind == "arrange" and prompt.seats == (0, 1, 2)

    await drive(governor, record.id, everyone_arranging)
    seen = await governor.storage.games.get(record.id)
    table = await table_at(world, governor, record.id)
    panels = [await (await p.click(table, label="My turn")).original_message() for p in people]
    for seat in (1, 2, 0):  # alice (seat 0) confirms last, named alone by then
        before = await governor.storage.games.get(record.id)
        confirm = panels[seat].component(custom_id_prefix=f"mb:{record.id}:{seen.version}:")
        assert confirm is not None and not confirm.get("disabled")
        handle = await people[seat].click(panels[seat], custom_id=confirm["custom_id"])
        assert (await handle.response()).type == 6
        redrawn = await handle.original_message(lambda m: "changed since" not in m.text())
        assert "changed since" not in redrawn.text() and "Already done" not in redrawn.text()
        await settled(world, governor, record.id, before.version)
    log = await governor.storage.games.actions(record.id, after_seq=seen.seq)
    for seat, person in enumerate(people):
        assert any(a.seat == seat and a.user_id == person.id and a.code.startswith("m.")
                   for a in log), seat
    arranged = {e["seat"] for a in log for e in a.events if e["type"] == "ColonistsArranged"}
    assert arranged == {0, 1, 2}
    server.assert_no_failed_interactions()
