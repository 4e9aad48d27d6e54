"""/pr rules and the panels' help: every role, building and decision has its words in every
language (the keys are built from engine ids, so the catalog test cannot see them)."""

from __future__ import annotations

import pytest

from bot.help import HELP_TOPICS, help_text, topic_name
from bot.i18n import CATALOG, LANGUAGES
from engine.puerto_rico.data import ROLES

PROMPT_KINDS = ("role", "settle", "hospice", "university", "mayor_privilege", "arrange", "build",
                "craft_privilege", "sell", "ship", "keep")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_has_its_help(lang: str) -> None:
    assert len(HELP_TOPICS) == 1 + len(ROLES) + 23
    for topic in HELP_TOPICS:
        text = help_text(topic, lang)
        assert text.startswith("**") and "{" not in text, (lang, topic)
        assert topic_name(topic, lang)
    assert help_text("nonsense", lang) == help_text("overview", lang)


def test_building_help_shows_the_engines_numbers() -> None:
    assert help_text("harbor", "en").startswith(
        "**Harbor** · cost 8 · 3 VP · column 3 · 1 circle · violet building")
    assert help_text("residence", "es").startswith("**Residencia** · coste 10 · 4 PV")


def test_every_decision_has_its_panel_words() -> None:
    for kind in PROMPT_KINDS:
        assert CATALOG.has(f"prompt.{kind}")
        assert kind == "arrange" or CATALOG.has(f"panel.help.{kind}"), kind
    for kind in ("settle", "build", "sell", "ship", "craft_privilege", "hospice", "university",
                 "mayor_privilege"):
        assert CATALOG.has(f"pass.{kind}"), kind
