"""Classic Puerto Rico on Discord: its words (``i18n/``), the words of its action codes
(:mod:`.choices`), its log lines (:mod:`.gamelog`), its panel's Builder menus and Mayor draft
(:mod:`.panels`, :mod:`.arrange`, :mod:`.components`, :mod:`.flow`), its refusals
(:mod:`.refusals`), its help topics (:mod:`.help`) and its table in words (:mod:`.summary`).
The expansions it presents (:data:`.modules.MODULES`: Exp. 1 the New Buildings, Exp. 2 the
Nobles, Exp. 3 the Buccaneer, Exp. 4 the Festival) are the lobby's optional rules
(:data:`.modules.VARIANTS`, with Exp. 1's random buildings and 2004 rule); the Buccaneer's panel
is :mod:`.buccaneer`, Exp. 1's words and panels :mod:`.new_buildings` and :mod:`.exp1_panels`,
Exp. 2's nobles in the Mayor draft :mod:`.arrange`.
Importing the package registers :data:`PRESENTER`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

import discord
from discord import ui

from engine.core import Game
from engine.puerto_rico.data import ALL_ROLES, GOODS
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
from . import exp1_panels, modules, new_buildings, panels, refusals, summary
from . import help as topics
from .arrange import Arrangement, arrangement, drafted, nobles_waiting
from .catalog import CATALOG, FOLDER
from .choices import Chooser, Effect, family
from .components import ArrangeButton, ArrangeSelect, BlackMarketSelect
from .gamelog import OPENERS, PrLogWriter, view_at_phase_end
from .words import puerto_rico_view

MEASURED = ("sell", "ship")  # choices whose gains the panel shows, measured on a copy
PRODUCE = "produce"  # the kernel's production decision (1897, A-28): what it makes, measured
MEASURED_LOADS = 64  # Small wharf loads (Exp. 1: every mix of barrels) measured at most


def _starts(*prefixes: str) -> Any:
    return lambda code: code.startswith(prefixes)


DECISIONS = (
    Decision("role", "role", _starts("r."), ("r.",), "r.?"),
    Decision("settle", "tile", _starts("s.", "f."), ("s.",), "s.?"),
    Decision("build", "building", _starts("b.", "bm."), ("b.",), "b.?"),
    Decision("sell", "good", _starts("t.", "tp.", "lo."), ("t.",), "t.?"),
    Decision("ship", "cargo", _starts("ship.", "wharf.", "sw."), ("wharf.",), "ship.?"),
    Decision("place", "where",
             lambda c: c.startswith(("m.", "mn.", "fw.")) and c != "m.privilege",
             ("m.", "mn.", "fw."), "m.?"),
    Decision("keep", "goods", _starts("keep."), ("keep.",), "keep.?"),
    Decision("take", "choice",
             lambda c: c.startswith(("o.", "c.", "n.", "hl.", "rs.")) or c in ("m.privilege",
                                                                              "produce"),
             ("o.", "c.", "m.", "n.", "hl."), "o.?"),
    Decision("buccaneer", "bu_option", _starts("bu."), ("bu.capture.",), "bu.?"),
    Decision("raid", "raid_where", _starts("raid."), ("raid.",), "raid.?"),
    Decision("draft", "draft_building", _starts("d."), ("d.",), "d.?"),
    Decision("guest", "guest_where", _starts("g."), ("g.",), "g.?"),
    Decision("pass", None, lambda c: c == "pass", (), "pass"),
)


class PuertoRicoPresenter(GamePresenter):
    name: ClassVar[str] = "puerto-rico"
    command: ClassVar[str] = "pr"
    folder = FOLDER
    players: ClassVar[tuple[int, int]] = (2, 5)
    decisions: ClassVar[tuple[Decision, ...]] = DECISIONS
    phase_openers: ClassVar[tuple[str, ...]] = OPENERS
    dynamic_items: ClassVar[tuple[type[Any], ...]] = (ArrangeSelect, ArrangeButton,
                                                       BlackMarketSelect)
    image_prefixes: ClassVar[tuple[str, ...]] = (
        "role.", "building.", "good.", "tile.", "phase.", "prompt.", "end.",
        "short.", "ui.", "legend.", "score.", "letter.", "module.",
    )
    variants: ClassVar[tuple[str, ...]] = modules.VARIANTS
    expansions: ClassVar[tuple[str, ...]] = modules.MODULES
    select_parts: ClassVar[str | tuple[str, ...]] = (exp1_panels.SMALL_WHARF,)

    @cached_property
    def catalog(self) -> Catalog:
        return CATALOG

    # --- words ------------------------------------------------------------------------------

    def words(self, view: Mapping[str, Any], lang: str, *, extras: Mapping[str, Any] | None = None,
              kind: str | None = None) -> Words:
        return Chooser(view, lang, self.catalog, extras=extras, kind=kind)

    def family(self, code: str) -> str:
        return family(code)

    def prompt_family(self, kind: str) -> str:
        return refusals.PROMPT_FAMILIES.get(kind, "")

    def names_for(self, words: Words, wanted: str) -> list[str]:
        """Ids of roles, tiles, goods and buildings whose id or name in the reader's language
        is ``wanted`` (case-insensitive)."""
        assert isinstance(words, Chooser)
        out = []
        ids = [*ALL_ROLES, "prospector2", *GOODS, "quarry", "hacienda", "privilege", "auto",
               *words.market, "hospice", "university", "forest", *new_buildings.buildings()]
        for ident in dict.fromkeys(ids):
            names = {ident, ident.replace("_", " "), words.building(ident).casefold(),
                     words.word("role", ident).casefold(), words.tile(ident).casefold()}
            if wanted in names:
                out.append(ident)
        return out

    # --- the lobby ---------------------------------------------------------------------------

    def lobby_options(self, players: int, variants: Iterable[str] = ()) -> dict[str, Any]:
        return modules.lobby_options(players, variants)

    def variants_on(self, options: Mapping[str, Any]) -> list[str]:
        return modules.variants_of(options)

    # --- the table and the story -------------------------------------------------------------

    def header_lines(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                     ) -> list[str]:
        return summary.header_lines(puerto_rico_view(view), names, lang, self.catalog)

    def summary(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                ) -> list[tuple[str, str]]:
        return summary.summary_fields(puerto_rico_view(view), names, lang, self.catalog)

    def role_buttons(self, view: Mapping[str, Any]) -> list[tuple[str, int | None]]:
        return [(f"r.{role['card']}", role["taken_by"]) for role in puerto_rico_view(view)["roles"]]

    def score_part(self, part: str, lang: str) -> str:
        for key in (f"score.{part}", f"building.{part}"):
            if self.catalog.has(key):
                return self.catalog.t(lang, key)
        return part

    def log_writer(self, names: Mapping[int, str], lang: str, humans: Iterable[int] = ()
                   ) -> LogWriter:
        return PrLogWriter(names, lang, self.catalog, humans=humans)

    def view_at_phase_end(self, view: Mapping[str, Any], actions: Sequence[ActionRecord],
                          end: int, part: int = 0) -> Mapping[str, Any]:
        return view_at_phase_end(puerto_rico_view(view), actions, end, part)

    # --- the private panel -------------------------------------------------------------------

    def panel_extras(self, game: Game[Any], state: Any, seat: int, view: Mapping[str, Any],
                     codes: Sequence[str], kind: str | None) -> dict[str, Any]:
        """What each sale or load would bring (doubloons, VP, barrels: tried on a copy of the
        game, all of it the seat's own public figures) and the Mayor's suggested arrangement."""
        extras: dict[str, Any] = {"effects": self._effects(game, state, seat, codes)}
        if kind == "arrange":
            suggested, _ = game.apply(state, seat, game.decode_action("m.auto"))
            extras["arrangement"] = arrangement(
                puerto_rico_view(view)["players"][seat],
                puerto_rico_view(game.view(suggested, seat))["players"][seat], codes)
        return extras

    @staticmethod
    def _effects(game: Game[Any], state: Any, seat: int, codes: Sequence[str]
                 ) -> dict[str, Effect]:
        wanted = [c for c in codes if family(c) in MEASURED or c == PRODUCE]
        loads = [c for c in wanted if c.startswith("sw.")]
        if len(loads) > MEASURED_LOADS:  # every mix of many barrels: worded without figures
            wanted = [c for c in wanted if not c.startswith("sw.")]
        if not wanted:
            return {}
        before = puerto_rico_view(game.view(state, seat))["players"][seat]
        out = {}
        for code in wanted:
            after_state, _ = game.apply(state, seat, game.decode_action(code))
            after = puerto_rico_view(game.view(after_state, seat))["players"][seat]
            out[code] = Effect(
                doubloons=after["doubloons"] - before["doubloons"],
                vp=(after["vp"] or 0) - (before["vp"] or 0),
                barrels=sum(before["goods"].values()) - sum(after["goods"].values()),
                made=tuple((g, n - before["goods"][g]) for g, n in after["goods"].items()
                           if n > before["goods"][g]),
            )
        return out

    def panel_view(self, panel: Panel, draft: str | None) -> Mapping[str, Any]:
        plan = panel.extras.get("arrangement")
        if isinstance(plan, Arrangement):
            return drafted(puerto_rico_view(panel.view), panel.seat, plan, draft)
        return panel.view

    def panel_status(self, panel: Panel, words: Words, lang: str) -> str | None:
        assert isinstance(words, Chooser)
        me = puerto_rico_view(panel.view)["players"][panel.seat]
        goods = ", ".join(f"{n} {words.tile(g)}" for g, n in me["goods"].items() if n)
        nobles = nobles_waiting(me)  # Exp. 2: the nobles among the pieces in San Juan
        if nobles:
            return self.catalog.t(lang, "panel.me_nobles", doubloons=me["doubloons"],
                                  vp=me["vp"] or 0, colonists=me["san_juan"] - nobles,
                                  nobles=nobles, goods=goods or "—")
        return self.catalog.t(lang, "panel.me", doubloons=me["doubloons"], vp=me["vp"] or 0,
                              san_juan=me["san_juan"], goods=goods or "—")

    def panel_controls(self, view: PanelControls) -> list[ui.Item[Any]] | None:
        return panels.controls(view)

    def compose(self, name: str, values: Sequence[str]) -> str | None:
        if name == exp1_panels.SMALL_WHARF:
            return exp1_panels.compose(values)
        return super().compose(name, values)

    def decompose(self, name: str, code: str, values: Sequence[str]) -> list[str] | None:
        if name == exp1_panels.SMALL_WHARF:
            return exp1_panels.decompose(code, values)
        return super().decompose(name, code, values)

    def button_style(self, code: str) -> discord.ButtonStyle | None:
        if family(code) == "offer" or code == "m.privilege":
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


PRESENTER = register_presenter(PuertoRicoPresenter())

__all__ = ["CATALOG", "DECISIONS", "PRESENTER", "PuertoRicoPresenter"]
