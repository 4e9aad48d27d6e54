"""What just changed (events -> framed regions) and the sample command line."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from engine.core import Event
from render import layout_table
from render.puerto_rico.highlights import highlight_keys
from render.sample import main, play
from tests.render.helpers import positions


def test_events_map_to_the_regions_they_changed() -> None:
    events = [
        Event("RoleChosen", 2, {"role": "builder", "card": "builder", "doubloons": 1}),
        Event("BuildingBuilt", 2, {"building": "harbor", "price": 6}),
        Event("GoodsShipped", 1, {"good": "corn", "count": 3, "ship": 0}),
        Event("GoodsShipped", 3, {"good": "sugar", "count": 2, "ship": "wharf"}),
        Event("GoodSold", 0, {"good": "coffee", "price": 4}),
        Event("PlantationTaken", 1, {"tile": "indigo", "source": "face_up"}),
        Event("Passed", 0, {"phase": "builder"}),
    ]
    keys = highlight_keys(events, None)
    assert keys == {
        "role:builder",
        "player:2:doubloons",
        "player:2:city:harbor",
        "market:harbor",
        "ship:0",
        "player:1:goods",
        "player:3:goods",
        "trading_house:last:coffee",
        "player:0:doubloons",
        "player:1:island:indigo",
    }


def test_private_events_mark_only_their_own_seat_image() -> None:
    vp = Event("VpEarned", 1, {"amount": 2, "reason": "shipping"}, private_to=1)
    assert highlight_keys([vp], None) == frozenset()
    assert highlight_keys([vp], 0) == frozenset()
    assert highlight_keys([vp], 1) == {"player:1:vp"}
    as_json = [vp.to_json()]  # events read back from storage
    assert highlight_keys(as_json, None) == frozenset()
    assert highlight_keys(as_json, 1) == {"player:1:vp"}


def test_a_real_phase_frames_something_on_the_table() -> None:
    """After a heuristic phase, at least one event of it lands on a drawn region."""
    for _, game in positions(4)[1:3]:
        events = game.highlights()
        scene = layout_table(game.view(), events)
        assert highlight_keys(events, None) & scene.regions.keys()


def test_play_stops_after_k_actions_and_keeps_the_last_phase() -> None:
    game = play("puerto-rico", 3, 2, 25)
    assert game.actions == 25
    assert game.phase_events and game.view()["round"] >= 1
    finished = play("puerto-rico", 3, 2, 0, finish=True)
    assert finished.view()["game_over"]


def test_sample_command_writes_table_seat_and_score_images(tmp_path: Path) -> None:
    for extra, name in (([], "table"), (["--seat", "1"], "seat"), (["--final"], "final")):
        out = tmp_path / f"{name}.png"
        args = ["--game", "puerto-rico", "--players", "3", "--seed", "4", "--actions", "30"]
        assert main([*args, *extra, "--out", str(out), "--names", "Ana,Bérénice,Çağrı"]) == 0
        image = Image.open(io.BytesIO(out.read_bytes()))
        assert image.format == "PNG" and image.width == 1000
