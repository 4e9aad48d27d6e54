"""Action codes in words: the base every game's words extend (``bot/games/<game>/``).

Pure: an engine action code plus the view the chooser sees (and the ``extras`` the game's
presenter measured for the panel) become a short label (buttons: 80 characters), a description
(select options, autocomplete: 100) and a one-line choice name.  The engine stays the one source
of legality: words only name codes they were given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .i18n import Catalog
from .limits import clip

LABEL_LIMIT = 80  # buttons take 80 characters, select options and choices 100
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100


class Words:
    """Words for the codes one viewer may choose now."""

    def __init__(
        self,
        view: Mapping[str, Any],
        lang: str,
        catalog: Catalog,
        *,
        extras: Mapping[str, Any] | None = None,
        kind: str | None = None,
    ) -> None:
        self.view = view
        self.lang = lang
        self.catalog = catalog
        self.extras: Mapping[str, Any] = extras or {}
        self.prompt_kind = kind or str((view.get("prompt") or {}).get("kind", ""))

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def word(self, prefix: str, value: str) -> str:
        """``prefix.value`` in words, or the id made readable."""
        key = f"{prefix}.{value}"
        return self.t(key) if self.catalog.has(key) else value.replace("_", " ")

    def me(self) -> Mapping[str, Any]:
        """The viewer's own entry of the view's players (empty in the public view)."""
        viewer = self.view.get("viewer")
        players: Sequence[Mapping[str, Any]] = self.view.get("players") or self.view.get(
            "seats") or ()
        if isinstance(viewer, int) and 0 <= viewer < len(players):
            return players[viewer]
        return {}

    def label(self, code: str) -> str:
        """A button or select option's label (at most 80 characters)."""
        return clip(self.plain_label(code), LABEL_LIMIT)

    def plain_label(self, code: str) -> str:
        """The label before clipping (a game overrides this)."""
        if code == "pass":
            key = f"pass.{self.prompt_kind}"
            return self.t(key) if self.catalog.has(key) else self.t("pass.default")
        return self.word("act", code)

    def description(self, code: str) -> str | None:
        """A second line: what the choice brings, in a few words (``None``: nothing)."""
        return None

    def joiner(self, code: str) -> str:
        """Between a choice's label and its description on one line."""
        return " — "

    def choice_name(self, code: str) -> str:
        """Label and description on one line (autocomplete shows a single line of 100)."""
        details = self.description(code)
        if details is None:
            return clip(self.plain_label(code), CHOICE_LIMIT)
        return clip(f"{self.plain_label(code)}{self.joiner(code)}{details}", CHOICE_LIMIT)
