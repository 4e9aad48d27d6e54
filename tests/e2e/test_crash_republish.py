"""A crash between the commit of a move and its Discord side (the table edit, the turn DM): the
next start publishes the game again, so the table shows the stored state with the right prompt
and the person now asked gets exactly one DM.

The crash is simulated: the moves are committed through a GameService without a publisher (the
commit happens; nothing reaches Discord, as when the process dies right after the commit), then
a fresh bot starts on the same database file against the same offline server.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.service import GameService
from storage import GameRecord, Storage
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import shown_version, start
from tests.offline_discord import ScriptedUser, StoredMessage, running_client


async def crash_after_commit(path: str, game_id: int, moves: list[tuple[int, str]]) -> None:
    """Commit ``moves`` (user, code) as the bot would, then "die" before publishing them."""
    storage = await Storage.open(path)
    try:
        service = GameService(storage, None, renderer=None)
        for user, code in moves:
            record = await storage.games.get(game_id)
            await service.submit(game_id, user, record.version, code)
    finally:
        await storage.close()


def table_of(world: World, record: GameRecord) -> StoredMessage:
    message = world.server.get_message(record.messages["table"])
    assert message is not None
    return message


async def test_a_crash_after_the_commit_is_published_at_the_next_start(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol: ScriptedUser = server.add_user("carol", guild=world.guild)
    first = make_governor()
    async with running_client(server, first):
        await server.wait_for_command_sync(world.guild)
        record = await start(world, first, world.alice, [carol], "max_players:2")
        await first.wait_idle()
    old_table = table_of(world, record)
    assert shown_version(old_table, record.id) == record.version
    assert "Waiting for alice" in old_table.text()
    assert len(carol.dms) == 0 and len(world.alice.dms) == 1

    # Alice chooses the Builder and passes; the process dies before anything is shown.
    await crash_after_commit(first.settings.database_url.removeprefix("sqlite:///"), record.id,
                             [(world.alice.id, "r.builder"), (world.alice.id, "pass")])
    assert shown_version(table_of(world, record), record.id) == record.version

    second = make_governor()
    async with running_client(server, second):
        stored = await second.storage.games.get(record.id)
        assert stored.version == record.version + 2 and stored.to_act == (1,)

        def republished() -> StoredMessage | None:
            table = table_of(world, stored)
            return table if shown_version(table, record.id) == stored.version else None

        table = await server.wait_for(republished, what="the table republished")
        assert "Builder phase" in table.text() and "Waiting for carol" in table.text()
        dm = await carol.wait_for_dm(lambda m: f"game #{record.id}" in m.text())
        assert "build" in dm.text()
        await second.wait_idle()
        shown = await second.storage.publications.get(record.id)
        assert shown is not None and shown.version == stored.version
    assert stored.messages["table"] == record.messages["table"]  # edited in place
    assert len(carol.dms) == 1 and len(world.alice.dms) == 1  # alice acted: not told

    # A third start finds nothing behind: no edit, no DM.
    edits = len(server.requests_to("PATCH", f"/channels/{world.general.id}/messages/"
                                   f"{record.messages['table']}"))
    assert edits > 0
    third = make_governor()
    async with running_client(server, third):
        await server.wait_for_command_sync(world.guild)
        await third.wait_idle()
        assert await third.service.resume_all() == 0
        await third.wait_idle()
    assert len(server.requests_to("PATCH", f"/channels/{world.general.id}/messages/"
                                  f"{record.messages['table']}")) == edits
    assert len(carol.dms) == 1
    server.assert_no_failed_interactions()


async def test_a_notice_handed_over_but_never_sent_goes_out_at_the_next_start(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """The table was edited and its record written, but the process died before the DM was
    sent (no claim): the next start sends it, once."""
    server = world.server
    carol: ScriptedUser = server.add_user("carol", guild=world.guild)
    first = make_governor()
    async with running_client(server, first):
        await server.wait_for_command_sync(world.guild)
        record = await start(world, first, world.alice, [carol], "max_players:2")
        await first.wait_idle()
        # The next hand-over's DM is lost in the crash: the notifier never ran.
        async def lost(update: object) -> None:
            return None

        first.publisher.notify_turn = lost  # type: ignore[method-assign]
        for code in ("r.builder", "pass"):
            current = await first.storage.games.get(record.id)
            await first.service.submit(record.id, world.alice.id, current.version, code)
        await first.wait_idle()
        shown = await first.storage.publications.get(record.id)
        assert shown is not None and [seat for seat, _ in shown.due] == [1]
    assert carol.dms == []
    second = make_governor()
    async with running_client(server, second):
        dm = await carol.wait_for_dm(lambda m: f"game #{record.id}" in m.text())
        assert "build" in dm.text()
        await second.wait_idle()
        assert await second.storage.publications.lagging() == []
    assert len(carol.dms) == 1
    server.assert_no_failed_interactions()
