"""Issue #9: refusals say why, with the numbers ("you cannot afford the City hall: it costs 8
doubloons for you, you have 5"), for every IllegalAction code and NotYourTurn, in every
language; and the service attaches what they need (the refused seat's view)."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.errors import UserError, describe, message_for
from bot.games.contract import Situation
from bot.games.puerto_rico.catalog import CATALOG
from bot.i18n import LANGUAGES
from bot.refusals import situate
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from engine.core import IllegalAction, InvalidAction, NotYourTurn
from engine.policies import make_policy
from storage import Storage

GAME = get_game("puerto-rico")
ROOT = Path(__file__).resolve().parents[3]
GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave", 4: "erin"}


def illegal_codes() -> set[str]:
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    found = re.search(r"`IllegalAction` with one of: (.*?)\.\n", docs, re.S)
    assert found is not None
    return set(re.findall(r"`([a-z_]+)`", found.group(1)))


def universe() -> list[str]:
    market = [b["building"] for b in GAME.view(GAME.setup({"players": 4}, 0), None)["market"]]
    codes = [f"r.{r}" for r in ("settler", "mayor", "builder", "craftsman", "trader",
                                "captain", "prospector", "prospector2")]
    codes += [f"s.{t}" for t in (*GOODS, "quarry", "hacienda")]
    codes += [f"b.{b}" for b in market] + [f"t.{g}" for g in GOODS]
    codes += [f"ship.{g}.{i}" for g in GOODS for i in range(4)] + [f"wharf.{g}" for g in GOODS]
    codes += [f"c.{g}" for g in GOODS] + ["o.hospice", "o.university", "pass", "keep.none"]
    codes += [f"m.{x}" for x in (*GOODS, "quarry", "privilege", *market)]
    return codes


def situation(state: Any, seat: int, action: str) -> Situation:
    prompt = GAME.prompt(state)
    legal = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat)) if (
        prompt and seat in prompt.seats) else ()
    return Situation(7, seat, GAME.view(state, seat), NAMES, legal, action)


def refusals() -> Iterator[tuple[str, BaseException]]:
    """(code, situated exception) for every refusal the engine gives in a few random games."""
    codes = universe()
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        state = GAME.setup({"players": players}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        step = 0
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            if step % 3 == 0:
                other = (seat + 1) % players
                for code in codes[::4]:
                    try:
                        GAME.apply(state, other, GAME.decode_action(code))
                    except NotYourTurn:
                        error = UserError("err.not_your_turn", game=7)
                        yield "not_your_turn", situate(error, situation(state, other, code))
                        break
                    except (IllegalAction, InvalidAction):
                        pass
                for code in codes:
                    try:
                        GAME.apply(state, seat, GAME.decode_action(code))
                    except IllegalAction as exc:
                        yield exc.code, situate(exc, situation(state, seat, code))
            step += 1
            state, _ = GAME.apply(state, seat, policy.choose(
                GAME, state, seat, GAME.legal_actions(state, seat)))


def view(**changes: Any) -> dict[str, Any]:
    base = dict(GAME.view(GAME.setup({"players": 3}, 5), 0))
    base.update(changes)
    return base


def synthetic() -> list[tuple[str, BaseException]]:
    """The codes random play rarely reaches, on a view set up for them."""
    full_island = view()
    full_island["players"][0]["island_used"] = 12
    full_city = view()
    full_city["players"][0]["city_used"] = 11
    house = view(trading_house=["corn", "indigo", "sugar", "tobacco"])
    captain = view(prompt={"seats": [0], "kind": "ship", "forced": False})
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("island_full", "s.corn", full_island), ("no_city_space", "b.guild_hall", full_city),
        ("trading_house_full", "t.coffee", house), ("cannot_pass", "pass", captain),
        ("building_not_in_game", "b.harbor", view()), ("illegal_now", "o.university", view()),
        ("no_quarries_left", "s.quarry", view(quarries_left=0)),
    ]
    return [(code, situate(IllegalAction(code, action=action),
                           Situation(7, 0, v, NAMES, (), action)))
            for code, action, v in cases]


@pytest.fixture(scope="module")
def collected() -> dict[str, BaseException]:
    out: dict[str, BaseException] = {}
    for code, exc in refusals():
        out.setdefault(code, exc)
    for code, exc in synthetic():
        out.setdefault(code, exc)
    return out


def test_every_code_and_not_your_turn_is_explained_in_every_language(
        collected: dict[str, BaseException]) -> None:
    assert set(collected) >= illegal_codes() | {"not_your_turn"}
    for code, exc in collected.items():
        for lang in LANGUAGES:
            key, _ = describe(exc, CATALOG, lang)
            text = message_for(exc, lang)
            assert key.startswith("why."), (code, key)  # specific words, not the plain text
            assert "{" not in text and "?" not in text.replace("¿", ""), (code, lang, text)
            assert len(text) <= 2000


def test_the_plain_texts_remain_without_a_situation() -> None:
    assert describe(IllegalAction("sold_out", action="b.harbor"), CATALOG, "en") == (
        "illegal.sold_out", {})


def test_the_numbers_in_the_words() -> None:
    poor = view(prompt={"seats": [0], "kind": "build", "forced": False})
    poor["players"][0]["doubloons"] = 5
    for entry in poor["market"]:
        if entry["building"] == "city_hall":
            entry["price"] = 8
    exc = situate(IllegalAction("not_enough_doubloons", action="b.city_hall"),
                  Situation(7, 0, poor, NAMES, ("pass",), "b.city_hall"))
    assert message_for(exc, "en") == (
        "You cannot afford the City hall: it costs 8 doubloons for you, you have 5 doubloons.")
    assert message_for(exc, "es") == (
        "No te alcanza para «Ayuntamiento»: te cuesta 8 doblones y tienes 5 doblones.")

    building = view(phase="builder", prompt={"seats": [0], "kind": "build", "forced": False})
    sell = situate(UserError("err.not_your_turn", game=7),
                   Situation(7, 2, building, NAMES, (), "t.indigo"))
    assert message_for(sell, "en") == (
        "Selling is only possible in the Trader phase; now alice must build.")
    build = situate(UserError("err.not_your_turn", game=7),
                    Situation(7, 2, building, NAMES, (), "b.harbor"))
    assert message_for(build, "en") == "It is alice's turn in game #7, not yours: build."
    assert message_for(build, "es") == (
        "Es el turno de alice en la partida n.º 7, no el tuyo: construir.")
    own = situate(IllegalAction("wrong_decision", action="t.indigo", expected="build"),
                  Situation(7, 0, building, NAMES, (), "t.indigo"))
    assert message_for(own, "en") == (
        "Selling is only possible in the Trader phase; now you must build.")

    ships = view(ships=[{"capacity": 4, "good": "corn", "count": 4},
                        {"capacity": 5, "good": "indigo", "count": 1},
                        {"capacity": 6, "good": None, "count": 0}])
    full = situate(IllegalAction("ship_not_allowed", action="ship.corn.0"),
                   Situation(7, 0, ships, NAMES, (), None))
    assert message_for(full, "en") == "Ship 1 is full (4/4)."
    other = situate(IllegalAction("ship_not_allowed", action="ship.sugar.1"),
                    Situation(7, 0, ships, NAMES, (), None))
    assert message_for(other, "en") == (
        "Ship 2 carries indigo (1/5); a ship takes one kind of goods only.")
    twice = situate(IllegalAction("ship_not_allowed", action="ship.indigo.2"),
                    Situation(7, 0, ships, NAMES, (), None))
    assert message_for(twice, "en") == (
        "There is indigo on ship 2 already; a kind of goods goes on one ship only.")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


class Names:
    async def seat_names(self, record: Any) -> dict[int, str]:
        return {s.seat: NAMES[s.seat] for s in record.seats}

    async def publish_table(self, update: Any) -> None:
        return None

    async def notify_turn(self, update: Any) -> None:
        return None


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


async def test_the_service_attaches_the_situation(storage: Storage) -> None:
    """Through GameService.submit: a move out of turn names whose turn it is; an illegal move
    gets its reason with this seat's numbers."""
    svc = GameService(storage, Names(), rng=Keep(1), renderer=lambda *a: b"")
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=3, ai_seats=0)
    for user in (2, 3):
        record = await svc.join(record.id, user)
    update = await svc.start(record.id, Actor(1), record.version)
    first = update.record.to_act[0]
    users = {s.seat: s.user_id for s in update.record.seats}
    other = users[(first + 1) % 3]
    assert other is not None
    with pytest.raises(UserError) as late:
        await svc.submit(record.id, other, None, "r.builder")
    assert message_for(late.value, "en") == (
        f"It is {NAMES[first]}'s turn in game #{record.id}, not yours: choose a role.")
    with pytest.raises(UserError) as wrong:
        await svc.submit(record.id, other, None, "t.corn")
    assert message_for(wrong.value, "en") == (
        f"Selling is only possible in the Trader phase; now {NAMES[first]} must choose a role.")
    mine = users[first]
    assert mine is not None
    with pytest.raises(IllegalAction) as wrong_kind:
        await svc.submit(record.id, mine, None, "b.harbor")
    assert message_for(wrong_kind.value, "en") == (
        "Building is only possible in the Builder phase; now you must choose a role.")


def test_a_command_typed_by_name_is_refused_with_its_reason() -> None:
    """``/pr build building:City hall`` when it is not affordable goes to the engine (which
    refuses, with the numbers); a sale out of its phase says which phase; a name that is no
    choice lists the choices."""
    from types import SimpleNamespace

    from bot.commands import CommandFlow
    from bot.games.contract import Panel
    from bot.games.puerto_rico.choices import Chooser

    building = view(phase="builder", prompt={"seats": [0], "kind": "build", "forced": False})
    words = Chooser(building, "es")
    from bot.games import presenter_for

    pr = presenter_for("puerto-rico")
    build, sell = CommandFlow.decision(pr, "build"), CommandFlow.decision(pr, "sell")
    assert CommandFlow.named_code(pr, build, "Ayuntamiento", words) == "b.city_hall"
    assert CommandFlow.named_code(pr, build, "city_hall", words) == "b.city_hall"
    assert CommandFlow.named_code(pr, build, "b.harbor", words) == "b.harbor"
    assert CommandFlow.named_code(pr, sell, "b.harbor", words) is None
    assert CommandFlow.named_code(pr, sell, "añil", words) == "t.indigo"
    assert CommandFlow.named_code(pr, build, "banana", words) is None

    flow = CommandFlow(SimpleNamespace(storage=None), SimpleNamespace(turns=None))  # type: ignore[arg-type]
    game = SimpleNamespace(id=7, game="puerto-rico")
    panel = Panel(None, 0, building, "build", ("b.harbor", "pass"), NAMES)  # type: ignore[arg-type]
    wrong = flow.refusal(game, pr, sell, "indigo", panel, [], Chooser(building, "en"))  # type: ignore[arg-type]
    assert message_for(wrong, "en") == (
        "Selling is only possible in the Trader phase; now you must build.")
    waiting = Panel(None, 2, building, None, (), NAMES)  # type: ignore[arg-type]
    late = flow.refusal(game, pr, build, "harbor", waiting, [], Chooser(building, "en"))  # type: ignore[arg-type]
    assert message_for(late, "en") == "It is alice's turn in game #7, not yours: build."
    other = flow.refusal(game, pr, build, "banana", panel, ["b.harbor"], Chooser(building, "en"))  # type: ignore[arg-type]
    assert message_for(other, "en") == (  # names only, without their costs
        "“banana” is not one of your choices now; you can choose Harbor.")
