"""What just changed in Puerto Rico: an event -> the keys of the regions to frame on the image
(``role:captain``, ``market:harbor``, ``ship:1``, ``player:2:city:harbor``...).  A key the
layout does not have is simply ignored; :mod:`render.highlights` reduces each event to what the
image's viewer may see first, so a private event (``VpEarned``) never marks the public image."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Event

from ..highlights import EventLike
from ..highlights import highlight_keys as _highlight_keys
from .puertoma import event_keys as puertoma_keys


def event_keys(event: Event) -> list[str]:
    data = event.data
    seat = event.seat
    player = f"player:{seat}"
    kind = event.type
    exp1 = new_building_keys(event)
    if exp1 is not None:
        return exp1
    exp2 = noble_keys(event)
    if exp2 is not None:
        return exp2
    automaton = puertoma_keys(event)  # 1897's Puertoma
    if automaton is not None:
        return automaton
    if kind == "FestivalActivityCompleted":  # 1897's Expansion V
        return [f"activity:{data.get('activity')}:done", f"{player}:doubloons"]
    if kind == "RoleChosen":
        keys = [f"role:{data.get('card', data.get('role'))}"]
        if data.get("doubloons"):
            keys.append(f"{player}:doubloons")
        return keys
    if kind == "BuildingBuilt":
        return [f"{player}:city:{data['building']}", f"market:{data['building']}"]
    if kind in ("PlantationTaken", "QuarryTaken"):
        return [f"{player}:island:{data['tile']}"]
    if kind == "GoodsShipped":
        ship = data.get("ship")
        if isinstance(ship, int):
            return [f"ship:{ship}", f"{player}:goods"]
        return [f"{player}:goods"]
    if kind == "GoodSold":
        return [f"trading_house:last:{data['good']}", f"{player}:doubloons"]
    if kind in ("GoodsProduced", "PrivilegeGoodTaken", "GoodsDiscarded"):
        return [f"{player}:goods"]
    if kind == "DoubloonsEarned":
        return [f"{player}:doubloons"]
    module = module_keys(event)
    if module is not None:
        return module
    if kind == "ColonistGained":
        by = data.get("by")
        if by == "university":
            return [f"{player}:city:{data.get('target')}"]
        if by == "hospice":
            return [f"{player}:island:{data.get('target')}"]
        return [f"{player}:san_juan"]
    if kind == "ColonistShipRefilled":
        return ["colonist_ship"]
    if kind == "TradingHouseEmptied":
        return ["trading_house"]
    if kind == "PlantationsRevealed":
        return ["face_up"]
    if kind == "GovernorPassed":
        return ["governor", f"{player}:governor"]
    if kind == "VpEarned":
        return [f"{player}:vp"]
    return []


def module_keys(event: Event) -> list[str] | None:
    """The expansions' events (Exp. 3 the Buccaneer, Exp. 4 the Festival); ``None`` for the
    others."""
    data, kind = event.data, event.type
    player = f"player:{event.seat}"
    if kind == "BuccaneerTokenTaken":
        return ["buccaneer_token", f"{player}:token"]
    if kind == "ShipPirated":
        return [f"ship:{data.get('ship')}", f"{player}:goods"]
    if kind == "TradingHousePlundered":
        return ["trading_house"]
    if kind == "ColonistShipRaided":
        return ["colonist_ship"]
    if kind == "ColonistGained" and data.get("by") == "raid":
        target = data.get("target")
        return [f"{player}:city:{target}", f"{player}:island:{target}"]
    if kind in ("RoleCaptured", "CapturedRolePlayed"):
        keys = [f"role:{data.get('card')}"]
        return [*keys, f"{player}:doubloons"] if data.get("doubloons") else keys
    if kind == "FestivalGoalAchieved":
        return [f"festival:{data.get('goal')}"]
    return None


def new_building_keys(event: Event) -> list[str] | None:
    """Exp. 1's events (the draft, forests, the Black market, the Trading post, the Small
    wharf, guests); ``None`` for the others."""
    data, kind = event.data, event.type
    player = f"player:{event.seat}"
    if kind == "BuildingDrafted":
        return [f"market:{data.get('building')}"]
    if kind == "DraftEnded":
        return []
    if kind == "ForestPlaced":
        return [f"{player}:island:forest"]
    if kind == "BlackMarketUsed":
        return [f"{player}:city:black_market", f"{player}:doubloons"]
    if kind == "GoodSold" and data.get("to") == "trading_post":
        return [f"{player}:city:trading_post", f"{player}:doubloons"]
    if kind == "GoodsShipped" and data.get("ship") == "small_wharf":
        return [f"{player}:city:small_wharf", f"{player}:goods"]
    if kind == "GuestMoved":
        to = data.get("to")
        return [f"{player}:city:guest_house", f"{player}:city:{to}", f"{player}:island:{to}"]
    return None


def noble_keys(event: Event) -> list[str] | None:
    """Exp. 2's events (a noble gained, the Villa, the ship's noble, the Land office's sale, the
    Hunting lodge's discard, the Royal supplier's trade); ``None`` for the others."""
    data, kind = event.data, event.type
    player = f"player:{event.seat}"
    villa = [f"{player}:city:villa"] if data.get("by") == "villa" else []
    if kind == "NobleGained":
        target = data.get("target")
        if target == "san_juan":
            return [*villa, f"{player}:san_juan"]
        return [f"{player}:city:{target}", f"{player}:island:{target}"]
    if kind == "ColonistGained" and villa:
        return [*villa, f"{player}:san_juan"]
    if kind in ("ColonistShipRefilled", "ColonistShipRaided") and data.get("nobles"):
        return ["colonist_ship", "noble_ship"]
    if kind == "PlantationSold":
        return [f"{player}:city:land_office", f"{player}:island", f"{player}:doubloons"]
    if kind == "PlantationDiscarded":
        return [f"{player}:city:{data.get('by')}", f"{player}:island"]
    if kind == "GoodsTraded":
        return [f"{player}:city:{data.get('by')}", f"{player}:goods"]
    return None


def highlight_keys(events: Iterable[EventLike] | None, viewer: int | None) -> frozenset[str]:
    """Region keys to frame for ``events`` as ``viewer`` (``None``: the public) may see them."""
    return _highlight_keys(events, viewer, event_keys)


__all__ = ["EventLike", "event_keys", "highlight_keys", "new_building_keys", "noble_keys"]
