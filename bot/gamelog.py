"""The game log in words: logged actions and their events -> short localized lines.

Pure functions of :class:`storage.ActionRecord` values (their events are stored as JSON).  Every
event is first reduced to what the public may see (``Event.for_viewer(None)``), so a VP chip
earned (face down) never shows in a channel.  Also here: which events belong to the current role
phase (the "what just changed" highlights of the board image) and where the phases ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core import Event, Game
from storage import ActionRecord

from .i18n import CATALOG, Catalog
from .seatnames import Former, SeatNames

LINE_LIMIT = 300
QUIET = frozenset({"PhaseEnded", "ColonistsDistributed"})
"""Events that make no line: those the next lines already tell."""
SKIPPABLE = ("settler", "builder", "trader", "captain")
"""Phases where a seat with nothing to decide is skipped silently (then the log says so)."""
ACTED = {"PlantationTaken": "settler", "QuarryTaken": "settler", "BuildingBuilt": "builder",
         "GoodSold": "trader", "GoodsShipped": "captain", "Passed": ""}
"""Events by which a seat acted in a phase (a pass is a decision too)."""
HANDOVER_KEYS = {"left": "log.handover_left", "clock": "log.handover_clock"}
"""The line of a seat that changed hands, by reason (else ``log.handover_replaced``)."""


def public_events(action: ActionRecord) -> list[Event]:
    """The events of one logged action as everybody may see them."""
    out = []
    for data in action.events:
        event = Event.from_json(data).for_viewer(None)
        if event is not None:
            out.append(event)
    return out


def with_shipment_vp(events: Iterable[Event]) -> list[Event]:
    """``events`` (one action's, public) with the VP of each load told on its ``GoodsShipped``
    (``data["vp"]``): the ``VpEarned`` of the shipper that follow it in the same action (the
    barrels and the Captain's privilege, then the Harbor's) are summed into it and dropped.
    Only the amounts are public (ruling beside ``gain_vp`` in engine/puerto_rico/ops.py); a
    seat's total never is.  A ``VpEarned`` that follows no shipment stays (it gets a line)."""
    out: list[Event] = []
    shipment: int | None = None  # index in ``out`` of the load whose VP may follow
    for event in events:
        if event.type == "VpEarned" and shipment is not None and (
                event.seat == out[shipment].seat):
            load = out[shipment]
            vp = int(load.data.get("vp") or 0) + int(event.data.get("amount") or 0)
            out[shipment] = Event(load.type, load.seat, {**load.data, "vp": vp})
            continue
        if event.type == "GoodsShipped":
            shipment = len(out)
        elif event.type in ACTED or event.type == "RoleChosen":
            shipment = None
        out.append(event)
    return out


def phase_start(actions: Sequence[ActionRecord], end: int | None = None) -> int:
    """Index in ``actions`` of the last role choice at or before index ``end`` (default: the
    last action); 0 when the list holds none (the phase began earlier)."""
    last = len(actions) - 1 if end is None else end
    for index in range(last, -1, -1):
        if actions[index].code.startswith("r."):
            return index
    return 0


def phase_events(actions: Sequence[ActionRecord], end: int | None = None, *,
                 to_phase_end: bool = False) -> list[Event]:
    """Public events since the last role choice up to index ``end``: what the board image
    highlights (the role phase under way, or the one that just ended).  ``to_phase_end``: not
    what the action ``end`` did after its phase ended (the end of the round: the Governor
    passed...), for the board as it stood when the phase ended."""
    if not actions:
        return []
    last = len(actions) - 1 if end is None else end
    out: list[Event] = []
    for action in actions[phase_start(actions, last) : last + 1]:
        out.extend(public_events(action))
    if to_phase_end:
        ended = [i for i, e in enumerate(out) if e.type == "PhaseEnded"]
        if ended:
            del out[ended[-1] + 1 :]
    return out


def phase_ends(actions: Sequence[ActionRecord]) -> list[int]:
    """Indexes of the actions that ended a role phase (their events hold ``PhaseEnded``)."""
    return [
        i for i, a in enumerate(actions) if any(e.get("type") == "PhaseEnded" for e in a.events)
    ]


def views_after(
    game: Game[Any],
    options: Mapping[str, Any],
    seed: int,
    actions: Sequence[ActionRecord],
    indexes: Sequence[int],
) -> list[dict[str, Any]]:
    """The public views right after the actions at ``indexes`` (a replay of the log, which is
    the whole log of the game: the actions that count, from the first)."""
    wanted = set(indexes)
    found: dict[int, dict[str, Any]] = {}
    if wanted:
        state = game.setup(options, seed)
        for index, action in enumerate(actions[: max(wanted) + 1]):
            state, _ = game.apply(state, action.seat, game.decode_action(action.code))
            if index in wanted:
                found[index] = game.view(state, None)
    return [found[i] for i in indexes]


def view_at_phase_end(view: Mapping[str, Any], actions: Sequence[ActionRecord], end: int
                      ) -> dict[str, Any]:
    """The public board as it stood when the role phase ended by ``actions[end]`` ended, from
    ``view``, the public view right after that action.

    The last phase of a round ends the round in the same action (``RoundEnded``, then
    ``GovernorPassed``, or ``GameEnded``): the view after it already shows the next round, the
    role cards back with a doubloon more on each left, the next Governor.  That end of the
    round is taken back here from its events: the phase's round and Governor, the role cards
    as taken this round (``RoleChosen`` since the round began) with their doubloons, the role
    just played and its chooser, the game not over yet and nobody asked (the round's end came
    next, by itself).  ``actions`` are the game's log (the actions that count, in order)."""
    out = dict(view)
    events = public_events(actions[end])
    ended = next((e for e in events if e.type == "PhaseEnded"), None)
    rounded = next((e for e in events if e.type == "RoundEnded"), None)
    if ended is None or rounded is None:
        return out
    out["round"] = int(rounded.data.get("round", view.get("round", 1)))
    if any(e.type == "GovernorPassed" for e in events):
        governor = (int(view["governor"]) - 1) % int(view["players_count"])
        out["governor"] = governor
        out["players"] = [{**p, "is_governor": p.get("seat") == governor}
                          for p in view.get("players", ())]
    taken: dict[object, int | None] = {}
    for index in range(end, -1, -1):
        earlier = events if index == end else public_events(actions[index])
        if index != end and any(e.type == "RoundEnded" for e in earlier):
            break  # the round before
        for event in earlier:
            if event.type == "RoleChosen":
                taken[event.data.get("card")] = event.seat
    placed = set(rounded.data.get("doubloons_on") or ())
    out["roles"] = [{**r, "taken_by": taken.get(r.get("card")),
                     "doubloons": int(r.get("doubloons") or 0) - (r.get("card") in placed)}
                    for r in view.get("roles", ())]
    out.update(phase="role_selection", chooser=ended.seat,
               active_role=ended.data.get("role"), prompt=None, game_over=False)
    out.pop("outcome", None)
    return out


class LogWriter:
    """Lines for a game's log in one language, with display names by seat.

    With :class:`bot.seatnames.SeatNames` each line names whoever held the seat when the action
    was taken (a player who left keeps their moves), and the hand-overs are lines of their own
    at their place in the history.  ``humans`` are the seats people hold now."""

    def __init__(
        self,
        names: Mapping[int, str],
        lang: str,
        catalog: Catalog = CATALOG,
        *,
        humans: Iterable[int] = (),
    ) -> None:
        self.names = names
        self.lang = lang
        self.catalog = catalog
        self.humans = frozenset(humans)
        self.formers = names.formers if isinstance(names, SeatNames) else ()
        self.at: int | None = None
        """The ``seq`` of the action whose lines are being written (``None``: now)."""

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def counted(self, key: str, n: object, **fields: Any) -> str:
        """``key`` with the count ``n`` (its plural forms come from the catalog); ``key_free``
        instead for 0 when it exists ("for nothing" rather than "for 0 doubloons")."""
        if n == 0 and self.catalog.has(f"{key}_free"):
            return self.t(f"{key}_free", n=0, **fields)
        return self.t(key, n=n, **fields)

    def name(self, seat: object) -> str:
        """Whoever held ``seat`` for the action being written (else its occupant now)."""
        return self.name_at(seat, self.at)

    def name_at(self, seat: object, seq: int | None) -> str:
        """Whoever held ``seat`` for the action ``seq`` (``None``: its occupant now)."""
        if isinstance(seat, int):
            if isinstance(self.names, SeatNames):
                held = self.names.at(seat, seq)
                if held is not None:
                    return held
            return self.names.get(seat, self.t("table.seat_name", n=seat + 1))
        return "?"

    def phase_ended(self, round_: int, role: str, chooser: int | None, chosen_at: int | None
                    ) -> str:
        """What a story image shows: "Round 3 · the Builder phase (chosen by alice) ended",
        naming whoever chose the role then (the action ``chosen_at``)."""
        name = self.name_at(chooser, chosen_at) if chooser is not None else "?"
        return self.t("story.ended", round=round_, role=self.thing("role", role), name=name)

    def human(self, seat: int, seq: int) -> bool:
        """Whether a person held ``seat`` for the action ``seq``."""
        if isinstance(self.names, SeatNames):
            former = self.names.holder(seat, seq)
            if former is not None:
                return former.human
        return seat in self.humans

    def handover_line(self, former: Former) -> str:
        """The seat changed hands: "bob left the game; AI 2 (normal) plays that seat..."."""
        key = HANDOVER_KEYS.get(former.reason, "log.handover_replaced")
        return self.t(key, name=former.name, next=former.successor)[:LINE_LIMIT]

    def thing(self, prefix: str, value: object) -> str:
        key = f"{prefix}.{value}"
        return self.t(key) if self.catalog.has(key) else str(value)

    def good(self, value: object) -> str:
        return self.thing("tile" if value == "quarry" else "good", value)

    def goods(self, counts: Mapping[str, Any]) -> str:
        return ", ".join(f"{n} {self.good(g)}" for g, n in counts.items() if n)

    def lines(self, actions: Iterable[ActionRecord], *, trailing: bool = True) -> list[str]:
        """The lines of ``actions`` (in log order), with the seat hand-overs among them; those
        after the last action too unless not ``trailing`` (a phase's story, an undone move)."""
        out: list[str] = []
        previous: int | None = None
        for action in actions:
            low = action.seq - 1 if previous is None else previous
            out.extend(self.handover_line(f) for f in self.formers
                       if low <= f.after_seq < action.seq)
            previous = self.at = action.seq
            automatic = action.user_id is None and self.human(action.seat, action.seq)
            for event in with_shipment_vp(public_events(action)):
                line = self.event_line(event)
                if line is None:
                    continue
                if automatic and event.seat == action.seat:
                    line = self.t("log.automatic", line=line)
                    automatic = False
                out.append(line[:LINE_LIMIT])
        self.at = None
        if trailing and previous is not None:
            out.extend(self.handover_line(f) for f in self.formers if f.after_seq >= previous)
        return out

    def follow(self, event: Event) -> str | None:
        """Who acted in the role phase under way; when it ends, who could do nothing in it
        (the engine skips a seat with nothing to decide, without an event): "bob could not
        load anything", "nobody could sell".  Only phases whose start was seen are told."""
        kind, seat = event.type, event.seat
        if kind == "RoleChosen":
            self.phase: tuple[str, set[object]] | None = (str(event.data.get("role")), set())
            return None
        phase = getattr(self, "phase", None)
        if phase is None:
            return None
        if kind in ACTED:
            phase[1].add(seat)
            return None
        if kind != "PhaseEnded":
            return None
        self.phase = None
        role = str(event.data.get("role"))
        if role != phase[0] or role not in SKIPPABLE:
            return None
        seats = list(self.names)
        idle = [s for s in seats if s not in phase[1]]
        if not idle or not seats:
            return None
        if len(idle) == len(seats):
            return self.t(f"log.nobody_could.{role}")
        return self.t(f"log.could_not.{role}",
                      names=self.catalog.join(self.lang, [self.name(s) for s in idle]))

    def places(self, data: Mapping[str, Any]) -> str:
        """A Mayor arrangement in words: "2 on corn, 1 on the Small market"."""
        parts = [self.t("log.on_tile", n=n, tile=self.good(tile))
                 for tile, n in (data.get("tiles") or {}).items() if n]
        parts += [self.t("log.on_building", n=n, building=self.thing("building", b))
                  for b, n in (data.get("buildings") or {}).items() if n]
        if data.get("san_juan"):
            parts.append(self.t("log.in_san_juan", n=data["san_juan"]))
        return ", ".join(parts)

    def event_line(self, event: Event) -> str | None:
        """One event in words; ``None`` for events that make no line."""
        kind, data = event.type, event.data
        summary = self.follow(event)
        if summary is not None:
            return summary
        if kind in QUIET:
            return None
        name = self.name(event.seat)
        if kind == "RoleChosen":
            role = self.thing("role", data.get("role"))
            coins = int(data.get("doubloons") or 0)
            if coins:
                return self.counted("log.role_bonus", coins, name=name, role=role)
            return self.t("log.role", name=name, role=role)
        if kind == "QuarryTaken":
            return self.t("log.quarry", name=name)
        if kind == "PlantationTaken":
            # "a corn plantation", "an indigo plantation": the article comes with the words
            plantation = self.thing("plantation", data.get("tile"))
            key = "log.hacienda" if data.get("source") == "hacienda" else "log.tile"
            return self.t(key, name=name, plantation=plantation)
        if kind == "ColonistGained":
            by = data.get("by")
            if by == "mayor":
                return self.t("log.mayor_privilege", name=name)
            target = data.get("target")
            where = self.thing("building", target) if self.catalog.has(
                f"building.{target}") else self.good(target)
            return self.t("log.colonist", name=name, building=self.thing("building", by),
                          target=where)
        if kind == "OfferDeclined":
            return self.t("log.declined", name=name,
                          building=self.thing("building", data.get("offer")))
        if kind == "Passed":
            return self.t("log.passed", name=name)
        if kind == "PlantationsRevealed":
            tiles = ", ".join(self.good(t) for t in data.get("face_up", ()))
            return self.t("log.revealed", tiles=tiles or self.t("table.empty"))
        if kind == "ColonistsArranged":
            places = self.places(data)
            if places:
                return self.t("log.arranged_on", name=name, places=places)
            return self.t("log.arranged", name=name)
        if kind == "ColonistShipRefilled":
            return self.counted("log.ship_refilled", data.get("count", 0))
        if kind == "BuildingBuilt":
            building = self.thing("building", data.get("building"))
            price = data.get("price", 0)
            return self.counted("log.built", price, name=name, building=building, price=price)
        if kind == "GoodsProduced":
            return self.t("log.produced", name=name, goods=self.goods(data.get("goods", {})))
        if kind == "DoubloonsEarned":
            reason = data.get("reason")
            why = self.thing("building", reason) if reason == "factory" else self.thing(
                "role", reason)
            return self.counted("log.earned", data.get("amount", 0), name=name, reason=why)
        if kind == "PrivilegeGoodTaken":
            return self.t("log.extra_good", name=name, good=self.good(data.get("good")))
        if kind == "GoodSold":
            price = data.get("price", 0)
            return self.counted("log.sold", price, name=name, good=self.good(data.get("good")),
                                price=price)
        if kind == "TradingHouseEmptied":
            return self.t("log.house_emptied")
        if kind == "GoodsShipped":
            # "(+4 VP)": the VP of this load (with_shipment_vp), never the seat's total
            ship = data.get("ship")
            good = self.good(data.get("good"))
            vp = int(data.get("vp") or 0)
            more = {"vp": vp} if vp else {}
            tail = "_vp" if vp else ""
            if isinstance(ship, int):
                return self.t(f"log.shipped{tail}", name=name, n=data.get("count", 0),
                              good=good, ship=ship + 1, **more)
            return self.t(f"log.wharf{tail}", name=name, n=data.get("count", 0), good=good,
                          **more)
        if kind == "VpEarned":  # VP chips taken apart from a load: the amount only
            return self.t("log.vp_earned", name=name, n=int(data.get("amount") or 0))
        if kind == "GoodsDiscarded":
            return self.t("log.discarded", name=name, goods=self.goods(data.get("goods", {})))
        if kind == "ShipsEmptied":
            return self.t("log.ships_emptied")
        if kind == "EndTriggered":
            return self.t("log.end_triggered", reason=self.thing("end", data.get("reason")))
        if kind == "RoundEnded":
            return self.t("log.round_ended", round=data.get("round", "?"))
        if kind == "GovernorPassed":
            return self.t("log.governor", name=name, round=data.get("round", "?"))
        if kind == "GameEnded":
            return self.t("log.game_ended")
        return None
