"""Puerto Rico 1897 on Discord: the classic presentation run on the kernel's words.

Real 1897 games (every expansion) through the presenter: the kernel-words reading of every
view is exact (read back, it is the view again); every panel control submits exactly the legal
1897 codes (a button its own, a menu's value through ``select_code``); the Recruiter's draft
submits 1897 codes; labels, prompts, log lines and refusals speak 1897's words; the lobby's
rules are 1897's options and back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel, Refusing, Situation
from bot.games.puerto_rico_1897 import PuertoRico1897Presenter
from bot.games.puerto_rico_1897 import kernel as K
from bot.panels import PanelView
from engine import get_game
from engine.core import Event, IllegalAction
from engine.policies import make_policy
from storage import ActionRecord, GameRecord, GameStatus, SeatRecord
from tests.bot.test_panels import components_of, walk

P = presenter_for("puerto-rico-1897")
GAME = get_game("puerto-rico-1897")
AT = datetime(2026, 1, 1, tzinfo=UTC)
ALL = [1, 2, 3, 4, 5]
CLASSIC = re.compile(
    r"\b(indigo|doubloons?|colonists?|san juan|plantations?|settler|mayor|prospector|"
    r"buccaneer|hospice|university|nobles?|vp chips?|violet|privilege|barrels?|guild hall|"
    r"construction hut|guest house|black market|forest house|trading post|royal supplier|"
    r"hunting lodge|villa|jeweler)\b",
    re.IGNORECASE,
)
"""The classic words 1897 says otherwise (§1, §5, §7): none in an 1897 game's English."""


def record(players: int, options: dict[str, Any]) -> GameRecord:
    seats = tuple(SeatRecord(n, 100 + n, None, AT) for n in range(players))
    return GameRecord(
        7,
        GAME.name,
        options,
        1,
        GameStatus.ACTIVE,
        42,
        40,
        1,
        2,
        100,
        "en",
        AT,
        AT,
        AT,
        AT,
        None,
        seats,
    )


@cache
def game(players: int, seed: int, expansions: tuple[int, ...]) -> tuple[Any, ...]:
    """Every (state, events) of one random game."""
    state = GAME.setup({"players": players, "expansions": list(expansions)}, seed)
    policy = make_policy("random", GAME.name, seed)
    out: list[tuple[Any, list[Event]]] = [(state, [])]
    while (prompt := GAME.prompt(state)) is not None:
        seat = prompt.seats[0]
        action = policy.choose(GAME, state, seat, GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, action)
        out.append((state, events))
    return tuple(out)


def decisions(players: int, seed: int, expansions: tuple[int, ...]) -> Iterator[tuple[Any, int]]:
    for state, _ in game(players, seed, expansions):
        prompt = GAME.prompt(state)
        for seat in prompt.seats if prompt else ():
            yield state, seat


def panel_of(state: Any, seat: int) -> Panel:
    view = GAME.view(state, seat)
    prompt = GAME.prompt(state)
    codes = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
    kind = prompt.kind if codes and prompt and seat in prompt.seats else None  # as turns.py
    players = len(view["players"])
    return Panel(
        record(players, dict(view["options"])),
        seat,
        view,
        kind,
        codes,
        {n: f"P{n}" for n in range(players)},
        extras=P.panel_extras(GAME, state, seat, view, codes, kind),
    )


def submitted(components: list[dict[str, Any]]) -> set[str]:
    """Every code one control of the panel submits: a button's own, a menu value's through
    the presenter (as the bot's menu handler does)."""
    out = set()
    for comp in walk(components):
        custom_id = str(comp.get("custom_id", ""))
        if comp.get("disabled"):
            continue
        if custom_id.startswith("g:"):
            out.add(custom_id.split(":", 3)[3])
        if custom_id.startswith("gs:") and comp.get("max_values", 1) == 1:
            name = custom_id.split(":")[3]
            for option in comp["options"]:
                code = P.select_code(name, [option["value"]])
                assert code is not None, (name, option)
                out.add(code)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_the_kernel_reading_of_every_view_is_exact(players: int, seed: int) -> None:
    """The presenter reads each view in the kernel's words and puts it back for the images:
    back, it is the engine's view again (public and every seat's, every expansion)."""
    for state, _ in game(players, seed, tuple(ALL))[::7]:
        for viewer in (None, *range(players)):
            view = GAME.view(state, viewer)
            kernel = K.kernel_view(view)
            assert kernel["options"]["modules"] == [
                "new_buildings",
                "nobles",
                "buccaneer",
                "festival",
                "festival_activities",
            ]
            assert K.edition_view(kernel) == view


@pytest.mark.parametrize(("players", "seed"), [(3, 5), pytest.param(5, 7, marks=pytest.mark.slow)])
def test_every_panel_submits_exactly_the_legal_1897_codes(players: int, seed: int) -> None:
    """Buttons carry 1897's codes; the menus' values (the classic code's) become 1897's
    through ``select_code``; the Recruiter's draft submits 1897's placements."""
    kinds = set()
    for state, seat in decisions(players, seed, tuple(ALL)):
        panel = panel_of(state, seat)
        if panel.kind is None:
            continue
        kinds.add(panel.kind)
        layout, _ = PanelView(panel, "en").build()
        components = components_of(layout)
        every = list(walk(components))
        assert all(len(str(c.get("custom_id", ""))) <= 100 for c in every)
        assert all(len(str(c.get("label", ""))) <= 80 for c in every)
        offered = submitted(components)
        assert offered <= set(panel.legal), (panel.kind, offered - set(panel.legal))
        if panel.kind == "arrange":
            plan = panel.extras["arrangement"]
            assert isinstance(plan, K.EditionArrangement)
            codes = plan.codes(plan.suggested)
            assert codes and all(c.startswith(("w.", "wc.")) for c in codes)
            for code in dict.fromkeys(codes):
                GAME.decode_action(code)  # an 1897 code
        elif not any(c.get("min_values", 1) != c.get("max_values", 1) for c in every):
            assert offered == set(panel.legal), panel.kind
    assert {
        "role",
        "plant",
        "build",
        "sell",
        "ship",
        "arrange",
        "produce",
        "draft",
        "smuggler",
    } <= kinds


def test_labels_prompts_and_the_panel_speak_1897() -> None:
    """Every label, description and prompt of a 4-player game with Expansions I-V, in
    English, is in 1897's words; the production decision says what it makes."""
    seen_produce = False
    for state, seat in decisions(4, 11, tuple(ALL)):
        panel = panel_of(state, seat)
        if panel.kind is None:
            continue
        words = P.words(panel.view, "en", extras=panel.extras, kind=panel.kind)
        texts = [P.prompt_text(panel.kind, "en"), P.panel_status(panel, words, "en") or ""]
        for code in panel.legal:
            texts += [words.label(code), words.choice_name(code), words.description(code) or ""]
        for text in texts:
            assert CLASSIC.search(text) is None, (panel.kind, text)
        if panel.kind == "produce" and "produce" in panel.legal:
            label = words.label("produce")
            assert label.startswith("Produce ") and re.search(r"\d", label), label
            assert words.label("pass") == "Decline: produce nothing"
            seen_produce = True
    assert seen_produce


def test_the_log_of_a_whole_game_speaks_1897() -> None:
    """The log's lines of every action of a game with Expansions I-V; the end coming is told
    as 1897's (after the phase); a Festival Activity completed says what it brings."""
    steps = game(4, 12, tuple(ALL))
    actions = [
        ActionRecord(7, n, 0, "pass", None, AT, tuple(e.to_json() for e in events))
        for n, (_, events) in enumerate(steps[1:], start=1)
    ]
    lines = P.log_writer({n: f"P{n}" for n in range(4)}, "en").lines(actions)
    assert len(lines) > 200
    for line in lines:
        assert CLASSIC.search(line) is None, line
    assert any(line.startswith("The game ends after this phase") for line in lines)
    assert any(line.startswith("Festival activity: ") and " gets " in line for line in lines)
    assert any(line.endswith(" declined to produce.") for line in lines)


def test_the_festival_workers_placed_at_once_are_logged() -> None:
    """X4: the property goal's workers placed at once each make a line."""
    writer = P.log_writer({0: "Ana"}, "en")
    event = Event("WorkerPlaced", 0, {"target": "large_fruit_depot", "by": "festival"})
    action = ActionRecord(7, 1, 0, "fw.large_fruit_depot", 100, AT, (event.to_json(),))
    assert writer.lines([action]) == ["Ana places a Festival worker on Large fruit depot."]


def test_the_lure_counts_the_citizen_in_the_agency() -> None:
    """A-34 (X3-C with Expansion II): a citizen in the Agency is one of the pieces the Lure
    takes off, so the option says what it takes (not "nothing happens")."""
    for state, seat in decisions(3, 9, (2, 3)):
        view = GAME.view(state, seat)
        prompt = GAME.prompt(state)
        if (
            prompt is None
            or prompt.kind != "smuggler"
            or "sm.lure" not in [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]
        ):
            continue
        agency = view["workers"]["agency"] + view["citizens"]["agency"]
        if view["citizens"]["agency"] and agency > 3:
            label = P.words(view, "en", kind="smuggler").label("sm.lure")
            assert "nothing happens" not in label, label
            return
    pytest.skip("no Lure with a citizen in the Agency in this game")


def test_lobby_rules_are_1897s_options_and_back() -> None:
    """The lobby's rules (the classic ids) become 1897's options, which the engine accepts,
    and the stored options give the same rules back."""
    chosen = [
        "new_buildings",
        "random_buildings",
        "exclusive_forest_house",
        "nobles",
        "buccaneer",
        "festival",
    ]
    options = P.lobby_options(4, chosen)
    assert options == {
        "players": 4,
        "expansions": [1, 2, 3, 4],
        "building_selection": "random",
        "pair_hacienda_lumber_mill": True,
    }
    stored = GAME.normalize_options(options)
    assert P.variants_on(stored) == chosen
    assert P.lobby_options(3, []) == {"players": 3}
    assert P.variants_on(GAME.normalize_options({"players": 3, "expansions": [3]})) == ["buccaneer"]


def test_a_refusal_is_worded_in_1897s_words() -> None:
    """An unaffordable building refused by the engine is explained with 1897's words."""
    for state, seat in decisions(3, 3, ()):
        prompt = GAME.prompt(state)
        if prompt is None or prompt.kind != "build":
            continue
        view = GAME.view(state, seat)
        coins = view["players"][seat]["coins"]
        dear = [m["building"] for m in view["market"] if m["cost"] > coins + 4 and m["left"]]
        if not dear:
            continue
        code = f"b.{dear[0]}"
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, seat, GAME.decode_action(code))
        situation = Situation(
            7, seat, view, {0: "A", 1: "B", 2: "C"}, action=code, game_name=GAME.name
        )
        words = Refusing(situation, P, "en")
        found = P.refusal(words, refused.value.code, code)
        assert found is not None
        text = P.catalog.t("en", found[0], **found[1])
        assert "coin" in text and CLASSIC.search(text) is None, text
        return
    pytest.fail("no unaffordable building in the game")


def test_role_buttons_and_decisions_are_1897_codes() -> None:
    state, _ = game(5, 2, tuple(ALL))[0]
    view = GAME.view(state, None)
    codes = [code for code, _ in P.role_buttons(view)]
    assert "r.planter" in codes and "r.recruiter" in codes and "r.smuggler" in codes
    assert {d.name: d.prefixes for d in P.decisions}["settle"] == ("p.",)
    assert any(d.matches("p.fruit") for d in P.decisions)
    assert not any(d.matches("s.indigo") for d in P.decisions)


def test_the_festival_activities_in_the_lobby_and_the_table_text() -> None:
    """Expansion V is a lobby rule of 1897's own (with IV, which it needs); the table in words
    lists its cards."""
    assert "festival_activities" in P.variants and "achievements" in P.variants
    assert P.lobby_options(2, ["achievements"]) == {"players": 2, "expansions": [6]}
    assert P.variants_on(GAME.normalize_options({"players": 2, "expansions": [6]})) == [
        "achievements"
    ]
    pages = {t.id: P.help_text(t, "en", {}) for t in P.help_topics() if t.group == "module"}
    assert pages["achievements"].startswith("**The Achievements (Exp. VI)**\n")
    assert pages["festival_activities"].startswith("**The Festival Activities")
    options = P.lobby_options(3, ["festival_activities"])
    assert options == {"players": 3, "expansions": [4, 5]}
    assert P.variants_on(GAME.normalize_options(options)) == ["festival", "festival_activities"]
    state = GAME.setup(options, 4)
    view = GAME.view(state, None)
    fields = dict(P.summary(view, {0: "A", 1: "B", 2: "C"}, "en"))
    text = fields["Festival activities"]
    assert text.count("(open)") == 3
    for card in view["festival_activities"]:
        assert P.catalog.t("en", f"activity.{card['activity']}") in text
        for entry in card["properties"] + card["goods"]:
            kind = K.kernel_word(entry.get("tile") or entry.get("good"))
            assert f"{entry['count']} {P.catalog.t('en', f'good.{kind}')}" in text
    assert P.header_lines(view, {}, "en")[-1] == "Expansions: IV and V"


def test_an_achievement_is_announced_from_the_panel_at_any_moment() -> None:
    """X6-3: a met card is announced whenever its holder likes: the panel of a player the
    prompt does not name offers it (with its title and VP, only to him), as a button carrying
    the 1897 code; the log tells the table which card was announced."""
    for state, _ in game(4, 5, (6,)):
        prompt = GAME.prompt(state)
        if prompt is None:
            continue
        for seat in range(4):
            if seat in prompt.seats:
                continue
            codes = [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]
            if not codes:
                continue
            panel = panel_of(state, seat)
            assert panel.kind is None and set(panel.legal) == set(codes)
            assert all(c.startswith("ach.") for c in codes)
            layout, _ = PanelView(panel, "en").build()
            components = components_of(layout)
            assert submitted(components) == set(codes)
            texts = [str(c.get("content", "")) for c in walk(components)]
            assert any("whoever's turn it is" in t for t in texts)
            words = P.words(panel.view, "en", extras=panel.extras, kind=None)
            card = codes[0].split(".", 1)[1]
            mine = {c["achievement"]: c for c in panel.view["achievements"]["hand"]}
            title = P.catalog.t("en", f"achievement.{card}")
            assert words.label(codes[0]) == f"Announce “{title}” ({mine[card]['vp']} VP)"
            assert words.description(codes[0]) == P.catalog.t("en", f"objective.{card}")
            after, events = GAME.apply(state, seat, GAME.decode_action(codes[0]))
            assert GAME.prompt(after) == prompt  # the decision waiting is the same
            action = ActionRecord(
                7, 1, seat, codes[0], 100 + seat, AT, tuple(e.to_json() for e in events)
            )
            lines = P.log_writer({n: f"P{n}" for n in range(4)}, "en").lines([action])
            assert lines == [f"P{seat} announces the Achievement “{title}”."]
            return
    pytest.fail("no met card held by a seat the prompt does not name")


def test_an_achievement_is_announced_beside_the_decision_asked() -> None:
    """X6-3: a met card can be announced while its holder is asked something else (a build,
    a load...): the decision's own controls, then the announcement's button."""
    kinds = set()
    for state, seat in decisions(4, 8, (1, 6)):
        panel = panel_of(state, seat)
        if panel.kind is None or not any(c.startswith("ach.") for c in panel.legal):
            continue
        kinds.add(panel.kind)
        layout, _ = PanelView(panel, "en").build()
        components = components_of(layout)
        offered = submitted(components)
        assert {c for c in panel.legal if c.startswith("ach.")} <= offered, panel.kind
        assert offered <= set(panel.legal)
    assert {"build", "arrange", "ship"} <= kinds, kinds  # the classic panel's own controls


# --- the Puertoma's seats (§8) ----------------------------------------------------------------


def test_puertoma_seats_become_the_engines_options() -> None:
    """A lobby seats Puertomas like AI seats of their own kinds, one per difficulty (§8.14);
    at the start they sit last and the engine is told how many, at which difficulty."""
    from bot.errors import UserError
    from bot.seatnames import occupant_name

    assert set(P.automata) == {"puertoma", "puertoma_easy", "puertoma_hard"}
    tables = PuertoRico1897Presenter.automata_tables  # PTM-MODE-1, -2
    assert (1, 2) in tables and (2, 1) not in tables
    assert P.seated_options({"players": 3}, []) == {"players": 3}
    assert P.seated_options({"players": 3, "expansions": [6]}, ["puertoma_hard"] * 2) == {
        "players": 3, "expansions": [6], "puertomas": 2, "puertoma_difficulty": "hard"}
    with pytest.raises(UserError) as err:
        P.seated_options({"players": 3}, ["puertoma", "puertoma_easy"])
    assert err.value.key == "err.automata_mixed"
    for lang in ("en", "es", "pt"):
        assert occupant_name(None, "puertoma_easy", 2, lang, P.catalog, {}) == "Puertoma 3"
        for kind in P.automata:  # the lobby's menu names each and says how it plays
            assert "Puertoma" in P.catalog.t(lang, f"level.{kind}")
            assert 0 < len(P.catalog.t(lang, f"lobby.about.{kind}")) <= 100
    engine = get_game("puerto-rico-1897")
    for people, puertomas in tables:  # every table the lobby allows, the engine too
        options = P.seated_options({"players": people + puertomas}, ["puertoma"] * puertomas)
        assert engine.normalize_options(options)["puertomas"] == puertomas


def test_the_lobby_offers_only_seats_a_start_can_accept() -> None:
    """Issue #33: a Puertoma of one difficulty seated, the lobby offers no other (§8.14), nor
    any seat after which no table of PTM-MODE-1/-2 can be reached within the table's size; a
    lobby built only from what it offers can always be completed into a table the start
    accepts (the rule is the presenter's; the generic lobby only asks it)."""
    from bot.seats import AI_LEVELS, offered_seats

    kinds = (*AI_LEVELS, *P.automata)

    def offered(seats: tuple[str | None, ...], capacity: int) -> list[str]:
        record = GameRecord(7, P.name, {"players": capacity}, 1, GameStatus.LOBBY, 1, 0, 1, 2, 3,
                            "en", AT, AT, None, None, None,
                            tuple(SeatRecord(n, None if k else 100 + n, k, AT)
                                  for n, k in enumerate(seats)))
        return offered_seats(record)

    assert offered((None,), 3) == list(kinds)
    assert offered((None, "puertoma"), 3) == ["puertoma"]  # not hard: one difficulty (§8.14)
    assert offered((None, "puertoma_hard"), 5) == [*AI_LEVELS, "puertoma_hard"]  # -> 3 + 1
    assert offered((None, "puertoma", "puertoma"), 5) == []  # 1 + 2 is the only such table
    assert offered((None, None, None), 3) == []  # full
    assert P.seat_refusal([None, "puertoma"], "puertoma_hard", 3, "en") == (
        "err.automata_mixed", {"kind": "Puertoma"})
    refused = P.seat_refusal([None, "puertoma"], "heuristic", 3, "es")
    assert refused is not None and refused[0] == "err.automata_seats"
    assert refused[1]["tables"] == "1 + 2, 1 + 1, 3 + 1, 4 + 1"
    assert P.start_refusal([None, "puertoma", "puertoma_easy"], "en") == (
        "err.automata_mixed", {"kind": "Puertoma"})
    assert P.start_refusal([None, None, "puertoma"], "en") is not None
    assert P.start_refusal([None, "random", "strong"], "en") is None
    assert P.start_refusal([None, "puertoma_hard", "puertoma_hard"], "en") is None
    assert presenter_for("puerto-rico").start_refusal([None, "strong", "random"], "en") is None

    def startable(seats: tuple[str | None, ...], capacity: int) -> bool:
        """The start accepts ``seats``, or seats the lobby offers next lead to one it does."""
        return (len(seats) >= 2 and P.start_refusal(list(seats), "en") is None) or any(
            startable((*seats, kind), capacity) for kind in offered(seats, capacity))

    for capacity in range(2, 6):  # every lobby reached by what it offers can be completed
        seen: set[tuple[str | None, ...]] = set()
        todo: list[tuple[str | None, ...]] = [(None,)]
        while todo:
            seats = todo.pop()
            if seats not in seen:
                seen.add(seats)
                todo += [(*seats, kind) for kind in offered(seats, capacity)]
        assert len(seen) > len(kinds)  # one person, and each kind beside them
        for seats in seen:
            assert startable(seats, capacity), (capacity, seats)

@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_boards_text_tells_a_puertomas_board_and_hides_its_face_down_skills(lang: str
                                                                                ) -> None:
    """The table's text (for screen readers, ``/game status``) says a Puertoma's properties,
    VP area, unlocked skills and Reserve token, and the action board; a face-down skill is
    only counted."""
    from engine.puerto_rico_1897 import puertoma as ptm

    engine = get_game("puerto-rico-1897")
    state = engine.setup({"players": 3, "puertomas": 2, "puertoma_difficulty": "hard"}, 1)
    names = {0: "ana", 1: "Puertoma 2", 2: "Puertoma 3"}
    fields = dict(P.summary(engine.view(state, None), names, lang))
    assert P.catalog.t(lang, "table.puertoma_board") in fields
    for seat in (1, 2):
        text = next(v for k, v in fields.items() if k.endswith(names[seat]))
        # the skills' part: the one counting the face-down tiles in brackets
        skills = next(part for part in text.split("\n")[0].split(" · ") if "(" in part)
        at = ptm.board_at(state, seat)
        for level in range(1, ptm.LEVELS):  # levels 2-4 are face down at the start
            hidden = ptm.SKILLS[level][state.puertoma[at + ptm.SKILL_AT + level]]
            assert P.catalog.t(lang, f"ptm_skill.{hidden}") not in skills
        unlocked = ptm.SKILLS[0][state.puertoma[at + ptm.SKILL_AT]]
        assert P.catalog.t(lang, f"ptm_skill.{unlocked}") in skills  # Hard: level 1 is up
        assert "3)" in skills and ("1/2" in text or "0/1" in text)
