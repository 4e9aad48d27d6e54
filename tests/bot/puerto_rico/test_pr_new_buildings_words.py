"""The words of Puerto Rico's Exp. 1, the New Buildings (Los Nuevos Edificios), in English and
in Spanish with the 2020 rulebook's names (Acueducto, Casa forestal, Mercado negro, Depósito,
Posada, Iglesia, Puesto de comercio, Embarcadero pequeño, Faro, Biblioteca, Fábrica de
especialidades, Salón gremial, Monasterio, Estatua; Bosque): every new action code (``d.*``,
``f.*``, ``o.forest``, ``bm.*``, ``tp.*``, ``sw.*``, ``g.*``) as a label, an autocomplete
choice and a description; the prompt kinds ``draft``, ``forest`` and ``interlude``; every new
event and reason in the log; the refusals; the table's text (the draft, forests, the modules).
No code, id or placeholder leaks into the words (rules spec §10)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from bot.errors import message_for
from bot.games import presenter_for
from bot.games.contract import Situation
from bot.games.puerto_rico.gamelog import PrLogWriter
from bot.i18n import LANGUAGES
from bot.refusals import situate
from engine import get_game
from engine.core import Event, IllegalAction
from engine.policies import make_policy
from tests.engine.puerto_rico.scenario import Scenario

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave", 4: "erin"}
HEADS = ("d.", "f.", "bm.", "tp.", "sw.", "g.")
NEW_EVENTS = {"BuildingDrafted", "DraftEnded", "ForestPlaced", "BlackMarketUsed", "GuestMoved"}
NEW_REASONS = {
    ("GoodSold", "trading_post"),
    ("GoodsShipped", "small_wharf"),
    ("GoodsProduced", "aqueduct"),
    ("DoubloonsEarned", "lighthouse"),
    ("DoubloonsEarned", "specialty_factory"),
    ("VpEarned", "church"),
    ("VpEarned", "union_hall"),
}
LEAK = re.compile(r"\b(?:d|f|bm|tp|sw|g|o)\.[a-z]|[a-z]+_[a-z]+|[{}]|\bNone\b")
ENGLISH_IN_SPANISH = re.compile(
    r"\b(?:Forest|Black market|Guest|Trading post|Small wharf|Church|Library|Lighthouse|"
    r"Storehouse|Aqueduct|Union hall|Cloister|Statue|draft|guest|forest)\b"
)


def reason(event: Event) -> tuple[str, Any]:
    data = event.data
    ship = data.get("ship")
    return event.type, data.get("by") or data.get("reason") or data.get("to") or (
        ship if isinstance(ship, str) else None)


@cache
def played() -> tuple[list[tuple[Mapping[str, Any], str, tuple[str, ...], Any]], list[Event]]:
    """(seat view, prompt kind, legal codes, panel extras) of every decision offering an Exp. 1
    code (or asked by an Exp. 1 prompt), and every public event, in seeded random games with
    Exp. 1 at 2 to 5 players (with and without the other modules)."""
    decisions: list[tuple[Mapping[str, Any], str, tuple[str, ...], Any]] = []
    events: list[Event] = []
    for seed in range(16):
        players = 2 + seed % 4
        modules = ["new_buildings", *(("buccaneer", "festival") if seed % 2 else ())]
        state = GAME.setup({"players": players, "modules": modules}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = tuple(GAME.encode_action(a) for a in legal)
            if prompt.kind in ("draft", "forest", "interlude") or any(
                    c.startswith(HEADS) or c == "o.forest" for c in codes):
                view = GAME.view(state, seat)
                extras = PR.panel_extras(GAME, state, seat, view, codes, prompt.kind)
                decisions.append((view, prompt.kind, codes, extras))
            state, new = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
            events.extend(e for e in (x.for_viewer(None) for x in new) if e is not None)
    return decisions, events


def test_the_games_reach_every_new_code_prompt_and_event() -> None:
    decisions, events = played()
    codes = {c for _, _, cs, _ in decisions for c in cs}
    for prefix in (*HEADS, "sw.none"):  # o.forest: test_the_forest_offer
        assert any(c.startswith(prefix) for c in codes), prefix
    assert {k for _, k, _, _ in decisions} >= {"draft", "interlude", "settle", "build", "sell",
                                               "ship"}
    assert {e.type for e in events} >= NEW_EVENTS
    assert {reason(e) for e in events} >= NEW_REASONS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_choice_is_worded(lang: str) -> None:
    """Labels (buttons, 80), choices (autocomplete, 100) and descriptions (100) of every
    Exp. 1 code, as the panel and the autocomplete word them: no code, id or placeholder."""
    decisions, _ = played()
    worded = 0
    for view, kind, codes, extras in decisions:
        words = PR.words(view, lang, extras=extras, kind=kind)
        prompt = PR.prompt_text(kind, lang)
        assert prompt and not LEAK.search(prompt), (lang, kind, prompt)
        for code in codes:
            if not (code.startswith(HEADS) or code == "o.forest"
                    or (code == "pass" and kind in ("forest", "interlude"))):
                continue
            worded += 1
            for text in (words.label(code), words.choice_name(code),
                         words.description(code) or "x"):
                assert text and not LEAK.search(text), (lang, code, text)
                assert lang != "es" or not ENGLISH_IN_SPANISH.search(text), (code, text)
            assert len(words.label(code)) <= 80 and len(words.choice_name(code)) <= 100
    assert worded > 1000


def first(kind: str, prefix: str) -> tuple[Mapping[str, Any], tuple[str, ...], Any]:
    decisions, _ = played()
    return next((v, c, x) for v, k, c, x in decisions
                if k == kind and any(code.startswith(prefix) for code in c))


def test_the_labels_say_what_each_choice_is() -> None:
    view, codes, _ = first("draft", "d.")
    en, es = PR.words(view, "en", kind="draft"), PR.words(view, "es", kind="draft")
    if "d.church" in codes:
        assert en.label("d.church") == "Church — cost 5, 2 VP"
        assert es.label("d.church") == "Iglesia — coste 5, 2 PV"
    code = next(c for c in codes if c.startswith("d."))
    assert en.choice_name(code).count(" — ") == 1 and "circle" in en.choice_name(code)
    sc = Scenario(players=3, seed=1, modules=["new_buildings"])
    sc.board(["forest_house", "black_market", "guest_house", "trading_post", "small_wharf",
              "church", "library", "lighthouse", "specialty_factory", "union_hall",
              "storehouse", "aqueduct", "cloister", "statue", "guild_hall", "residence",
              "city_hall"])
    sc.player(0, doubloons=2, vp=3, san_juan=1, goods={"sugar": 2},
              tiles={"corn": (2, 1)}, buildings={"black_market": 1, "forest_house": 1})
    view = GAME.view(sc.state, 0)
    en, es = PR.words(view, "en"), PR.words(view, "es")
    code = "bm.church.c.san_juan.g.sugar.vp"
    assert en.choice_name(code) == (
        "Church with the Black market: 2 doubloons, a colonist from San Juan, 1 barrel of "
        "sugar, 1 VP chip")
    assert es.label("bm.church.c.corn") == (
        "Iglesia con el Mercado negro: 2 doblones, un colono de una plantación de maíz")
    assert en.label("f.indigo") == "Forest from the indigo plantation"
    assert es.label("f.indigo") == "Bosque con la plantación de añil"
    assert en.label("o.forest") == "Make it a forest"
    assert es.label("o.forest") == "Convertirla en bosque"
    assert en.label("g.library") == "Move a guest to the Library"
    assert en.label("g.indigo") == "Move a guest to an indigo plantation"
    assert es.label("g.quarry") == "Mover un huésped a una cantera"
    assert en.label("sw.corn2.sugar1") == "Small wharf: ship 2 corn and 1 sugar"
    assert es.label("sw.none") == "Embarcadero pequeño: ningún barril (cuenta como tu carga)"
    assert en.label("tp.coffee") == "Sell coffee to your Trading post"


def test_the_forest_offer() -> None:
    """§10.2 Forest house with an occupied Hacienda: the drawn plantation may become a forest;
    the prompt ``forest``, its two choices and their words."""
    sc = Scenario(players=3, seed=1, modules=["new_buildings"])
    sc.board(["small_market", "hacienda", "forest_house", "small_warehouse", "hospice",
              "office", "large_market", "large_warehouse", "factory", "university", "harbor",
              "wharf", "guild_hall", "residence", "fortress", "customs_house", "city_hall"])
    sc.player(0, buildings={"hacienda": 1, "forest_house": 1})
    state = sc.choose("settler", seat=0)
    state = sc.act(state, 0, "s.hacienda")
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "forest"
    codes = sc.legal(state, 0)
    assert set(codes) == {"o.forest", "pass"}
    view = GAME.view(state, 0)
    for lang, accept, keep, asked in (
            ("en", "Make it a forest", "Keep it as a plantation",
             "make the drawn plantation a forest?"),
            ("es", "Convertirla en bosque", "Dejarla como plantación",
             "¿convertir en bosque la plantación robada?")):
        words = PR.words(view, lang, kind="forest")
        assert (words.label("o.forest"), words.label("pass")) == (accept, keep)
        assert PR.prompt_text("forest", lang) == asked
        assert not LEAK.search(words.choice_name("o.forest"))


def test_sales_and_loads_say_what_they_bring() -> None:
    """The Trading post's sale and the Small wharf's loads are measured like the others."""
    sc = Scenario(players=3, seed=1, modules=["new_buildings"])
    sc.board(["small_market", "hacienda", "construction_hut", "small_warehouse", "hospice",
              "office", "trading_post", "large_warehouse", "factory", "university", "harbor",
              "wharf", "guild_hall", "residence", "fortress", "customs_house", "city_hall"])
    sc.player(0, goods={"coffee": 1, "corn": 3},
              buildings={"trading_post": 1, "small_market": 1})
    state = sc.choose("trader", seat=0)
    codes = sc.legal(state, 0)
    view = GAME.view(state, 0)
    extras = PR.panel_extras(GAME, state, 0, view, codes, "sell")
    words = PR.words(view, "en", extras=extras, kind="sell")
    # 4 for coffee + 1 Trader's privilege; the Small market does not count there ([A])
    assert words.label("tp.coffee") == "Sell coffee to your Trading post — +5 doubloons"
    assert words.label("t.coffee") == "Sell coffee — +6 doubloons"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_event_makes_a_line(lang: str) -> None:
    _, events = played()
    writer = PrLogWriter(NAMES, lang)
    seen = set()
    for event in events:
        if event.type in NEW_EVENTS or reason(event) in NEW_REASONS or event.type == (
                "ColonistGained"):
            line = writer.event_line(event)
            assert line and not LEAK.search(line), (lang, event, line)
            assert lang != "es" or not ENGLISH_IN_SPANISH.search(line), line
            seen.add(event.type)
    assert seen >= NEW_EVENTS


def test_log_lines_in_both_languages() -> None:
    en, es = PrLogWriter(NAMES, "en"), PrLogWriter(NAMES, "es")
    drafted = Event("BuildingDrafted", 1, {"building": "specialty_factory"})
    assert en.event_line(drafted) == "bob drafted the Specialty factory (cost 8)."
    assert es.event_line(drafted) == "bob eligió el edificio Fábrica de especialidades (coste 8)."
    ended = Event("DraftEnded", None, {"buildings": ["church"] * 17})
    assert en.event_line(ended) == "The draft is over: 17 violet buildings are on the board."
    forest = Event("ForestPlaced", 0, {"tile": "indigo", "source": "face_up"})
    assert en.event_line(forest) == "alice laid an indigo plantation face down as a forest."
    assert es.event_line(forest) == "alice puso una plantación de añil boca abajo como bosque."
    drawn = Event("ForestPlaced", 0, {"tile": "corn", "source": "hacienda"})
    assert "Hacienda (corn)" in str(en.event_line(drawn))
    market = Event("BlackMarketUsed", 2, {"doubloons": 5, "good": "sugar", "vp": 1})
    assert en.event_line(market) == (
        "carol used the Black market: 5 doubloons, 1 barrel of sugar, and 1 VP chip.")
    assert es.event_line(market) == (
        "carol usó el Mercado negro: 5 doblones, 1 barril de azúcar y 1 ficha de PV.")
    sold = Event("GoodSold", 1, {"good": "indigo", "price": 2, "to": "trading_post"})
    assert en.event_line(sold) == "bob sold indigo to their Trading post for 2 doubloons."
    assert es.event_line(sold) == "bob vendió añil a su Puesto de comercio por 2 doblones."
    wharf = Event("GoodsShipped", 3, {"goods": {"corn": 2, "coffee": 1}, "count": 3,
                                      "ship": "small_wharf", "vp": 1})
    assert en.event_line(wharf) == (
        "dave shipped 2 corn and 1 coffee with their Small wharf (+1 VP).")
    assert es.event_line(wharf) == (
        "dave embarcó 2 maíz y 1 café con su Embarcadero pequeño (+1 PV).")
    none = Event("GoodsShipped", 3, {"goods": {}, "count": 0, "ship": "small_wharf"})
    assert en.event_line(none) == "dave used their Small wharf without a barrel."
    guest = Event("GuestMoved", 4, {"to": "storehouse"})
    assert en.event_line(guest) == "erin moved a guest from the Guest house to the Storehouse."
    assert es.event_line(guest) == "erin movió un huésped de Posada a Depósito."
    aqueduct = Event("GoodsProduced", 0, {"goods": {"sugar": 1}, "by": "aqueduct"})
    assert es.event_line(aqueduct) == "Acueducto de alice: 1 azúcar más."
    church = Event("VpEarned", 0, {"amount": 2, "reason": "church"})
    assert en.event_line(church) == "alice took 2 VP chips for the Church."
    union = Event("VpEarned", 1, {"amount": 1, "reason": "union_hall"})
    assert es.event_line(union) == "bob tomó 1 ficha de PV por el Salón gremial."
    light = Event("DoubloonsEarned", 2, {"amount": 1, "reason": "lighthouse"})
    assert en.event_line(light) == "carol earned 1 doubloon with the Lighthouse."
    kept = Event("OfferDeclined", 1, {"offer": "forest"})
    assert en.event_line(kept) == (
        "bob kept the plantation drawn with the Hacienda as a plantation.")
    assert es.event_line(kept) == "bob dejó como plantación la que robó con la Hacienda."
    hospice = Event("ColonistGained", 0, {"target": "san_juan", "source": "supply",
                                          "by": "hospice"})
    assert en.event_line(hospice) == "alice's Hospice: a colonist on San Juan."


def situated(view: Mapping[str, Any], action: str, code: str = "illegal_now") -> BaseException:
    return situate(IllegalAction(code, action=action), Situation(7, 0, view, NAMES, (), action))


def test_refusals_say_why() -> None:
    sc = Scenario(players=3, seed=1, modules=["new_buildings"])
    state = sc.state  # the draft: seat 0 picks first
    view = GAME.view(state, 0)
    assert view["prompt"]["kind"] == "draft"
    state = sc.act(state, 0, "d.church")
    state = sc.act(state, 1, "d.trading_post")
    view = GAME.view(state, 2)
    with_seat = {**view, "viewer": 0}
    assert message_for(situated(with_seat, "d.church"), "en") == (
        "The Church cannot be drafted now: it is already on the board.")
    assert message_for(situated(with_seat, "d.office"), "es") == (
        "No se puede elegir Oficina ahora: no queda ningún espacio de coste 5.")
    assert "only before the first round" in message_for(
        situated({**GAME.view(sc.finish_phase(sc.state), 0), "viewer": 0}, "d.hacienda",
                 "wrong_decision"), "en")
    play = Scenario(players=3, seed=1, modules=["new_buildings"])
    play.board(["small_market", "black_market", "forest_house", "storehouse", "guest_house",
                "church", "trading_post", "small_wharf", "lighthouse", "library",
                "specialty_factory", "union_hall", "guild_hall", "residence", "cloister",
                "statue", "city_hall"])
    play.player(0, doubloons=9, goods={"corn": 1})
    view = GAME.view(play.state, 0)
    assert message_for(situated(view, "f.corn"), "en") == (
        "Only an occupied Forest house lets you lay a plantation face down as a forest.")
    assert message_for(situated(view, "tp.corn"), "es") == (
        "Solo un Puesto de comercio ocupado te deja vender allí.")
    assert message_for(situated(view, "g.corn"), "en") == (
        "You have no guest on an occupied Guest house to move.")
    play.player(0, doubloons=9, buildings={"black_market": 1})
    view = GAME.view(play.state, 0)
    assert message_for(situated(view, "bm.church.vp"), "en").startswith(
        "You can pay the Church with doubloons, so the Black market is not allowed")


def test_the_table_text_tells_the_draft_and_the_forests() -> None:
    sc = Scenario(players=3, seed=1, modules=["new_buildings", "festival"])
    state = sc.act(sc.state, 0, "d.library")
    view = GAME.view(state, None)
    fields = dict(PR.summary(view, NAMES, "en"))
    assert fields["Building draft"] == (
        "1 of 17 spaces filled; left by cost: 1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 1, "
        "9: 1, 10: 5\nDrafted so far: Library")
    assert PR.header_lines(view, NAMES, "en")[0] == "**Building draft**"
    assert PR.header_lines(view, NAMES, "en")[-1] == "Expansions: New Buildings and Festival"
    assert "Expansiones: Los Nuevos Edificios y El Festival" in PR.header_lines(view, NAMES, "es")
    assert "?" in dict(PR.summary(view, NAMES, "en"))["Festival goals"]  # no goal before it
    done = Scenario(players=3, seed=1, modules=["new_buildings"], building_selection="random")
    done.player(1, forests={"corn": 2})
    view = GAME.view(done.state, None)
    fields = dict(PR.summary(view, NAMES, "es"))
    assert fields["Elección de edificios"].startswith("edificios al azar · en el tablero: ")
    assert "Bosques: 2" in fields["bob"]
