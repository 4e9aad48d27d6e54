"""The end chart's split names each source of VP chips as it is (issue #33): the chips came
from shipping, the Harbor, the Church, a plunder, the Festival..., and a chip paid back at the
Black Market is given back; the old bar called every chip "Shipping".

The sources are the events' own reasons (``engine.story``'s ``gains``: ``VpEarned`` by its
``reason``, ``BlackMarketUsed`` a chip given back), in every game with chips; the shipping part
is checked against the shipped goods themselves."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.simulate import play_game, policy_seed
from engine.story import score_history
from render import layout_game_chart
from render import theme as T
from render.games import renderer_for
from render.puerto_rico.scoresheet import score_split
from render.scene import Rect

SEEDS = range(1, 80)
"""Where to look for a played game with the wanted sources (the heuristic's games)."""


def _played(game: str, options: dict[str, Any], seed: int
            ) -> tuple[list[tuple[int, str]], list[list[Event]]]:
    """A game of heuristic seats: its moves and each move's events."""
    engine = get_game(game)
    players = int(options["players"])
    policies = [make_policy("heuristic", game, policy_seed(seed, s)) for s in range(players)]
    moves = [(s, c) for s, c in play_game(engine, options, seed, policies).actions]
    state, events = engine.setup(options, seed), []
    for seat, code in moves:
        state, happened = engine.apply(state, seat, engine.decode_action(code))
        events.append(happened)
    return moves, events


def _game_with(game: str, extra: dict[str, Any], wanted: set[str],
               avoid: frozenset[str] = frozenset()
               ) -> tuple[dict[str, Any], int, list[tuple[int, str]], list[list[Event]]]:
    """The first seed's game (3 or 4 seats) in which someone took chips from every source of
    ``wanted`` and nobody built a building of ``avoid``."""
    engine = get_game(game)
    for seed in SEEDS:
        for players in (3, 4):
            options = engine.normalize_options({"players": players, **extra})
            moves, events = _played(game, options, seed)
            reasons = {str(e.data.get("reason")) for es in events for e in es
                       if e.type == "VpEarned"} | {
                "black_market" for es in events for e in es if e.type == "BlackMarketUsed"
                and e.data.get("vp")}
            built = {str(e.data.get("building")) for es in events for e in es
                     if e.type == "BuildingBuilt"}
            if wanted <= reasons and not built & avoid:
                return options, seed, moves, events
    raise AssertionError(f"no game of {game} with {wanted} in {SEEDS}")


def test_the_split_names_every_source_in_its_place() -> None:
    """Shipping first, the buildings that give chips by name, the other sources, the chips no
    source explains, the printed building VP, the bonuses, and a chip given back last."""
    breakdown = {"chips": 30, "buildings": 14, "guild_hall": 4, "nobles": 2}
    gains = {"shipping": 20, "church": 3, "harbor": 2, "plunder": 4, "festival": 1,
             "black_market": -1}
    parts = score_split(breakdown, gains)
    assert parts == [("shipping", 20), ("building.harbor", 2), ("building.church", 3),
                     ("vp_plunder", 4), ("vp_festival", 1), ("chips", 1), ("buildings", 14),
                     ("bonuses", 6), ("building.black_market", -1)]
    assert sum(v for _, v in parts) == sum(breakdown.values())
    # 1897's words: the Park administration's tokens are the Hunting lodge's chips
    edition = renderer_for("puerto-rico-1897").score_split
    assert edition is not None
    assert edition({"tokens": 5, "buildings": 3}, {"shipping": 3, "park_administration": 2}
                   ) == [("shipping", 3), ("building.hunting_lodge", 2), ("buildings", 3),
                         ("bonuses", 0)]


def test_a_game_with_church_vp_shows_the_church_and_the_shipped_vp() -> None:
    """Puerto Rico with Exp. 1: the Church's chips are the Church's part; the shipping part is
    exactly the VP of the goods shipped (one per barrel, on a ship or the Wharf) and of the
    Captain's privilege (one VP on his first load of his phase), nothing else."""
    options, seed, moves, events = _game_with(
        "puerto-rico", {"modules": ["new_buildings"]}, {"church"},
        avoid=frozenset({"small_wharf", "library"}))  # their loads and privileges count otherwise
    shipped: Counter[int] = Counter()
    chooser, loaded = None, False
    for happened in events:
        for e in happened:
            if e.type == "RoleChosen":
                chooser, loaded = (e.seat if e.data.get("role") == "captain" else None), False
            elif e.type == "GoodsShipped" and e.seat is not None and e.data["count"]:
                shipped[e.seat] += int(e.data["count"])
                if e.seat == chooser and not loaded:
                    shipped[e.seat] += 1  # the privilege
                    loaded = True
    story = score_history(get_game("puerto-rico"), options, seed, moves).to_json()
    scene = layout_game_chart(story, game="puerto-rico")
    split = renderer_for("puerto-rico").score_split
    assert split is not None
    churched = 0
    for seat, (breakdown, gains, total) in enumerate(zip(
            story["breakdowns"], story["gains"], story["totals"][-1], strict=True)):
        parts = dict(split(breakdown, gains))
        assert parts["shipping"] == shipped[seat], (seat, parts, shipped)
        assert sum(parts.values()) == total
        if parts.get("building.church"):
            churched += 1
            assert f"bar:{seat}:building.church" in scene.regions
    assert churched
    assert {"Church", "Shipping"} <= {t.text for t in scene.texts}


@pytest.mark.parametrize(("game", "extra"), [
    ("puerto-rico", {"modules": ["new_buildings"]}),
    ("puerto-rico-1897", {"expansions": [1]}),
])
def test_a_chip_given_back_is_a_negative_part(game: str, extra: dict[str, Any]) -> None:
    """A VP chip paid at the Black Market (1897's Hidden market) is given back: a negative
    part under the building's name, drawn hollow, and every bar adds up to its total."""
    options, seed, moves, _ = _game_with(game, extra, {"black_market"})
    story = score_history(get_game(game), options, seed, moves).to_json()
    scene = layout_game_chart(story, game=game)
    split = renderer_for(game).score_split
    assert split is not None
    spent = [s for s, (b, g) in enumerate(zip(story["breakdowns"], story["gains"], strict=True))
             if dict(split(b, g)).get("building.black_market", 0) < 0]
    assert spent
    for breakdown, gains, total in zip(story["breakdowns"], story["gains"],
                                       story["totals"][-1], strict=True):
        assert sum(v for _, v in split(breakdown, gains)) == total
    words = {t.text for t in scene.texts}
    assert ("Hidden market" if game == "puerto-rico-1897" else "Black market") in words
    for seat in spent:  # a hollow box of its own at the end of the seat's bar
        box = scene.regions[f"bar:{seat}:building.black_market"]
        assert box.right == scene.regions[f"bar:{seat}"].right and box.w > 0
        assert any(isinstance(r, Rect) and r.fill == T.PANEL and box.contains(r.box)
                   for r in scene.dynamic)
