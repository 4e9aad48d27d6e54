"""Puerto Rico 1897 on Discord: the classic game's presentation in 1897's words.

1897 is an edition of the Puerto Rico kernel, and so is its presentation: the panels, the
decision commands, the log, the refusals and the help are :mod:`bot.games.puerto_rico`'s, run
by :data:`INNER` (the classic presenter with 1897's catalog, :mod:`.catalog`) on everything
read back into the kernel's words (:mod:`.kernel`).  This presenter is the seam: what the
generic bot hands it (1897's views, codes, prompt kinds, events) goes to the classic code in
the kernel's words, and what comes back to the engine or to Discord's components (codes, role
buttons, the Recruiter's placements, the views drawn) is in 1897's words again.
Importing the package registers :data:`PRESENTER`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, cast

import discord
from discord import ui

from engine.core import Game
from engine.puerto_rico_1897.data import EXPANSION_NUMBERS as EXPANSIONS
from engine.puerto_rico_1897.vocabulary import kernel_options
from storage import ActionRecord

from ...errors import UserError
from ...gamelog import LogWriter
from ...i18n import Catalog
from ...panels import PanelView
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
from ..puerto_rico import DECISIONS as CLASSIC_DECISIONS
from ..puerto_rico import PuertoRicoPresenter
from ..puerto_rico import modules as classic_modules
from ..puerto_rico.gamelog import OPENERS
from ..puerto_rico.help import puertoma_topics
from . import kernel as K
from .catalog import CATALOG, FOLDER

ACTIVITIES = "festival_activities"
"""1897's own lobby rule: Expansion V, the Festival Activities (with IV, which it needs)."""
ACHIEVEMENTS = "achievements"
"""1897's own lobby rule: Expansion VI, the Achievements."""
EXP_V, EXP_VI = EXPANSIONS[ACTIVITIES], EXPANSIONS[ACHIEVEMENTS]
OWN = {ACTIVITIES: EXP_V, ACHIEVEMENTS: EXP_VI}
"""1897's own expansions: a lobby rule, a ``/game rules`` page (``help.module.<id>``) each."""
OWN_TOPICS = tuple(HelpTopic(ident, "module") for ident in OWN)
ANNOUNCE = "ach."
"""An Achievement announced (Expansion VI): legal at any moment, beside any decision."""


# §8.14: the Puertoma's seat kinds, by the difficulty each plays
PUERTOMA_KINDS = {"puertoma": "standard", "puertoma_easy": "easy", "puertoma_hard": "hard"}

class KernelPresenter(PuertoRicoPresenter):
    """The classic presenter speaking 1897's words: it reads the kernel's codes and views, its
    catalog is 1897's.  Never registered (the generic bot meets only :class:`PuertoRico1897`)."""

    @cached_property
    def catalog(self) -> Catalog:
        return CATALOG

    def log_writer(
        self, names: Mapping[int, str], lang: str, humans: Iterable[int] = ()
    ) -> LogWriter:
        return K.EditionLogWriter(names, lang, self.catalog, humans=humans)


INNER = KernelPresenter()


def _starts(prefix: str) -> Any:
    return lambda code: code.startswith(prefix)


def _edition_decision(d: Decision) -> Decision:
    def matches(code: str, inner: Decision = d) -> bool:
        kernel = K.kernel_code(code)
        return K.code(kernel) == code and inner.matches(kernel)  # an 1897 code, never classic

    return Decision(
        d.name,
        d.option,
        matches,
        tuple(K.code(p.rstrip(".")) + "." for p in d.prefixes),
        K.code(d.representative),
    )


class PuertoRico1897Presenter(GamePresenter):
    name: ClassVar[str] = "puerto-rico-1897"
    command: ClassVar[str] = "pr1897"
    folder = FOLDER
    players: ClassVar[tuple[int, int]] = (2, 5)
    decisions: ClassVar[tuple[Decision, ...]] = (
        *(_edition_decision(d) for d in CLASSIC_DECISIONS),
        # Expansion VI: announce a met Achievement card (any moment), keep one in the draft
        Decision("announce", "achievement", _starts("ach."), ("ach.",), "ach.?"),
        Decision("achievement", "achievement", _starts("ad."), ("ad.",), "ad.?"),
    )
    phase_openers: ClassVar[tuple[str, ...]] = tuple(K.edition_word(o) for o in OPENERS)
    image_prefixes: ClassVar[tuple[str, ...]] = (
        *PuertoRicoPresenter.image_prefixes,
        "activity.",
        "task.",
        "achievement.",
    )
    # §8: the Puertoma, a seat the engine plays, at one of §8.14's difficulties (its seat kind)
    automata: ClassVar[tuple[str, ...]] = tuple(PUERTOMA_KINDS)
    automata_tables: ClassVar[tuple[tuple[int, int], ...]] = ((1, 2), (1, 1), (3, 1), (4, 1))
    """PTM-MODE-1, -2: the tables with Puertomas, (other seats, Puertomas); an AI seat counts
    as a person (it sits where one would)."""
    variants: ClassVar[tuple[str, ...]] = (*classic_modules.VARIANTS, *OWN)
    expansions: ClassVar[tuple[str, ...]] = (*classic_modules.MODULES, *OWN)
    select_parts: ClassVar[str | tuple[str, ...]] = PuertoRicoPresenter.select_parts

    @cached_property
    def catalog(self) -> Catalog:
        return CATALOG

    # --- words ------------------------------------------------------------------------------

    def words(
        self,
        view: Mapping[str, Any],
        lang: str,
        *,
        extras: Mapping[str, Any] | None = None,
        kind: str | None = None,
    ) -> Words:
        inner = INNER.words(
            K.kernel_view(view),
            lang,
            extras=extras,
            kind=None if kind is None else K.kernel_word(kind),
        )
        return K.EditionWords(view, lang, inner)

    def family(self, code: str) -> str:
        return INNER.family(K.kernel_code(code))

    def prompt_text(self, kind: str, lang: str) -> str:
        return INNER.prompt_text(K.kernel_word(kind), lang)

    def prompt_family(self, kind: str) -> str:
        return INNER.prompt_family(K.kernel_word(kind))

    def action_family_when(self, family: str) -> str | None:
        return INNER.action_family_when(family)

    def names_for(self, words: Words, wanted: str) -> list[str]:
        return [K.edition_word(i) for i in INNER.names_for(K.inner_words(words), wanted)]

    def score_notes(self, view: Mapping[str, Any], lang: str) -> list[str]:
        """§8.13 with Exp. VI: against the Puertomas people do not score their Achievement
        cards (their column shows none); the Puertomas score the ones left incomplete."""
        kernel = K.kernel_view(view)
        if kernel.get("puertoma") is not None and kernel.get("achievements") is not None:
            return [self.catalog.t(lang, "score.achievements_vs_puertomas")]
        return []

    # --- the lobby ---------------------------------------------------------------------------

    def lobby_options(self, players: int, variants: Iterable[str] = ()) -> dict[str, Any]:
        """The classic lobby's rules as 1897's options: each module is the expansion of its
        number (§7), the Hacienda / Forest house pair is 1897's Hacienda / Lumber mill pair."""
        wanted = list(variants)
        if ACTIVITIES in wanted:  # Expansion V is played on the Festival board (§7.5)
            wanted.append("festival")
        classic = classic_modules.lobby_options(players, wanted)
        out: dict[str, Any] = {"players": players}
        expansions = sorted(
            {EXPANSIONS[m] for m in classic.pop("modules", ())}
            | {number for ident, number in OWN.items() if ident in wanted}
        )
        if expansions:
            out["expansions"] = expansions
        for key, value in classic.items():
            if key != "players":  # in 1897's words (§9.3: the Hacienda / Lumber mill pair)
                out[K.edition_word(key)] = value
        return out

    def seated_options(self, options: Mapping[str, Any], automata: Sequence[str]
                       ) -> dict[str, Any]:
        """PTM-MODE: the Puertomas (the last seats) as ``puertomas``, their difficulty from
        their seat kind (one for all of them)."""
        out = dict(options)
        if not automata:
            return out
        difficulties = {PUERTOMA_KINDS[kind] for kind in automata}
        if len(difficulties) > 1:
            raise UserError("err.automata_mixed", kind="Puertoma")
        out["puertomas"] = len(automata)
        out["puertoma_difficulty"] = difficulties.pop()
        return out

    def seat_refusal(self, kinds: Sequence[str | None], kind: str, capacity: int, lang: str
                     ) -> tuple[str, dict[str, Any]] | None:
        """§8.14: every Puertoma at a table plays one difficulty, so once one is seated only
        its kind may join it; PTM-MODE: a Puertoma (or another seat beside Puertomas) only
        where one of :data:`automata_tables` can still be reached, people or AI seats joining
        or Puertomas of that kind added, within ``capacity``."""
        seated = [k for k in kinds if k in PUERTOMA_KINDS]
        if kind in PUERTOMA_KINDS and seated and kind != seated[0]:
            return "err.automata_mixed", {"kind": "Puertoma"}
        puertomas = len(seated) + (kind in PUERTOMA_KINDS)
        others = len(kinds) - len(seated) + (kind not in PUERTOMA_KINDS)
        if puertomas and not any(
            people >= others and n >= puertomas and people + n <= capacity
            for people, n in self.automata_tables
        ):
            return self._tables_refusal(kind if kind in PUERTOMA_KINDS else seated[0], lang)
        return None

    def start_refusal(self, kinds: Sequence[str | None], lang: str
                      ) -> tuple[str, dict[str, Any]] | None:
        """PTM-MODE: Puertomas only at :data:`automata_tables`, all of one difficulty
        (§8.14)."""
        seated = [k for k in kinds if k in PUERTOMA_KINDS]
        if not seated:
            return None
        if len(set(seated)) > 1:
            return "err.automata_mixed", {"kind": "Puertoma"}
        if (len(kinds) - len(seated), len(seated)) not in self.automata_tables:
            return self._tables_refusal(seated[0], lang)
        return None

    def _tables_refusal(self, kind: str, lang: str) -> tuple[str, dict[str, Any]]:
        """The tables a Puertoma may sit at (``err.automata_seats``)."""
        return "err.automata_seats", {
            "title": self.title(lang), "kind": self.catalog.t(lang, f"level.{kind}"),
            "tables": ", ".join(f"{people} + {n}" for people, n in self.automata_tables)}

    def variants_on(self, options: Mapping[str, Any]) -> list[str]:
        chosen = options.get("expansions") or ()
        return [
            *classic_modules.variants_of(kernel_options(options)),
            *(ident for ident, number in OWN.items() if number in chosen),
        ]

    # --- the table and the story -------------------------------------------------------------

    def header_lines(
        self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
    ) -> list[str]:
        return INNER.header_lines(K.kernel_view(view), names, lang)

    def summary(
        self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
    ) -> list[tuple[str, str]]:
        return INNER.summary(K.kernel_view(view), names, lang)

    def role_buttons(self, view: Mapping[str, Any]) -> list[tuple[str, int | None]]:
        return K.edition_roles(INNER.role_buttons(K.kernel_view(view)))

    def score_part(self, part: str, lang: str) -> str:
        return INNER.score_part(K.kernel_word(part), lang)

    def choice_name(self, kind: str, name: str, lang: str) -> str:
        """A role or building 1897's engine names (``large_fruit_depot``), under the kernel's
        key its catalog words (``building.indigo_plant``: "Large fruit depot")."""
        return INNER.choice_name(kind, K.kernel_word(name), lang)

    def log_writer(
        self, names: Mapping[int, str], lang: str, humans: Iterable[int] = ()
    ) -> LogWriter:
        return INNER.log_writer(names, lang, humans)

    def view_at_phase_end(
        self, view: Mapping[str, Any], actions: Sequence[ActionRecord], end: int, part: int = 0
    ) -> Mapping[str, Any]:
        kernel = INNER.view_at_phase_end(K.kernel_view(view), K.kernel_actions(actions), end, part)
        return K.edition_view(kernel)

    # --- the private panel -------------------------------------------------------------------

    def panel_extras(
        self,
        game: Game[Any],
        state: Any,
        seat: int,
        view: Mapping[str, Any],
        codes: Sequence[str],
        kind: str | None,
    ) -> dict[str, Any]:
        """The classic panel's measures (each sale's and load's gains, the Recruiter's
        suggested arrangement), its placements in 1897's codes."""
        kernel = cast(Game[Any], K.KernelGame(game))  # the classic code calls only its three
        extras = INNER.panel_extras(
            kernel,
            state,
            seat,
            K.kernel_view(view),
            [K.kernel_code(c) for c in codes],
            None if kind is None else K.kernel_word(kind),
        )
        return K.edition_extras(extras)

    def panel_view(self, panel: Panel, draft: str | None) -> Mapping[str, Any]:
        if "arrangement" not in panel.extras:
            return panel.view
        return K.edition_view(INNER.panel_view(K.kernel_panel(panel), draft))

    def panel_status(self, panel: Panel, words: Words, lang: str) -> str | None:
        return INNER.panel_status(K.kernel_panel(panel), K.inner_words(words), lang)

    def panel_controls(self, view: PanelControls) -> list[ui.Item[Any]] | None:
        """The classic panel's controls, or the generic ones, made over the kernel-words
        panel (:class:`.kernel.KernelPanelView`: its buttons carry 1897's codes); a met
        Achievement's announcement (X6-3: at any moment) as a button under the decision's."""
        panel = view.panel
        anytime = [c for c in panel.legal if c.startswith(ANNOUNCE)] if panel.kind else []
        if not anytime:
            return PanelView.controls(K.KernelPanelView(view, INNER))
        rest = [c for c in panel.legal if c not in anytime]
        items = PanelView.controls(K.KernelPanelView(view, INNER, rest))
        return [
            *items,
            ui.TextDisplay(view.t("panel.anytime")),
            *view.rows_of([view.button(c) for c in anytime]),
        ]

    def select_code(self, name: str, values: Sequence[str]) -> str | None:
        """A menu of the panel holds kernel codes (the classic code made it): the chosen
        ones' code in 1897's words."""
        found = INNER.select_code(name, values)
        return None if found is None else K.code(found)

    def compose(self, name: str, values: Sequence[str]) -> str | None:
        found = INNER.compose(name, values)
        return None if found is None else K.code(found)

    def decompose(self, name: str, code: str, values: Sequence[str]) -> list[str] | None:
        return INNER.decompose(name, K.kernel_code(code), values)

    def button_style(self, code: str) -> discord.ButtonStyle | None:
        return INNER.button_style(K.kernel_code(code))

    # --- refusals and help -------------------------------------------------------------------

    def refusal(self, words: Refusing, code: str, action: str) -> tuple[str, dict[str, Any]] | None:
        return INNER.refusal(K.kernel_refusing(words, INNER), code, K.kernel_code(action))

    def help_topics(self) -> tuple[HelpTopic, ...]:
        return (*INNER.help_topics(), *OWN_TOPICS, *puertoma_topics())

    def topic_name(self, topic: HelpTopic, lang: str) -> str:
        return INNER.topic_name(topic, lang)

    def help_text(self, topic: HelpTopic, lang: str, commands: Mapping[str, str]) -> str:
        """The classic pages in 1897's words; Expansions V and VI have pages of their own."""
        if topic.id in OWN:
            t = self.catalog.t
            title = t(lang, f"variant.{topic.id}")
            return f"**{title}**\n{t(lang, f'help.module.{topic.id}', **commands)}"
        return INNER.help_text(topic, lang, commands)


PRESENTER = register_presenter(PuertoRico1897Presenter())

__all__ = ["CATALOG", "INNER", "PRESENTER", "KernelPresenter", "PuertoRico1897Presenter"]
