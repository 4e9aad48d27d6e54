"""Refusals that say why, with the numbers (issue #9).

The engine refuses a move with a code and a few fields (``IllegalAction("not_enough_doubloons",
action="b.city_hall")``, ``NotYourTurn(expected=[2])``); it never formats text.  What a person
needs to understand the refusal (the price for them, their doubloons, the phase now and who
acts) is in the view of the refused seat, so whoever refuses a move attaches a
:class:`Situation` (:func:`situate`: the seat's view, the names by seat and the legal codes),
and :func:`refusal` turns the code plus the situation into a catalog key and its fields, in the
reader's language: "You cannot afford the City hall: it costs 8 doubloons for you, you have 5
doubloons."  Without a situation the plain ``illegal.*`` texts remain.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.core import EngineError, GameOver, IllegalAction, InvalidAction, NotYourTurn

from .choices import Chooser, family, keep_counts
from .i18n import Catalog

CITY_SPACES = 12
ISLAND_SPACES = 12
WAREHOUSES = {"small_warehouse": 1, "large_warehouse": 2}


@dataclass(frozen=True, slots=True)
class Situation:
    """Where a refusal happened: the refused seat's view of the game at that moment."""

    game: int
    seat: int | None
    view: Mapping[str, Any]
    names: Mapping[int, str]
    legal: tuple[str, ...] = field(default=())
    action: str | None = None
    """The code refused, when the exception does not carry it (a command typed by name)."""


E = TypeVar("E", bound=BaseException)


def situate(exc: E, situation: Situation) -> E:
    """Attach ``situation`` to ``exc`` (returned, to be raised)."""
    exc.situation = situation  # type: ignore[attr-defined]
    return exc


def situation_of(exc: BaseException) -> Situation | None:
    """The situation attached to ``exc`` or to the exception it was raised from."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return None
        found = getattr(seen, "situation", None)
        if isinstance(found, Situation):
            return found
        seen = seen.__cause__ or seen.__context__
    return None


def engine_cause(exc: BaseException) -> EngineError | None:
    seen: BaseException | None = exc
    for _ in range(4):
        if isinstance(seen, EngineError):
            return seen
        if seen is None:
            return None
        seen = seen.__cause__
    return None


class _Words:
    def __init__(self, situation: Situation, catalog: Catalog, lang: str) -> None:
        self.s = situation
        self.catalog = catalog
        self.lang = lang
        self.view = situation.view
        self.chooser = Chooser(situation.view, lang, catalog)
        players: Sequence[Mapping[str, Any]] = self.view.get("players", ())
        seat = situation.seat
        self.me: Mapping[str, Any] = players[seat] if seat is not None and 0 <= seat < len(
            players) else {}

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def name(self, seat: object) -> str:
        if isinstance(seat, int):
            if seat == self.s.seat:
                return self.t("why.you")
            return self.s.names.get(seat, self.t("table.seat_name", n=seat + 1))
        return "?"

    def prompt(self) -> tuple[list[int], str]:
        prompt = self.view.get("prompt") or {}
        kind = str(prompt.get("kind", ""))
        key = f"prompt.{kind}"
        what = self.t(key) if self.catalog.has(key) else kind.replace("_", " ")
        return [int(s) for s in prompt.get("seats", ())], what

    def goods(self, counts: Mapping[str, Any]) -> str:
        text = self.chooser.goods_words({str(g): int(n) for g, n in counts.items() if n})
        return text or self.t("ui.no_goods")

    def building_of(self, name: str) -> Mapping[str, Any] | None:
        for entry in self.me.get("city", ()):
            if entry.get("building") == name:
                return entry  # type: ignore[no-any-return]
        return None


def refusal(exc: BaseException, catalog: Catalog, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The key and fields that explain ``exc`` with the numbers of its situation, or ``None``
    when there is no situation or nothing better to say than the plain texts."""
    situation = situation_of(exc)
    if situation is None:
        return None
    words = _Words(situation, catalog, lang)
    cause = engine_cause(exc)
    key = getattr(exc, "key", None)
    action = situation.action or (str(cause.details.get("action", "")) if cause else "")
    if isinstance(cause, GameOver) or words.view.get("game_over"):
        return "err.game_over", {"game": situation.game}
    if isinstance(cause, NotYourTurn) or key == "err.not_your_turn":
        return not_your_turn(words, action)
    if isinstance(cause, InvalidAction):
        return "why.unknown_action", {"code": action or "?"}
    if isinstance(cause, IllegalAction):
        return illegal(words, cause.code, action)
    return None


def not_your_turn(w: _Words, action: str) -> tuple[str, dict[str, Any]]:
    seats, what = w.prompt()
    others = [s for s in seats if s != w.s.seat]
    who = w.catalog.join(w.lang, [w.name(s) for s in others or seats])
    fam = family(action) if action else ""
    if fam and w.catalog.has(f"why.when.{fam}") and fam != _prompt_family(w):
        return "why.wrong_phase_others", {"when": w.t(f"why.when.{fam}"), "who": who,
                                          "what": what}
    key = "why.not_your_turn" if len(others or seats) == 1 else "why.waiting_for_others"
    return key, {"who": who, "what": what, "game": w.s.game}


PROMPT_FAMILIES = {
    "role": "role", "settle": "settle", "hospice": "offer", "university": "offer",
    "mayor_privilege": "mayor", "arrange": "mayor", "build": "build",
    "craft_privilege": "craft", "sell": "sell", "ship": "ship", "keep": "keep",
}


def _prompt_family(w: _Words) -> str:
    return PROMPT_FAMILIES.get(str((w.view.get("prompt") or {}).get("kind", "")), "")


def illegal(w: _Words, code: str, action: str) -> tuple[str, dict[str, Any]] | None:
    rest = action.partition(".")[2]
    view, me, chooser = w.view, w.me, w.chooser
    if code in ("wrong_decision", "illegal_now"):
        fam = family(action)
        _, what = w.prompt()
        when = w.t(f"why.when.{fam}") if w.catalog.has(f"why.when.{fam}") else w.t(
            "illegal.wrong_decision")
        return "why.wrong_decision", {"when": when, "what": what}
    if code == "role_taken":
        role: Mapping[str, Any] = next(
            (r for r in view.get("roles", ()) if r.get("card") == rest), {})
        name = chooser.word("role", str(role.get("role", rest.rstrip("2"))))
        if role.get("taken_by") == w.s.seat:
            return "why.role_taken_by_you", {"role": name}
        return "why.role_taken", {"role": name, "name": w.name(role.get("taken_by"))}
    if code == "role_not_in_game":
        return "why.role_not_in_game", {"role": chooser.word("role", rest.rstrip("2")),
                                        "n": int(view.get("players_count") or 0)}
    if code == "island_full":
        return "why.island_full", {"used": int(me.get("island_used") or ISLAND_SPACES),
                                   "total": ISLAND_SPACES}
    if code == "no_quarries_left":
        return "why.no_quarries_left", {}
    if code == "quarry_not_allowed":
        return "why.quarry_not_allowed", {"name": w.name(view.get("chooser"))}
    if code == "plantation_not_available":
        tiles = [chooser.tile(str(t)) for t in view.get("face_up", ())]
        return "why.plantation_not_available", {
            "tile": chooser.tile(rest), "tiles": w.catalog.join(w.lang, tiles) or w.t(
                "table.empty")}
    if code == "hacienda_not_available":
        return "why.hacienda_not_available", {}
    if code in ("building_not_in_game", "already_owned", "sold_out", "no_city_space",
                "not_enough_doubloons"):
        return building_refusal(w, code, rest)
    if code == "no_such_good":
        good = rest.partition(".")[0]
        return "why.no_such_good", {"good": chooser.tile(good),
                                    "goods": w.goods(me.get("goods") or {})}
    if code in ("trading_house_full", "kind_already_in_trading_house"):
        house = [chooser.tile(str(g)) for g in view.get("trading_house", ())]
        return f"why.{code}", {"good": chooser.tile(rest), "goods": w.catalog.join(w.lang, house),
                               "n": len(house),
                               "capacity": int(view.get("trading_house_capacity") or 4)}
    if code == "no_such_ship":
        index = rest.partition(".")[2]
        return "why.no_such_ship", {"ship": int(index) + 1 if index.isdigit() else index,
                                    "n": len(view.get("ships", ()))}
    if code == "ship_not_allowed":
        return ship_refusal(w, rest)
    if code == "wharf_not_available":
        wharf = w.building_of("wharf")
        if wharf is None or not wharf.get("colonists"):
            return "why.no_wharf", {}
        return "why.wharf_used", {}
    if code == "privilege_good_not_available":
        supply = view.get("goods_supply") or {}
        return "why.privilege_good_not_available", {"good": chooser.tile(rest),
                                                    "n": int(supply.get(rest, 0))}
    if code == "no_free_circle":
        return circle_refusal(w, rest)
    if code == "keep_not_allowed":
        kinds = sum(n for b, n in WAREHOUSES.items()
                    if (entry := w.building_of(b)) is not None and entry.get("colonists"))
        return "why.keep_not_allowed", {"n": kinds, "goods": w.goods(me.get("goods") or {}),
                                        "kept": chooser.goods_words(keep_counts(rest))
                                        or w.t("why.nothing")}
    if code == "must_load":
        loads = [c for c in w.s.legal if family(c) == "ship"]
        options = w.catalog.join(w.lang, [chooser.label(c) for c in loads[:4]], "or")
        return "why.must_load", {"options": options or "?"}
    if code == "cannot_pass":
        _, what = w.prompt()
        return "why.cannot_pass", {"what": what}
    return None


def building_refusal(w: _Words, code: str, name: str) -> tuple[str, dict[str, Any]]:
    entry = w.chooser.market.get(name, {})
    building = w.chooser.building(name)
    if code == "no_city_space":
        free = CITY_SPACES - int(w.me.get("city_used") or 0)
        return "why.no_city_space", {"building": building, "size": int(entry.get("size", 1)),
                                     "free": free, "total": CITY_SPACES}
    if code == "not_enough_doubloons":
        return "why.not_enough_doubloons", {"building": building, "price": w.chooser.price(name),
                                            "have": int(w.me.get("doubloons") or 0)}
    return f"why.{code}", {"building": building}


def ship_refusal(w: _Words, rest: str) -> tuple[str, dict[str, Any]]:
    good, _, index = rest.partition(".")
    ships: Sequence[Mapping[str, Any]] = w.view.get("ships", ())
    number = int(index) if index.isdigit() else -1
    ship = ships[number] if 0 <= number < len(ships) else {}
    fields: dict[str, Any] = {"good": w.chooser.tile(good), "ship": number + 1,
                              "count": int(ship.get("count") or 0),
                              "capacity": int(ship.get("capacity") or 0)}
    if ship.get("good") and ship.get("good") != good:
        return "why.ship_other_good", {**fields, "other": w.chooser.tile(str(ship["good"]))}
    if ship and fields["count"] >= fields["capacity"]:
        return "why.ship_full", fields
    for other, entry in enumerate(ships):
        if other != number and entry.get("good") == good:
            return "why.ship_elsewhere", {**fields, "other": other + 1}
    return "illegal.ship_not_allowed", {}


def circle_refusal(w: _Words, place: str) -> tuple[str, dict[str, Any]]:
    entry = w.building_of(place)
    if entry is not None or place in w.chooser.market:
        slot = w.chooser.building(place)
        if entry is None:
            return "why.no_such_place", {"slot": slot}
        return "why.no_free_circle", {"slot": slot, "taken": int(entry.get("colonists") or 0),
                                      "total": int(entry.get("circles") or 0)}
    tiles = [t for t in w.me.get("island", ()) if t.get("tile") == place]
    fields = {"tile": w.chooser.tile(place), "total": len(tiles),
              "taken": sum(1 for t in tiles if t.get("occupied"))}
    quarry = place == "quarry"
    if not tiles:
        return ("why.no_quarry" if quarry else "why.no_such_tile"), fields
    return ("why.no_free_quarry" if quarry else "why.no_free_tile"), fields
