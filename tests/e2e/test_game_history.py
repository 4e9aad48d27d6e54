"""``/game log export`` and ``/game log replay`` through the offline Discord server.

* export: the replay file of the channel's game (or a game of this server by number), privately;
  the seed only once the game is over, and while a game with hidden moves (San Juan's hands) is
  played, nothing; the file replays with ``python -m engine replay`` to the stored result.
* replay: a finished game's time-lapse, one animated image in the channel within Discord's
  upload limit: the board at the end of every phase, then the final board.
* What is refused (a game still played, another server's game, a number that is no game) is
  said privately at once and changes nothing."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

from PIL import Image

from bot.limits import UPLOAD
from engine import get_game
from engine.core import replay
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start
from tests.storage.helpers import play_some, play_to_end


async def test_export_and_replay_of_a_finished_game(world: World, governor: OfflineGovernor,
                                                    tmp_path: Path) -> None:
    record = await start(world, governor, world.alice, [world.bob],
                         "game:puerto-rico max_players:2")
    storage = governor.storage
    # in play: a Puerto Rico game hides no move, so its file goes without the seed
    await play_some(storage, record.id, 12, random.Random(1))
    early = await (await world.bob.run("/game log export", channel=world.general)
                   ).wait_for_followup()
    assert early.ephemeral and "The seed comes once the game is over" in early.text(), early.text()
    data = json.loads(early.attachments[0].data)
    assert data["seed"] is None and data["game"] == "puerto-rico" and len(data["actions"]) == 12
    refused = await (await world.bob.run("/game log replay", channel=world.general)).response()
    assert refused.ephemeral and "is still being played" in (refused.content or ""), refused.data

    finished = await play_to_end(storage, record.id, random.Random(2))
    assert finished.status is GameStatus.FINISHED
    stored = await storage.games.get(record.id)

    # the channel's last game, though it is over; privately, with the seed
    handle = await world.bob.run("/game log export", channel=world.general)
    reply = await handle.wait_for_followup()
    assert reply.ephemeral and f"game-{record.id}.json" in reply.text(), reply.text()
    [attachment] = reply.attachments
    assert attachment.filename == f"game-{record.id}.json"
    data = json.loads(attachment.data)
    assert set(data) == {"game", "options", "seed", "actions"} and data["seed"] == stored.seed
    log = await storage.games.actions(record.id)
    assert data["actions"] == [[a.seat, a.code] for a in log]
    state, _ = replay(data["game"], data["options"], data["seed"],
                      [(s, c) for s, c in data["actions"]])
    outcome = get_game("puerto-rico").outcome(state)
    assert outcome is not None and outcome.to_json() == stored.outcome
    # as the README says: python -m engine replay FILE
    path = tmp_path / attachment.filename
    path.write_bytes(attachment.data)
    run = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                         capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr

    # the time-lapse: public, in the channel, one animated image within the upload limit
    handle = await world.alice.run(f"/game log replay game:{record.id}", channel=world.general)
    assert (await handle.response()).deferred
    post = await handle.wait_for_followup()
    assert not post.ephemeral
    [clip] = post.attachments
    assert clip.filename.startswith(f"game-{record.id}-replay.")
    assert 0 < clip.size <= UPLOAD
    image = Image.open(io.BytesIO(clip.data))
    phases = sum(e["type"] == "PhaseEnded" for a in log for e in a.events)
    frames = getattr(image, "n_frames", 1)
    assert frames == phases + 1  # every phase, then the end
    assert image.width <= 1000
    assert f"in {phases + 1} boards" in post.text(), post.text()
    assert post.channel_id == world.general.id


async def test_what_is_refused_is_said_privately(world: World, governor: OfflineGovernor
                                                 ) -> None:
    record = await start(world, governor, world.alice, [world.bob],
                         "game:san-juan max_players:2")
    await play_some(governor.storage, record.id, 30, random.Random(3))
    # San Juan's moves name cards in hand: no file while it is played
    hidden = await (await world.bob.run("/game log export", channel=world.general)
                    ).wait_for_followup()
    assert hidden.ephemeral and "some of its moves are hidden" in hidden.text(), hidden.text()
    assert not hidden.attachments
    unknown = await (await world.bob.run("/game log export game:999", channel=world.general)
                     ).wait_for_followup()
    assert "There is no game #999 in this server." in unknown.text()
    at_once = await (await world.bob.run("/game log replay game:999", channel=world.general)
                     ).response()
    assert at_once.ephemeral and "There is no game #999" in (at_once.content or "")
    # a game of another server is not this server's to show
    elsewhere = await governor.storage.games.create_lobby(
        "puerto-rico", creator_id=world.bob.id, guild_id=world.guild.id + 1, channel_id=None,
        options={"players": 2})
    other = await (await world.bob.run(f"/game log export game:{elsewhere.id}",
                                       channel=world.general)).wait_for_followup()
    assert f"There is no game #{elsewhere.id} in this server." in other.text(), other.text()
    # a game abandoned in its lobby has no moves and nothing to show
    empty = await governor.storage.games.create_lobby(
        "puerto-rico", creator_id=world.bob.id, guild_id=world.guild.id, channel_id=None,
        options={"players": 2})
    await governor.storage.games.abandon(empty.id)
    nothing = await (await world.bob.run(f"/game log replay game:{empty.id}",
                                         channel=world.general)).response()
    assert nothing.ephemeral and "there is nothing to show" in (nothing.content or "")
    unstarted = await (await world.bob.run(f"/game log export game:{empty.id}",
                                           channel=world.general)).wait_for_followup()
    assert "has not started" in unstarted.text(), unstarted.text()
    mine = await (await world.bob.run(f"/game log export game:{record.id}",
                                      channel=world.general)).wait_for_followup()
    assert "some of its moves are hidden" in mine.text()
