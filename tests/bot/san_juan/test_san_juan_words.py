"""San Juan's words away from the panel: the log (public events only: counts, never which cards;
no line at all for a Chapel card), the board of each story image as it stood when its phase
ended, the table in words, and the lobby's variant."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.gamelog import public_events
from bot.games import presenter_for
from engine import get_game
from engine.policies import make_policy
from engine.san_juan.data import CARDS
from storage import ActionRecord

SJ = presenter_for("san-juan")
GAME = get_game("san-juan")
AT = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave"}


def played(players: int, seed: int, variant: bool = False
           ) -> tuple[list[ActionRecord], list[Mapping[str, Any]], list[Any]]:
    """A whole seeded game: its log, the public view before each action and after the last,
    and the states before each action."""
    state = GAME.setup({"players": players, "variant_start": variant}, seed)
    policies = [make_policy("heuristic", "san-juan", seed + s) for s in range(players)]
    log: list[ActionRecord] = []
    views: list[Mapping[str, Any]] = []
    states: list[Any] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        views.append(GAME.view(state, None))
        states.append(state)
        state, events = GAME.apply(state, seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None, AT,
                                tuple(e.to_json() for e in events)))
    views.append(GAME.view(state, None))
    return log, views, states


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_the_story_shows_each_phase_as_it_ended(players: int, seed: int) -> None:
    """For every phase end: the role just played and its chooser; when the same action ended
    the round, that round's number, Governor and roles as taken (as they stood just before)."""
    log, views, _ = played(players, seed)
    ends = [i for i, a in enumerate(log) if any(e["type"] == "PhaseEnded" for e in a.events)]
    assert len(ends) > 10
    for end in ends:
        ended = next(e for e in public_events(log[end]) if e.type == "PhaseEnded")
        story = SJ.view_at_phase_end(views[end + 1], log, end)
        before = views[end]
        assert story["role"] == {"name": ended.data["role"], "chooser": ended.seat,
                                 "library": ended.data["library"]}
        assert story["phase"] == ended.data["role"] and story["prompt"] is None
        assert story["round"] == before["round"]
        assert story["governor"] == before["governor"]
        assert story["roles"] == before["roles"]
        assert not story["game_over"]


def test_the_log_tells_counts_never_cards() -> None:
    """Every line of a whole 4-player game, in both languages: no card name that only a hand
    held at the time (the public events name built cards and the Gold mine's, nothing else);
    draws and discards by count."""
    log, _, _ = played(4, 9)
    public_cards: set[str] = set()
    for action in log:
        for event in public_events(action):
            for key in ("card", "over"):
                if isinstance(event.data.get(key), str):
                    public_cards.add(event.data[key])
            listed = event.data.get("cards")
            if isinstance(listed, list):
                public_cards.update(str(c) for c in listed)
    for lang in ("en", "es"):
        writer = SJ.log_writer(NAMES, lang)
        lines = writer.lines(log)
        assert lines and all(len(line) <= 300 for line in lines)
        assert not [line for line in lines if "{" in line]
        text = "\n".join(lines)
        for card in (c.name for c in CARDS):
            if card in public_cards:
                continue
            name = SJ.catalog.t(lang, f"card.{card}")
            assert not re.search(rf"\b{re.escape(name)}\b", text), (lang, card)
        assert re.search(r"drew \d+ cards|robó \d+ cartas", text)


def test_chapel_cards_make_no_line() -> None:
    log, _, _ = played(3, 21)
    placed = [a for a in log if a.code.startswith("c.")]
    writer = SJ.log_writer(NAMES, "en")
    for action in placed:
        assert writer.lines([action]) == []


def test_the_table_in_words_holds_counts_only() -> None:
    _, views, states = played(3, 8)
    for view, state in zip(views[::25], states[::25], strict=False):
        fields = SJ.summary(view, NAMES, "en")
        text = "\n".join(f"{n}: {v}" for n, v in fields)
        assert all(len(v) <= 1024 for _, v in fields)
        for seat in range(3):
            hand = GAME.view(state, seat)["hand"]
            assert f"{len(hand)} card" in text  # the count, e.g. "4 cards in hand"
        header = SJ.header_lines(view, NAMES, "es")
        assert header and header[0].startswith("**")


def test_the_lobby_turns_the_variant_start_on() -> None:
    assert SJ.lobby_options(3, ["variant_start"]) == {"players": 3, "variant_start": True}
    assert SJ.lobby_options(4) == {"players": 4, "variant_start": False}
    options = GAME.normalize_options(SJ.lobby_options(2, ["variant_start"]))
    state = GAME.setup(options, 1)
    assert GAME.prompt(state).kind == "variant_keep"  # type: ignore[union-attr]


def test_the_table_doubles_the_privilege_for_a_chooser_with_an_unused_library() -> None:
    """§5.17: the role buttons on the (public) table carry ``.lib`` when the seat to choose
    has an active Library not used this round; the taken cards and other choosers do not."""
    view: dict[str, Any] = {
        "prompt": {"kind": "role", "seats": [1]},
        "seats": [{"library": True, "library_used": False},
                  {"library": True, "library_used": False}],
        "roles": [{"name": "builder", "taken_by": 0}, {"name": "trader", "taken_by": None}],
    }
    assert SJ.role_buttons(view) == [("r.builder", 0), ("r.trader.lib", None)]
    view["seats"][1]["library_used"] = True  # 2 players: once per round
    assert SJ.role_buttons(view) == [("r.builder", 0), ("r.trader", None)]
    view["seats"][1] = {"library": False, "library_used": False}
    assert SJ.role_buttons(view) == [("r.builder", 0), ("r.trader", None)]


def test_the_panel_counts_chapel_cards_only_for_a_chapel_owner() -> None:
    from bot.games.contract import Panel
    from tests.bot.san_juan.test_san_juan_panels import record

    state = GAME.setup({"players": 2, "variant_start": False}, 1)
    view = GAME.view(state, 0)
    words = SJ.words(view, "en")

    def status(buildings: list[dict[str, Any]]) -> str:
        seats = [dict(s) for s in view["seats"]]
        seats[0]["buildings"] = buildings
        panel = Panel(record(2), 0, {**view, "seats": seats, "chapel_cards": 2}, None, (), {})
        return SJ.panel_status(panel, words, "en") or ""

    plain = {"card": "indigo_plant", "good": False, "active": True, "covered": []}
    assert "Chapel" not in status([plain])
    assert status([plain, {**plain, "card": "chapel"}]).endswith("2 under your Chapel")
    covered = {**plain, "card": "palace", "covered": ["chapel"]}  # built over by a Crane
    assert status([covered]).endswith("2 under your Chapel")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("costs 4 cards for you", "you have 2 cards besides it")),
    ("es", ("te cuesta 4 cartas", "tienes 2 cartas además")),
    ("pt", ("custa 4 cartas para você", "você tem 2 cartas além")),
])
def test_cannot_afford_gives_the_cost_and_the_hand(lang: str, words: tuple[str, ...]) -> None:
    """Issue #33: "cannot afford" says what the card costs this player and what they hold
    besides it, as Puerto Rico's refusals do ("it costs 9 doubloons for you, you have 2")."""
    from bot.errors import message_for
    from bot.games.contract import Situation
    from bot.refusals import situate
    from engine.core import IllegalAction
    from tests.engine.san_juan.scenario import Scenario

    game = get_game("san-juan")
    sc = Scenario(players=3)
    sc.player(1, hand=["tobacco_storage", "coffee_roaster", "well"],
              buildings=["indigo_plant"])
    state = sc.choose("builder", 0)
    state = sc.act(state, 0, "pass")
    with pytest.raises(IllegalAction) as err:
        game.apply(state, 1, game.decode_action("b.coffee_roaster"))
    assert err.value.code == "cannot_pay"
    view = game.view(state, 1)
    legal = tuple(game.encode_action(a) for a in game.legal_actions(state, 1))
    exc = situate(err.value, Situation(7, 1, view, {0: "ana", 1: "bob", 2: "carl"}, legal,
                                       "b.coffee_roaster", "san-juan"))
    text = message_for(exc, lang)
    assert all(w in text for w in words), text
