"""Issue #9: the game log says the VP of each shipment ("alice shipped 3 corn on ship 1 (+3 VP)"),
summed over the load (barrels, the Captain's privilege, the Harbor), and never a seat's total.

Ruling (beside ``gain_vp`` in engine/puerto_rico/ops.py): VP chips lie face down, so the totals
are hidden, but each amount is taken in front of everyone from the public supply."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.changes import PhaseEnd
from bot.games.puerto_rico.gamelog import PrLogWriter as LogWriter
from bot.games.puerto_rico.gamelog import with_shipment_vp
from bot.i18n import LANGUAGES
from bot.table import TableMessages
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico.state import State
from storage import ActionRecord, GameRecord, GameStatus, SeatRecord
from tests.engine.puerto_rico.scenario import Scenario

GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = {0: "alice", 1: "bob", 2: "carol"}


class Recorder:
    """A Scenario's actions as the log stores them: one ActionRecord per action."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.log: list[ActionRecord] = []

    def record(self, seat: int, code: str, state: State | None = None) -> State:
        before = len(self.sc.events)
        if state is None:
            state = self.sc.choose(code, seat)
            code = f"r.{code}"
        else:
            state = self.sc.act(state, seat, code)
        events = tuple(e.to_json() for e in self.sc.events[before:])
        self.log.append(ActionRecord(1, len(self.log) + 1, seat, code, 100 + seat, AT, events))
        return state


def captain_with_harbor(vp_supply: int | None = None) -> Recorder:
    """alice (the Captain) owns an occupied Harbor and Wharf: 2 corn go on ship 1 (2 + 1
    privilege + 1 Harbor = +4), bob ships 1 sugar (+1), alice's 3 indigo go by Wharf (3 + 1
    Harbor = +4)."""
    sc = Scenario(players=3)
    sc.player(0, vp=6, goods={"corn": 2, "indigo": 3},
              buildings={"harbor": 1, "wharf": 1})
    sc.player(1, vp=9, goods={"sugar": 1})
    if vp_supply is not None:
        sc.set_vp_supply(vp_supply)
    rec = Recorder(sc)
    state = rec.record(0, "captain")
    state = rec.record(0, "ship.corn.0", state)
    state = rec.record(1, "ship.sugar.1", state)
    rec.record(0, "wharf.indigo", state)
    return rec


def test_the_shipment_line_sums_the_privilege_and_the_harbor() -> None:
    rec = captain_with_harbor()
    lines = LogWriter(NAMES, "en").lines(rec.log)
    assert "alice shipped 2 corn on ship 1 (+4 VP)." in lines
    assert "bob shipped 1 sugar on ship 2 (+1 VP)." in lines
    assert "alice shipped 3 indigo from their Wharf (+4 VP)." in lines
    # the VP make no lines of their own, and the totals (6 + 8, 9 + 1) appear nowhere
    assert sum("VP" in line for line in lines) == 3
    assert not [line for line in lines if re.search(r"\b(14|10)\b", line)]
    # the shipper's own view of the events sums the same amounts
    assert [e.data.get("vp") for e in with_shipment_vp(
        Event.from_json(j) for j in rec.log[1].events) if e.type == "GoodsShipped"] == [4]


def test_spanish_says_the_vp_too() -> None:
    lines = LogWriter(NAMES, "es").lines(captain_with_harbor().log)
    assert "alice embarcó 2 de maíz en el barco 1 (+4 PV)." in lines
    assert "alice embarcó 3 de añil desde su Muelle (+4 PV)." in lines


def test_the_vp_chips_running_out_between_the_load_and_the_harbor() -> None:
    """The last chips go to the load, the end is triggered, then the Harbor's VP (recorded
    past the supply): still one line with the whole +4, then the end."""
    rec = captain_with_harbor(vp_supply=3)
    load = [e["type"] for e in rec.log[1].events]
    assert load.index("GoodsShipped") < load.index("EndTriggered") < len(load) - 1
    assert load[-1] == "VpEarned"
    lines = LogWriter(NAMES, "en").lines(rec.log[:2])
    shipped = lines.index("alice shipped 2 corn on ship 1 (+4 VP).")
    assert "end" in lines[shipped + 1].lower()


def test_a_public_line_never_holds_a_seats_total_only_the_public_amount() -> None:
    """The log reads each event's public form: a private datum (a total, were an event ever to
    carry one) never reaches a line; an event stored before the ruling (no public form) gives
    the line without VP."""
    private = Event("VpEarned", 0, {"amount": 3, "reason": "shipping", "total": 17}, 0,
                    {"amount": 3, "reason": "shipping"})
    shipped = Event("GoodsShipped", 0, {"good": "corn", "count": 2, "ship": 0})
    old = Event("VpEarned", 0, {"amount": 3, "reason": "shipping"}, 0, None)
    for lang in LANGUAGES:
        writer = LogWriter(NAMES, lang)
        [line] = writer.lines([ActionRecord(1, 1, 0, "ship.corn.0", 100, AT,
                                            (shipped.to_json(), private.to_json()))])
        assert "+3" in line and "17" not in line
        [line] = writer.lines([ActionRecord(1, 1, 0, "ship.corn.0", 100, AT,
                                            (shipped.to_json(), old.to_json()))])
        assert "+" not in line and "3" not in line
    # VP chips taken apart from any load (no such building in the classic game yet): the
    # amount, in a line of its own
    alone = Event("VpEarned", 1, {"amount": 2, "reason": "other"}, 1, {"amount": 2,
                                                                       "reason": "other"})
    assert LogWriter(NAMES, "en").lines([ActionRecord(1, 1, 1, "x", None, AT,
                                                      (alone.to_json(),))]) == [
        "bob took 2 VP chips."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_in_whole_games_every_vp_in_the_log_is_a_loads_and_no_total(lang: str) -> None:
    """Each VP figure of the log is a shipment's "(+N VP)", N the public amounts of that load,
    never a seat's total."""
    state = GAME.setup({"players": 4}, 21)
    policy = make_policy("heuristic", "puerto-rico", 21)
    log: list[ActionRecord] = []
    loads: list[int] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        log.append(ActionRecord(1, len(log) + 1, seat, GAME.encode_action(action), None, AT,
                                tuple(e.to_json() for e in events)))
        if any(e.type == "GoodsShipped" for e in events):
            loads.append(sum(int(e.data["amount"]) for e in events if e.type == "VpEarned"))
    writer = LogWriter({0: "Ana", 1: "Bo", 2: "Cy", 3: "Di"}, lang)
    lines = writer.lines(log)
    unit = "VP" if lang == "en" else "PV"
    with_vp = [line for line in lines if unit in line]
    assert loads and len(with_vp) == len(loads)
    assert [int(m.group(1)) for line in with_vp
            if (m := re.search(rf"\(\+(\d+) {unit}\)\.$", line))] == loads
    # every figure is its load's: a running total would have grown past every load
    assert min(p.vp for p in state.players) > max(loads)


def record() -> GameRecord:
    return GameRecord(
        id=1, game="puerto-rico", options={"players": 3}, seed=0, status=GameStatus.ACTIVE,
        version=5, seq=4, guild_id=None, channel_id=None, creator_id=100, language="en",
        created_at=AT, updated_at=AT, started_at=AT, last_action_at=AT, finished_at=None,
        seats=tuple(SeatRecord(s, 100 + s, None, AT) for s in range(3)))


def test_the_table_log_tail_and_the_story_show_it() -> None:
    rec = captain_with_harbor()
    messages = TableMessages(record(), NAMES, "en")
    tail = messages.log_tail(rec.log, ())
    assert "-# alice shipped 2 corn on ship 1 (+4 VP)." in tail.splitlines()
    assert "-# alice shipped 3 indigo from their Wharf (+4 VP)." in tail.splitlines()
    phase = PhaseEnd(rec.log[-1].seq, "captain", 0, 1, {}, (), None)
    story = messages.phase_lines(phase, rec.log)
    assert story[:1] and "alice shipped 2 corn on ship 1 (+4 VP)." in story
    assert "bob shipped 1 sugar on ship 2 (+1 VP)." in story
