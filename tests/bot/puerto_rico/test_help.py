"""/game rules and the panels' help for Puerto Rico: every role, building and decision has its
words in every language (the keys are built from engine ids, so the catalog test cannot see
them)."""

from __future__ import annotations

import pytest

from bot.games import presenter_for
from bot.games.contract import HelpTopic
from bot.games.puerto_rico.catalog import CATALOG
from bot.games.puerto_rico.help import (
    EXP1_BUILDINGS,
    EXP1_TOPICS,
    EXP2_BUILDINGS,
    MODULE_TOPICS,
)
from bot.help import help_text
from bot.i18n import LANGUAGES
from engine.puerto_rico.data import ROLES

PROMPT_KINDS = ("role", "settle", "hospice", "university", "mayor_privilege", "arrange", "build",
                "craft_privilege", "sell", "ship", "keep")
PR = presenter_for("puerto-rico")


def topic(ident: str) -> HelpTopic:
    return next(t for t in PR.help_topics() if t.id == ident)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_has_its_help(lang: str) -> None:
    topics = PR.help_topics()
    # the expansions presented (and the Nobles), Exp. 1's buildings, draft and forests,
    # Exp. 2's buildings
    assert len(topics) == (1 + len(ROLES) + 23 + len(MODULE_TOPICS) + len(EXP1_BUILDINGS)
                           + len(EXP1_TOPICS) + len(EXP2_BUILDINGS))
    for found in topics:
        text = help_text(PR, found, lang)
        assert text.startswith("**") and "{" not in text, (lang, found)
        assert PR.topic_name(found, lang)


def test_building_help_shows_the_engines_numbers() -> None:
    assert help_text(PR, topic("harbor"), "en").startswith(
        "**Harbor** · cost 8 · 3 VP · column 3 · 1 circle · violet building")
    assert help_text(PR, topic("residence"), "es").startswith("**Residencia** · coste 10 · 4 PV")


def test_every_decision_has_its_panel_words() -> None:
    for kind in PROMPT_KINDS:
        assert CATALOG.has(f"prompt.{kind}")
        assert kind == "arrange" or CATALOG.has(f"panel.help.{kind}"), kind
    for kind in ("settle", "build", "sell", "ship", "craft_privilege", "hospice", "university",
                 "mayor_privilege"):
        assert CATALOG.has(f"pass.{kind}"), kind
