"""The words of Puerto Rico's Exp. 2, the Nobles (Los Nobles), in English and in Spanish with
the 2020 rulebook's names (Registro, Capilla, Refugio de caza, Oficina de zonificación, Proveedor
real, Villa, Joyero, Jardín real): every new action code (``n.*``, ``mn.*``, ``hl.*``, ``rs.*``,
``lo.*``) as a label, an autocomplete choice and a description; the prompt kinds
``noble_or_colonist``, ``hunting_lodge`` and ``royal_supplier``; the refusals of its choices;
the nobles on the table and the score sheet's parts.  No code, id, "?" or placeholder leaks into
the words (rules spec §11).  Its log lines: ``test_pr_nobles_log.py``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from bot.errors import message_for
from bot.games import presenter_for
from bot.games.contract import Situation
from bot.i18n import LANGUAGES
from bot.refusals import situate
from engine import get_game
from engine.core import EngineError, Event
from engine.policies import make_policy
from tests.engine.puerto_rico.nobles_scenario import kind_of, nob, noble_supplies, nobles, seats_of
from tests.engine.puerto_rico.scenario import Scenario

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave", 4: "erin"}
HEADS = ("n.", "mn.", "hl.", "rs.", "lo.")
KINDS = ("noble_or_colonist", "hunting_lodge", "royal_supplier")
NOBLE_FUNCTIONS = ("m.land_office", "m.chapel", "m.hunting_lodge", "m.zoning_office")
ALL_MODULES = ["new_buildings", "nobles", "buccaneer", "festival"]
NEW_EVENTS = {"NobleGained", "PlantationSold", "PlantationDiscarded", "GoodsTraded"}
NEW_REASONS = {
    ("ColonistGained", "villa"),
    ("ColonistShipRefilled", "nobles"),
    ("ColonistShipRaided", "nobles"),
    ("PlantationTaken", "land_office"),
    ("DoubloonsEarned", "chapel"),
    ("DoubloonsEarned", "jeweler"),
    ("VpEarned", "chapel"),
    ("VpEarned", "hunting_lodge"),
    ("VpEarned", "royal_supplier"),
    ("OfferDeclined", "hunting_lodge"),
    ("OfferDeclined", "royal_supplier"),
}
LEAK = re.compile(r"\b(?:n|mn|hl|rs|lo|m|o)\.[a-z]|[a-z]+_[a-z]+|[{}?]|\bNone\b")
IDS = re.compile(LEAK.pattern.replace("[{}?]", "[{}]"))
"""A refusal may quote another prompt's text, a question (Exp. 1's forest offer)."""
ENGLISH_IN_SPANISH = re.compile(
    r"\b(?:Land office|Chapel|Hunting lodge|Zoning office|Royal supplier|Jeweler|Royal garden|"
    r"Take|Trade|Discard|sell|noble from|colonist|plantation|forest|supply)\b"
)


def reason(event: Event) -> tuple[str, Any]:
    data = event.data
    if event.type in ("ColonistShipRefilled", "ColonistShipRaided"):
        return event.type, "nobles" if data.get("nobles") else None
    return event.type, data.get("by") or data.get("reason") or data.get("offer") or (
        data.get("source")
    )


Decision = tuple[Mapping[str, Any], str, tuple[str, ...], Any]


def exp2_codes(view: Mapping[str, Any], kind: str, codes: tuple[str, ...]) -> list[str]:
    """The codes of a decision worded by Exp. 2: its own, the pass of its prompts, ``m.auto``
    while nobles wait in San Juan and a colonist's place on a building with a noble function."""
    me = view["players"][view["viewer"]]
    waiting = (me.get("nobles") or {}).get("san_juan")
    return [
        c
        for c in codes
        if c.startswith(HEADS)
        or (c == "pass" and kind in KINDS)
        or (c == "m.auto" and waiting)
        or c in NOBLE_FUNCTIONS
    ]


@cache
def played() -> tuple[list[Decision], list[Event], list[Mapping[str, Any]]]:
    """(seat view, prompt kind, legal codes, panel extras) of every decision with a code worded
    by Exp. 2, every public event and the final public views, in seeded random games with the
    Nobles at 2 to 5 players, alone and with the three other modules."""
    decisions: list[Decision] = []
    events: list[Event] = []
    ends: list[Mapping[str, Any]] = []
    for seed in range(24):
        players = 2 + seed % 4
        modules = ALL_MODULES if seed % 2 else ["nobles"]
        state = GAME.setup({"players": players, "modules": modules}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = tuple(GAME.encode_action(a) for a in legal)
            view = GAME.view(state, seat)
            if exp2_codes(view, prompt.kind, codes):
                extras = PR.panel_extras(GAME, state, seat, view, codes, prompt.kind)
                decisions.append((view, prompt.kind, codes, extras))
            state, new = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
            events.extend(e for e in (x.for_viewer(None) for x in new) if e is not None)
        ends.append(GAME.view(state, None))
    return decisions, events, ends


def test_the_games_reach_every_new_code_prompt_and_event() -> None:
    decisions, events, _ = played()
    codes = {c for _, _, cs, _ in decisions for c in cs}
    for prefix in (*HEADS, "n.noble", "n.colonist", "lo.buy", "lo.sell.", "rs.corn."):
        assert any(c.startswith(prefix) for c in codes), prefix  # hl.forest: test_forests
    assert {k for _, k, _, _ in decisions} >= {*KINDS, "arrange", "sell"}
    assert {e.type for e in events} >= NEW_EVENTS
    assert {reason(e) for e in events} >= NEW_REASONS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_choice_is_worded(lang: str) -> None:
    """Labels (buttons, 80), choices (autocomplete, 100) and descriptions (100) of every code
    Exp. 2 words, as the panel and the autocomplete word them, and its prompts' texts."""
    decisions, _, _ = played()
    worded = 0
    for view, kind, codes, extras in decisions:
        words = PR.words(view, lang, extras=extras, kind=kind)
        if kind in KINDS:
            for text in (PR.prompt_text(kind, lang), PR.catalog.t(lang, f"panel.help.{kind}")):
                assert text and not LEAK.search(text), (lang, kind, text)
        for code in exp2_codes(view, kind, codes):
            worded += 1
            label, choice = words.label(code), words.choice_name(code)
            description = words.description(code) or ""
            assert description or code == "pass", (lang, code)  # what each choice brings
            for text in (label, choice, description or label):
                assert text and not LEAK.search(text), (lang, code, text)
                assert lang != "es" or not ENGLISH_IN_SPANISH.search(text), (code, text)
            assert len(label) <= 80 and len(choice) <= 100 and len(description) <= 100
    assert worded > 5000


def arrange(sc: Scenario, seat: int = 1) -> tuple[Any, Mapping[str, Any]]:
    """The Mayor phase of ``sc`` up to ``seat``'s arrangement (the Mayor, seat 0, declines
    his privilege; the ship is empty)."""
    sc.set_colonists(ship=0)
    noble_supplies(sc, ship=0)
    state = sc.choose("mayor", 0)
    state = sc.act(state, 0, "pass")
    assert kind_of(state) == "arrange"
    return state, GAME.view(state, seat)


def test_the_mayor_choices_say_noble_or_colonist() -> None:
    """A19: the noble or a colonist from the ship; ``mn.<place>`` against ``m.<place>`` where
    the occupant changes the building's function (the Chapel), ``m.auto`` counting both."""
    decisions, _, _ = played()
    view, codes, extras = next((v, c, x) for v, k, c, x in decisions if k == "noble_or_colonist")
    en = PR.words(view, "en", extras=extras, kind="noble_or_colonist")
    es = PR.words(view, "es", extras=extras, kind="noble_or_colonist")
    assert set(codes) == {"n.noble", "n.colonist"}
    assert en.choice_name("n.noble") == "Take the noble — works like a colonist; 1 VP at the end"
    assert en.choice_name("n.colonist") == (
        "Take a colonist — the noble stays on the ship for the next player"
    )
    assert es.choice_name("n.noble") == "Tomar el noble — trabaja como un colono; 1 PV al final"
    assert es.label("n.colonist") == "Tomar un colono"
    sc = nob()
    sc.player(1, tiles={"corn": 2}, buildings={"chapel": 0}, san_juan=2)
    nobles(sc, 1, san_juan=1)
    state, view = arrange(sc)
    assert PR.words(view, "en").label("m.auto") == "Place 1 colonist and 1 noble as suggested"
    assert PR.words(view, "es").label("m.auto") == "Colocar 1 colono y 1 noble como se sugiere"
    en, es = PR.words(view, "en"), PR.words(view, "es")
    assert en.choice_name("mn.chapel") == (
        "One noble on the Chapel — with a noble: +1 VP at the start of each Craftsman phase"
    )
    assert en.choice_name("m.chapel") == (
        "One colonist on the Chapel — with a colonist: +1 doubloon at the start of each "
        "Craftsman phase"
    )
    assert es.label("mn.chapel") == "Un noble en Capilla"
    assert es.description("mn.corn") == "hace producir la plantación"
    state = sc.act(state, 1, "mn.chapel")
    view = GAME.view(state, 1)
    assert PR.words(view, "en").label("m.auto") == "Place 1 colonist as suggested"
    only = nob()
    only.player(1, tiles={"corn": 2}, buildings={"chapel": 0}, san_juan=2)
    nobles(only, 1, san_juan=2)
    _, view = arrange(only)
    assert PR.words(view, "en").label("m.auto") == "Place 2 nobles as suggested"


def test_the_island_choices_say_whose_piece_moves() -> None:
    """§11.3 Hunting lodge and Land office: which tile goes, and the piece on an occupied one
    to San Juan (an unoccupied one of the kind goes first)."""
    sc = nob()
    sc.player(
        2, tiles={"corn": (1, 1), "indigo": (2, 1), "sugar": (1, 1)}, buildings={"hunting_lodge": 1}
    )
    nobles(sc, 2, sugar=1)
    state = sc.choose("settler", 0)
    while kind_of(state) == "settle":
        state = sc.act(state, seats_of(state)[0], "pass")
    assert kind_of(state) == "hunting_lodge"
    view = GAME.view(state, 2)
    en = PR.words(view, "en", kind="hunting_lodge")
    es = PR.words(view, "es", kind="hunting_lodge")
    assert en.choice_name("hl.corn") == "Discard a corn plantation — its colonist goes to San Juan"
    assert en.choice_name("hl.indigo") == (
        "Discard an indigo plantation — an unoccupied one: nobody moves"
    )
    assert en.choice_name("hl.sugar") == "Discard a sugar plantation — its noble goes to San Juan"
    assert (
        es.choice_name("hl.sugar") == "Descartar una plantación de azúcar — su noble va a San Juan"
    )
    assert (en.label("pass"), es.label("pass")) == ("Discard nothing", "No descartar nada")
    assert PR.prompt_text("hunting_lodge", "en") == (
        "decide whether to discard a plantation (Hunting lodge)"
    )
    assert PR.prompt_text("royal_supplier", "es") == (
        "decidir si cambias barriles por PV (Proveedor real)"
    )
    trader = nob()
    trader.player(
        0, doubloons=2, goods={"corn": 1}, tiles={"corn": (1, 1)}, buildings={"land_office": 1}
    )
    state = trader.choose("trader", 0)
    view = GAME.view(state, 0)
    extras = PR.panel_extras(GAME, state, 0, view, trader.legal(state, 0), "sell")
    en = PR.words(view, "en", extras=extras, kind="sell")
    es = PR.words(view, "es", extras=extras, kind="sell")
    assert en.choice_name("lo.buy") == (
        "Land office: buy a face-down plantation for 1 doubloon — at random; you may still "
        "sell a barrel"
    )
    assert es.label("lo.buy") == "Registro: comprar una plantación boca abajo por 1 doblón"
    seller = nob()
    seller.player(0, tiles={"coffee": (1, 1)}, buildings={"land_office": 1})
    nobles(seller, 0, land_office=1)
    state = seller.choose("trader", 0)
    view = GAME.view(state, 0)
    assert seller.legal(state, 0) == ["lo.sell.coffee", "pass"]
    assert PR.words(view, "en").choice_name("lo.sell.coffee") == (
        "Land office: sell a coffee plantation for 1 doubloon — its colonist goes to San Juan"
    )
    assert PR.words(view, "es").label("lo.sell.coffee") == (
        "Registro: vender una plantación de café por 1 doblón"
    )


def test_forests_are_discarded_and_sold_in_words() -> None:
    """§10.2 with §11.3: the Hunting lodge discards a forest, the Land office sells one."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["hunting_lodge", "land_office"])
    sc.player(0, tiles={"corn": 1}, buildings={"land_office": 1, "hunting_lodge": 1})
    sc.player(0, forests={"sugar": 1})
    nobles(sc, 0, land_office=1)
    state = sc.choose("settler", 0)
    while kind_of(state) == "settle":
        state = sc.act(state, seats_of(state)[0], "pass")
    assert "hl.forest" in sc.legal(state, 0)
    view = GAME.view(state, 0)
    assert PR.words(view, "en").choice_name("hl.forest") == (
        "Discard a forest — a forest: nobody moves"
    )
    assert PR.words(view, "es").choice_name("hl.forest") == (
        "Descartar un bosque — un bosque: nadie se mueve"
    )
    sc.finish_phase(sc.act(state, 0, "pass"))
    state = sc.choose("trader", 0)
    assert "lo.sell.forest" in sc.legal(state, 0)
    view = GAME.view(state, 0)
    assert (
        PR.words(view, "en").label("lo.sell.forest") == "Land office: sell a forest for 1 doubloon"
    )
    assert PR.words(view, "es").label("lo.sell.forest") == "Registro: vender un bosque por 1 doblón"


def test_the_royal_supplier_says_what_it_trades() -> None:
    """A44: one barrel of each kind named, 1 VP each, no other bonus."""
    sc = nob()
    sc.player(
        1,
        goods={"corn": 2, "sugar": 1},
        tiles={"corn": (1, 1)},
        buildings={"royal_supplier": 1},
        san_juan=1,
    )
    nobles(sc, 1, corn=1, san_juan=1)
    sc.player(0, goods={"indigo": 1})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.indigo.0")
    assert kind_of(state) == "royal_supplier"
    view = GAME.view(state, 1)
    en = PR.words(view, "en", kind="royal_supplier")
    es = PR.words(view, "es", kind="royal_supplier")
    assert en.choice_name("rs.corn.sugar") == (
        "Trade corn and sugar — +2 VP — the barrels go back to the supply; no other bonus"
    )
    assert es.label("rs.corn.sugar") == "Cambiar maíz y azúcar — +2 PV"
    assert en.label("rs.sugar") == "Trade sugar — +1 VP"
    assert (en.label("pass"), es.label("pass")) == ("Trade nothing", "No cambiar nada")


def test_the_table_tells_the_nobles_and_the_score_parts() -> None:
    sc = nob(players=3)
    sc.player(1, tiles={"corn": (2, 2)}, buildings={"chapel": 1}, san_juan=1)
    nobles(sc, 1, corn=1, chapel=1, san_juan=1)
    view = GAME.view(sc.state, None)
    fields = dict(PR.summary(view, NAMES, "en"))
    assert fields["Nobles"] == "on the colonist ship 1 · in the supply 16"
    assert fields["bob"].endswith("nobles among the colonists: 3 (San Juan 1)\nbuildings: Chapel")
    assert "Supply" in fields and "colonists left" in fields["Supply"]
    es = dict(PR.summary(view, NAMES, "es"))
    assert es["Nobles"] == "en el barco de colonos 1 · en la reserva 16"
    assert "nobles entre los colonos: 3 (San Juan 1)" in es["bob"]
    assert "Expansions: Nobles" in PR.header_lines(view, NAMES, "en")
    assert "Expansiones: Los Nobles" in PR.header_lines(view, NAMES, "es")
    classic = GAME.view(GAME.setup({"players": 3}, 1), None)
    assert "Nobles" not in dict(PR.summary(classic, NAMES, "en"))
    assert (PR.score_part("nobles", "en"), PR.score_part("nobles", "es")) == ("Nobles", "Nobles")
    assert PR.score_part("royal_garden", "es") == "Jardín real"
    _, _, ends = played()
    parts = {p for v in ends for s in v["outcome"]["scores"] for p in s["breakdown"]}
    assert "nobles" in parts
    for lang in LANGUAGES:
        for part in parts:
            assert not LEAK.search(PR.score_part(part, lang)), (lang, part)


def test_the_commands_say_what_they_answer() -> None:
    """``/pr take`` also answers the noble-or-colonist question, the Hunting lodge and the
    Royal supplier; ``/pr place`` places nobles; ``/pr sell`` uses the Land office."""
    t = PR.catalog.t
    assert "noble or colonist, Hunting lodge, Royal supplier" in t("en", "cmd.take.description")
    assert "noble o colono, Refugio de caza, Proveedor real" in t("es", "cmd.take.description")
    assert "nobles" in t("en", "cmd.place.description")
    assert "Land office" in t("en", "cmd.sell.description")
    assert "Registro" in t("es", "cmd.sell.description")


def situated(state: Any, seat: int, code: str) -> BaseException:
    """The refusal of ``code`` for ``seat`` as the bot raises it: the engine's error with the
    seat's view attached."""
    try:
        GAME.apply(state, seat, GAME.decode_action(code))
    except EngineError as exc:
        view = GAME.view(state, seat)
        legal = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
        return situate(exc, Situation(7, seat, view, NAMES, legal, code))
    raise AssertionError(f"{code} is legal")


def test_refusals_say_why() -> None:
    sc = nob()
    sc.player(0, doubloons=0, goods={"corn": 1}, buildings={"land_office": 1})
    state = sc.choose("trader", 0)
    assert message_for(situated(state, 0, "lo.buy"), "en") == (
        "The Land office's plantation costs 1 doubloon; you have 0 doubloons."
    )
    assert message_for(situated(state, 0, "lo.sell.corn"), "es") == (
        "Tu Registro tiene un colono: compra una plantación, no la vende."
    )
    sc = nob()
    sc.player(0, doubloons=5, goods={"corn": 1}, buildings={"land_office": 1})
    state = sc.act(sc.choose("trader", 0), 0, "lo.buy")
    assert message_for(situated(state, 0, "lo.buy"), "en") == (
        "You have already used your Land office in this Trader phase."
    )
    sc = nob()
    sc.player(0, goods={"corn": 1}, tiles={"corn": 1}, buildings={"land_office": 1})
    nobles(sc, 0, land_office=1)
    state = sc.choose("trader", 0)
    assert message_for(situated(state, 0, "lo.buy"), "en") == (
        "Your Land office holds a noble: it sells a plantation, it does not buy one."
    )
    assert message_for(situated(state, 0, "lo.sell.coffee"), "en") == (
        "There is no coffee plantation on your island."
    )
    assert message_for(situated(state, 0, "lo.sell.forest"), "es") == (
        "No hay ningún bosque en tu isla."
    )
    assert message_for(situated(state, 1, "lo.buy"), "en") == (
        "It is alice's turn in game #7, not yours: sell a good."
    )
    none = nob()
    none.player(0, goods={"corn": 1})
    state = none.choose("trader", 0)
    assert message_for(situated(state, 0, "lo.buy"), "en") == (
        "Only an occupied Land office lets you buy or sell a plantation that way."
    )
    assert message_for(situated(state, 0, "n.noble"), "en") == (
        "Offers (a Hospice or University colonist, a forest, the noble or a colonist from the "
        "ship, the Hunting lodge, the Royal supplier) are answered only when they are made to "
        "you; now you must sell a good."
    )


def test_placement_and_trade_refusals_say_why() -> None:
    sc = nob()
    sc.player(1, tiles={"corn": 2}, buildings={"harbor": 0}, san_juan=2)
    nobles(sc, 1, san_juan=1)
    state, _ = arrange(sc)
    assert message_for(situated(state, 1, "m.corn"), "en") == (
        "Your nobles go first (1 noble in San Juan): place them before your colonists."
    )
    state = sc.act(state, 1, "mn.harbor")
    assert message_for(situated(state, 1, "mn.corn"), "es") == (
        "No tienes ningún noble esperando en San Juan para colocar."
    )
    assert message_for(situated(state, 1, "m.harbor"), "en") == (
        "Your Harbor has no free circle: 1 of 1 taken."
    )
    only = nob()
    only.player(1, tiles={"corn": 2}, buildings={"chapel": 0}, san_juan=2)
    nobles(only, 1, san_juan=2)
    state, _ = arrange(only)
    assert message_for(situated(state, 1, "m.chapel"), "es") == (
        "En San Juan solo esperan nobles (2 nobles): colócalos como nobles."
    )
    sup = nob()
    sup.player(
        1,
        goods={"corn": 1, "sugar": 1, "indigo": 1},
        tiles={"corn": (1, 1)},
        buildings={"royal_supplier": 1},
    )
    nobles(sup, 1, corn=1)
    sup.player(0, goods={"coffee": 1})
    state = sup.act(sup.choose("captain", 0), 0, "ship.coffee.0")
    assert kind_of(state) == "royal_supplier"
    assert message_for(situated(state, 1, "rs.corn.sugar"), "en") == (
        "You have 1 noble on your board: the Royal supplier trades at most 1 barrel, one per "
        "noble, each of a different kind."
    )
    assert message_for(situated(state, 1, "rs.coffee"), "es").startswith("No tienes café")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refused_exp2_code_is_worded(lang: str) -> None:
    """Whatever Exp. 2 code is refused at any decision of a real game (wrong moment, wrong
    piece, missing tile or barrel, used), the refusal is a sentence without ids."""
    candidates = (
        "n.noble",
        "n.colonist",
        "mn.corn",
        "mn.quarry",
        "mn.chapel",
        "m.chapel",
        "hl.corn",
        "hl.forest",
        "rs.corn",
        "rs.corn.sugar.coffee",
        "lo.buy",
        "lo.sell.indigo",
        "lo.sell.forest",
    )
    refused = 0
    for seed in (1, 2):
        state = GAME.setup({"players": 2 + seed, "modules": ALL_MODULES}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        steps = 0
        while (prompt := GAME.prompt(state)) is not None and steps < 400:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = {GAME.encode_action(a) for a in legal}
            if steps % 3 == 0 or prompt.kind in (*KINDS, "arrange", "sell"):
                for code in candidates:
                    if code not in codes:
                        text = message_for(situated(state, seat, code), lang)
                        assert text and not IDS.search(text), (lang, code, text)
                        refused += 1
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
            steps += 1
    assert refused > 1000


def test_the_panel_counts_the_nobles_waiting_apart() -> None:
    """The private panel's line of what a seat has says how many of the pieces in San Juan are
    nobles (else "3 colonists in San Juan", as in the base game)."""
    from bot.games.contract import Panel
    from tests.bot.san_juan.test_san_juan_panels import record

    sc = nob()
    sc.player(1, tiles={"corn": 2}, buildings={"chapel": 0}, san_juan=3)
    nobles(sc, 1, san_juan=1)
    state, view = arrange(sc)

    def status(lang: str, seat_view: Mapping[str, Any], seat: int = 1) -> str:
        panel = Panel(record(2), seat, seat_view, None, (), {})
        return PR.panel_status(panel, PR.words(seat_view, lang), lang) or ""

    assert "· 2 colonists and 1 noble in San Juan ·" in status("en", view)
    assert "· 2 colonos y 1 noble en San Juan ·" in status("es", view)
    plain = status("en", GAME.view(state, 2), 2)  # seat 2 has no noble
    assert " in San Juan ·" in plain and "noble" not in plain
