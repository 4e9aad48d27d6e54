"""Puerto Rico's log in words: its events as short localized lines, and its board as it stood
when a phase ended (the story's images).  The generic part (hand-overs, moves played for a
person, which events belong to a phase) is :mod:`bot.gamelog`.  Each event kind has its line
builders in a table (:data:`LINES`).  1897's automated opponent, the Puertoma, has its lines
here too (:data:`PUERTOMA`, the 1897 presenter hands its events over in the kernel's words):
why it chose its role, the tie-breaker cards it drew, the action marker's moves, its workers,
skills and Reserve token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.puerto_rico.data import ALL_ROLES
from engine.puerto_rico.view import BuccaneerPart, PlayerEntry, PuertoRicoView, RoleCard
from engine.puerto_rico_1897.puertoma import TIE_BREAKERS
from storage import ActionRecord

from ...gamelog import LogWriter, public_events, roles_taken
from ...i18n import Catalog
from . import new_buildings, nobles
from .catalog import CATALOG

QUIET = frozenset({"PhaseEnded", "ColonistsDistributed"})
"""Events that make no line: those the next lines already tell."""
OPENERS = ("RoleChosen", "CapturedRolePlayed")
"""Events that open a role phase: a role chosen, or (Exp. 3) the captured role the Buccaneer
plays after the round's last pick."""
SKIPPABLE = ("settler", "builder", "trader", "captain")
"""Phases where a seat with nothing to decide is skipped silently (then the log says so)."""
ACTED = {"PlantationTaken": "settler", "QuarryTaken": "settler", "BuildingBuilt": "builder",
         "GoodSold": "trader", "GoodsShipped": "captain", "Passed": "",
         "ForestPlaced": "settler"}
"""Events by which a seat acted in a phase (a pass is a decision too)."""
PUERTOMA_SKILL = "puertoma_skill"
"""Why a Puertoma (1897's automated opponent) earned coins or VP: one of its skills (§8.9)."""
SKILL_ROLES = {"planter": "settler", "recruiter": "mayor"}
"""A skill's id starts with its role in 1897's words: the kernel's, where they differ."""
COIN_SKILLS = {"builder": "builder_coin", "trader": "trader_coin",
               "craftsman": "craftsman_coins", "mayor": "recruiter_coins"}
"""The skill that pays a Puertoma coins in each role's phase (one per phase)."""
CHOICE_REASONS = {"only": "only", "arrow": "arrow", "coins": "coins", "doubloons": "coins",
                  "card": "card"}
"""Why a Puertoma chose its role (``PuertomaChoseRole``'s ``by``, in either edition's words):
its words, ``log.ptm.why.<reason>``."""


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
                event.seat == out[shipment].seat) and (
                event.data.get("reason") != PUERTOMA_SKILL):  # a Puertoma's, when storing
            load = out[shipment]
            vp = int(load.data.get("vp") or 0) + int(event.data.get("amount") or 0)
            out[shipment] = Event(load.type, load.seat, {**load.data, "vp": vp})
            continue
        if event.type == "GoodsShipped":
            shipment = len(out)
        elif event.type in ACTED or event.type in OPENERS:
            shipment = None
        out.append(event)
    return out


def skill_role(skill: object) -> str:
    """The role (the kernel's word) a Puertoma skill belongs to: ``trader_coin`` the Trader's."""
    head = str(skill).split("_", 1)[0]
    return SKILL_ROLES.get(head, head)


def _same_seat(events: Sequence[Event], at: int, step: int) -> Event | None:
    """The nearest event of the seat of ``events[at]`` before it (``step`` -1) or after it."""
    seat = events[at].seat
    i = at + step
    while 0 <= i < len(events):
        if events[i].seat == seat:
            return events[i]
        i += step
    return None


def coin_skill(events: Sequence[Event], at: int) -> str | None:
    """Which skill paid the coins of ``events[at]`` (a Puertoma's ``DoubloonsEarned``), from what
    the Puertoma did around it: the coin before building (L2-Builder), after a sale
    (L1-Trader), after producing (L3-Craftsman), after its workers (L4-Recruiter)."""
    after = _same_seat(events, at, 1)
    if after is not None and (after.type == "BuildingBuilt" or (
            after.type == "Passed" and after.data.get("phase") == "builder")):
        return "builder_coin"
    before = _same_seat(events, at, -1)
    return {"GoodSold": "trader_coin", "GoodsProduced": "craftsman_coins",
            "PuertomaWorkersPlaced": "recruiter_coins"}.get(before.type if before else "")


def _why_chosen(events: Sequence[Event], at: int) -> int | None:
    """The index of the ``PuertomaChoseRole`` telling why the ``RoleChosen`` at ``at`` was
    chosen: right after it, past the tie-breaker cards drawn for it."""
    chosen = events[at]
    for later in range(at + 1, len(events)):
        event = events[later]
        if event.type == "PuertomaChoseRole":
            return later if event.seat == chosen.seat and event.data.get(
                "role") == chosen.data.get("role") else None
        if event.type not in ("TieBreakerDrawn", "TieBreakerShuffled"):
            return None
    return None


def puertoma_told(events: Sequence[Event]) -> list[Event]:
    """One action's events with what 1897's Puertomas did told with them: why a Puertoma chose
    its role (``PuertomaChoseRole``, after the ``RoleChosen`` it explains and the tie-breaker
    cards drawn for it) goes onto that ``RoleChosen`` (one line: "chose the Builder: the most
    coins"); the coins, VP and discarded crates a skill brought name that skill
    (``data["skill"]``: the events only say ``puertoma_skill``)."""
    out: list[Event] = []
    told: set[int] = set()  # the PuertomaChoseRole told with their RoleChosen
    for at, event in enumerate(events):
        data = event.data
        following = events[at + 1] if at + 1 < len(events) else None
        previous = events[at - 1] if at else None
        if at in told:
            continue
        why = _why_chosen(events, at) if event.type == "RoleChosen" else None
        if why is not None:  # the cards it drew may come between: their lines follow
            told.add(why)
            data = {**data, "puertoma": events[why].data.get("by"),
                    "marker": events[why].data.get("marker")}
        elif data.get("reason") == PUERTOMA_SKILL and event.type == "VpEarned":
            discarded = previous is not None and previous.type == "GoodsDiscarded" and (
                previous.seat == event.seat)
            data = {**data, "skill": "captain_discard" if discarded else "captain_vp_per_crate"}
        elif data.get("reason") == PUERTOMA_SKILL and event.type == "DoubloonsEarned":
            skill = coin_skill(events, at)
            data = {**data, "skill": skill} if skill else data
        elif event.type == "GoodsDiscarded" and following is not None and (
                following.type == "VpEarned" and following.seat == event.seat
                and following.data.get("reason") == PUERTOMA_SKILL):
            data = {**data, "skill": "captain_discard"}
        out.append(event if data is event.data else Event(
            event.type, event.seat, data, event.private_to, event.public_data))
    return out


def view_at_phase_end(view: PuertoRicoView, actions: Sequence[ActionRecord], end: int,
                      part: int = 0) -> PuertoRicoView:
    """The public board as it stood when the role phase ended by ``actions[end]`` (its
    ``part``-th ``PhaseEnded``) ended, from ``view``, the public view right after that action.

    The last phase of a round ends the round in the same action (``RoundEnded``, then
    ``GovernorPassed``, or ``GameEnded``): the view after it already shows the next round, the
    role cards back with a doubloon more on each left, the next Governor.  That end of the
    round is taken back here from its events: the phase's round and Governor, the role cards
    as taken this round (``RoleChosen`` since the round began) with their doubloons, the role
    just played and its chooser, the game not over yet and nobody asked (the round's end came
    next, by itself).  With Exp. 3 the round's last pick may end its phase and the Buccaneer
    play his captured role in the same action (then that card is not played yet on the first
    phase's board: :func:`before_captured_role`).  ``actions`` are the game's log (the actions
    that count, in order)."""
    out = view.copy()
    events = public_events(actions[end])
    ends = [i for i, e in enumerate(events) if e.type == "PhaseEnded"]
    if not ends:
        return out
    at = ends[min(part, len(ends) - 1)]
    ended = events[at]
    rounded = next((e for e in events[ends[-1]:] if e.type == "RoundEnded"), None)
    played = next((e for e in events[at:] if e.type == "CapturedRolePlayed"), None)
    if rounded is not None:
        out = round_taken_back(view, actions, end, events, rounded, ended)
    if played is not None:
        return before_captured_role(out, actions, end, ended, played)
    return out


def round_taken_back(view: PuertoRicoView, actions: Sequence[ActionRecord], end: int,
                     events: Sequence[Event], rounded: Event, ended: Event) -> PuertoRicoView:
    """``view`` (the next round's) with the end of the round the action ``end`` brought taken
    back (see :func:`view_at_phase_end`), ``ended`` the phase shown ended."""
    out = view.copy()
    out["round"] = int(rounded.data.get("round", view["round"]))
    if any(e.type == "GovernorPassed" for e in events):
        governor = (view["governor"] - 1) % view["players_count"]
        out["governor"] = governor
        out["players"] = [_governing(p, p["seat"] == governor) for p in view["players"]]
    taken = roles_taken(actions, end, "card")
    captured = module_events(actions, end)
    for event in captured:
        if event.type == "CapturedRolePlayed":
            taken[event.data.get("card")] = event.seat
    placed = set(rounded.data.get("doubloons_on") or ())
    out["roles"] = [{"card": r["card"], "role": r["role"],
                     "doubloons": r["doubloons"] - (r["card"] in placed),
                     "taken_by": taken.get(r["card"])}
                    for r in view["roles"]]
    capture = next((e for e in captured if e.type == "RoleCaptured"), None)
    if capture is not None and view["buccaneer"] is not None:
        out["buccaneer"] = _captured(view["buccaneer"], capture)
    out.update({"phase": "role_selection", "chooser": ended.seat,
                "active_role": ended.data.get("role"), "prompt": None, "game_over": False})
    out.pop("outcome", None)
    return out


def _governing(player: PlayerEntry, governor: bool) -> PlayerEntry:
    out = player.copy()
    out["is_governor"] = governor
    return out


def _captured(part: BuccaneerPart, capture: Event) -> BuccaneerPart:
    """The Buccaneer's part with the card ``capture`` (``RoleCaptured``) took, and by whom."""
    return {"token": part["token"], "captured": capture.data.get("card"),
            "captured_by": capture.seat, "raid_to_place": part["raid_to_place"]}


def before_captured_role(out: PuertoRicoView, actions: Sequence[ActionRecord], end: int,
                         ended: Event, played: Event) -> PuertoRicoView:
    """Exp. 3: the round's last pick ended its phase and, in the same action, the Buccaneer
    began to play the role he captured (nobody chose it).  The board as the phase ended: that
    card not played yet, still captured, the ended phase's role and chooser."""
    card = played.data.get("card")
    out["roles"] = [_untaken(r) if r["card"] == card else r for r in out["roles"]]
    capture = next((e for e in module_events(actions, end) if e.type == "RoleCaptured"), None)
    if capture is not None and out["buccaneer"] is not None:
        out["buccaneer"] = _captured(out["buccaneer"], capture)
    role = str(ended.data.get("role"))
    out.update({"phase": role, "chooser": ended.seat, "active_role": role, "prompt": None})
    return out


def _untaken(role: RoleCard) -> RoleCard:
    out = role.copy()
    out["taken_by"] = None
    return out


def module_events(actions: Sequence[ActionRecord], end: int) -> list[Event]:
    """The Buccaneer's capture events (``RoleCaptured``, ``CapturedRolePlayed``) of the round
    that the action ``end`` closes: the captured card as it stood when the round's last phase
    ended (the view after it has already let it go)."""
    found: list[Event] = []
    for index in range(end, -1, -1):
        events = public_events(actions[index])
        if index != end and any(e.type == "RoundEnded" for e in events):
            break
        found.extend(e for e in events if e.type in ("RoleCaptured", "CapturedRolePlayed"))
    return found


class PrLogWriter(LogWriter):
    """Puerto Rico's lines: every event of the game in words."""

    def __init__(self, names: Mapping[int, str], lang: str, catalog: Catalog = CATALOG, *,
                 humans: Iterable[int] = ()) -> None:
        super().__init__(names, lang, catalog, humans=humans)

    def good(self, value: object) -> str:
        return self.thing("tile" if value == "quarry" else "good", value)

    def goods(self, counts: Mapping[str, Any]) -> str:
        return ", ".join(f"{n} {self.good(g)}" for g, n in counts.items() if n)

    def prepare(self, events: list[Event]) -> list[Event]:
        return puertoma_told(with_shipment_vp(events))

    def follow(self, event: Event) -> str | None:
        """Who acted in the role phase under way; when it ends, who could do nothing in it
        (the engine skips a seat with nothing to decide, without an event): "bob could not
        load anything", "nobody could sell".  Only phases whose start was seen are told."""
        kind, seat = event.type, event.seat
        if kind in OPENERS:
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
        """A Mayor arrangement in words: "2 on corn, 1 on the Small market"; with Exp. 2 the
        nobles among them: "2 on corn (1 noble)"."""
        nobles = data.get("nobles") or {}

        def part(text: str, place: str) -> str:
            among = int(nobles.get(place) or 0)
            return self.t("log.nobles_among", part=text, nobles=among) if among else text

        parts = [part(self.t("log.on_tile", n=n, tile=self.good(tile)), tile)
                 for tile, n in (data.get("tiles") or {}).items() if n]
        parts += [part(self.t("log.on_building", n=n, building=self.thing("building", b)), b)
                  for b, n in (data.get("buildings") or {}).items() if n]
        if data.get("san_juan"):
            parts.append(part(self.t("log.in_san_juan", n=data["san_juan"]), "san_juan"))
        return ", ".join(parts)

    def event_line(self, event: Event) -> str | None:
        """One event in words: the first line its kind's builders make (:data:`LINES`);
        ``None`` for events that make no line."""
        summary = self.follow(event)
        if summary is not None:
            return summary
        if event.type in QUIET:
            return None
        name = self.name(event.seat)
        for line in LINES.get(event.type, ()):
            text = line(self, event.data, name)
            if text is not None:
                return text
        return None

    # --- 1897's Puertoma --------------------------------------------------------------------

    def skill(self, skill: object) -> str:
        """A Puertoma skill's short name: "Sale bonus"."""
        return self.thing("ptm_skill", skill)

    def skill_effect(self, skill: object) -> str:
        """A Puertoma skill's effect in a line: "Trader: +1 coin whenever it sells"."""
        return self.t(f"ptm_effect.{skill}", role=self.thing("role", skill_role(skill)))

    def choice_why(self, data: Mapping[str, Any]) -> str:
        """Why a Puertoma chose its role (§8.6): the only profitable one, the one an arrow
        leads to from the action marker's role, the most coins (``doubloons`` in the kernel's
        words), the tie-breaker card."""
        by = data.get("puertoma") or data.get("by")
        why = CHOICE_REASONS.get(str(by), "rules")
        return self.t(f"log.ptm.why.{why}", marker=self.thing("role", data.get("marker")))

    def card_order(self, card: object) -> str:
        """The roles of a tie-breaker card, first preferred (D.2)."""
        number = int(card) if isinstance(card, int) else 0
        if not 1 <= number <= len(TIE_BREAKERS):
            return "?"
        return ", ".join(self.thing("role", ALL_ROLES[r]) for r in TIE_BREAKERS[number - 1])

    def ptm_places(self, placed: Mapping[str, Any]) -> str:
        """Where a Puertoma's workers went: "2 on fruit, 1 in its VP area"."""
        parts = [self.t("log.ptm.in_vp_area" if where == "vp_area" else "log.ptm.on_good",
                        n=int(n or 0), good=self.good(where))
                 for where, n in placed.items() if n]
        return self.catalog.join(self.lang, parts) or "—"

    def place(self, target: object) -> str:
        """Where a piece went: a building, or a tile of the island."""
        where = str(target)
        if self.catalog.has(f"building.{where}"):
            return self.thing("building", where)
        return self.good(where)

    def activity_line(self, data: Mapping[str, Any], name: str) -> str:
        """A Festival Activity card completed, and what it brings."""
        parts = [self.t(f"unit.{unit}", n=int(data.get(key) or 0))
                 for key, unit in (("colonists", "colonists"), ("doubloons", "doubloons"),
                                   ("vp", "vp_chips")) if data.get(key)]
        return self.t("log.activity", name=name, activity=self.thing("activity",
                                                                      data.get("activity")),
                      reward=self.catalog.join(self.lang, parts) or "—")

    def festival_line(self, data: Mapping[str, Any], name: str) -> str:
        goal = data.get("goal")
        if goal == "plantation":
            what = self.t("table.goal.plantation", tile=self.good(data.get("tile")))
        elif goal == "production":
            what = self.t("table.goal.production",
                          goods=", ".join(self.good(g) for g in data.get("goods") or ()))
        else:
            what = self.t("table.goal.construction",
                          building=self.thing("building", data.get("building")))
        return self.t("log.festival_goal", name=name, goal=what)


# --- each event kind's line ---------------------------------------------------------------------

Data = Mapping[str, Any]
Line = Callable[[PrLogWriter, Data, str], str | None]
"""A line builder: the writer, the event's (public) data and the name of its seat; ``None``
when the event is not this builder's case (the next builder of its kind is asked)."""


def role_chosen(w: PrLogWriter, data: Data, name: str) -> str:
    role = w.thing("role", data.get("role"))
    coins = int(data.get("doubloons") or 0)
    if data.get("puertoma"):  # 1897: a Puertoma's choice, and why (puertoma_told)
        return w.counted("log.ptm.chose", coins, name=name, role=role, why=w.choice_why(data))
    if coins:
        return w.counted("log.role_bonus", coins, name=name, role=role)
    return w.t("log.role", name=name, role=role)


def plantation_taken(w: PrLogWriter, data: Data, name: str) -> str:
    # "a corn plantation", "an indigo plantation": the article comes with the words
    plantation = w.thing("plantation", data.get("tile"))
    key = "log.hacienda" if data.get("source") == "hacienda" else "log.tile"
    return w.t(key, name=name, plantation=plantation)


def colonist_gained(w: PrLogWriter, data: Data, name: str) -> str:
    by = data.get("by")
    if by == "mayor":
        return w.t("log.mayor_privilege", name=name)
    target = data.get("target")
    where = w.thing("building", target) if w.catalog.has(f"building.{target}") else w.good(
        target)
    return w.t("log.colonist", name=name, building=w.thing("building", by), target=where)


def passed(w: PrLogWriter, data: Data, name: str) -> str:
    if data.get("declined") == "production":  # 1897
        return w.t("log.declined_production", name=name)
    return w.t("log.passed", name=name)


def colonist_placed(w: PrLogWriter, data: Data, name: str) -> str | None:
    if data.get("by") == "festival":  # 1897 (X4): at once
        return w.t("log.festival_placed", name=name, target=w.place(data.get("target")))
    return None


def plantations_revealed(w: PrLogWriter, data: Data, name: str) -> str:
    tiles = ", ".join(w.good(t) for t in data.get("face_up", ()))
    return w.t("log.revealed", tiles=tiles or w.t("table.empty"))


def colonists_arranged(w: PrLogWriter, data: Data, name: str) -> str:
    places = w.places(data)
    if places and data.get("nobles"):
        return w.t("log.arranged_nobles_on", name=name, places=places)
    if places:
        return w.t("log.arranged_on", name=name, places=places)
    return w.t("log.arranged", name=name)


def building_built(w: PrLogWriter, data: Data, name: str) -> str:
    price = data.get("price", 0)
    return w.counted("log.built", price, name=name,
                     building=w.thing("building", data.get("building")), price=price)


def doubloons_earned(w: PrLogWriter, data: Data, name: str) -> str | None:
    reason = data.get("reason")
    if reason == "festival_activity":
        return None  # the Activity's own line names its reward
    if w.catalog.has(f"log.earned.{reason}"):
        return w.t(f"log.earned.{reason}", name=name, n=int(data.get("amount") or 0))
    why = w.thing("building", reason) if reason == "factory" else w.thing("role", reason)
    return w.counted("log.earned", data.get("amount", 0), name=name, reason=why)


def vp_earned(w: PrLogWriter, data: Data, name: str) -> str | None:
    """VP chips taken apart from a load: the amount only."""
    if data.get("reason") == "festival_activity":
        return None  # the Activity's own line names its reward
    key = f"log.vp_earned.{data.get('reason')}"
    return w.t(key if w.catalog.has(key) else "log.vp_earned", name=name,
               n=int(data.get("amount") or 0))


def good_sold(w: PrLogWriter, data: Data, name: str) -> str:
    price = data.get("price", 0)
    return w.counted("log.sold", price, name=name, good=w.good(data.get("good")), price=price)


def goods_shipped(w: PrLogWriter, data: Data, name: str) -> str:
    # "(+4 VP)": the VP of this load (with_shipment_vp), never the seat's total
    ship = data.get("ship")
    good = w.good(data.get("good"))
    vp = int(data.get("vp") or 0)
    more = {"vp": vp} if vp else {}
    tail = "_vp" if vp else ""
    if isinstance(ship, int):
        return w.t(f"log.shipped{tail}", name=name, n=data.get("count", 0), good=good,
                   ship=ship + 1, **more)
    return w.t(f"log.wharf{tail}", name=name, n=data.get("count", 0), good=good, **more)


def end_triggered(w: PrLogWriter, data: Data, name: str) -> str:
    key = "log.end_triggered_phase" if data.get("after") == "phase" else "log.end_triggered"
    return w.t(key, reason=w.thing("end", data.get("reason")))


BASE: dict[str, Line] = {
    "RoleChosen": role_chosen,
    "QuarryTaken": lambda w, data, name: w.t("log.quarry", name=name),
    "PlantationTaken": plantation_taken,
    "ColonistGained": colonist_gained,
    "OfferDeclined": lambda w, data, name: w.t(
        "log.declined", name=name, building=w.thing("building", data.get("offer"))),
    "Passed": passed,
    "ColonistPlaced": colonist_placed,
    "PlantationsRevealed": plantations_revealed,
    "ColonistsArranged": colonists_arranged,
    "ColonistShipRefilled": lambda w, data, name: w.counted(
        "log.ship_refilled", data.get("count", 0)),
    "BuildingBuilt": building_built,
    "GoodsProduced": lambda w, data, name: w.t(
        "log.produced", name=name, goods=w.goods(data.get("goods", {}))),
    "DoubloonsEarned": doubloons_earned,
    "PrivilegeGoodTaken": lambda w, data, name: w.t(
        "log.extra_good", name=name, good=w.good(data.get("good"))),
    "GoodSold": good_sold,
    "TradingHouseEmptied": lambda w, data, name: w.t("log.house_emptied"),
    "GoodsShipped": goods_shipped,
    "VpEarned": vp_earned,
    "GoodsDiscarded": lambda w, data, name: w.t(
        "log.discarded", name=name, goods=w.goods(data.get("goods", {}))),
    "ShipsEmptied": lambda w, data, name: w.t("log.ships_emptied"),
    "EndTriggered": end_triggered,
    "RoundEnded": lambda w, data, name: w.t("log.round_ended", round=data.get("round", "?")),
    "GovernorPassed": lambda w, data, name: w.t(
        "log.governor", name=name, round=data.get("round", "?")),
    "GameEnded": lambda w, data, name: w.t("log.game_ended"),
}
"""The base game's lines."""


# --- the expansions' events (Exp. 3 the Buccaneer, Exp. 4 the Festival; Exp. 1's and Exp. 2's
# lines are in their modules) and the kernel's 1897 modules ----------------------------------


def token_taken(w: PrLogWriter, data: Data, name: str) -> str:
    giver = data.get("from")
    if isinstance(giver, int):
        return w.t("log.token_from", name=name, other=w.name(giver))
    return w.t("log.token_card", name=name)


def ship_pirated(w: PrLogWriter, data: Data, name: str) -> str:
    ship = data.get("ship")
    return w.t("log.pirated", name=name, ship=int(ship) + 1 if isinstance(ship, int) else "?",
               count=int(data.get("count") or 0), good=w.good(data.get("good")),
               n=int(data.get("kept") or 0))


def house_plundered(w: PrLogWriter, data: Data, name: str) -> str:
    goods = [w.good(g) for g in data.get("goods") or ()]
    return w.t("log.plundered", name=name,
               goods=w.catalog.join(w.lang, goods) or w.t("table.empty"))


def ship_raided(w: PrLogWriter, data: Data, name: str) -> str:
    removed, kept = int(data.get("removed") or 0), int(data.get("kept") or 0)
    if not removed:
        return w.t("log.raid_nothing", name=name)
    return w.t("log.raided", name=name, n=removed, kept=kept)


def raid_placed(w: PrLogWriter, data: Data, name: str) -> str | None:
    if data.get("by") == "raid":
        return w.t("log.raid_placed", name=name, target=w.place(data.get("target")))
    return None


MODULES: dict[str, Line] = {
    "BuccaneerTokenTaken": token_taken,
    "ShipPirated": ship_pirated,
    "TradingHousePlundered": house_plundered,
    "ColonistShipRaided": ship_raided,
    "RoleCaptured": lambda w, data, name: w.counted(
        "log.captured", int(data.get("doubloons") or 0), name=name,
        role=w.thing("role", data.get("role"))),
    "CapturedRolePlayed": lambda w, data, name: w.t(
        "log.captured_played", name=name, role=w.thing("role", data.get("role"))),
    "FestivalGoalAchieved": lambda w, data, name: w.festival_line(data, name),
    "ColonistGained": raid_placed,
    # the kernel's festival_activities and achievements (1897)
    "FestivalActivityCompleted": lambda w, data, name: w.activity_line(data, name),
    "AchievementAnnounced": lambda w, data, name: w.t(
        "log.announced", name=name,
        achievement=w.thing("achievement", data.get("achievement"))),
    "AchievementDraftEnded": lambda w, data, name: w.t("log.achievement_draft_ended"),
}
"""Exp. 3's and Exp. 4's lines, and the kernel's modules only 1897 plays."""


# --- 1897's Puertoma (§8, the kernel's ``puertoma``) -------------------------------------------


def marker_moved(w: PrLogWriter, data: Data, name: str) -> str:
    return w.t("log.ptm.marker", name=name, start=w.thing("role", data.get("from")),
               end=w.thing("role", data.get("to")))


def tie_breaker_drawn(w: PrLogWriter, data: Data, name: str) -> str:
    key = f"log.ptm.card.{data.get('for')}"
    return w.t(key if w.catalog.has(key) else "log.ptm.card", name=name,
               card=data.get("card", "?"), order=w.card_order(data.get("card")))


def workers_placed(w: PrLogWriter, data: Data, name: str) -> str:
    by = data.get("by")
    places = w.ptm_places(data.get("placed") or {})
    if by in ("builder_worker", "recruiter_worker"):
        return w.t("log.ptm.workers_skill", name=name, skill=w.skill(by), places=places)
    return w.t("log.ptm.workers", name=name, places=places)


def skill_unlocked(w: PrLogWriter, data: Data, name: str) -> str:
    skill = data.get("skill")
    level = data.get("level", data.get("column", "?"))  # "column" in the kernel's words
    return w.t("log.ptm.unlocked", name=name, level=level, skill=w.skill(skill),
               effect=w.skill_effect(skill))


def skill_paid(unit: str) -> Line:
    """A Puertoma's coins (``unit`` ``coins``) or VP (``vp``) a skill brought: the skill
    named by the event, else (coins) by the phase under way when known."""

    def line(w: PrLogWriter, data: Data, name: str) -> str | None:
        if data.get("reason") != PUERTOMA_SKILL:
            return None
        skill = data.get("skill")
        if not skill and unit == "coins":
            phase = getattr(w, "phase", None)
            skill = COIN_SKILLS.get(phase[0]) if phase else None
        n = int(data.get("amount") or 0)
        if skill:
            return w.t(f"log.ptm.{unit}_skill", name=name, n=n, skill=w.skill(skill))
        return w.t(f"log.ptm.{unit}", name=name, n=n)

    return line


def skill_discarded(w: PrLogWriter, data: Data, name: str) -> str | None:
    skill = data.get("skill")
    if not skill:
        return None
    return w.t("log.ptm.discarded", name=name, goods=w.goods(data.get("goods", {})),
               skill=w.skill(skill))


PUERTOMA: dict[str, Line] = {
    "PuertomaChoseRole": lambda w, data, name: w.t(  # alone (else told with its RoleChosen)
        "log.ptm.reason", name=name, role=w.thing("role", data.get("role")),
        why=w.choice_why(data)),
    "MarkerMoved": marker_moved,
    "TieBreakerDrawn": tie_breaker_drawn,
    "TieBreakerShuffled": lambda w, data, name: w.t("log.ptm.shuffled", n=len(TIE_BREAKERS)),
    "PuertomaWorkersPlaced": workers_placed,
    "PuertomaSkillUnlocked": skill_unlocked,
    "PuertomaSkillsDiscarded": lambda w, data, name: w.t("log.ptm.skills_discarded", name=name),
    "PuertomaSkillUsed": lambda w, data, name: w.t(
        "log.ptm.skill_crate", name=name, good=w.good(data.get("good")),
        skill=w.skill(data.get("skill"))),
    "ReserveTokenPlaced": lambda w, data, name: w.t(
        "log.ptm.reserve", name=name, building=w.thing("building", data.get("building"))),
    "ReserveTokenRemoved": lambda w, data, name: w.t("log.ptm.reserve_removed", name=name),
    "DoubloonsEarned": skill_paid("coins"),
    "VpEarned": skill_paid("vp"),
    "GoodsDiscarded": skill_discarded,
}
"""1897's automated opponent: its choice of a role, the action marker, the tie-breaker cards,
its workers, skills and Reserve token; its coins, VP and crates a skill brought."""


def festival_colonists(w: PrLogWriter, data: Data, name: str) -> str | None:
    if data.get("by") in ("festival", "festival_activity"):
        return w.t("log.festival_colonists", name=name, n=int(data.get("count") or 0))
    return None


def by_kind(*parts: Mapping[str, Line]) -> dict[str, tuple[Line, ...]]:
    """Each event kind's builders, in the order of ``parts`` (the first that makes a line
    wins)."""
    out: dict[str, tuple[Line, ...]] = {}
    for part in parts:
        for kind, line in part.items():
            out[kind] = (*out.get(kind, ()), line)
    return out


LINES: dict[str, tuple[Line, ...]] = by_kind(
    new_buildings.LOG_LINES, nobles.LOG_LINES, MODULES, PUERTOMA,
    {"ColonistGained": festival_colonists}, BASE)
"""Each event kind's line builders: an expansion's case of an event first (Exp. 1's, Exp. 2's,
Exp. 3's and 4's, the Puertoma's), the base game's last."""
