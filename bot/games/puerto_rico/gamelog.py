"""Puerto Rico's log in words: its events as short localized lines, and its board as it stood
when a phase ended (the story's images).  The generic part (hand-overs, moves played for a
person, which events belong to a phase) is :mod:`bot.gamelog`.  1897's automated opponent, the
Puertoma, has its lines here too (:meth:`PrLogWriter.puertoma_line`, the 1897 presenter hands
its events over in the kernel's words): why it chose its role, the tie-breaker cards it drew,
the action marker's moves, its workers, skills and Reserve token.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.puerto_rico.data import ALL_ROLES
from engine.puerto_rico.puertoma import TIE_BREAKERS
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


def view_at_phase_end(view: Mapping[str, Any], actions: Sequence[ActionRecord], end: int,
                      part: int = 0) -> dict[str, Any]:
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
    out = dict(view)
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


def round_taken_back(view: Mapping[str, Any], actions: Sequence[ActionRecord], end: int,
                     events: Sequence[Event], rounded: Event, ended: Event) -> dict[str, Any]:
    """``view`` (the next round's) with the end of the round the action ``end`` brought taken
    back (see :func:`view_at_phase_end`), ``ended`` the phase shown ended."""
    out = dict(view)
    out["round"] = int(rounded.data.get("round", view.get("round", 1)))
    if any(e.type == "GovernorPassed" for e in events):
        governor = (int(view["governor"]) - 1) % int(view["players_count"])
        out["governor"] = governor
        out["players"] = [{**p, "is_governor": p.get("seat") == governor}
                          for p in view.get("players", ())]
    taken = roles_taken(actions, end, "card")
    captured = module_events(actions, end)
    for event in captured:
        if event.type == "CapturedRolePlayed":
            taken[event.data.get("card")] = event.seat
    placed = set(rounded.data.get("doubloons_on") or ())
    out["roles"] = [{**r, "taken_by": taken.get(r.get("card")),
                     "doubloons": int(r.get("doubloons") or 0) - (r.get("card") in placed)}
                    for r in view.get("roles", ())]
    capture = next((e for e in captured if e.type == "RoleCaptured"), None)
    if capture is not None and isinstance(view.get("buccaneer"), Mapping):
        out["buccaneer"] = {**view["buccaneer"], "captured": capture.data.get("card"),
                            "captured_by": capture.seat}
    out.update(phase="role_selection", chooser=ended.seat,
               active_role=ended.data.get("role"), prompt=None, game_over=False)
    out.pop("outcome", None)
    return out


def before_captured_role(out: dict[str, Any], actions: Sequence[ActionRecord], end: int,
                         ended: Event, played: Event) -> dict[str, Any]:
    """Exp. 3: the round's last pick ended its phase and, in the same action, the Buccaneer
    began to play the role he captured (nobody chose it).  The board as the phase ended: that
    card not played yet, still captured, the ended phase's role and chooser."""
    card = played.data.get("card")
    out["roles"] = [{**r, "taken_by": None} if r.get("card") == card else r
                    for r in out.get("roles", ())]
    capture = next((e for e in module_events(actions, end) if e.type == "RoleCaptured"), None)
    if capture is not None and isinstance(out.get("buccaneer"), Mapping):
        out["buccaneer"] = {**out["buccaneer"], "captured": capture.data.get("card"),
                            "captured_by": capture.seat}
    role = str(ended.data.get("role"))
    out.update(phase=role, chooser=ended.seat, active_role=role, prompt=None)
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
            if data.get("puertoma"):  # 1897: a Puertoma's choice, and why (puertoma_told)
                return self.counted("log.ptm.chose", coins, name=name, role=role,
                                    why=self.choice_why(data))
            if coins:
                return self.counted("log.role_bonus", coins, name=name, role=role)
            return self.t("log.role", name=name, role=role)
        if kind == "QuarryTaken":
            return self.t("log.quarry", name=name)
        module = self.module_line(event, name)
        if module is not None:
            return module
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
        if kind == "Passed" and data.get("declined") == "production":  # 1897
            return self.t("log.declined_production", name=name)
        if kind == "Passed":
            return self.t("log.passed", name=name)
        if kind == "ColonistPlaced" and data.get("by") == "festival":  # 1897 (X4): at once
            return self.t("log.festival_placed", name=name, target=self.place(data.get("target")))

        if kind == "PlantationsRevealed":
            tiles = ", ".join(self.good(t) for t in data.get("face_up", ()))
            return self.t("log.revealed", tiles=tiles or self.t("table.empty"))
        if kind == "ColonistsArranged":
            places = self.places(data)
            if places and data.get("nobles"):
                return self.t("log.arranged_nobles_on", name=name, places=places)
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
        if kind in ("DoubloonsEarned", "VpEarned") and data.get("reason") == "festival_activity":
            return None  # the Activity's own line names its reward
        if kind == "DoubloonsEarned" and self.catalog.has(f"log.earned.{data.get('reason')}"):
            return self.t(f"log.earned.{data.get('reason')}", name=name,
                          n=int(data.get("amount") or 0))
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
            key = f"log.vp_earned.{data.get('reason')}"
            return self.t(key if self.catalog.has(key) else "log.vp_earned", name=name,
                          n=int(data.get("amount") or 0))
        if kind == "GoodsDiscarded":
            return self.t("log.discarded", name=name, goods=self.goods(data.get("goods", {})))
        if kind == "ShipsEmptied":
            return self.t("log.ships_emptied")
        if kind == "EndTriggered":
            key = "log.end_triggered_phase" if data.get("after") == "phase" else "log.end_triggered"
            return self.t(key, reason=self.thing("end", data.get("reason")))
        if kind == "RoundEnded":
            return self.t("log.round_ended", round=data.get("round", "?"))
        if kind == "GovernorPassed":
            return self.t("log.governor", name=name, round=data.get("round", "?"))
        if kind == "GameEnded":
            return self.t("log.game_ended")
        return None

    def module_line(self, event: Event, name: str) -> str | None:
        """The lines of the expansions' events (Exp. 1 the New Buildings, Exp. 2 the Nobles,
        Exp. 3 the Buccaneer, Exp. 4 the Festival); ``None`` for the other events."""
        kind, data = event.type, event.data
        exp1 = new_buildings.log_line(self, kind, data, name)
        if exp1 is not None:
            return exp1
        exp2 = nobles.log_line(self, kind, data, name)
        if exp2 is not None:
            return exp2
        if kind == "BuccaneerTokenTaken":
            giver = data.get("from")
            if isinstance(giver, int):
                return self.t("log.token_from", name=name, other=self.name(giver))
            return self.t("log.token_card", name=name)
        if kind == "ShipPirated":
            ship = data.get("ship")
            return self.t("log.pirated", name=name, ship=int(ship) + 1 if isinstance(
                ship, int) else "?", count=int(data.get("count") or 0),
                good=self.good(data.get("good")), n=int(data.get("kept") or 0))
        if kind == "TradingHousePlundered":
            goods = [self.good(g) for g in data.get("goods") or ()]
            return self.t("log.plundered", name=name,
                          goods=self.catalog.join(self.lang, goods) or self.t("table.empty"))
        if kind == "ColonistShipRaided":
            removed, kept = int(data.get("removed") or 0), int(data.get("kept") or 0)
            if not removed:
                return self.t("log.raid_nothing", name=name)
            return self.t("log.raided", name=name, n=removed, kept=kept)
        if kind == "RoleCaptured":
            role = self.thing("role", data.get("role"))
            return self.counted("log.captured", int(data.get("doubloons") or 0), name=name,
                                role=role)
        if kind == "CapturedRolePlayed":
            return self.t("log.captured_played", name=name,
                          role=self.thing("role", data.get("role")))
        if kind == "FestivalGoalAchieved":
            return self.festival_line(data, name)
        if kind == "ColonistGained" and data.get("by") == "raid":
            return self.t("log.raid_placed", name=name, target=self.place(data.get("target")))
        if kind == "FestivalActivityCompleted":  # the kernel's festival_activities (1897)
            return self.activity_line(data, name)
        if kind == "AchievementAnnounced":  # the kernel's achievements (1897)
            return self.t("log.announced", name=name,
                          achievement=self.thing("achievement", data.get("achievement")))
        if kind == "AchievementDraftEnded":
            return self.t("log.achievement_draft_ended")
        puertoma = self.puertoma_line(event, name)  # 1897's automated opponent
        if puertoma is not None:
            return puertoma
        if kind == "ColonistGained" and data.get("by") in ("festival", "festival_activity"):
            return self.t("log.festival_colonists", name=name, n=int(data.get("count") or 0))
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

    def puertoma_line(self, event: Event, name: str) -> str | None:
        """The lines of 1897's Puertoma (§8, the kernel's ``puertoma``): its choice of a role,
        the action marker, the tie-breaker cards, its workers, skills and Reserve token; its
        coins, VP and crates a skill brought.  ``None`` for the other events."""
        kind, data = event.type, event.data
        skill = data.get("skill")
        if kind == "PuertomaChoseRole":  # alone (its RoleChosen makes the line otherwise)
            return self.t("log.ptm.reason", name=name, role=self.thing("role", data.get("role")),
                          why=self.choice_why(data))
        if kind == "MarkerMoved":
            return self.t("log.ptm.marker", name=name, start=self.thing("role", data.get("from")),
                          end=self.thing("role", data.get("to")))
        if kind == "TieBreakerDrawn":
            purpose = data.get("for")
            key = f"log.ptm.card.{purpose}"
            return self.t(key if self.catalog.has(key) else "log.ptm.card", name=name,
                          card=data.get("card", "?"), order=self.card_order(data.get("card")))
        if kind == "TieBreakerShuffled":
            return self.t("log.ptm.shuffled", n=len(TIE_BREAKERS))
        if kind == "PuertomaWorkersPlaced":
            by = data.get("by")
            places = self.ptm_places(data.get("placed") or {})
            if by in ("builder_worker", "recruiter_worker"):
                return self.t("log.ptm.workers_skill", name=name, skill=self.skill(by),
                              places=places)
            return self.t("log.ptm.workers", name=name, places=places)
        if kind == "PuertomaSkillUnlocked":
            level = data.get("level", data.get("column", "?"))  # "column" in the kernel's words
            return self.t("log.ptm.unlocked", name=name, level=level, skill=self.skill(skill),
                          effect=self.skill_effect(skill))
        if kind == "PuertomaSkillsDiscarded":
            return self.t("log.ptm.skills_discarded", name=name)
        if kind == "PuertomaSkillUsed":
            return self.t("log.ptm.skill_crate", name=name, good=self.good(data.get("good")),
                          skill=self.skill(skill))
        if kind == "ReserveTokenPlaced":
            return self.t("log.ptm.reserve", name=name,
                          building=self.thing("building", data.get("building")))
        if kind == "ReserveTokenRemoved":
            return self.t("log.ptm.reserve_removed", name=name)
        if kind in ("DoubloonsEarned", "VpEarned") and data.get("reason") == PUERTOMA_SKILL:
            unit = "coins" if kind == "DoubloonsEarned" else "vp"
            if not skill and unit == "coins":  # told by the phase under way, when known
                phase = getattr(self, "phase", None)
                skill = COIN_SKILLS.get(phase[0]) if phase else None
            n = int(data.get("amount") or 0)
            if skill:
                return self.t(f"log.ptm.{unit}_skill", name=name, n=n, skill=self.skill(skill))
            return self.t(f"log.ptm.{unit}", name=name, n=n)
        if kind == "GoodsDiscarded" and skill:
            return self.t("log.ptm.discarded", name=name,
                          goods=self.goods(data.get("goods", {})), skill=self.skill(skill))
        return None

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
