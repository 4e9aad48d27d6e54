"""Words found wrong by playing through on Discord (tests/e2e/playthrough.py, issue #9)."""

from __future__ import annotations

from bot.games.puerto_rico.catalog import CATALOG


def test_spanish_log_names_a_building_with_an_article() -> None:
    """'ana construyó Añilería' lacks the article Spanish needs before a building's name."""
    built = CATALOG.t("es", "log.built", name="ana", building="Añilería", price=2)
    free = CATALOG.t("es", "log.built_free", name="ana", building="Mercado pequeño")
    assert built == "ana construyó el edificio Añilería por 2 doblones."
    assert free == "ana construyó el edificio Mercado pequeño gratis."


def test_spanish_lobby_settings_read_as_one_sentence() -> None:
    """'Mesa: Hasta 3 jugadores · nivel de la IA…': only the first item was capitalized."""
    line = CATALOG.t("es", "lobby.settings_value", max=3, level="normal", language="español")
    assert line == "hasta 3 jugadores · nivel de la IA: normal · idioma: español"
