"""1897's Puertoma, the automated opponent (rules spec §8, Appendix D.2, D.3): a seat kind of
its own.  The last seats (option ``puertomas``, the kernel's ``Ruleset.automata``) are
Puertomas (PTM-MODE-4: after every person, so a person is the first Governor); the kernel never
asks them anything: at each of their decisions ``phases.advance`` calls the procedure below
(registered on the kernel's ``AUTOMATON``), which follows the book and draws its tie-breaker
cards with the game's seeded generator.

A Puertoma's coins, crates, VP tokens and commercial buildings are a player's (``Player``); its
buildings stay unoccupied, so none of their effects ever applies (PTM-GEN-3) and none scores its
own text (PTM-SCR).  Its board is ``State.puertoma`` (flat ints, dumped only with Puertomas):

* ``[0]`` the action marker's role, ``[1]`` the next tie-breaker card's position in the deck,
  ``[2:10]`` the deck (card numbers 1–8, shuffled; hidden from everyone: ``determinize`` deals
  the cards not drawn yet again);
* per Puertoma (in seat order) ``BOARD`` ints: its 10 property spaces (two per good, -1 empty,
  else the workers under it), the quarries and the workers of its VP area, its skill tile of
  each level (0–2 among the level's three; hidden until unlocked) and each one's state (face
  down, active, discarded), its Reserve token's building (-1 never placed, -2 removed), and
  what it did in the phase in progress (the workers it gained in a Recruiter phase, for
  L4-Recruiter; the goods it produced in a Craftsman phase, a bit each, for the advantage and
  L2-Craftsman), (Expansion II) how many of its workers are Citizens, the building on each of
  its 8 building spaces (a Festival building may sit on a space above its level, §8.13), and
  (Expansions IV, V) the third properties of a good in its VP area.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypedDict

from ..core import CorruptState, Event, InvalidSetup
from ..fields import Names, int_field, int_list
from ..puerto_rico import actions as A
from ..puerto_rico.actions import BUILDING_INDEX, CATALOG, Action
from ..puerto_rico.buccaneer import RAID_KEEP_MAX  # X3: up to 3 workers lured, 3 crates kept
from ..puerto_rico.buildings import MODULE_PHASES, automaton, in_play, island_gained
from ..puerto_rico.data import (
    ALL_ROLES,
    BUCCANEER,
    BUILDER,
    CAPTAIN,
    CRAFTSMAN,
    GOODS,
    LARGE_VIOLET,
    MAYOR,
    NGOODS,
    PROSPECTOR,
    SETTLER,
    TRADE_PRICE,
    TRADER,
    TRADING_HOUSE_CAPACITY,
    Edition,
)
from ..puerto_rico.extensions import (
    HELD,
    OPTION_RULES,
    RESAMPLERS,
    REVEALERS,
    VIEW_PARTS,
    OptionRules,
)
from ..puerto_rico.festival import P_FESTIVAL_WORKERS
from ..puerto_rico.legality import cargo_options, clockwise, empty_building_circles, sale_price
from ..puerto_rico.nobles import raid_split
from ..puerto_rico.ops import END_CITY, Events, gain_vp, pay, trigger_end
from ..puerto_rico.phases import captain_act, end_phase, keep_goods, resolve_offer
from ..puerto_rico.phases import choose_role as kernel_choose_role
from ..puerto_rico.ruleset import Ruleset
from ..puerto_rico.save import BUILDINGS, GOOD_NAMES, ROLES, register_field
from ..puerto_rico.state import (
    BUCCANEER_PHASE,
    CRAFTSMAN_PHASE,
    DRAFT_PHASE,
    FEST_BUILDING,
    FEST_CONSTRUCTION_GOAL,
    FEST_GOODS,
    FEST_PLANTATION_GOAL,
    FEST_PRODUCTION_GOAL,
    FEST_TILE,
    NOB_RAID,
    NOB_SHIP,
    State,
)
from ..rng import below
from .festival_activities import (
    ACT_BUILDING,
    ACT_CARD,
    ACTIVITIES,
    BUILD,
    DISPATCH_LARGEST,
    DISPATCH_SMALLEST,
    FILL_HOUSE,
    OWN,
    OWN_AND_PRODUCE,
    TASKS,
    open_cards,
)
from .festival_activities import card as activity_card
from .festival_activities import slots as activity_slots

# PTM-GEN-2: worst to best is the kernel's goods order (Corn, Fruit, Sugar, Tobacco, Coffee)
WORKER_SPACES = (1, 2, 2, 3, 3)  # under each property of a good (§8.2)
PROPERTIES_PER_GOOD = 2
LEVELS = 4
SPACES_PER_LEVEL = 2
FULL_TOWN = LEVELS * SPACES_PER_LEVEL  # §8.10: 2 commercial buildings on each level

# §8.9 / D.4: three skill tiles per level, by level (a Puertoma draws one of each level)
SKILLS: tuple[tuple[str, str, str], ...] = (
    ("trader_any_good", "trader_coin", "builder_worker"),
    ("captain_keep_good", "builder_coin", "craftsman_crate"),
    ("craftsman_coins", "recruiter_worker", "planter_crate"),
    ("captain_vp_per_crate", "captain_discard", "recruiter_coins"),
)
SKILL_LEVEL = {name: level for level, names in enumerate(SKILLS) for name in names}
FACE_DOWN, ACTIVE, DISCARDED = 0, 1, 2
SKILL_STATES = ("face_down", "active", "discarded")
NO_RESERVE, RESERVE_REMOVED = -1, -2

# D.3: the action board's arrows, the out-neighbours of each role; the Smuggler's (Exp. III
# only: without it the Smuggler is no role of the game, so no arrow to it is ever followed)
ARROWS: dict[int, frozenset[int]] = {
    BUILDER: frozenset({PROSPECTOR, SETTLER, TRADER, MAYOR}),
    SETTLER: frozenset({PROSPECTOR, BUILDER, MAYOR}),
    PROSPECTOR: frozenset({BUILDER, SETTLER}),
    TRADER: frozenset({BUILDER, CRAFTSMAN, CAPTAIN, BUCCANEER}),
    MAYOR: frozenset({TRADER, CRAFTSMAN}),
    CRAFTSMAN: frozenset({TRADER, CAPTAIN, BUCCANEER}),
    CAPTAIN: frozenset({TRADER, CRAFTSMAN, BUILDER, SETTLER, BUCCANEER}),
    BUCCANEER: frozenset({CAPTAIN, CRAFTSMAN, TRADER, BUILDER, SETTLER}),
}
SMUGGLER_COINS = 2  # §8.13 Exp. III: the Smuggler counts as holding 2 coins
MARKER_START = BUILDER  # PTM-SET-2 (b)
# D.2: the tie-breaker deck, each card a full role order (first preferred); card n is TIE[n-1]
B, S, M, C, T, K, P = BUILDER, SETTLER, MAYOR, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR
TIE_BREAKERS: tuple[tuple[int, ...], ...] = (
    (B, M, C, T, K, S, P),
    (K, T, M, B, S, P, C),
    (T, C, M, B, P, S, K),
    (C, B, M, P, T, K, S),
    (M, B, P, K, C, T, S),
    (B, P, M, T, K, C, S),
    (P, B, M, K, T, C, S),
    (B, K, M, T, C, S, P),
)
DECK = len(TIE_BREAKERS)

# State.puertoma's layout
MARKER, DECK_POS, DECK_AT = 0, 1, 2
HEADER = DECK_AT + DECK
PROPS = 0  # 10 property spaces: good * 2 + i
VP_QUARRIES = PROPS + NGOODS * PROPERTIES_PER_GOOD
VP_WORKERS = VP_QUARRIES + 1
SKILL_AT = VP_WORKERS + 1  # the tile of each level
SKILL_STATE = SKILL_AT + LEVELS
RESERVE = SKILL_STATE + LEVELS
PHASE = RESERVE + 1  # this phase: the workers it gained (Recruiter), the goods it produced
CITIZENS = PHASE + 1  # Exp. II: how many of its workers are Citizens
SPACES = CITIZENS + 1  # its 8 building spaces, level by level: the building on each, or -1
THIRD = SPACES + LEVELS * SPACES_PER_LEVEL  # Exp. IV / V: a third property of a good (VP area)
BOARD = THIRD + NGOODS
MONUMENT, MONUMENT_PRINTED = BUILDING_INDEX["statue"], 4  # Exp. I's Monument


# --- the options (PTM-MODE, §8.13, §8.14) ---------------------------------------------------

# PTM-MODE-1, -2: the seats that may be Puertomas, by how many (the players counting them,
# PTM-MODE-3): 1 person + 2 Puertomas, 1 + 1, 3 or 4 people + 1
PUERTOMA_SEATS: Final = {1: (2, 4, 5), 2: (3,)}
PUERTOMA_DIFFICULTIES: Final = ("standard", "easy", "hard")  # §8.14
# §8.13: the expansions the Puertoma plays so far (the others are refused, not half played)
PUERTOMA_MODULES: Final = frozenset(
    {"new_buildings", "nobles", "buccaneer", "festival", "festival_activities", "achievements"})


def normalize_options(options: Mapping[str, Any], edition: Edition, players: int,
                      modules: list[str]) -> dict[str, Any]:
    """``puertomas`` (how many of the players are Puertomas) and ``puertoma_difficulty``: stored
    only in a game with Puertomas, so every other game's options stay as they were."""
    count = options.get("puertomas", 0)
    if type(count) is not int or (count != 0 and count not in PUERTOMA_SEATS):
        raise InvalidSetup("bad_puertomas", option="puertomas", value=str(count))
    level = options.get("puertoma_difficulty", PUERTOMA_DIFFICULTIES[0])
    if count == 0:
        if "puertoma_difficulty" in options:
            raise InvalidSetup("puertoma_difficulty_without_puertomas",
                               option="puertoma_difficulty")
        return {}
    if players not in PUERTOMA_SEATS[count]:
        raise InvalidSetup("bad_puertoma_seats", option="puertomas", value=count,
                           players=players)
    if level not in PUERTOMA_DIFFICULTIES:
        raise InvalidSetup("bad_puertoma_difficulty", option="puertoma_difficulty",
                           value=str(level))
    unbuilt = [m for m in modules if m not in PUERTOMA_MODULES]
    if unbuilt:
        raise InvalidSetup("puertoma_expansion_not_available", option="puertomas",
                           value=unbuilt[0])
    if options.get("achievement_deal") == "draft":  # §8.13: six drawn, four kept instead
        raise InvalidSetup("achievement_draft_with_puertomas", option="achievement_deal")
    return {"puertomas": count, "puertoma_difficulty": level}


def seats(options: Mapping[str, Any]) -> frozenset[int]:
    """The Puertomas' seats: the last ones (PTM-MODE-4)."""
    players: int = options["players"]
    return frozenset(range(players - options.get("puertomas", 0), players))


def difficulty(rs: Ruleset) -> str:
    """§8.14: the game's difficulty (``standard`` in a game without Puertomas)."""
    return str(rs.options.get("puertoma_difficulty", PUERTOMA_DIFFICULTIES[0]))


OPTION_RULES["puertomas"] = OptionRules(("puertomas", "puertoma_difficulty"),
                                        normalize_options, seats)


def board_at(s: State, seat: int) -> int:
    """Where ``seat``'s board starts in ``State.puertoma`` (the Puertomas are the last seats)."""
    return HEADER + (seat - (s.n - len(s.rs.automata))) * BOARD


def _event(ev: Events, name: str, seat: int | None, data: dict[str, Any]) -> None:
    if ev is not None:
        ev.append(Event(name, seat, data))


# --- the tie-breaker deck (§8.12) --------------------------------------------------------------


def _shuffle_deck(s: State) -> None:
    cards = list(range(1, DECK + 1))
    for i in range(DECK - 1, 0, -1):  # Fisher-Yates with the game's generator
        s.rng, j = below(s.rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    s.puertoma[DECK_AT:HEADER] = cards
    s.puertoma[DECK_POS] = 0


def draw_card(s: State, seat: int, purpose: str, ev: Events) -> int:
    """The next tie-breaker card (PTM-GEN-5: an empty deck is shuffled again, all 8 cards)."""
    if s.puertoma[DECK_POS] >= DECK:
        _shuffle_deck(s)
        _event(ev, "TieBreakerShuffled", None, {})
    card = s.puertoma[DECK_AT + s.puertoma[DECK_POS]]
    s.puertoma[DECK_POS] += 1
    _event(ev, "TieBreakerDrawn", seat, {"card": card, "for": purpose})
    return card


def counted(s: State, seat: int, items: list[int], purpose: str, ev: Events) -> int:
    """PTM-TB-3: one of ``items`` (in their left-to-right order) by a card's number, counted
    around (A-8: the ((n - 1) mod k)-th); one item needs no card."""
    if len(items) == 1:
        return items[0]
    return items[(draw_card(s, seat, purpose, ev) - 1) % len(items)]


# --- the board -------------------------------------------------------------------------------


def _props(s: State, seat: int) -> list[int]:
    at = board_at(s, seat) + PROPS
    return s.puertoma[at:at + NGOODS * PROPERTIES_PER_GOOD]


def properties(s: State, seat: int, good: int) -> int:
    """How many properties of ``good`` its board holds (0–2)."""
    at = board_at(s, seat) + PROPS + good * PROPERTIES_PER_GOOD
    return sum(1 for w in s.puertoma[at:at + PROPERTIES_PER_GOOD] if w >= 0)


def active(s: State, seat: int, good: int) -> int:
    """Its active properties of ``good``: every worker space under them filled (§8.2)."""
    at = board_at(s, seat) + PROPS + good * PROPERTIES_PER_GOOD
    return sum(1 for w in s.puertoma[at:at + PROPERTIES_PER_GOOD] if w == WORKER_SPACES[good])


def skill(s: State, seat: int, name: str) -> bool:
    """Whether its skill ``name`` is active (unlocked, not discarded)."""
    level = SKILL_LEVEL[name]
    at = board_at(s, seat)
    return (
        s.puertoma[at + SKILL_STATE + level] == ACTIVE
        and SKILLS[level][s.puertoma[at + SKILL_AT + level]] == name
    )


def workers(s: State, seat: int) -> int:
    """Its workers: on its properties and in its VP area."""
    at = board_at(s, seat)
    return sum(w for w in _props(s, seat) if w > 0) + s.puertoma[at + VP_WORKERS]


def property_tiles(s: State, seat: int) -> int:
    at = board_at(s, seat) + THIRD
    return sum(1 for w in _props(s, seat) if w >= 0) + sum(s.puertoma[at:at + NGOODS])


def vp_area_quarries(s: State, seat: int) -> int:
    return s.puertoma[board_at(s, seat) + VP_QUARRIES]


def _empty_spaces(s: State, seat: int) -> int:
    """PTM-REC-5: the most empty worker spaces under a single one of its properties."""
    out = 0
    for i, w in enumerate(_props(s, seat)):
        if w >= 0:
            out = max(out, WORKER_SPACES[i // PROPERTIES_PER_GOOD] - w)
    return out


def _add_property(s: State, seat: int, good: int) -> None:
    at = board_at(s, seat) + PROPS + good * PROPERTIES_PER_GOOD
    i = 0 if s.puertoma[at] < 0 else 1  # the leftmost free space of that type
    s.puertoma[at + i] = 0


def _levels(s: State, seat: int) -> list[int]:
    """Its buildings on each level's spaces (1–4 at index 0–3)."""
    at = board_at(s, seat) + SPACES
    return [sum(1 for b in s.puertoma[at + level * SPACES_PER_LEVEL:
                                      at + (level + 1) * SPACES_PER_LEVEL] if b >= 0)
            for level in range(LEVELS)]


def field(s: State, seat: int) -> list[int]:
    """Its properties of each good, the third ones of its VP area included (what the Festival's
    goals and Activities count as owned)."""
    at = board_at(s, seat) + THIRD
    return [properties(s, seat, good) + s.puertoma[at + good] for good in range(NGOODS)]


# --- setup (§8.4, §8.14) ---------------------------------------------------------------------


def setup(s: State, ev: Events) -> None:
    """PTM-SET: the marker on the Builder, the deck shuffled; each Puertoma's starting property
    moved onto its board's leftmost space of that type, a skill tile of each level drawn face
    down; the Hard difficulty's head start."""
    rs = s.rs
    s.puertoma = [MARKER_START, 0] + [0] * DECK + [0] * (BOARD * len(rs.automata))
    _shuffle_deck(s)
    for seat in sorted(rs.automata):
        at = board_at(s, seat)
        p = s.players[seat]
        s.puertoma[at + PROPS:at + VP_QUARRIES] = [-1] * (NGOODS * PROPERTIES_PER_GOOD)
        s.puertoma[at + SPACES:at + THIRD] = [-1] * (LEVELS * SPACES_PER_LEVEL)
        for good in range(NGOODS):
            for _ in range(p.tiles[good]):
                _add_property(s, seat, good)
            p.tiles[good] = 0
            p.workers[good] = 0
        s.puertoma[at + RESERVE] = NO_RESERVE
        for level in range(LEVELS):
            s.rng, tile = below(s.rng, len(SKILLS[level]))
            s.puertoma[at + SKILL_AT + level] = tile
    if difficulty(rs) == "hard":
        for seat in sorted(rs.automata):
            _hard_start(s, seat, ev)


def _hard_start(s: State, seat: int, ev: Events) -> None:
    """§8.14 Hard: the level-1 skills face up from the start; the Puertoma with a Fruit property
    gets a level-1 commercial building, a worker on the Fruit and a Corn crate; the one with a
    Corn property a level-2 building, a Sugar crate, and 1 coin to start with.  A-14: the free
    buildings count for the unlocks; the Reserve token waits for its first purchase."""
    at = board_at(s, seat)
    s.puertoma[at + SKILL_STATE] = ACTIVE
    p = s.players[seat]
    fruit, corn = 1, 0
    if properties(s, seat, fruit):
        level, good = 1, 0
        s.puertoma[at + PROPS + fruit * PROPERTIES_PER_GOOD] += 1
        s.colonist_supply -= 1
    elif properties(s, seat, corn):
        level, good = 2, 2
        s.bank += p.doubloons - 1
        p.doubloons = 1
    else:
        return
    candidates = _tray(s, [b for b in in_play(s) if _commercial(b) and s.rs.column[b] == level
                           and s.market[b] > 0 and p.bw[b] < 0])
    if candidates:
        b = counted(s, seat, candidates, "building", None)
        _take_building(s, seat, b, level)
    if s.goods[good] > 0:
        s.goods[good] -= 1
        p.goods[good] += 1


# --- choosing a role (§8.6) ------------------------------------------------------------------


def choose_role(s: State, ev: Events) -> None:
    """PTM-CHO: the profitable available roles (all available if none is, A-44); those the
    marker's arrows reach, if any; the most coins; then a tie-breaker card's first candidate
    (A-7: a card naming none, the next)."""
    seat = s.turn
    rs = s.rs
    drawn_from = 0 if ev is None else len(ev)  # the cards it draws to choose, told after
    refused = 0
    for _, fn in rs.hooks["roles_refused"]:  # Exp. III: not the Smuggler with its token
        refused |= fn(s, seat)
    available = [card for card in range(len(s.cards))
                 if s.card_taken[card] < 0 and not refused >> card & 1]
    candidates = [card for card in available if _profitable(s, seat, card)]
    if not candidates:
        candidates = available
    marker = s.puertoma[MARKER]
    reached = [card for card in candidates if s.cards[card] in ARROWS[marker]]
    how = "only"
    if reached:
        candidates = reached
    if len(candidates) > 1:
        most = max(_coins(s, card) for card in candidates)
        richest = [card for card in candidates if _coins(s, card) == most]
        how = "coins" if len(richest) < len(candidates) or not reached else "arrow"
        candidates = richest
    elif reached:
        how = "arrow"
    smuggler = [card for card in candidates if s.cards[card] == BUCCANEER]
    if len(candidates) > 1 and smuggler:  # §8.13 Exp. III: tied, the Smuggler before a card
        how, candidates = "smuggler", smuggler
    if len(candidates) > 1:
        how = "card"
        chosen = -1
        while chosen < 0:
            number = draw_card(s, seat, "role", ev)
            for role in TIE_BREAKERS[number - 1]:
                chosen = next((card for card in candidates if s.cards[card] == role), -1)
                if chosen >= 0:
                    break
    else:
        chosen = candidates[0]
    drawn: list[Event] = []
    if ev is not None:
        drawn, ev[drawn_from:] = ev[drawn_from:], []
    kernel_choose_role(s, seat, rs.card_actions[chosen], ev)
    if ev is not None:  # the cards drawn and why, right after the choice (in its phase)
        at = next(i for i in range(drawn_from, len(ev)) if ev[i].type == "RoleChosen")
        ev[at + 1:at + 1] = [*drawn, Event("PuertomaChoseRole", seat, {
            "role": ALL_ROLES[s.cards[chosen]], "by": how, "marker": ALL_ROLES[marker]})]
    if s.cards[chosen] == PROSPECTOR:  # its coin taken at once: the action performed
        _moved(s, seat, PROSPECTOR, ev)


def _coins(s: State, card: int) -> int:
    """Condition 2's coins on a role tile (the Smuggler: always 2, §8.13)."""
    return SMUGGLER_COINS if s.cards[card] == BUCCANEER else s.card_doubloons[card]


def _profitable(s: State, seat: int, card: int) -> bool:
    """PTM-PROF: whether the role of ``card`` would give this Puertoma something."""
    role = s.cards[card]
    p = s.players[seat]
    if role == BUILDER:
        coins = p.doubloons + s.card_doubloons[card] + (1 if skill(s, seat, "builder_coin") else 0)
        return bool(_buildable(s, seat, coins + 1))
    if role == SETTLER:
        return any(properties(s, seat, t) < PROPERTIES_PER_GOOD for t in s.face_up if t < NGOODS)
    if role == MAYOR:
        return _empty_spaces(s, seat) > 0
    if role == CRAFTSMAN:
        return any(
            active(s, seat, good) and s.goods[good] and not p.goods[good] for good in range(NGOODS)
        )
    if role == TRADER:
        return _sale(s, seat, chooser=True) >= 0
    if role == CAPTAIN:
        return bool(cargo_options(s, seat))
    if role == BUCCANEER:
        return _smuggler_action(s, seat)[1] >= 1
    return True  # the Adventurer (PTM-PROF)


def _moved(s: State, seat: int, role: int, ev: Events) -> None:
    """PTM-MOV-2: a Puertoma performed ``role``'s action: the marker follows an arrow to it."""
    marker = s.puertoma[MARKER]
    if role in ARROWS[marker]:
        s.puertoma[MARKER] = role
        _event(ev, "MarkerMoved", seat, {"from": ALL_ROLES[marker], "to": ALL_ROLES[role]})


# --- what the Festival asks for (§8.13, Expansions IV and V) ---------------------------------


def _open_cards(s: State, tasks: tuple[str, ...]
                ) -> list[tuple[str, list[int], list[int], int]]:
    """The open Activity cards of ``tasks``: each one's task, property types, goods and
    building."""
    out = []
    for i in open_cards(s, tasks):
        record = activity_card(s, i)
        tiles, goods = activity_slots(record)
        out.append((ACTIVITIES[record[ACT_CARD]].task, tiles, goods, record[ACT_BUILDING]))
    return out


def _goal_open(s: State, goal: int) -> bool:
    return bool(s.festival) and s.festival_won[goal] < 0


def _wanted_buildings(s: State) -> set[int]:
    """The buildings an open Activity (A Toast to the Pioneer, Inauguration Ceremony) or
    Expansion IV's open building goal names."""
    out = {b for _, _, _, b in _open_cards(s, (BUILD,)) if b >= 0}
    if _goal_open(s, FEST_CONSTRUCTION_GOAL) and s.festival[FEST_BUILDING] >= 0:
        out.add(s.festival[FEST_BUILDING])
    return out


def _wanted_tiles(s: State) -> set[int]:
    """The property types an open Activity (owning properties) or the open property goal wants."""
    out = {t for _, tiles, _, _ in _open_cards(s, (OWN, OWN_AND_PRODUCE)) for t in tiles}
    if _goal_open(s, FEST_PLANTATION_GOAL):
        out.add(s.festival[FEST_TILE])
    return out


def _wanted_goods(s: State) -> set[int]:
    """The goods on the Festival board: the open Activities' and the open goods goal's."""
    out = {g for _, _, goods, _ in _open_cards(s, TASKS) for g in goods}
    if _goal_open(s, FEST_PRODUCTION_GOAL):
        out.update(s.festival[FEST_GOODS])
    return out


def _festival_hooks(s: State, point: str, *args: object) -> None:
    """The modules' handlers of a hook point for a Puertoma's own action (its buildings, never
    occupied, have none): the Festival's goals and Activities see what it did."""
    for b, fn in s.rs.hooks[point]:
        if b < 0:
            fn(s, *args)


# --- the Planter (PTM-PLN) -------------------------------------------------------------------


def _planter_pick(s: State, seat: int, ev: Events) -> tuple[int, bool]:
    """The property it takes (-1: none fits) and whether as a third of its type (§8.13: to its
    VP area).  With the Festival: first a type an open Activity or goal wants, even a third
    (ties: a card counted); then a type of a Festival-board good it does not produce yet;
    then PTM-PLN's priorities (a type it has one of, then the best good)."""
    face = sorted({t for t in s.face_up if t < NGOODS})
    fits = [t for t in face if properties(s, seat, t) < PROPERTIES_PER_GOOD]
    if s.festival:
        third = s.puertoma[board_at(s, seat) + THIRD:board_at(s, seat) + THIRD + NGOODS]
        wanted = [t for t in face if t in _wanted_tiles(s)
                  and (t in fits or not third[t])]
        if wanted:
            tile = counted(s, seat, wanted, "property", ev)
            return tile, tile not in fits
        goods = _wanted_goods(s)
        preferred = [t for t in fits if t in goods and not active(s, seat, t)]
        fits = preferred or fits
    if not fits:
        return -1, False
    return max(fits, key=lambda t: (properties(s, seat, t) == 1, t)), False


def _settler_turn(s: State, seat: int, ev: Events) -> None:
    p = s.players[seat]
    tile, third = _planter_pick(s, seat, ev)
    if tile >= 0:
        s.face_up.remove(tile)
        if third:  # §8.13: a third of a type goes to its VP area (3 VP, as a quarry)
            s.puertoma[board_at(s, seat) + THIRD + tile] += 1
        else:
            _add_property(s, seat, tile)
        _event(ev, "PlantationTaken", seat, {"tile": GOODS[tile], "source": "face_up"})
        island_gained(s, seat, tile, ev)
        if skill(s, seat, "planter_crate") and s.goods[tile]:
            s.goods[tile] -= 1
            p.goods[tile] += 1
            _event(ev, "PuertomaSkillUsed", seat, {"skill": "planter_crate",
                                                   "good": GOODS[tile]})
    elif s.quarries > 0:  # also when all ten spaces are full
        s.quarries -= 1
        s.puertoma[board_at(s, seat) + VP_QUARRIES] += 1
        _event(ev, "QuarryTaken", seat, {"tile": "quarry", "source": "quarry_pile"})
    else:
        _event(ev, "Passed", seat, {"phase": "settler"})
        return
    _moved(s, seat, SETTLER, ev)


# --- the Recruiter (PTM-REC) -----------------------------------------------------------------


def _place_worker(s: State, seat: int, ev: Events = None) -> str:
    """One worker onto the inactive property with the fewest empty spaces (ties: the best
    good), its leftmost empty space; all active: the VP area.  With the Festival (§8.13),
    first a property of a good on the Festival board (several goods: a card counted).  Where
    it went."""
    at = board_at(s, seat)
    only = -1
    if s.festival:
        wanted = _wanted_goods(s)
        goods = sorted({i // PROPERTIES_PER_GOOD for i in range(NGOODS * PROPERTIES_PER_GOOD)
                        if 0 <= s.puertoma[at + PROPS + i]
                        < WORKER_SPACES[i // PROPERTIES_PER_GOOD]
                        and i // PROPERTIES_PER_GOOD in wanted})
        if goods:
            only = counted(s, seat, goods, "worker", ev)
    best = -1
    best_key: tuple[int, int] = (0, 0)
    for i in range(NGOODS * PROPERTIES_PER_GOOD):
        w = s.puertoma[at + PROPS + i]
        good = i // PROPERTIES_PER_GOOD
        if w < 0 or w >= WORKER_SPACES[good] or (only >= 0 and good != only):
            continue
        key = (WORKER_SPACES[good] - w, -good)
        if best < 0 or key < best_key:
            best, best_key = i, key
    if best < 0:
        s.puertoma[at + VP_WORKERS] += 1
        return "vp_area"
    s.puertoma[at + PROPS + best] += 1
    return GOODS[best // PROPERTIES_PER_GOOD]


def _take_workers(s: State, seat: int, count: int, ev: Events, by: str) -> int:
    """``count`` workers from the supply (as many as it holds), placed one at a time."""
    count = min(count, s.colonist_supply)
    if count <= 0:
        return 0
    s.colonist_supply -= count
    _place_workers(s, seat, count, by, ev)
    return count


def _place_workers(s: State, seat: int, count: int, by: str, ev: Events) -> None:
    placed: dict[str, int] = {}
    for _ in range(count):
        where = _place_worker(s, seat, ev)
        placed[where] = placed.get(where, 0) + 1
    if count:
        _event(ev, "PuertomaWorkersPlaced", seat, {"placed": placed, "by": by})


def arrange(s: State, seat: int, ev: Events) -> None:
    """PTM-REC: its workers of this phase (the advantage's and its share, waiting in San Juan)
    placed one at a time; L3-Recruiter: one more from the supply at the end of the phase
    (``recruiter_ended``)."""
    p = s.players[seat]
    count = p.san_juan
    p.san_juan = 0
    if p.nobles:  # Exp. II (§8.13): its Citizens work as workers; counted for their VP
        s.puertoma[board_at(s, seat) + CITIZENS] += p.nobles[-1]
        p.nobles[-1] = 0
    _place_workers(s, seat, count, "mayor", ev)
    s.puertoma[board_at(s, seat) + PHASE] = count


def recruiter_ended(s: State, ev: Events) -> None:
    """The Recruiter phase's end for the Puertomas: L3-Recruiter's worker, L4-Recruiter's coins,
    and the marker for each that gained a worker (clockwise from the Recruiter)."""
    for seat in clockwise(s, s.chooser):
        if seat not in s.rs.automata:
            continue
        at = board_at(s, seat)
        got = s.puertoma[at + PHASE]
        s.puertoma[at + PHASE] = 0
        if skill(s, seat, "recruiter_worker"):
            extra = _take_workers(s, seat, 1, ev, "recruiter_worker")
            got += extra
        if got and skill(s, seat, "recruiter_coins"):
            pay(s, seat, got, "puertoma_skill", ev)
        if got:
            _moved(s, seat, MAYOR, ev)


def empty_spaces(s: State) -> int:
    """PTM-REC-5: the Puertomas' part of the Agency's refill."""
    return sum(_empty_spaces(s, seat) for seat in s.rs.automata)


# --- the Builder (PTM-BLD) -------------------------------------------------------------------


def _commercial(b: int) -> bool:
    return not CATALOG[b].production


def _tray(s: State, buildings: list[int]) -> list[int]:
    """PTM-TB-3's order of buildings: the tray's, by cost then catalogue number."""
    return sorted(buildings, key=lambda b: (s.rs.cost[b], b))


def _buildable(s: State, seat: int, coins: int) -> list[int]:
    """PTM-BLD-2: the commercial buildings it may build with ``coins`` (the chooser's 1 off
    already counted by the caller): in stock, not owned, a free space on its level; level 4
    only the one its Reserve token is on."""
    p = s.players[seat]
    levels = _levels(s, seat)
    reserve = s.puertoma[board_at(s, seat) + RESERVE]
    out = []
    for b in in_play(s):
        if not _commercial(b) or s.market[b] <= 0 or p.bw[b] >= 0:
            continue
        level = s.rs.column[b]
        if levels[level - 1] >= SPACES_PER_LEVEL or s.rs.cost[b] > coins:
            continue
        if level == LEVELS and b != reserve:
            continue
        out.append(b)
    return out


def _take_building(s: State, seat: int, b: int, level: int) -> None:
    """``b`` onto its first free space of ``level`` (the second stacked on the first)."""
    p = s.players[seat]
    s.market[b] -= 1
    p.bw[b] = 0  # never occupied: its effects never apply (PTM-GEN-3)
    p.city.append(b)
    at = board_at(s, seat) + SPACES + (level - 1) * SPACES_PER_LEVEL
    i = 0 if s.puertoma[at] < 0 else 1
    s.puertoma[at + i] = b


def _builder_turn(s: State, seat: int, ev: Events) -> None:
    p = s.players[seat]
    if skill(s, seat, "builder_coin"):  # PTM-BLD-1: even when it then cannot build
        pay(s, seat, 1, "puertoma_skill", ev)
    discount = 1 if seat == s.chooser else 0
    candidates = _buildable(s, seat, p.doubloons + discount)
    wished = _festival_building(s, seat, p.doubloons + discount, candidates)
    if wished is not None:
        b, level = wished
    elif not candidates:
        _event(ev, "Passed", seat, {"phase": "builder"})
        return
    else:
        top = max(s.rs.column[b] for b in candidates)
        candidates = [b for b in candidates if s.rs.column[b] == top]
        most = max(s.rs.cost[b] for b in candidates)  # the highest cost, then a card
        b = counted(s, seat, _tray(s, [b for b in candidates if s.rs.cost[b] == most]),
                    "building", ev)
        level = top
    cost = max(0, s.rs.cost[b] - discount)
    p.doubloons -= cost
    s.bank += cost
    _take_building(s, seat, b, level)
    _event(ev, "BuildingBuilt", seat, {"building": CATALOG[b].name, "price": cost})
    _built(s, seat, b, level, ev)
    _festival_hooks(s, "built", seat, b, ev)
    if skill(s, seat, "builder_worker"):  # PTM-BLD-7
        _take_workers(s, seat, 1, ev, "builder_worker")
    _moved(s, seat, BUILDER, ev)
    if len(p.city) >= FULL_TOWN:  # §8.10: a Puertoma's town is full with 8 buildings
        trigger_end(s, END_CITY, ev)


def _festival_building(s: State, seat: int, coins: int, candidates: list[int]
                       ) -> tuple[int, int] | None:
    """§8.13: while an Activity or the goal wants a building, the cheapest such it may build
    (in stock, not owned, affordable; ruling: level 4 still only its Reserve token's), even
    below the level it could afford, onto its lowest free space of at least that level; A-47:
    when that space is above every level it could build at now, not that building (it then
    builds normally).  ``(building, space level)`` or ``None``."""
    if not s.festival:
        return None
    p = s.players[seat]
    reserve = s.puertoma[board_at(s, seat) + RESERVE]
    wanted = [b for b in _wanted_buildings(s)
              if _commercial(b) and s.market[b] > 0 and p.bw[b] < 0 and s.rs.cost[b] <= coins
              and (s.rs.column[b] < LEVELS or b == reserve)]
    if not wanted:
        return None
    b = min(wanted, key=lambda b: (s.rs.cost[b], b))
    levels = _levels(s, seat)
    level = s.rs.column[b]
    space = next((k for k in range(level, LEVELS + 1) if levels[k - 1] < SPACES_PER_LEVEL), 0)
    affordable = max((s.rs.column[c] for c in candidates), default=level)
    if not space or space > affordable:
        return None
    return b, space


def _unlock(s: State, seat: int, level: int, ev: Events) -> None:
    """PTM-BLD-5: its 2nd building on level 1, 2 or 3, or its 1st on level 4, turns that
    level's skill face up (active from its next turn on); Easy: at the second skill unlocked
    the other two are discarded (§8.14)."""
    count = _levels(s, seat)[level - 1]
    if count != (1 if level == LEVELS else SPACES_PER_LEVEL):
        return
    at = board_at(s, seat)
    if s.puertoma[at + SKILL_STATE + level - 1] != FACE_DOWN:
        return
    s.puertoma[at + SKILL_STATE + level - 1] = ACTIVE
    name = SKILLS[level - 1][s.puertoma[at + SKILL_AT + level - 1]]
    _event(ev, "PuertomaSkillUnlocked", seat, {"skill": name, "level": level})
    states = s.puertoma[at + SKILL_STATE:at + SKILL_STATE + LEVELS]
    if difficulty(s.rs) == "easy" and states.count(ACTIVE) >= 2:
        for i in range(LEVELS):
            if states[i] == FACE_DOWN:
                s.puertoma[at + SKILL_STATE + i] = DISCARDED
        _event(ev, "PuertomaSkillsDiscarded", seat, {})


def _expanded_free(s: State, but: int = -1) -> list[int]:
    """The expanded commercial buildings in stock that carry no Reserve token, tray order."""
    tokens = {s.puertoma[board_at(s, seat) + RESERVE] for seat in s.rs.automata}
    return _tray(s, [b for b in in_play(s) if CATALOG[b].kind == LARGE_VIOLET
                     and s.market[b] > 0 and b not in tokens and b != but])


def _place_reserve(s: State, seat: int, ev: Events) -> None:
    """PTM-BLD-6: its Reserve token onto a random (a card counted) untokened expanded
    building; none left: removed (A-13)."""
    at = board_at(s, seat)
    free = _expanded_free(s)
    if not free:
        s.puertoma[at + RESERVE] = RESERVE_REMOVED
        _event(ev, "ReserveTokenRemoved", seat, {})
        return
    b = counted(s, seat, free, "reserve", ev)
    s.puertoma[at + RESERVE] = b
    _event(ev, "ReserveTokenPlaced", seat, {"building": CATALOG[b].name})


def _built(s: State, seat: int, b: int, level: int, ev: Events) -> None:
    """After a Puertoma's purchase (onto a space of ``level``): its unlocks, its Reserve token
    (placed at its first purchase; moved on when it built the reserved building)."""
    _unlock(s, seat, level, ev)
    at = board_at(s, seat)
    reserve = s.puertoma[at + RESERVE]
    if reserve in (NO_RESERVE, b):
        _place_reserve(s, seat, ev)
    built(s, seat, b, ev, own=False)


def built(s: State, seat: int, b: int, ev: Events, own: bool = True) -> None:
    """Anyone built ``b``: a Reserve token on it (another Puertoma's, or any Puertoma's when a
    person built it) moves to another untokened expanded building (PTM-BLD-6)."""
    for other in sorted(s.rs.automata):
        if other == seat and not own:
            continue
        at = board_at(s, other)
        if s.puertoma[at + RESERVE] == b and s.market[b] <= 0:
            _place_reserve(s, other, ev)


# --- the Craftsman (PTM-CRF) -----------------------------------------------------------------


def produce(s: State, seat: int, ev: Events) -> None:
    """Each active property yields a crate of its good, as long as the supply lasts; L3
    Craftsman: 1 coin per good produced.  The goods produced are remembered for the
    advantage and L2-Craftsman."""
    p = s.players[seat]
    got: dict[str, int] = {}
    mask = 0
    for good in range(NGOODS):
        n = min(active(s, seat, good), s.goods[good])
        if n:
            s.goods[good] -= n
            p.goods[good] += n
            got[GOODS[good]] = n
            mask |= 1 << good
    s.puertoma[board_at(s, seat) + PHASE] = mask
    if got:
        _event(ev, "GoodsProduced", seat, {"goods": got})
        if skill(s, seat, "craftsman_coins"):
            pay(s, seat, len(got), "puertoma_skill", ev)
    _festival_hooks(s, "produced", seat, [got.get(GOODS[g], 0) for g in range(NGOODS)], ev)
    if got:
        _moved(s, seat, CRAFTSMAN, ev)


def _best_produced(s: State, seat: int) -> int:
    mask = s.puertoma[board_at(s, seat) + PHASE]
    for good in range(NGOODS - 1, -1, -1):
        if mask & (1 << good) and s.goods[good] > 0:
            return good
    return -1


def craftsman_advantage(s: State, ev: Events) -> None:
    """PTM-CRF-2: the Puertoma Craftsman's extra crate, of the best good it produced (A-46:
    the next best in stock)."""
    seat = s.chooser
    good = _best_produced(s, seat)
    if good >= 0:
        s.goods[good] -= 1
        s.players[seat].goods[good] += 1
        _event(ev, "PrivilegeGoodTaken", seat, {"good": GOODS[good]})


def craftsman_ended(s: State, ev: Events) -> None:
    """L2-Craftsman, at the end of the phase: one more crate of the best good it produced."""
    for seat in clockwise(s, s.chooser):
        if seat not in s.rs.automata:
            continue
        if skill(s, seat, "craftsman_crate"):
            good = _best_produced(s, seat)
            if good >= 0:
                s.goods[good] -= 1
                s.players[seat].goods[good] += 1
                _event(ev, "PuertomaSkillUsed", seat, {"skill": "craftsman_crate",
                                                       "good": GOODS[good]})
        s.puertoma[board_at(s, seat) + PHASE] = 0


# --- the Trader (PTM-TRD) --------------------------------------------------------------------


def _sale(s: State, seat: int, chooser: bool) -> int:
    """The good it would sell (the best it may legally sell for 1 coin or more), or -1;
    §8.13: while Closing the Work is open, the card's good when its crate would be the 4th."""
    if len(s.house) >= TRADING_HOUSE_CAPACITY:
        return -1
    p = s.players[seat]
    bonus = (1 if chooser else 0) + (1 if skill(s, seat, "trader_coin") else 0)
    any_good = skill(s, seat, "trader_any_good")
    if len(s.house) == TRADING_HOUSE_CAPACITY - 1:
        for _, _, goods, _ in _open_cards(s, (FILL_HOUSE,)):
            good = goods[0]
            if p.goods[good] and (any_good or good not in s.house):
                return good
    for good in range(NGOODS - 1, -1, -1):
        if p.goods[good] and (any_good or good not in s.house) and TRADE_PRICE[good] + bonus:
            return good
    return -1


def _trader_turn(s: State, seat: int, ev: Events) -> None:
    good = _sale(s, seat, seat == s.chooser)
    if good < 0:
        _event(ev, "Passed", seat, {"phase": "trader"})
        return
    value = sale_price(s, seat, good)  # its buildings, never occupied, add nothing
    s.players[seat].goods[good] -= 1
    s.house.append(good)
    pay(s, seat, value, "sale", None)
    _event(ev, "GoodSold", seat, {"good": GOODS[good], "price": value})
    if skill(s, seat, "trader_coin"):
        pay(s, seat, 1, "puertoma_skill", ev)
    filled = len(s.house) == TRADING_HOUSE_CAPACITY
    _festival_hooks(s, "sold", seat, good, value, filled, ev)
    _moved(s, seat, TRADER, ev)


# --- the Captain (PTM-CAP) -------------------------------------------------------------------


def load(s: State, seat: int, ev: Events) -> bool:
    """PTM-CAP-1: the good it can load the most crates of (ties: the worst), onto the legal
    ship taking that many with the fewest free spaces.  Whether it loaded."""
    p = s.players[seat]
    best: tuple[int, int, int] | None = None  # (-count, good, free)
    chosen = _ceremony_load(s, seat)
    for action in () if chosen is not None else cargo_options(s, seat):
        good, ship = action.a, action.b
        free = s.ship_cap[ship] - s.ship_load[ship]
        count = min(p.goods[good], free)
        key = (-count, good, free)
        if best is None or key < best:
            best, chosen = key, action
    if chosen is None:
        return False
    captain_act(s, seat, chosen, ev)
    _moved(s, seat, CAPTAIN, ev)
    return True


def _ceremony_load(s: State, seat: int) -> Action | None:
    """§8.13: while a Shipping Ceremony is open, the load that dispatches (fills) the cargo
    ship of its size with its good, if it can."""
    p = s.players[seat]
    for task, _, goods, _ in _open_cards(s, (DISPATCH_LARGEST, DISPATCH_SMALLEST)):
        good = goods[0]
        size = max(s.ship_cap) if task == DISPATCH_LARGEST else min(s.ship_cap)
        for action in cargo_options(s, seat):
            ship = action.b
            if (action.a == good and s.ship_cap[ship] == size
                    and p.goods[good] >= s.ship_cap[ship] - s.ship_load[ship]):
                return action
    return None


def store(s: State, seat: int, ev: Events) -> None:
    """PTM-CAP-3/4: L4-Captain's VP first (+1 VP a crate held, A-10; or up to 2 crates of one
    good, the worst, discarded for 1 VP each), then it keeps 1 crate of its best good
    (L2-Captain: and every crate of one more good, the best), the rest to the supply."""
    p = s.players[seat]
    crates: int = sum(p.goods)
    if crates and skill(s, seat, "captain_vp_per_crate"):
        gain_vp(s, seat, crates, "puertoma_skill", ev)
    if skill(s, seat, "captain_discard"):
        worst = next((g for g in range(NGOODS) if p.goods[g]), -1)
        if worst >= 0:
            n = min(2, p.goods[worst])
            p.goods[worst] -= n
            s.goods[worst] += n
            _event(ev, "GoodsDiscarded", seat, {"goods": {GOODS[worst]: n}})
            gain_vp(s, seat, n, "puertoma_skill", ev)
    kept = [0] * NGOODS
    held = [g for g in range(NGOODS - 1, -1, -1) if p.goods[g]]
    if held and skill(s, seat, "captain_keep_good"):
        kept[held[0]] = p.goods[held[0]]  # every crate of its best good
        held = held[1:]
    if held:
        kept[held[0]] = 1
    keep_goods(s, seat, tuple(kept), ev)


# --- the final score (PTM-SCR) ---------------------------------------------------------------


def final_parts(s: State, seat: int) -> dict[str, int]:
    """What a Puertoma scores besides its VP tokens (PTM-SCR): its buildings' printed VP (its
    unoccupied buildings score no text of their own), 6 VP an expanded building, 1 a worker of
    its VP area, 3 a quarry, 2 a good with both properties active, and half its coins and
    crates, rounded up."""
    at = board_at(s, seat)
    p = s.players[seat]
    return {
        # the Monument's 8 VP are its own scoring text; printed, it is worth 4
        "buildings": sum(MONUMENT_PRINTED if b == MONUMENT else CATALOG[b].vp for b in p.city),
        "expanded_buildings": 6 * sum(1 for b in p.city if CATALOG[b].kind == LARGE_VIOLET),
        "vp_area_workers": s.puertoma[at + VP_WORKERS],
        "vp_area_quarries": 3 * s.puertoma[at + VP_QUARRIES],
        # §8.13: a third property of a type (Expansions IV, V) scores as a quarry
        **({"vp_area_properties": 3 * sum(s.puertoma[at + THIRD:at + THIRD + NGOODS])}
           if s.festival else {}),
        "full_properties": 2 * sum(
            1 for good in range(NGOODS) if active(s, seat, good) == PROPERTIES_PER_GOOD),
        "leftovers": (p.doubloons + sum(p.goods) + 1) // 2,
        **({"nobles": s.puertoma[at + CITIZENS]} if p.nobles else {}),  # Exp. II: 1 VP each
    }


# --- a seat's turn ---------------------------------------------------------------------------


_TURNS = {SETTLER: _settler_turn, BUILDER: _builder_turn, TRADER: _trader_turn}


def turn(s: State, ev: Events) -> None:
    """A Puertoma's turn in the Planter, Builder or Trader phase."""
    _TURNS[s.cards[s.card]](s, s.turn, ev)


# --- the Smuggler (§8.13, Exp. III) ------------------------------------------------------------


def _lure_count(s: State) -> int:
    """The workers (Citizens included) a Lure would take from the Agency: what it holds over N,
    at most 3 (its board always has room: the VP area)."""
    ship_citizens = s.nobles[NOB_SHIP] if s.nobles else 0
    return min(RAID_KEEP_MAX, max(0, s.colonist_ship + ship_citizens - s.n))


def _ship_to_raid(s: State, seat: int) -> int:
    """Raid a Ship's target: a ship carrying a good it does not produce now (no active
    property of it), then the most crates, then the best good; -1 when no ship is loaded."""
    best, key = -1, (0, 0, 0)
    for ship, load in enumerate(s.ship_load):
        if load:
            good = s.ship_kind[ship]
            k = (0 if active(s, seat, good) else 1, load, good)
            if best < 0 or k > key:
                best, key = ship, k
    return best


def _smuggler_action(s: State, seat: int) -> tuple[str, int]:
    """§8.13: the action with the largest gain (workers lured, crates plundered, crates kept
    from a ship), ties Lure > Plunder > Raid; and that gain."""
    ship = _ship_to_raid(s, seat)
    gains = [("lure", _lure_count(s)), ("plunder", len(s.house)),
             ("raid", min(RAID_KEEP_MAX, s.ship_load[ship]) if ship >= 0 else 0)]
    return max(gains, key=lambda g: g[1])  # max keeps the first of equal gains


def _smuggler_turn(s: State, seat: int, ev: Events) -> None:
    """The Puertoma's Smuggler action (§8.13): Lure Workers (placed on its board as PTM-REC),
    Plunder the trading house, or Raid a Ship keeping as many crates as it may (3)."""
    phase = MODULE_PHASES[s.phase]
    action, gain = _smuggler_action(s, seat)
    if action == "plunder" and gain:
        phase.act(s, seat, A.PLUNDER_ACTION, ev)
    elif action == "raid" and gain:
        ship = _ship_to_raid(s, seat)
        phase.act(s, seat, A.PIRACY_ACTIONS[ship][gain], ev)
    else:
        _lure(s, seat, ev)
        end_phase(s, ev)
    if gain:
        _moved(s, seat, BUCCANEER, ev)


def _lure(s: State, seat: int, ev: Events) -> None:
    """Lure Workers for a Puertoma: the Agency keeps N pieces; of those removed it keeps up to 3
    (Citizens first, A34), placed at once; the rest leave the game (X3-C) or go to the supply."""
    ship_citizens = s.nobles[NOB_SHIP] if s.nobles else 0
    removed = max(0, s.colonist_ship + ship_citizens - s.n)
    kept = min(RAID_KEEP_MAX, removed)
    if ship_citizens:
        workers, kept_workers = raid_split(s, removed, kept)
        kept_citizens = s.nobles[NOB_RAID]
        s.nobles[NOB_RAID] = 0
    else:
        workers, kept_workers, kept_citizens = removed, kept, 0
    s.colonist_ship -= workers
    if s.rs.raid_discards:
        s.colonists_out += workers - kept_workers
    else:
        s.colonist_supply += workers - kept_workers
    _event(ev, "ColonistShipRaided", seat, {"removed": removed, "kept": kept})
    _place_workers(s, seat, kept, "raid", ev)
    s.puertoma[board_at(s, seat) + CITIZENS] += kept_citizens


def offer(s: State, ev: Events) -> None:
    """A decision offered to a Puertoma: Expansion II's distribution, a Citizen or a worker
    from the Agency (§8.13: a Citizen whenever there is one); the Festival's reward workers."""
    seat, name, count = s.offers[0]
    assert isinstance(seat, int) and isinstance(count, int)
    if name == P_FESTIVAL_WORKERS:  # §8.13: reward workers placed at once, as PTM-REC
        s.offers.pop(0)
        p = s.players[seat]
        count = min(count, p.san_juan)
        p.san_juan -= count
        _place_workers(s, seat, count, "festival", ev)
        return
    if name != "noble_or_colonist":  # a building's offers go to its (occupied) owner only
        raise AssertionError(f"no Puertoma procedure for the offer {name}")
    resolve_offer(s, A.NOBLE_TAKE_ACTIONS[1], ev)


def citizens(s: State) -> int:
    """The Citizens on the Puertomas' boards (Exp. II's conservation)."""
    return sum(s.puertoma[board_at(s, seat) + CITIZENS] for seat in s.rs.automata)


def module_turn(s: State, ev: Events) -> None:
    """A Puertoma's turn in a module's phase: Expansion I's draft (§8.13: a tie-breaker card
    counted over the buildings it may place, in tray order), Expansion III's Smuggler."""
    seat = s.turn
    if s.phase == BUCCANEER_PHASE:
        _smuggler_turn(s, seat, ev)
        return
    if s.phase != DRAFT_PHASE:  # the options refuse the modules whose phases it cannot play
        raise AssertionError(f"no Puertoma procedure for phase {s.phase}")
    phase = MODULE_PHASES[s.phase]
    legal = {a.a: a for a in phase.legal(s, seat)}
    b = counted(s, seat, _tray(s, list(legal)), "draft", ev)
    phase.act(s, seat, legal[b], ev)


# --- what the views show ---------------------------------------------------------------------


class PuertomaProperty(TypedDict):
    good: str
    workers: int
    spaces: int


class PuertomaSkill(TypedDict):
    level: int
    state: str
    skill: str | None
    """``None`` while face down."""


class VpArea(TypedDict):
    quarries: int
    workers: int


class PuertomaBoard(TypedDict):
    """A Puertoma's board (§8): its property spaces (``None``: none there), VP area, skills,
    Reserve token, buildings per level, building spaces and the VP area's third properties."""

    properties: list[PuertomaProperty | None]
    vp_area: VpArea
    skills: list[PuertomaSkill]
    reserve: str | None
    levels: list[int]
    spaces: list[str | None]
    vp_area_properties: dict[str, int]


class PuertomaPart(TypedDict):
    """The view's ``puertoma`` (only with Puertomas): their seats, the difficulty, the action
    board's marker, the tie-breakers left and each board by seat (a string key: JSON)."""

    seats: list[int]
    difficulty: str
    marker: str
    tie_breakers_left: int
    boards: dict[str, PuertomaBoard]


def view_part(s: State) -> PuertomaPart | None:
    """The public Puertoma boards (skills face down are shown as such) and the action board."""
    rs = s.rs
    if not rs.automata:
        return None
    boards: dict[str, PuertomaBoard] = {}
    for seat in sorted(rs.automata):
        at = board_at(s, seat)
        spaces: list[PuertomaProperty | None] = []
        for i in range(NGOODS * PROPERTIES_PER_GOOD):
            w = s.puertoma[at + PROPS + i]
            good = i // PROPERTIES_PER_GOOD
            spaces.append(None if w < 0 else {
                "good": GOODS[good], "workers": w, "spaces": WORKER_SPACES[good]})
        skills: list[PuertomaSkill] = []
        for level in range(LEVELS):
            state = s.puertoma[at + SKILL_STATE + level]
            skills.append({
                "level": level + 1,
                "state": SKILL_STATES[state],
                "skill": SKILLS[level][s.puertoma[at + SKILL_AT + level]]
                if state == ACTIVE else None,
            })
        reserve = s.puertoma[at + RESERVE]
        boards[str(seat)] = {
            "properties": spaces,
            "vp_area": {"quarries": s.puertoma[at + VP_QUARRIES],
                        "workers": s.puertoma[at + VP_WORKERS]},
            "skills": skills,
            "reserve": CATALOG[reserve].name if reserve >= 0 else None,
            "levels": _levels(s, seat),
            "spaces": [None if b < 0 else CATALOG[b].name
                       for b in s.puertoma[at + SPACES:at + THIRD]],
            "vp_area_properties": {GOODS[g]: n for g in range(NGOODS)
                                   if (n := s.puertoma[at + THIRD + g])},
        }
    return {
        "seats": sorted(rs.automata),
        "difficulty": difficulty(rs),
        "marker": ALL_ROLES[s.puertoma[MARKER]],
        "tie_breakers_left": DECK - s.puertoma[DECK_POS],
        "boards": boards,
    }


def revealed(before: State, after: State) -> bool:
    """Whether the Puertomas showed something hidden between two states: a tie-breaker card
    drawn, a skill tile turned face up."""
    if not before.puertoma:
        return False
    if before.puertoma[DECK_POS] != after.puertoma[DECK_POS]:
        return True
    for seat in before.rs.automata:
        at = board_at(before, seat) + SKILL_STATE
        if before.puertoma[at:at + LEVELS] != after.puertoma[at:at + LEVELS]:
            return True
    return False


def resample(s: State) -> None:
    """``determinize``: the tie-breaker cards not drawn yet and the skill tiles still face down
    are hidden from everyone: dealt again with the (reseeded) generator."""
    if not s.rs.automata:
        return
    pos = s.puertoma[DECK_POS]
    rest = sorted(s.puertoma[DECK_AT + pos:HEADER])  # the order seen by nobody: not kept
    for i in range(len(rest) - 1, 0, -1):
        s.rng, j = below(s.rng, i + 1)
        rest[i], rest[j] = rest[j], rest[i]
    s.puertoma[DECK_AT + pos:HEADER] = rest
    for seat in s.rs.automata:
        at = board_at(s, seat)
        for level in range(LEVELS):
            if s.puertoma[at + SKILL_STATE + level] != ACTIVE:
                s.rng, tile = below(s.rng, len(SKILLS[level]))
                s.puertoma[at + SKILL_AT + level] = tile


def human_empty_circles(s: State) -> int:
    return sum(empty_building_circles(p) for seat, p in enumerate(s.players)
               if seat not in s.rs.automata)


def held(s: State) -> dict[str, int]:
    """Conservation: the workers, properties and quarries on the Puertomas' boards (with
    Expansion II, the Citizens among the workers count as nobles, not colonists)."""
    if not s.rs.automata:
        return {}
    colonists = sum(workers(s, seat) for seat in s.rs.automata)
    if s.nobles:
        colonists -= citizens(s)
    return {
        "colonists": colonists,
        "plantations": sum(property_tiles(s, seat) for seat in s.rs.automata),
        "quarries": sum(vp_area_quarries(s, seat) for seat in s.rs.automata),
    }


VIEW_PARTS["puertoma"] = lambda s, viewer: view_part(s)
RESAMPLERS.append(lambda s, seat: resample(s))
REVEALERS.append(revealed)
HELD.append(held)
automaton({
    "setup": setup,
    "choose_role": choose_role,
    "turn": turn,
    "module_turn": module_turn,
    "offer": offer,
    "citizens": citizens,
    "field": field,
    "load": load,
    "produce": produce,
    "craftsman_advantage": craftsman_advantage,
    "craftsman_ended": craftsman_ended,
    "arrange": arrange,
    "recruiter_ended": recruiter_ended,
    "empty_spaces": empty_spaces,
    "human_empty_circles": human_empty_circles,
    "store": store,
    "built": built,
    "final_parts": final_parts,
})


# --- the save (format 2, ``save``) ----------------------------------------------------------------

_SKILL_NAMES = tuple(Names("skill", level) for level in SKILLS)
_SKILL_STATES = Names("skill_state", SKILL_STATES)
_REMOVED = "removed"  # a Reserve token's building once the token is removed (RESERVE_REMOVED)


def _dump(s: State) -> dict[str, Any] | None:
    """The action board (the marker's role, the tie-breaker cards drawn, the deck by card
    number) and each Puertoma's board by name; its phase tally is the goods it produced in a
    Craftsman phase, else a count."""
    p = s.puertoma
    if not p:
        return None
    goods, buildings = GOOD_NAMES, BUILDINGS
    boards = []
    for at in range(HEADER, len(p), BOARD):
        properties = {}
        for good in range(NGOODS):
            i = at + PROPS + good * PROPERTIES_PER_GOOD
            pair = p[i:i + PROPERTIES_PER_GOOD]
            if any(w >= 0 for w in pair):
                properties[GOODS[good]] = [None if w < 0 else w for w in pair]
        reserve = p[at + RESERVE]
        tally = p[at + PHASE]
        boards.append({
            "properties": properties,
            "vp_quarries": p[at + VP_QUARRIES],
            "vp_workers": p[at + VP_WORKERS],
            "skills": [[_SKILL_NAMES[level].names[p[at + SKILL_AT + level]],
                        _SKILL_STATES.names[p[at + SKILL_STATE + level]]]
                       for level in range(LEVELS)],
            "reserve": _REMOVED if reserve == RESERVE_REMOVED else buildings.name_or_none(reserve),
            "phase": goods.bits(tally) if s.phase == CRAFTSMAN_PHASE else tally,
            "citizens": p[at + CITIZENS],
            "spaces": [buildings.name_or_none(b) for b in p[at + SPACES:at + THIRD]],
            "third": goods.counts(p[at + THIRD:at + BOARD]),
        })
    return {"marker": ALL_ROLES[p[MARKER]], "drawn": p[DECK_POS], "deck": p[DECK_AT:HEADER],
            "boards": boards}


def _load(s: State, raw: Any) -> None:
    key = "puertoma"
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field=key)
    boards = raw["boards"]
    if not isinstance(boards, list) or len(boards) != int(s.options.get("puertomas", 0)):
        raise CorruptState("bad_length", field=key)
    p = [ROLES.of(raw["marker"], key), int_field(raw, "drawn"), *int_list(raw, "deck", DECK)]
    for board in boards:
        if not isinstance(board, dict):
            raise CorruptState("bad_field", field=key)
        spaces = [-1] * (NGOODS * PROPERTIES_PER_GOOD)
        properties = board["properties"]
        if not isinstance(properties, dict):
            raise CorruptState("bad_field", field=key)
        for name, pair in properties.items():
            good = GOOD_NAMES.of(name, key)
            if (not isinstance(pair, list) or len(pair) != PROPERTIES_PER_GOOD
                    or any(w is not None and (type(w) is not int or w < 0) for w in pair)):
                raise CorruptState("bad_field", field=key)
            i = good * PROPERTIES_PER_GOOD
            spaces[i:i + PROPERTIES_PER_GOOD] = [-1 if w is None else w for w in pair]
        skills = board["skills"]
        if (not isinstance(skills, list) or len(skills) != LEVELS
                or any(not isinstance(sk, list) or len(sk) != 2 for sk in skills)):
            raise CorruptState("bad_field", field=key)
        reserve = board["reserve"]
        tally = board["phase"]
        buildings = board["spaces"]
        if not isinstance(buildings, list) or len(buildings) != THIRD - SPACES:
            raise CorruptState("bad_field", field=key)
        p += spaces
        p += [int_field(board, "vp_quarries"), int_field(board, "vp_workers")]
        p += [_SKILL_NAMES[level].of(skills[level][0], key) for level in range(LEVELS)]
        p += [_SKILL_STATES.of(skills[level][1], key) for level in range(LEVELS)]
        p.append(RESERVE_REMOVED if reserve == _REMOVED else BUILDINGS.optional(reserve, key))
        if s.phase == CRAFTSMAN_PHASE:
            p.append(GOOD_NAMES.read_bits(tally, key))
        elif type(tally) is int:
            p.append(tally)
        else:
            raise CorruptState("bad_field", field=key)
        p.append(int_field(board, "citizens"))
        p += [BUILDINGS.optional(b, key) for b in buildings]
        p += GOOD_NAMES.read_counts(board["third"], key)
    s.puertoma = p


register_field("puertoma", _dump, _load)
