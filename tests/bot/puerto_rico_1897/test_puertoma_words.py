"""1897's Puertoma in words, in every language: its log lines (why it chose its role, the
tie-breaker cards, the action marker, its workers, skills and Reserve token), the parts of its
final score and its ``/game rules`` pages.

Seeded solo games (one person playing random legal moves, the Puertomas never asked) give every
event the Puertoma makes; each becomes a line in English, Spanish and Portuguese with no raw id
left, and some read exactly as written here."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from bot.commands import TEXT_LIMIT
from bot.games import presenter_for
from bot.games.puerto_rico.gamelog import PrLogWriter
from bot.games.puerto_rico.help import PUERTOMA_TOPICS, puertoma_topics
from bot.help import command_fields
from bot.i18n import LANGUAGES
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico_1897.puertoma import SKILLS
from storage import ActionRecord

P = presenter_for("puerto-rico-1897")
GAME = get_game("puerto-rico-1897")
AT = datetime(2026, 1, 1, tzinfo=UTC)
GAMES: tuple[tuple[dict[str, Any], int], ...] = (
    ({"players": 3, "puertomas": 2}, 1),
    ({"players": 3, "puertomas": 2, "puertoma_difficulty": "hard"}, 7),
    ({"players": 2, "puertomas": 1}, 3),
    ({"players": 3, "puertomas": 2, "puertoma_difficulty": "easy"}, 4),
    # §8.13: every expansion (the draft, Citizens, the Smuggler, the Festival's wishes)
    ({"players": 4, "puertomas": 1, "puertoma_difficulty": "hard",
      "expansions": [1, 2, 3, 4, 5, 6]}, 2),
    ({"players": 2, "puertomas": 1, "expansions": [4, 5]}, 5),
)
PUERTOMA_EVENTS = frozenset({
    "PuertomaChoseRole", "MarkerMoved", "TieBreakerDrawn", "TieBreakerShuffled",
    "PuertomaWorkersPlaced", "PuertomaSkillUnlocked", "PuertomaSkillsDiscarded",
    "PuertomaSkillUsed", "ReserveTokenPlaced", "ReserveTokenRemoved",
})
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z_]+\b|\b(None|ptm)\b|\?")
"""What a line must not show: a placeholder, an id, a missing value."""
KERNEL = re.compile(r"\b(indigo|settler|mayor|prospector|doubloons?|colonists?|barrels?|"
                    r"plantations?|privilege|san juan)\b", re.IGNORECASE)
"""The kernel's words 1897 says otherwise: none in an 1897 game's English."""


def raw(line: str, lang: str) -> bool:
    """Whether ``line`` shows an id, a placeholder, or (English) a kernel word."""
    return RAW.search(line) is not None or (lang == "en" and KERNEL.search(line) is not None)
SCORE_PARTS = ("expanded_buildings", "vp_area_workers", "vp_area_quarries", "full_properties",
               "leftovers", "vp_area_properties")


@cache
def solo_game(index: int) -> tuple[ActionRecord, ...]:
    """The stored actions of one seeded game: the person (seat 0) plays random legal moves."""
    options, seed = GAMES[index]
    state = GAME.setup(options, seed)
    policy = make_policy("random", GAME.name, seed)
    out: list[ActionRecord] = []
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        assert seat not in state.rs.automata, "a Puertoma is never asked"
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        out.append(ActionRecord(7, len(out) + 1, seat, GAME.encode_action(action), 100, AT,
                                tuple(e.to_json() for e in events)))
    return tuple(out)


PEOPLE = ("Ana", "Bea", "Caio", "Dora")


def names(players: int, puertomas: int | None = None) -> dict[int, str]:
    """The people first, then the Puertomas (by default, one person)."""
    people = 1 if puertomas is None else players - puertomas
    return {seat: PEOPLE[seat] if seat < people else f"Puertoma {seat + 1}"
            for seat in range(players)}


def writer(lang: str, players: int = 3, puertomas: int | None = None) -> PrLogWriter:
    people = 1 if puertomas is None else players - puertomas
    log = P.log_writer(names(players, puertomas), lang, humans=tuple(range(people)))
    assert isinstance(log, PrLogWriter)
    return log


def lines_of(lang: str, *events: Event, players: int = 3) -> list[str]:
    """The lines of one action holding ``events`` (in 1897's words, as the engine says them)."""
    action = ActionRecord(7, 1, 0, "pass", 100, AT, tuple(e.to_json() for e in events))
    return writer(lang, players).lines([action])


def told(event: dict[str, Any]) -> bool:
    """Whether ``event`` is the Puertoma's (a new event, or coins/VP a skill brought)."""
    return event["type"] in PUERTOMA_EVENTS or (
        event["data"].get("reason") == "puertoma_skill")


# --- the log ---------------------------------------------------------------------------------


def test_the_games_make_every_puertoma_event() -> None:
    seen = {e["type"] for i in range(len(GAMES)) for a in solo_game(i) for e in a.events}
    assert seen >= PUERTOMA_EVENTS
    reasons = {(e["type"], e["data"].get("reason"), e["data"].get("for"), e["data"].get("by"))
               for i in range(len(GAMES)) for a in solo_game(i) for e in a.events if told(e)}
    assert {("CoinsEarned", "puertoma_skill"), ("VpEarned", "puertoma_skill")} <= {
        r[:2] for r in reasons}
    assert {"role", "building", "reserve"} <= {r[2] for r in reasons if r[0] == "TieBreakerDrawn"}
    assert {"only", "arrow", "coins", "card"} <= {
        r[3] for r in reasons if r[0] == "PuertomaChoseRole"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_puertoma_event_is_a_line_in_every_language(lang: str, index: int) -> None:
    actions = solo_game(index)
    players = int(GAMES[index][0]["players"])
    puertomas = int(GAMES[index][0]["puertomas"])
    log = writer(lang, players, puertomas).lines(actions)
    assert len(log) > len(actions)
    bad = [line for line in log if raw(line, lang)]
    assert bad == []
    for action in actions:
        for event in action.events:
            if not told(event):
                continue
            alone = ActionRecord(7, 1, 0, "pass", 100, AT, (event,))
            lines = writer(lang, players, puertomas).lines([alone])
            assert len(lines) == 1, event
            assert not raw(lines[0], lang), (event, lines[0])
            if event["seat"] is not None:
                assert "Puertoma " in lines[0], lines


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_a_puertomas_choice_is_one_line_with_its_reason(index: int) -> None:
    """``PuertomaChoseRole`` is told on the ``RoleChosen`` that follows it: one line each."""
    actions = solo_game(index)
    players = int(GAMES[index][0]["players"])
    log = writer("en", players, int(GAMES[index][0]["puertomas"])).lines(actions)
    chosen = sum(1 for a in actions for e in a.events if e["type"] == "PuertomaChoseRole")
    chose = [line for line in log if re.match(r"Puertoma \d chose the ", line)]
    assert len(chose) == chosen > 0
    assert all(": " in line for line in chose)
    assert not [line for line in log if "weighs the roles" in line]


def test_the_tie_breaker_card_and_the_arrow_read_as_expected() -> None:
    drawn = Event("TieBreakerDrawn", 1, {"card": 3, "for": "role"})
    chose = Event("PuertomaChoseRole", 1, {"role": "trader", "by": "card", "marker": "planter"})
    role = Event("RoleChosen", 1, {"role": "trader", "card": "trader", "coins": 2})
    moved = Event("MarkerMoved", 1, {"from": "planter", "to": "builder"})
    assert lines_of("en", drawn, role, chose, moved) == [  # as the engine says them
        "Puertoma 2 drew tie-breaker card 3 (roles in order: Trader, Craftsman, Recruiter, "
        "Builder, Adventurer, Planter, Captain).",
        "Puertoma 2 chose the Trader and took 2 coins from it: the first role on the "
        "tie-breaker card among those it weighed.",
        "Puertoma 2 moved the action marker along the arrow from the Planter to the Builder.",
    ]
    arrow = Event("PuertomaChoseRole", 2, {"role": "recruiter", "by": "arrow",
                                          "marker": "builder"})
    picked = Event("RoleChosen", 2, {"role": "recruiter", "card": "recruiter", "coins": 0})
    assert lines_of("en", picked, arrow) == [
        "Puertoma 3 chose the Recruiter: it is profitable, and an arrow of the action board "
        "leads there from the Builder, where the action marker stands."]
    assert lines_of("es", picked, arrow) == [
        "Puertoma 3 eligió el Reclutador: le es rentable, y una flecha del tablero de acciones "
        "lleva a él desde el Constructor, donde está el marcador de acción."]
    assert lines_of("pt", drawn) == [
        "Puertoma 2 comprou a carta de desempate 3 (funções na ordem: "
        f"{P.catalog.t('pt', 'role.trader')}, Produtor, Recrutador, Construtor, Aventureiro, "
        "Cultivador, Capitão)."]
    coins = Event("PuertomaChoseRole", 1, {"role": "captain", "by": "coins",
                                          "marker": "craftsman"})
    assert lines_of("en", coins) == [  # alone (no RoleChosen before it): a line of its own
        "Puertoma 2 weighs the roles and takes the Captain: it holds the most coins of the "
        "roles it weighed."]


def test_the_other_puertoma_lines_read_as_expected() -> None:
    events = [
        Event("TieBreakerShuffled", None, {}),
        Event("TieBreakerDrawn", 2, {"card": 5, "for": "building"}),
        Event("BuildingBuilt", 2, {"building": "small_market", "price": 1}),
        Event("PuertomaSkillUnlocked", 2, {"skill": "trader_coin", "level": 1}),
        Event("TieBreakerDrawn", 2, {"card": 8, "for": "reserve"}),
        Event("ReserveTokenPlaced", 2, {"building": "fortress"}),
        Event("PuertomaWorkersPlaced", 2, {"placed": {"fruit": 2, "vp_area": 1},
                                           "by": "recruiter"}),
        Event("PuertomaWorkersPlaced", 2, {"placed": {"coffee": 1}, "by": "recruiter_worker"}),
        Event("PuertomaSkillUsed", 2, {"skill": "planter_crate", "good": "fruit"}),
        Event("PuertomaSkillsDiscarded", 2, {}),
        Event("ReserveTokenRemoved", 2, {}),
    ]
    assert lines_of("en", *events) == [
        "The tie-breaker deck ran out: all 8 cards were shuffled into a new deck.",
        "Puertoma 3 drew tie-breaker card 5 and counted 5 along the tied buildings, in tray "
        "order.",
        "Puertoma 3 built the Small market for 1 coin.",
        "Puertoma 3 unlocked its level 1 skill “Sale bonus” (Trader: +1 coin whenever it "
        "sells).",
        "Puertoma 3 drew tie-breaker card 8 and counted 8 along the expanded buildings without "
        "a Reserve token, in tray order.",
        "Puertoma 3 put its Reserve token on the Fortress, the only expanded building it may "
        "build.",
        "Puertoma 3 placed its workers: 2 on fruit and 1 in its VP area.",
        "Puertoma 3 took a worker from the supply with its skill “Extra worker”: 1 on coffee.",
        "Puertoma 3 took an extra crate of fruit with its skill “Harvest”.",
        "Puertoma 3 has unlocked 2 skills: its other 2 skill tiles are discarded (easy "
        "difficulty).",
        "Puertoma 3's Reserve token was removed: no expanded building without a token is left.",
    ]
    assert lines_of("es", events[3])[0].startswith(
        "Puertoma 3 desbloqueó su habilidad de nivel 1 «Prima de venta» (Mercader: ")
    assert lines_of("pt", events[6]) == [
        "Puertoma 3 alocou seus trabalhadores: 2 em fruta e 1 na sua área de PV."]


def test_the_coins_and_vp_of_a_skill_name_it() -> None:
    """The events only say ``puertoma_skill``: the line names the skill from what the
    Puertoma did around it; a skill's VP never join a shipment's."""
    sold = Event("GoodSold", 1, {"good": "sugar", "price": 3})
    coin = Event("CoinsEarned", 1, {"amount": 1, "reason": "puertoma_skill"})
    assert lines_of("en", sold, coin)[1] == "Puertoma 2 earned 1 coin with its skill “Sale bonus”."
    built = Event("BuildingBuilt", 1, {"building": "hospital", "price": 3})
    assert lines_of("en", coin, built)[0] == (
        "Puertoma 2 earned 1 coin with its skill “Builder's coin”.")
    produced = Event("GoodsProduced", 2, {"goods": {"corn": 2, "sugar": 1}})
    two = Event("CoinsEarned", 2, {"amount": 2, "reason": "puertoma_skill"})
    assert lines_of("pt", produced, two)[1] == (
        "Puertoma 3 ganhou 2 moedas com sua habilidade “Moedas de produção”.")
    shipped = Event("GoodsShipped", 1, {"good": "coffee", "count": 2, "ship": 0})
    vp = Event("VpEarned", 1, {"amount": 2, "reason": "shipping"})
    discarded = Event("GoodsDiscarded", 1, {"goods": {"corn": 2}})
    skill_vp = Event("VpEarned", 1, {"amount": 2, "reason": "puertoma_skill"})
    assert lines_of("en", shipped, vp, discarded, skill_vp) == [
        "Puertoma 2 shipped 2 coffee on ship 1 (+2 VP).",
        "Puertoma 2 discarded 2 corn with its skill “Discard for VP”.",
        "Puertoma 2 took 2 VP tokens with its skill “Discard for VP”.",
    ]
    per_crate = Event("VpEarned", 2, {"amount": 5, "reason": "puertoma_skill"})
    assert lines_of("es", per_crate) == [
        "Puertoma 3 tomó 5 fichas de PV con su habilidad «PV por caja»."]
    alone = lines_of("en", Event("CoinsEarned", 2, {"amount": 3, "reason": "puertoma_skill"}))
    assert alone == ["Puertoma 3 earned 3 coins with a skill."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_skill_has_a_name_and_an_effect(lang: str) -> None:
    log = writer(lang)
    names_ = [log.skill(skill) for level in SKILLS for skill in level]
    assert len(set(names_)) == 12
    for level in SKILLS:
        for skill in level:
            effect = log.skill_effect(skill)
            assert not raw(effect, lang) and ": " in effect, (skill, effect)


# --- the score -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_parts_of_a_puertomas_score_have_names(lang: str) -> None:
    for part in SCORE_PARTS:
        name = P.score_part(part, lang)
        assert name != part and not raw(name, lang), (lang, part)
    assert [P.score_part(p, "en") for p in SCORE_PARTS] == [
        "Expanded buildings", "Workers in the VP area", "Quarries",
        "Goods with both properties active", "Half its coins + crates",
        "Third properties in the VP area"]
    outcome = GAME.view(final_state(0), None)["outcome"]
    puertoma = next(s for s in outcome["scores"] if s["seat"] == 1)
    # the third properties are a part only with the Festival (Expansions IV, V)
    assert set(SCORE_PARTS) - {"vp_area_properties"} <= set(puertoma["breakdown"])
    for part in puertoma["breakdown"]:
        assert P.score_part(part, lang) != part, part


@cache
def final_state(index: int) -> Any:
    options, seed = GAMES[index]
    state = GAME.setup(options, seed)
    policy = make_policy("random", GAME.name, seed)
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        state, _ = GAME.apply(state, seat,
                              policy.choose(GAME, state, seat, GAME.legal_actions(state, seat)))
    return state


# --- the rules pages -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_puertoma_pages_fit_and_are_whole(lang: str) -> None:
    """Each page fits what ``/game rules`` sends (its longest command mentions included), names
    the roles in 1897's words; the skills page lists the 12 tiles."""
    assert [t.id for t in puertoma_topics()] == list(PUERTOMA_TOPICS)
    fields = command_fields(P, lang, {"game": 10**18, "pr1897": 10**18})
    roles = [P.catalog.t(lang, f"role.{r}") for r in ("settler", "mayor", "builder",
                                                      "craftsman", "trader", "captain")]
    for topic in puertoma_topics():
        text = P.help_text(topic, lang, fields)
        assert text.startswith("**Puertoma · ") and len(text) <= TEXT_LIMIT, (topic.id, len(text))
        assert not raw(text, lang), topic.id
        assert P.topic_name(topic, lang).startswith("Puertoma · ")
    pages = {t.id: P.help_text(t, lang, fields) for t in puertoma_topics()}
    assert all(role in pages["puertoma_roles"] for role in roles)
    log = writer(lang)
    assert all(log.skill(s) in pages["puertoma_skills"] for level in SKILLS for s in level)
    assert "6" in pages["puertoma_score"] and "3" in pages["puertoma_score"]


def test_the_puertoma_pages_are_1897s_only() -> None:
    classic = presenter_for("puerto-rico")
    assert not [t for t in classic.help_topics() if t.id in PUERTOMA_TOPICS]
    text = P.help_text(puertoma_topics()[0], "en", command_fields(P, "en"))
    assert "**1 person + 2 Puertomas**" in text and "tie-breaker card" in text
