"""1897's Puertoma (rules spec §8, Appendix D.2, D.3): the scenarios of §8.15 (T-PTM-*), its
final score (T-PTM-SCR), its procedures, setup and difficulty, and its seat kind (never asked,
options refused with a specific code).  Positions are built on the kernel's state directly:
the Puertoma's board has no scenario words of its own."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import Event, InvalidSetup
from engine.puerto_rico import phases
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.buildings import MODULE_PHASES
from engine.puerto_rico.data import (
    BUCCANEER,
    BUILDER,
    CAPTAIN,
    CORN,
    CRAFTSMAN,
    MAYOR,
    PROSPECTOR,
    SETTLER,
    SUGAR,
    TOBACCO,
    TRADER,
)
from engine.puerto_rico.invariants import invariant_failures
from engine.puerto_rico.scoring import score_breakdown
from engine.puerto_rico.state import BUCCANEER_PHASE, State
from engine.puerto_rico_1897 import puertoma as ptm
from engine.puerto_rico_1897.achievements import ACH_ANNOUNCED, ACH_HELD, ACH_MET, CARDS
from engine.puerto_rico_1897.festival_activities import (
    ACT_BUILDING,
    ACT_CARD,
    ACT_GOODS,
    ACT_HELD,
    ACT_SIZE,
    ACT_TILES,
    ACT_WON,
    ACTIVITIES,
    ACTIVITY_INDEX,
)
from engine.puerto_rico_1897.festival_activities import card as activity_card
from engine.puerto_rico_1897.festival_activities import slots as activity_slots
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME

COFFEE, FRUIT = 4, 1  # the kernel's goods order: Corn, Fruit, Sugar, Tobacco, Coffee
SOLO = {"players": 3, "puertomas": 2}


def solo(seed: int = 1, **options: Any) -> State:
    return GAME.setup({**SOLO, **options}, seed)


def board(s: State, seat: int, props: dict[int, list[int]] | None = None,
          quarries: int = 0, workers: int = 0) -> None:
    """Set ``seat``'s Puertoma board: properties by good (workers under each), its VP area."""
    at = ptm.board_at(s, seat)
    s.puertoma[at:at + ptm.VP_QUARRIES] = [-1] * ptm.VP_QUARRIES
    for good, under in (props or {}).items():
        for i, w in enumerate(under):
            s.puertoma[at + good * 2 + i] = w
    s.puertoma[at + ptm.VP_QUARRIES] = quarries
    s.puertoma[at + ptm.VP_WORKERS] = workers


def card(s: State, role: int) -> int:
    return s.cards.index(role)


def top_card(s: State, number: int) -> None:
    """The tie-breaker deck's next card is ``number``."""
    rest = s.puertoma[ptm.DECK_AT + s.puertoma[ptm.DECK_POS]:ptm.HEADER]
    i = rest.index(number)
    rest[0], rest[i] = rest[i], rest[0]
    s.puertoma[ptm.DECK_AT + s.puertoma[ptm.DECK_POS]:ptm.HEADER] = rest


def unlock(s: State, seat: int, name: str) -> None:
    level = ptm.SKILL_LEVEL[name]
    at = ptm.board_at(s, seat)
    s.puertoma[at + ptm.SKILL_AT + level] = ptm.SKILLS[level].index(name)
    s.puertoma[at + ptm.SKILL_STATE + level] = ptm.ACTIVE


def chosen(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.data["role"], e.data["by"]) for e in events if e.type == "PuertomaChoseRole"]


# --- §8.15 -----------------------------------------------------------------------------------


def test_t_ptm_1_adjacent_and_profitable_then_most_coins() -> None:
    """T-PTM-1 (seed Example 1; PTM-MOV-2): marker on the Builder; Planter 1 coin and Recruiter
    0, both reachable and profitable (the Trader is not: no goods) -> the Planter; marker ->
    Planter."""
    s = solo()
    seat = 1
    s.players[seat].goods = [0] * 5
    s.card_doubloons[card(s, SETTLER)] = 1
    s.face_up = [CORN, SUGAR, TOBACCO, COFFEE]
    s.governor = seat
    s.turn = seat
    ev: list[Event] = []
    ptm.choose_role(s, ev)
    assert chosen(ev)[0] == ("settler", "coins")
    assert s.cards[s.card] == SETTLER
    phases.advance(s, ev)  # its Planter turn: a property taken, the action performed
    assert s.puertoma[ptm.MARKER] == SETTLER
    assert any(e.type == "MarkerMoved" and e.data == {"from": "builder", "to": "settler"}
               for e in ev)


def test_t_ptm_2_no_adjacent_candidate_skips_the_condition() -> None:
    """T-PTM-2 (seed Example 2; PTM-MOV-1, PTM-MOV-2, A-6): marker on the Craftsman; nothing to
    sell, the Captain taken ->
    no reachable candidate; the Builder holds the most coins -> the Builder; the marker stays
    (there is no Craftsman -> Builder arrow)."""
    s = solo()
    seat = 1
    s.puertoma[ptm.MARKER] = CRAFTSMAN
    s.card_taken[card(s, CAPTAIN)] = 0
    s.picks = 1
    s.card_doubloons[card(s, BUILDER)] = 2
    s.turn = seat
    ev: list[Event] = []
    ptm.choose_role(s, ev)
    assert chosen(ev)[0][0] == "builder"
    phases.advance(s, ev)
    assert any(e.type == "BuildingBuilt" and e.seat == seat for e in ev)
    assert s.puertoma[ptm.MARKER] == CRAFTSMAN


def test_t_ptm_3_agency_refill_counts_each_puertomas_largest_gap() -> None:
    """T-PTM-3 (the seed's refill example): persons' empty building spaces 2, Puertoma A at most
    1 empty under one property (Sugar), B 2 (Fruit), N = 3 -> 5."""
    s = solo()
    human = s.players[0]
    b = BUILDING_INDEX["indigo_plant"]  # 3 circles, 1 occupied: 2 empty
    human.bw[b], human.city = 1, [b]
    board(s, 1, {SUGAR: [1]})
    board(s, 2, {FRUIT: [0]})
    s.colonist_ship = 0
    supply = s.colonist_supply
    s.phase, s.chooser = 2, 0  # the Recruiter phase's end
    phases._refill_ship(s, None)
    assert supply - s.colonist_supply == 5


def test_t_ptm_4_planter_prefers_a_type_it_has_one_of() -> None:
    """T-PTM-4 (PTM-GEN-2): Sugar x1, Corn x2 owned; market Corn, Coffee, Sugar, Fruit ->
    Sugar (Corn does not fit)."""
    s = solo()
    board(s, 1, {SUGAR: [0], CORN: [0, 0]})
    s.face_up = [CORN, FRUIT, SUGAR, COFFEE]
    ptm._settler_turn(s, 1, None)
    assert ptm.properties(s, 1, SUGAR) == 2
    assert s.face_up == [CORN, FRUIT, COFFEE]


def test_t_ptm_5_workers_go_to_the_fewest_empty_spaces_then_the_best_good() -> None:
    """T-PTM-5: Fruit 1 of 2, Coffee 0 of 3, Corn 0 of 1; three workers -> Fruit (tied with Corn
    at one empty space: the better good), then Corn, then Coffee (1 of 3)."""
    s = solo()
    board(s, 1, {FRUIT: [1], COFFEE: [0], CORN: [0]})
    assert [ptm._place_worker(s, 1) for _ in range(3)] == ["indigo", "corn", "coffee"]
    at = ptm.board_at(s, 1)
    assert s.puertoma[at + COFFEE * 2] == 1
    assert ptm.active(s, 1, FRUIT) == ptm.active(s, 1, CORN) == 1


def test_t_ptm_6_captain_loads_the_most_crates_worst_good_fewest_free_spaces() -> None:
    """T-PTM-6: 3 Corn and 3 Sugar; ships 4 and 5 empty, 6 holding 2 Tobacco -> Corn (a tie:
    the worse good) onto the 4-ship (fewest free spaces among those taking 3)."""
    s = solo()
    s.phase, s.step, s.chooser = 6, 0, 0
    s.ship_kind, s.ship_load = [-1, -1, TOBACCO], [0, 0, 2]
    p = s.players[1]
    p.goods = [3, 0, 3, 0, 0]
    ev: list[Event] = []
    assert ptm.load(s, 1, ev)
    shipped = next(e for e in ev if e.type == "GoodsShipped")
    assert shipped.data == {"good": "corn", "count": 3, "ship": 0}


def test_t_ptm_7_builder_highest_level_then_cost_then_a_card() -> None:
    """T-PTM-7 (PTM-GEN-1, PTM-BLD-2, PTM-BLD-3, PTM-BLD-4, A-9): the Builder chosen with 6
    coins + 1 on the tile; level 3 free; Factory 7, School
    8, Harbor 8 affordable (8 with the advantage); card 3 -> (3 - 1) mod 2 = 0 -> the School."""
    s = solo()
    seat = 1
    s.players[seat].doubloons = 6
    s.card_doubloons[card(s, BUILDER)] = 1
    s.governor, s.turn = seat, seat
    for name in ("wharf",):
        s.market[BUILDING_INDEX[name]] = 0
    top_card(s, 3)
    ev: list[Event] = []
    kernel_choose = phases.choose_role
    kernel_choose(s, seat, s.rs.card_actions[card(s, BUILDER)], ev)
    ptm._builder_turn(s, seat, ev)
    built = [e.data["building"] for e in ev if e.type == "BuildingBuilt"]
    assert built == ["university"]
    assert next(e.data for e in ev if e.type == "TieBreakerDrawn") == {"card": 3,
                                                                       "for": "building"}


def test_t_ptm_8_no_level_4_before_its_reserve_token() -> None:
    """T-PTM-8 (PTM-BLD-2, PTM-BLD-6): no building yet, enough coins for level 4 -> the best
    level-3 building, then its Reserve token goes onto an expanded building (a card counted);
    once it built the reserved one (its level 4: PTM-BLD-5), the token moves on."""
    s = solo()
    seat = 1
    s.players[seat].doubloons = 20
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)
    built = [e.data["building"] for e in ev if e.type == "BuildingBuilt"]
    assert len(built) == 1 and CATALOG[BUILDING_INDEX[built[0]]].column == 3
    assert CATALOG[BUILDING_INDEX[built[0]]].cost == 9  # the Wharf: the dearest of level 3
    reserve = s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE]
    assert CATALOG[reserve].kind == "large_violet"
    assert [e.type for e in ev][-2:] == ["TieBreakerDrawn", "ReserveTokenPlaced"]
    ev = []
    ptm._builder_turn(s, seat, ev)  # now the reserved one is its level 4
    assert [e.data["building"] for e in ev if e.type == "BuildingBuilt"] == [
        CATALOG[reserve].name]
    assert any(e.type == "PuertomaSkillUnlocked" and e.data["level"] == 4 for e in ev)
    assert s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE] not in (reserve, ptm.NO_RESERVE)


def test_t_ptm_scr_the_puertomas_final_score() -> None:
    """T-PTM-SCR (PTM-SCR): 20 VP tokens; L1, L1, L2, L2, L3 and one expanded building
    (printed 13) + 6;
    3 workers in the VP area + 3; 2 quarries + 6; Corn and Sugar both fully active + 4; 3 crates
    + 4 coins -> + 4.  Total 56."""
    s = solo()
    seat = 1
    p = s.players[seat]
    p.vp = 20
    p.city = [BUILDING_INDEX[n] for n in (
        "small_market", "hacienda", "hospice", "office", "factory", "guild_hall")]
    for b in p.city:
        p.bw[b] = 0
    board(s, seat, {CORN: [1, 1], SUGAR: [2, 2], COFFEE: [1]}, quarries=2, workers=3)
    p.goods, p.doubloons = [1, 0, 2, 0, 0], 4
    parts = score_breakdown(s, seat)
    assert parts == {"chips": 20, "buildings": 13, "expanded_buildings": 6,
                     "vp_area_workers": 3, "vp_area_quarries": 6, "full_properties": 4,
                     "leftovers": 4}
    assert sum(parts.values()) == 56


# --- the procedures ----------------------------------------------------------------------------


def test_d3_arrows_hold_both_seed_examples() -> None:
    """D.3, §8.3: Builder -> {Planter, Recruiter, Trader} among the six base roles; Craftsman ->
    {Trader, Captain}, no Craftsman -> Builder; the marker starts on the Builder (PTM-SET-2)."""
    base = {SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN}
    assert ptm.ARROWS[BUILDER] & base == {SETTLER, MAYOR, TRADER}
    assert ptm.ARROWS[CRAFTSMAN] - {BUCCANEER} == {TRADER, CAPTAIN}
    assert solo().puertoma[ptm.MARKER] == BUILDER


def test_d2_tie_breaker_cards_are_full_role_orders() -> None:
    """D.2, PTM-TB-1: 8 cards, each every base role once (first preferred)."""
    assert len(ptm.TIE_BREAKERS) == 8
    roles = {SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR}
    assert all(len(c) == 7 and set(c) == roles for c in ptm.TIE_BREAKERS)
    assert ptm.TIE_BREAKERS[0][:3] == (BUILDER, MAYOR, CRAFTSMAN)


def test_ptm_tb_3_counting_wraps_around() -> None:
    """PTM-TB-3, A-8: card n among k items picks the ((n - 1) mod k)-th."""
    s = solo()
    top_card(s, 7)
    assert ptm.counted(s, 1, [10, 20, 30], "building", None) == 10  # (7 - 1) mod 3 = 0
    top_card(s, 5)
    assert ptm.counted(s, 1, [10, 20, 30], "building", None) == 20  # (5 - 1) mod 3 = 1
    assert ptm.counted(s, 1, [42], "building", None) == 42  # one item: no card drawn


def test_ptm_gen_5_an_empty_deck_is_shuffled_again() -> None:
    """PTM-GEN-5: all 8 cards drawn, the next draw shuffles them all again."""
    s = solo()
    drawn = [ptm.draw_card(s, 1, "role", None) for _ in range(8)]
    assert sorted(drawn) == list(range(1, 9))
    ev: list[Event] = []
    ptm.draw_card(s, 1, "role", ev)
    assert [e.type for e in ev] == ["TieBreakerShuffled", "TieBreakerDrawn"]


def test_ptm_set_starting_property_moves_to_its_board_and_four_skills_face_down() -> None:
    """PTM-SET-3: its starting property (seat order of table 2.2: Fruit, then Corn) in the
    leftmost space of that type, no tile on a person's island; one skill per level, hidden."""
    s = solo()
    assert ptm.properties(s, 1, FRUIT) == 1 and ptm.properties(s, 2, CORN) == 1
    assert not any(s.players[1].tiles) and not any(s.players[2].tiles)
    view = GAME.view(s, 0)["puertoma"]
    assert all(k["state"] == "face_down" and k["skill"] is None
               for b in view["boards"].values() for k in b["skills"])


def test_ptm_mode_4_a_person_is_the_first_governor_and_puertomas_are_never_asked() -> None:
    """PTM-MODE-1, PTM-MODE-2 (1 + 2, 1 + 1, 3 + 1, 4 + 1), PTM-MODE-3 (``players`` counts the
    Puertomas), PTM-MODE-4, PTM-SET-1 and A-42 (a person first, the Puertomas last), D-19; the
    board of §8.2 (A-32: ten property spaces, the VP area, four skills); and
    PTM-GEN-6: a placed Puertoma worker never moves (its workers only grow)."""
    for options in ({"players": 3, "puertomas": 2}, {"players": 2, "puertomas": 1},
                    {"players": 4, "puertomas": 1}, {"players": 5, "puertomas": 1}):
        s = GAME.setup(options, 3)
        assert s.governor == 0 and s.governor not in s.rs.automata
        rnd = random.Random(3)
        assert s.n == options["players"]
        assert all(len(GAME.view(s, 0)["puertoma"]["boards"][str(a)]["properties"]) == 10
                   for a in s.rs.automata)
        while (prompt := GAME.prompt(s)) is not None:
            before = {a: ptm._props(s, a) for a in s.rs.automata}
            assert not set(prompt.seats) & s.rs.automata
            assert all(not GAME.legal_actions(s, a) for a in s.rs.automata)
            seat = prompt.seats[0]
            s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
            assert invariant_failures(s) == []
            for a, spaces in before.items():
                assert all(now >= was for was, now in zip(spaces, ptm._props(s, a), strict=True))
        assert GAME.outcome(s) is not None


@pytest.mark.parametrize(("options", "code"), [
    ({"players": 4, "puertomas": 2}, "bad_puertoma_seats"),
    ({"players": 3, "puertomas": 1}, "bad_puertoma_seats"),
    ({"players": 3, "puertomas": 3}, "bad_puertomas"),
    ({"players": 3, "puertomas": "2"}, "bad_puertomas"),
    ({"players": 3, "puertoma_difficulty": "hard"}, "puertoma_difficulty_without_puertomas"),
    ({"players": 3, "puertomas": 2, "puertoma_difficulty": "brutal"}, "bad_puertoma_difficulty"),
    ({"players": 3, "puertomas": 2, "expansions": [6], "achievement_deal": "draft"},
     "achievement_draft_with_puertomas"),
])
def test_bad_puertoma_options_are_refused(options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidSetup) as err:
        GAME.setup(options, 1)
    assert err.value.code == code


def test_classic_puerto_rico_has_no_puertomas() -> None:
    from engine.puerto_rico.game import PUERTO_RICO
    with pytest.raises(InvalidSetup) as err:
        PUERTO_RICO.setup({"players": 3, "puertomas": 2}, 1)
    assert err.value.code == "unknown_option"


def test_no_puertomas_stores_no_puertoma_option() -> None:
    assert "puertomas" not in GAME.normalize_options({"players": 3})
    assert GAME.normalize_options(SOLO)["puertoma_difficulty"] == "standard"


def test_ptm_bld_5_the_second_building_of_a_level_unlocks_its_skill() -> None:
    """PTM-BLD-5: its 2nd building of level 1 turns the level-1 skill face up."""
    s = solo()
    seat = 1
    s.players[seat].doubloons = 3
    for name in ("construction_hut", "small_warehouse", "hacienda"):
        s.market[BUILDING_INDEX[name]] = 0
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)  # the Small Market (level 1)
    assert not any(e.type == "PuertomaSkillUnlocked" for e in ev)
    s.market[BUILDING_INDEX["hacienda"]] = 1
    s.players[seat].doubloons = 2
    ptm._builder_turn(s, seat, ev)
    unlocked = [e.data for e in ev if e.type == "PuertomaSkillUnlocked"]
    assert len(unlocked) == 1 and unlocked[0]["level"] == 1
    assert ptm.skill(s, seat, unlocked[0]["skill"])


def test_easy_two_unlocked_skills_discard_the_others() -> None:
    """§8.14 Easy: once two skills are unlocked the other two are discarded."""
    s = solo(puertoma_difficulty="easy")
    seat = 1
    at = ptm.board_at(s, seat)
    s.puertoma[at + ptm.SKILL_STATE] = ptm.ACTIVE
    ptm._take_building(s, seat, BUILDING_INDEX["hospice"], 2)
    s.players[seat].doubloons = 5
    for name in ("factory", "university", "harbor", "wharf"):
        s.market[BUILDING_INDEX[name]] = 0
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)  # its second level-2 building
    assert [e.type for e in ev if e.type.startswith("PuertomaSkill")] == [
        "PuertomaSkillUnlocked", "PuertomaSkillsDiscarded"]
    states = s.puertoma[at + ptm.SKILL_STATE:at + ptm.SKILL_STATE + 4]
    assert states == [ptm.ACTIVE, ptm.ACTIVE, ptm.DISCARDED, ptm.DISCARDED]


def test_hard_head_start() -> None:
    """§8.14 Hard (A-14): level-1 skills active; the Fruit Puertoma a level-1 building, a
    worker on its
    Fruit and a Corn crate; the Corn one a level-2 building, a Sugar crate and 1 coin."""
    s = solo(puertoma_difficulty="hard")
    first, second = s.players[1], s.players[2]
    assert [CATALOG[b].column for b in first.city] == [1]
    assert [CATALOG[b].column for b in second.city] == [2]
    assert first.goods[CORN] == 1 and second.goods[SUGAR] == 1 and second.doubloons == 1
    assert s.puertoma[ptm.board_at(s, 1) + FRUIT * 2] == 1
    for seat in (1, 2):
        at = ptm.board_at(s, seat)
        assert s.puertoma[at + ptm.SKILL_STATE] == ptm.ACTIVE
        assert s.puertoma[at + ptm.RESERVE] == ptm.NO_RESERVE  # at its first purchase
    assert invariant_failures(s) == []


def test_ptm_crf_active_properties_produce_and_the_advantage_takes_the_best() -> None:
    """PTM-CRF: each active property a crate; the Craftsman's extra crate of the best good it
    produced (A-46: the next best in stock when the best is out)."""
    s = solo()
    seat = 1
    board(s, seat, {CORN: [1], FRUIT: [2, 1], TOBACCO: [3]})
    s.chooser = seat
    ev: list[Event] = []
    ptm.produce(s, seat, ev)
    assert s.players[seat].goods[:5] == [1, 1, 0, 1, 0]
    ptm.craftsman_advantage(s, ev)
    assert s.players[seat].goods[TOBACCO] == 2
    assert [e.data for e in ev if e.type == "PrivilegeGoodTaken"] == [{"good": "tobacco"}]
    s.goods[TOBACCO] = 0  # out of Tobacco, the next best it produced
    ptm.craftsman_advantage(s, ev)
    assert s.players[seat].goods[FRUIT] == 2


def test_ptm_trd_sells_the_best_good_it_may() -> None:
    s = solo()
    seat = 1
    s.players[seat].goods = [1, 0, 1, 1, 0]
    s.house = [TOBACCO]
    ev: list[Event] = []
    ptm._trader_turn(s, seat, ev)
    assert [e.data for e in ev if e.type == "GoodSold"] == [{"good": "sugar", "price": 2}]
    unlock(s, seat, "trader_any_good")
    ev = []
    ptm._trader_turn(s, seat, ev)  # L1-Trader A: a good already in the house
    assert [e.data["good"] for e in ev if e.type == "GoodSold"] == ["tobacco"]


def test_ptm_cap_storing_keeps_one_crate_of_its_best_good() -> None:
    s = solo()
    seat = 1
    s.players[seat].goods = [2, 0, 3, 1, 0]
    ptm.store(s, seat, None)
    assert s.players[seat].goods == [0, 0, 0, 1, 0]
    s.players[seat].goods = [2, 0, 3, 1, 0]
    unlock(s, seat, "captain_keep_good")
    ptm.store(s, seat, None)  # L2-Captain: all of the best good, plus one crate of another
    assert s.players[seat].goods == [0, 0, 1, 1, 0]


def test_determinize_redeals_the_hidden_cards_and_skills_only() -> None:
    s = solo()
    ptm.draw_card(s, 1, "role", None)
    drawn = s.puertoma[ptm.DECK_AT]
    unlock(s, 1, "trader_coin")
    other = GAME.determinize(s, 0, 99)
    assert other.puertoma[ptm.DECK_AT] == drawn
    assert sorted(other.puertoma[ptm.DECK_AT:ptm.HEADER]) == list(range(1, 9))
    assert ptm.skill(other, 1, "trader_coin")


def test_dump_and_load_keep_the_boards() -> None:
    s = solo(seed=5)
    rnd = random.Random(5)
    for _ in range(40):
        prompt = GAME.prompt(s)
        assert prompt is not None
        seat = prompt.seats[0]
        s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
    again = GAME.load(GAME.dump(s))
    assert again.puertoma == s.puertoma
    assert GAME.view(again, 0) == GAME.view(s, 0)


# --- §8.13 with the expansions ---------------------------------------------------------------


def test_x6_with_puertomas_each_person_draws_six_and_keeps_four() -> None:
    """§8.13 Exp. VI: each person draws six cards and keeps four (one at a time); the two left
    go back to the deck unseen; a Puertoma holds none."""
    s = GAME.setup({**SOLO, "expansions": [6]}, 4)
    prompt = GAME.prompt(s)
    assert prompt is not None and prompt.kind == "achievement_keep" and prompt.seats == (0,)
    for kept in range(4):
        legal = [GAME.encode_action(a) for a in GAME.legal_actions(s, 0)]
        assert len(legal) == 6 - kept and all(c.startswith("ad.") for c in legal)
        s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
        assert invariant_failures(s) == []
    view = GAME.view(s, 0)["achievements"]
    assert view["hand"] is not None and len(view["hand"]) == 4 and not view.get("to_pick")
    assert s.achievement_owner.count(-1) == 30 - 4
    assert s.achievement_owner.count(1) == s.achievement_owner.count(2) == 0
    prompt = GAME.prompt(s)
    assert prompt is not None and prompt.kind == "role"


def test_x6_the_puertomas_score_the_persons_incomplete_cards() -> None:
    """§8.13 Exp. VI: the people score none of their cards; every Puertoma scores the VP of
    every person's card not completed."""
    s = GAME.setup({**SOLO, "expansions": [6]}, 4)
    while (prompt := GAME.prompt(s)) is not None and prompt.kind == "achievement_keep":
        s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    mine = [c for c in range(30) if s.achievement_owner[c] == 0]
    s.achievement_status[mine[0]] = ACH_MET
    s.achievement_status[mine[1]] = ACH_ANNOUNCED
    open_vp = sum(CARDS[c].vp for c in mine[2:])
    assert all(s.achievement_status[c] == ACH_HELD for c in mine[2:])
    assert "achievements" not in score_breakdown(s, 0)
    assert score_breakdown(s, 1)["achievements"] == score_breakdown(s, 2)["achievements"] == open_vp


def test_x1_a_puertoma_drafts_by_a_card_counted_over_the_buildings_it_may_place() -> None:
    """§8.13 Exp. I: a Puertoma placing a building on the tray draws a tie-breaker card and
    counts the available buildings left to right (tray order: cost, then catalogue)."""
    s = GAME.setup({**SOLO, "expansions": [1]}, 2)
    prompt = GAME.prompt(s)
    assert prompt is not None and prompt.kind == "draft" and prompt.seats == (0,)
    before = s.clone()  # the person picks first; then the Puertoma (seat 1)
    before.turn = 1
    options = ptm._tray(before, [a.a for a in MODULE_PHASES[before.phase].legal(before, 1)])
    top_card(before, 5)
    ev: list[Event] = []
    ptm.module_turn(before, ev)  # as ``advance`` does at its turn
    drafted = [e.data["building"] for e in ev if e.type == "BuildingDrafted"]
    assert drafted == [CATALOG[options[(5 - 1) % len(options)]].name]
    assert [e.data for e in ev if e.type == "TieBreakerDrawn"] == [{"card": 5, "for": "draft"}]


def test_a_45_the_monument_scores_its_printed_4_and_the_expanded_6() -> None:
    """A-45: the Monument's 8 VP are its scoring text; a Puertoma scores its printed 4 + 6."""
    s = solo()
    p = s.players[1]
    monument = BUILDING_INDEX["statue"]
    p.city, p.bw[monument] = [monument], 0
    parts = score_breakdown(s, 1)
    assert parts["buildings"] == 4 and parts["expanded_buildings"] == 6


def test_x2_a_puertoma_takes_a_citizen_whenever_the_agency_holds_one() -> None:
    """§8.13 Exp. II: offered a Citizen or a worker at the distribution, a Puertoma takes the
    Citizen; it works on its board like a worker and scores 1 VP (part ``nobles``, 1897's
    ``citizens``)."""
    s = GAME.setup({**SOLO, "expansions": [2]}, 0)
    rnd = random.Random(0)
    seen = False
    while (prompt := GAME.prompt(s)) is not None and not seen:
        seat = prompt.seats[0]
        s, events = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
        gained = [e for e in events if e.type == "CitizenGained" and e.seat in (1, 2)]
        if gained:
            seen = True
            placed = [e for e in events if e.type == "PuertomaWorkersPlaced"
                      and e.seat == gained[0].seat]
            assert placed, [e.type for e in events]
    assert seen
    assert invariant_failures(s) == []
    count = ptm.citizens(s)
    assert count >= 1
    parts = [score_breakdown(s, seat).get("nobles", 0) for seat in (1, 2)]
    assert sum(parts) == count
    assert all(not s.players[seat].nobles[-1] for seat in (1, 2))  # none waits in San Juan


def test_x3_no_hijack_for_anyone_at_a_table_with_puertomas() -> None:
    s = GAME.setup({**SOLO, "expansions": [3]}, 1)
    s, _ = GAME.apply(s, 0, GAME.decode_action("r.smuggler"))
    codes = [GAME.encode_action(a) for a in GAME.legal_actions(s, 0)]
    assert "sm.lure" in codes and not any(c.startswith("sm.hijack") for c in codes)


def test_x3_the_smuggler_counts_2_coins_and_wins_a_tie_before_a_card() -> None:
    """§8.13 Exp. III: condition 2 counts the Smuggler as 2 coins; tied for most coins, the
    Smuggler is chosen before any card is drawn."""
    s = GAME.setup({**SOLO, "expansions": [3]}, 1)
    seat = 1
    s.puertoma[ptm.MARKER] = CAPTAIN  # arrows to Trader, Craftsman, Builder, Planter, Smuggler
    s.house = [CORN]  # something to plunder: the Smuggler is profitable
    s.card_doubloons[card(s, SETTLER)] = 2
    s.face_up = [SUGAR, TOBACCO, COFFEE, CORN]
    s.turn = seat
    ev: list[Event] = []
    ptm.choose_role(s, ev)
    assert chosen(ev)[0] == ("buccaneer", "smuggler")
    assert not any(e.type == "TieBreakerDrawn" for e in ev)
    assert s.buccaneer[0] == seat  # the token taken
    s2 = GAME.setup({**SOLO, "expansions": [3]}, 1)
    s2.buccaneer[0] = seat  # holding the token, it may not choose the Smuggler
    s2.house = [CORN]
    s2.turn = seat
    ev = []
    ptm.choose_role(s2, ev)
    assert s2.cards[s2.card] != BUCCANEER


def test_x3_the_smugglers_action_is_the_largest_gain_lure_plunder_raid() -> None:
    """§8.13 Exp. III: the action with the largest gain; ties Lure > Plunder > Raid; Raid a
    Ship targets a good it does not produce, then the most crates, then the best good, and
    keeps as many as it may (3)."""
    s = GAME.setup({**SOLO, "expansions": [3]}, 1)
    seat = 1
    board(s, seat, {CORN: [1]})  # it produces Corn
    s.colonist_ship = 3  # nothing over N = 3: no Lure
    s.house = [SUGAR, TOBACCO]
    s.ship_kind, s.ship_load = [CORN, SUGAR, -1], [4, 2, 0]
    assert ptm._smuggler_action(s, seat) == ("plunder", 2)  # 2 crates plundered vs 2 kept
    assert ptm._ship_to_raid(s, seat) == 1  # Sugar: a good it does not produce
    s.house = []
    ev: list[Event] = []
    s.phase, s.chooser, s.turn = BUCCANEER_PHASE, seat, seat
    ptm._smuggler_turn(s, seat, ev)
    raided = next(e for e in ev if e.type == "ShipPirated")
    assert raided.data == {"ship": 1, "good": "sugar", "count": 2, "kept": 2}
    s.colonist_ship = 8  # 5 over N: a Lure keeps 3 (ties to Lure first)
    s.ship_kind, s.ship_load = [CORN, -1, -1], [4, 0, 0]
    assert ptm._smuggler_action(s, seat) == ("lure", 3)
    workers = ptm.workers(s, seat)
    ev = []
    ptm._lure(s, seat, ev)
    assert ptm.workers(s, seat) == workers + 3 and s.colonist_ship == 3
    assert s.colonists_out == 2  # X3-C: the surplus leaves the game


def festival_game(seed: int = 3, expansions: tuple[int, ...] = (4, 5)) -> State:
    return GAME.setup({**SOLO, "expansions": list(expansions)}, seed)


def set_activity(s: State, index: int, name: str, tiles: tuple[int, ...] = (),
                 goods: tuple[int, ...] = (), building: int = -1) -> None:
    """Card ``index`` of the Festival board is ``name`` with these slots (open)."""
    base = index * ACT_SIZE
    record = s.activities
    # the card's old pieces back where they came from, the new ones taken (conservation)
    old_tiles, old_goods = activity_slots(activity_card(s, index))
    for t in old_tiles:
        s.deck[t] += 1
    for g in old_goods:
        s.goods[g] += 1
    if record[base + ACT_HELD]:
        s.market[record[base + ACT_BUILDING]] += 1
    record[base + ACT_CARD] = ACTIVITY_INDEX[name]
    record[base + ACT_WON] = -1
    record[base + ACT_HELD] = 0
    record[base + ACT_BUILDING] = building
    for i in range(ACT_TILES.stop - ACT_TILES.start):
        record[base + ACT_TILES.start + i] = tiles[i] if i < len(tiles) else -1
    for i in range(ACT_GOODS.stop - ACT_GOODS.start):
        record[base + ACT_GOODS.start + i] = goods[i] if i < len(goods) else -1
    for t in tiles:
        s.deck[t] -= 1
    for g in goods:
        s.goods[g] -= 1


def test_x5_no_festival_goods_delivery_with_puertomas() -> None:
    """§8.13 Exp. V: Festival Goods Delivery is not among the Activity cards."""
    delivery = ACTIVITY_INDEX["festival_goods_delivery"]
    drawn = set()
    for seed in range(40):
        s = festival_game(seed)
        drawn |= {s.activities[i * ACT_SIZE + ACT_CARD] for i in range(3)}
    assert delivery not in drawn and len(drawn) == len(ACTIVITIES) - 1


def test_x4_planter_takes_a_wanted_type_even_as_a_third_into_its_vp_area() -> None:
    """§8.13 Exp. IV / V: first a property type an open Activity or goal wants, even a third of
    a type (to the VP area: 3 VP, as a quarry); it then counts for the goal (3 owned)."""
    from engine.puerto_rico.state import FEST_PLANTATION_GOAL, FEST_TILE
    s = festival_game()
    seat = 1
    goal = s.festival[FEST_TILE]
    board(s, seat, {goal: [0, 0]})
    for i in range(3):  # no Activity wants a property: only the goal does
        set_activity(s, i, ["carnival_cocktail", "two_baskets_game",
                            "traditional_shipping_ceremony"][i],
                     goods=[(0, 1, 2), (3, 4), (2,)][i])
    s.face_up = sorted({goal, (goal + 1) % 5, (goal + 2) % 5})
    ev: list[Event] = []
    s.phase, s.chooser, s.card, s.picks = 1, 0, card(s, SETTLER), 1
    s.card_taken[s.card] = 0
    ptm._settler_turn(s, seat, ev)
    ptm.offer(s, ev)  # the goal's reward workers, placed at once (``advance`` does this)
    assert ptm.properties(s, seat, goal) == 2 and ptm.field(s, seat)[goal] == 3
    assert s.festival_won[FEST_PLANTATION_GOAL] == seat
    assert any(e.type == "FestivalGoalAchieved" for e in ev)
    assert any(e.type == "PuertomaWorkersPlaced" and e.data["by"] == "festival" for e in ev)
    assert invariant_failures(s) == []
    assert score_breakdown(s, seat)["vp_area_properties"] == 3


def test_x5_builder_builds_the_cheapest_wanted_building_below_what_it_could_afford() -> None:
    """§8.13, A-47: while an Activity wants a building, it builds the cheapest such building it
    may even below the level it could afford, onto its lowest free space of at least its
    level."""
    s = festival_game()
    seat = 1
    harbor = BUILDING_INDEX["harbor"]
    set_activity(s, 0, "a_toast_to_the_pioneer", building=harbor)
    s.festival[1] = harbor  # Expansion IV's building goal wants it too
    s.players[seat].doubloons = 12
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)
    assert [e.data["building"] for e in ev if e.type == "BuildingBuilt"] == ["harbor"]
    assert any(e.type == "FestivalActivityCompleted" for e in ev)


def test_x5_trader_fills_the_house_with_the_wanted_good() -> None:
    """§8.13: Closing the Work open and 3 crates in the trading house: it sells the card's
    good (here Corn) rather than its best."""
    s = festival_game()
    seat = 1
    set_activity(s, 0, "closing_the_work", goods=(CORN,))
    s.house = [FRUIT, SUGAR, TOBACCO]
    s.players[seat].goods = [1, 0, 0, 0, 1]
    ev: list[Event] = []
    ptm._trader_turn(s, seat, ev)
    assert [e.data["good"] for e in ev if e.type == "GoodSold"] == ["corn"]
    assert any(e.type == "FestivalActivityCompleted" for e in ev)


def test_x5_captain_dispatches_the_ceremonys_ship() -> None:
    """§8.13: a Shipping Ceremony open, it loads the cargo ship of the card's size with the
    card's good when it can fill it, even if another load would take more crates."""
    s = festival_game()
    seat = 1
    set_activity(s, 0, "traditional_shipping_ceremony", goods=(SUGAR,))
    s.phase, s.step, s.chooser = 6, 0, 0
    s.ship_kind, s.ship_load = [SUGAR, -1, -1], [2, 0, 0]  # the 4-ship needs 2 Sugar
    s.players[seat].goods = [5, 0, 2, 0, 0]
    ev: list[Event] = []
    assert ptm.load(s, seat, ev)
    shipped = next(e for e in ev if e.type == "GoodsShipped")
    assert shipped.data == {"good": "sugar", "count": 2, "ship": 0}
    assert any(e.type == "FestivalActivityCompleted" for e in ev)


def test_ptm_gen_3_gen_4_commercial_buildings_only_never_occupied_no_quarry_discount() -> None:
    """PTM-GEN-3: it never buys a production building and its buildings never work (never
    occupied); PTM-GEN-4: its quarries are in its VP area, no discount; A-11: a quarry when
    no property fits."""
    s = solo()
    seat = 1
    board(s, seat, {g: [0, 0] for g in range(5)}, quarries=3)
    s.face_up = [CORN, FRUIT]
    quarries = s.quarries
    ptm._settler_turn(s, seat, None)
    assert s.quarries == quarries - 1 and ptm.vp_area_quarries(s, seat) == 4
    s.players[seat].doubloons = 4
    assert all(not CATALOG[b].production for b in ptm._buildable(s, seat, 4))
    assert max(s.rs.cost[b] for b in ptm._buildable(s, seat, 4)) == 4  # no quarry off
    ptm._builder_turn(s, seat, None)
    assert all(s.players[seat].bw[b] == 0 for b in s.players[seat].city)


def test_ptm_bld_1_7_builder_skills() -> None:
    """PTM-BLD-1: L2-Builder's coin before building, even when it then cannot build;
    PTM-BLD-7: L1-Builder's worker after building; PTM-BLD-8: nothing to build, a pass."""
    s = solo()
    seat = 1
    unlock(s, seat, "builder_coin")
    unlock(s, seat, "builder_worker")
    s.players[seat].doubloons = 0
    for b in range(len(s.market)):
        s.market[b] = 0 if s.rs.cost[b] > 1 else s.market[b]
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)  # 0 + 1 coin: the Small Market (cost 1)
    assert [e.data["building"] for e in ev if e.type == "BuildingBuilt"] == ["small_market"]
    assert any(e.type == "PuertomaWorkersPlaced" and e.data["by"] == "builder_worker"
               for e in ev)
    s.market = [0] * len(s.market)
    ev = []
    coins = s.players[seat].doubloons
    ptm._builder_turn(s, seat, ev)
    assert s.players[seat].doubloons == coins + 1
    assert [e.type for e in ev if e.type in ("BuildingBuilt", "Passed")] == ["Passed"]


def test_ptm_bld_6_a_person_building_the_reserved_building_moves_the_token() -> None:
    """PTM-BLD-6: anyone may build a reserved building; its token then moves to another
    untokened expanded building; A-13: none left, it is removed."""
    s = solo()
    seat = 1
    s.players[seat].doubloons = 20
    ptm._builder_turn(s, seat, None)
    reserve = s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE]
    ev: list[Event] = []
    s.market[reserve] = 0  # a person built it
    ptm.built(s, 0, reserve, ev)
    moved = s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE]
    assert moved >= 0 and moved != reserve
    for b in range(len(s.market)):
        if CATALOG[b].kind == "large_violet":
            s.market[b] = 0
    ptm.built(s, 0, moved, ev)
    assert s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE] == ptm.RESERVE_REMOVED
    assert ev[-1].type == "ReserveTokenRemoved"


def test_ptm_bld_8_a_full_town_of_8_ends_the_game() -> None:
    """§8.10, PTM-BLD-8: a Puertoma's town is full with 2 buildings on each of 4 levels."""
    s = solo()
    seat = 1
    for level, names in enumerate((("small_market", "hacienda"), ("hospice", "office"),
                                   ("factory", "university")), start=1):
        for name in names:
            ptm._take_building(s, seat, BUILDING_INDEX[name], level)
    s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE] = BUILDING_INDEX["guild_hall"]
    ptm._take_building(s, seat, BUILDING_INDEX["residence"], 4)
    s.players[seat].doubloons = 20
    ev: list[Event] = []
    ptm._builder_turn(s, seat, ev)
    assert [e.data["building"] for e in ev if e.type == "BuildingBuilt"] == ["guild_hall"]
    assert any(e.type == "EndTriggered" for e in ev) and "city_full" in s.end_reasons


def test_a_5_a_10_skill_table() -> None:
    """§8.9 / D.4: three tiles per level; A-5: the Recruiter's end-of-phase worker is level 3;
    A-10: L4-Captain's VP are per crate held."""
    assert all(len(level) == 3 for level in ptm.SKILLS)
    assert ptm.SKILL_LEVEL["recruiter_worker"] == 2  # level 3 (0-based)
    s = solo()
    seat = 1
    unlock(s, seat, "captain_vp_per_crate")
    s.players[seat].goods = [2, 0, 1, 0, 0]
    vp = s.players[seat].vp
    ptm.store(s, seat, None)
    assert s.players[seat].vp == vp + 3


def test_a_7_a_card_naming_no_candidate_is_followed_by_another() -> None:
    """A-7, PTM-TB-2: the first role of the card that is a candidate; a card naming none of
    them (here only the Smuggler and the Adventurer are candidates... the Smuggler wins ties
    before a card; so: two Adventurers) draws the next."""
    s = GAME.setup({"players": 5, "puertomas": 1}, 1)
    seat = 4
    for c, role in enumerate(s.cards):
        if role != PROSPECTOR:
            s.card_taken[c] = 0
    s.picks = len(s.cards) - 2
    s.turn = seat
    ev: list[Event] = []
    ptm.choose_role(s, ev)
    assert s.cards[s.card] == PROSPECTOR
    assert chosen(ev)[0] == ("prospector", "card")  # two Adventurer tiles, equal coins


def test_a_44_no_profitable_role_means_every_available_role() -> None:
    """A-44: no available role profitable -> conditions 1-3 over every available role."""
    s = solo()
    seat = 1
    board(s, seat, {CORN: [1]})
    s.face_up = []
    for c, role in enumerate(s.cards):
        if role not in (SETTLER, TRADER):
            s.card_taken[c] = 0
    s.players[seat].goods = [0] * 5
    s.turn = seat
    ev: list[Event] = []
    ptm.choose_role(s, ev)
    assert s.cards[s.card] in (SETTLER, TRADER)


def test_a_12_one_person_and_one_puertoma_play_the_2_player_rules() -> None:
    """A-12: 1 + 1 uses the 2-player setup; the Puertoma chooses 3 roles a round."""
    s = GAME.setup({"players": 2, "puertomas": 1}, 3)
    assert s.rs.picks_per_round == 6
    rnd = random.Random(3)
    history: list[Event] = []
    while s.round == 1 and (prompt := GAME.prompt(s)) is not None:
        s, events = GAME.apply(s, prompt.seats[0], rnd.choice(GAME.legal_actions(
            s, prompt.seats[0])))
        history.extend(events)
    first = history[:next(i for i, e in enumerate(history) if e.type == "RoundEnded")]
    assert sum(1 for e in first if e.type == "RoleChosen" and e.seat == 1) == 3



def test_the_other_skills_do_what_8_9_says() -> None:
    """§8.9 (one tile of a level at a time): L3-Planter a crate of the property's good;
    L2-Craftsman one more crate of its best good produced at the phase's end, L3-Craftsman a
    coin per good produced; L3-Recruiter a worker at the phase's end, L4-Recruiter a coin per
    worker gained; L4-Captain B up to 2 crates of its worst good discarded for a VP each."""
    seat = 1
    s = solo()
    p = s.players[seat]
    unlock(s, seat, "planter_crate")
    s.face_up = [SUGAR]
    ptm._settler_turn(s, seat, None)  # a Sugar property, and a Sugar crate with it
    assert ptm.properties(s, seat, SUGAR) == 1 and p.goods[SUGAR] == 1

    s = solo()
    p = s.players[seat]
    unlock(s, seat, "craftsman_crate")
    unlock(s, seat, "craftsman_coins")
    board(s, seat, {CORN: [1], FRUIT: [2], TOBACCO: [0]})
    coins = p.doubloons
    s.chooser = 0
    ptm.produce(s, seat, None)  # Corn and Fruit: 2 goods, 2 coins
    assert p.goods[CORN] == 1 and p.goods[FRUIT] == 1 and p.doubloons == coins + 2
    ptm.craftsman_ended(s, None)  # one more of its best good produced: Fruit
    assert p.goods[FRUIT] == 2

    s = solo()
    p = s.players[seat]
    unlock(s, seat, "recruiter_worker")
    unlock(s, seat, "recruiter_coins")
    s.chooser = 0
    p.san_juan = 2  # its share of a Recruiter phase
    ptm.arrange(s, seat, None)
    workers, coins = ptm.workers(s, seat), p.doubloons
    ptm.recruiter_ended(s, None)  # +1 worker; 3 gained this phase: 3 coins
    assert ptm.workers(s, seat) == workers + 1 and p.doubloons == coins + 3

    s = solo()
    p = s.players[seat]
    unlock(s, seat, "captain_discard")
    p.goods = [3, 2, 1, 0, 0]
    vp = p.vp
    ptm.store(s, seat, None)  # 2 Corn (its worst) discarded for 2 VP; then it keeps 1 Sugar
    assert p.vp == vp + 2 and p.goods == [0, 0, 1, 0, 0]
