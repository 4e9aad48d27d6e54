"""San Juan on Discord: its words (``i18n/``, the seed's Spanish card names), the words of its
action codes (:mod:`.words`), its multi-select decisions (:mod:`.panels`: the payment, the
Councillor's keep, the hand-limit discard), its log lines (:mod:`.gamelog`), its refusals
(:mod:`.refusals`), its help topics (:mod:`.help`) and its table in words (:mod:`.summary`).
Importing the package registers :data:`PRESENTER`.

Hidden information is the point of this game: the hand lives only in the seat's own view (the
ephemeral panel and its image); everything else here reads the public view or the seat's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

import discord
from discord import ui

from engine.core import Game
from engine.san_juan.data import CARDS, GOODS, ROLES
from storage import ActionRecord

from ...gamelog import LogWriter
from ...i18n import Catalog
from ...words import Words
from ..contract import (
    Decision,
    GamePresenter,
    HelpTopic,
    Panel,
    PanelControls,
    Refusing,
    register_presenter,
)
from . import help as topics
from . import panels, refusals, summary
from .catalog import CATALOG, FOLDER
from .gamelog import SanJuanLogWriter, view_at_phase_end
from .words import SanJuanWords, family, san_juan_view


def _starts(*prefixes: str) -> Any:
    return lambda code: code.startswith(prefixes)


DECISIONS = (
    Decision("role", "role", _starts("r."), ("r.",), "r.?"),
    Decision("build", "building", _starts("b."), ("b.",), "b.?"),
    Decision("pay", "cards", lambda c: family(c) == "pay", (), "p.?"),
    Decision("produce", "goods", _starts("pr."), (), "pr.?"),
    Decision("sell", "goods", _starts("s."), (), "s.?"),
    Decision("keep", "cards", _starts("k."), (), "k.?"),
    Decision("discard", "cards", _starts("d."), (), "d.?"),
    Decision("chapel", "card", _starts("c."), ("c.",), "c.?"),
    Decision("take", "card", _starts("gm."), ("gm.",), "gm.?"),
    Decision("draw", None, lambda c: c == "draw", (), "draw"),
    Decision("reveal", None, lambda c: c == "reveal", (), "reveal"),
    Decision("pass", None, lambda c: c == "pass", (), "pass"),
)


class SanJuanPresenter(GamePresenter):
    name: ClassVar[str] = "san-juan"
    command: ClassVar[str] = "sj"
    folder = FOLDER
    players: ClassVar[tuple[int, int]] = (2, 4)
    variants: ClassVar[tuple[str, ...]] = ("variant_start",)
    decisions: ClassVar[tuple[Decision, ...]] = DECISIONS
    image_prefixes: ClassVar[tuple[str, ...]] = (
        "role.", "privilege.", "card.", "short.", "effect.", "good.", "phase.", "prompt.",
        "end.", "ui.", "legend.", "score.",
    )
    select_parts: ClassVar[str | tuple[str, ...]] = panels.MENUS

    @cached_property
    def catalog(self) -> Catalog:
        return CATALOG

    # --- words ------------------------------------------------------------------------------

    def words(self, view: Mapping[str, Any], lang: str, *, extras: Mapping[str, Any] | None = None,
              kind: str | None = None) -> Words:
        return SanJuanWords(view, lang, self.catalog, extras=extras, kind=kind)

    def family(self, code: str) -> str:
        return family(code)

    def prompt_family(self, kind: str) -> str:
        return refusals.PROMPT_FAMILIES.get(kind, "")

    def prompt_text(self, kind: str, lang: str) -> str:
        """What a prompt asks, without the image's question mark ("Prospector: draw a card")."""
        return super().prompt_text(kind, lang).rstrip("?")

    def names_for(self, words: Words, wanted: str) -> list[str]:
        """Ids of roles, cards and goods whose id or name in the reader's language is
        ``wanted`` (case-insensitive)."""
        out = []
        for prefix, ids in (("role", ROLES), ("card", [c.name for c in CARDS]),
                            ("good", GOODS)):
            for ident in ids:
                if wanted in {ident, ident.replace("_", " "),
                              words.word(prefix, ident).casefold()}:
                    out.append(ident)
        return out

    # --- the lobby ---------------------------------------------------------------------------

    def lobby_options(self, players: int, variants: Iterable[str] = ()) -> dict[str, Any]:
        chosen = set(variants)
        return {"players": players, "variant_start": "variant_start" in chosen}

    # --- the table and the story -------------------------------------------------------------

    def header_lines(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                     ) -> list[str]:
        return summary.header_lines(san_juan_view(view), names, lang, self.catalog)

    def summary(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                ) -> list[tuple[str, str]]:
        return summary.summary_fields(san_juan_view(view), names, lang, self.catalog)

    def role_buttons(self, view: Mapping[str, Any]) -> list[tuple[str, int | None]]:
        """The role cards; with the Library (public: who owns one and whether it was used this
        round) the prompted chooser's buttons double the privilege, as they would want — the
        panel offers the plain choice too (in 2 players one may keep it for the second role)."""
        sj = san_juan_view(view)
        prompt, seats = sj["prompt"], sj["seats"]
        lib = ""
        if prompt is not None and prompt["kind"] == "role" and prompt["seats"]:
            chooser = seats[prompt["seats"][0]]
            if chooser["library"] and not chooser["library_used"]:
                lib = ".lib"
        return [(f"r.{role['name']}{lib if role['taken_by'] is None else ''}",
                 role["taken_by"]) for role in sj["roles"]]

    def choice_name(self, kind: str, name: str, lang: str) -> str:
        """A building is a card of the game (``card.<id>``)."""
        return super().choice_name("card" if kind == "building" else kind, name, lang)

    def score_part(self, part: str, lang: str) -> str:
        for key in (f"score.{part}", f"card.{part}"):
            if self.catalog.has(key):
                return self.catalog.t(lang, key)
        return part.replace("_", " ")

    def log_writer(self, names: Mapping[int, str], lang: str, humans: Iterable[int] = ()
                   ) -> LogWriter:
        return SanJuanLogWriter(names, lang, self.catalog, humans=humans)

    def view_at_phase_end(self, view: Mapping[str, Any], actions: Sequence[ActionRecord],
                          end: int, part: int = 0) -> Mapping[str, Any]:
        return view_at_phase_end(san_juan_view(view), actions, end)  # one phase per action

    # --- the private panel -------------------------------------------------------------------

    def panel_extras(self, game: Game[Any], state: Any, seat: int, view: Mapping[str, Any],
                     codes: Sequence[str], kind: str | None) -> dict[str, Any]:
        """How many cards each sale would bring (tried on a copy of the game: the count of the
        seat's own hand, never which cards)."""
        if kind != "sell":
            return {}
        before = len(san_juan_view(view).get("hand") or ())
        effects = {}
        for code in codes:
            if code.startswith("s."):
                after, _ = game.apply(state, seat, game.decode_action(code))
                effects[code] = len(san_juan_view(game.view(after, seat)).get("hand") or ()
                                    ) - before
        return {"effects": effects}

    def panel_status(self, panel: Panel, words: Words, lang: str) -> str | None:
        view = san_juan_view(panel.view)
        me = view["seats"][panel.seat]
        assert isinstance(words, SanJuanWords)
        hand = view.get("hand") or []
        line = self.catalog.t(lang, "panel.me", n=len(hand), buildings=me["building_count"],
                              goods=me["goods"], vp=me["vp"], hand=words.cards(hand) or "—")
        chapel = any(b["card"] == "chapel" or "chapel" in b["covered"] for b in me["buildings"])
        if chapel:  # the count under one's own Chapel (a Chapel covered by a Crane still counts)
            line += self.catalog.t(lang, "panel.me_chapel", chapel=view.get("chapel_cards", 0))
        if me["waiting"]:  # the Councillor's draw asked for, dealt in the spec's order
            line += "\n" + self.catalog.t(lang, "panel.councillor_waiting")
        return line

    def panel_controls(self, view: PanelControls) -> list[ui.Item[Any]] | None:
        return panels.controls(view)

    def compose(self, name: str, values: Sequence[str]) -> str | None:
        return panels.compose(name, values)

    def decompose(self, name: str, code: str, values: Sequence[str]) -> list[str] | None:
        return panels.decompose(name, code, values)

    def button_style(self, code: str) -> discord.ButtonStyle | None:
        if code in ("draw", "reveal"):
            return discord.ButtonStyle.success
        return None

    # --- refusals and help -------------------------------------------------------------------

    def refusal(self, words: Refusing, code: str, action: str
                ) -> tuple[str, dict[str, Any]] | None:
        return refusals.illegal(words, code, action)

    def help_topics(self) -> tuple[HelpTopic, ...]:
        return topics.topics()

    def topic_name(self, topic: HelpTopic, lang: str) -> str:
        return topics.topic_name(topic, lang, self.catalog)

    def help_text(self, topic: HelpTopic, lang: str, commands: Mapping[str, str]) -> str:
        return topics.help_text(topic, lang, self.catalog, commands)


PRESENTER = register_presenter(SanJuanPresenter())

__all__ = ["CATALOG", "DECISIONS", "PRESENTER", "SanJuanPresenter"]
