"""Puerto Rico 1897 read back in the kernel's words, for the classic presentation's code.

1897 is an edition of the Puerto Rico kernel (``docs/engine-1897.md``); its engine speaks
1897's words at the contract (``p.fruit``, ``coins``, ``WorkerPlaced``), through one word table
(:mod:`engine.puerto_rico_1897.names`).  The bot presents it with the classic game's code (its
panels, words, log and refusals read the kernel's codes, views and events), in 1897's words
(the edition's catalog).  This module is the seam between the two: everything the generic bot
hands the presenter (views, codes, prompt kinds, events, panels) is read back into the kernel's
words here, and everything that goes back to the engine or onto a drawn image (codes, views)
is put into 1897's again.  How a value is read back is decided once, by the engine
(:mod:`engine.puerto_rico_1897.vocabulary`, which the renderer uses too); this module applies
it to the bot's own things (stored actions, panels, refusals, words, components).

Which side a code is on is never guessed (``zoning_office`` is a different building in each
edition's words): the presenter's inputs are 1897's, the classic code's are the kernel's, and
each crossing is one call here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from engine.core import Event, Game
from engine.puerto_rico_1897.view import KernelView
from engine.puerto_rico_1897.vocabulary import edition_code as code
from engine.puerto_rico_1897.vocabulary import (
    edition_view,
    edition_word,
    kernel_code,
    kernel_event,
    kernel_view,
    kernel_word,
)
from storage import ActionRecord

from ...components import GameButton
from ...panels import PanelView
from ...words import Words
from ..contract import GamePresenter, Panel, PanelControls, Refusing
from ..puerto_rico.arrange import Arrangement
from ..puerto_rico.gamelog import PrLogWriter


def kernel_actions(actions: Sequence[ActionRecord]) -> list[ActionRecord]:
    """Stored actions with their code and events in the kernel's words."""
    return [
        dataclasses.replace(
            a,
            code=kernel_code(a.code),
            events=tuple(kernel_event(Event.from_json(e)).to_json() for e in a.events),
        )
        for a in actions
    ]


def kernel_panel(panel: Panel) -> Panel:
    """A private panel in the kernel's words (its extras are the presenter's, already so)."""
    return dataclasses.replace(
        panel,
        view=kernel_view(panel.view),
        kind=None if panel.kind is None else kernel_word(panel.kind),
        legal=tuple(kernel_code(c) for c in panel.legal),
        highlights=tuple(kernel_event(e) for e in panel.highlights),
    )


class KernelGame:
    """The 1897 engine as the classic presentation calls it (``panel_extras`` tries its moves
    on a copy): kernel codes in, kernel views out."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def decode_action(self, kernel: str) -> Any:
        return self.game.decode_action(code(kernel))

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        new, events = self.game.apply(state, seat, action)
        return new, [kernel_event(e) for e in events]

    def view(self, state: Any, viewer: int | None) -> KernelView:
        return kernel_view(self.game.view(state, viewer))


@dataclasses.dataclass(frozen=True)
class EditionArrangement(Arrangement):
    """The Recruiter's arrangement (the classic Mayor draft), its placements in 1897's codes."""

    @classmethod
    def of(cls, plan: Arrangement) -> EditionArrangement:
        return cls(**{f.name: getattr(plan, f.name) for f in dataclasses.fields(plan)})

    def codes(self, draft: Sequence[int], nobles: Sequence[int] | None = None) -> list[str]:
        return [code(c) for c in super().codes(draft, nobles)]


def edition_extras(extras: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(extras)
    plan = out.get("arrangement")
    if isinstance(plan, Arrangement):
        out["arrangement"] = EditionArrangement.of(plan)
    return out


class EditionWords(Words):
    """Words for 1897 codes: the classic words (``inner``, over the kernel-words view) of
    each code read back into the kernel's words."""

    def __init__(self, view: Mapping[str, Any], lang: str, inner: Words) -> None:
        super().__init__(
            view,
            lang,
            inner.catalog,
            extras=inner.extras,
            kind=inner.prompt_kind and edition_word(inner.prompt_kind),
        )
        self.inner = inner

    def label(self, code: str) -> str:
        return self.inner.label(kernel_code(code))

    def plain_label(self, code: str) -> str:
        return self.inner.plain_label(kernel_code(code))

    def description(self, code: str) -> str | None:
        return self.inner.description(kernel_code(code))

    def joiner(self, code: str) -> str:
        return self.inner.joiner(kernel_code(code))

    def choice_name(self, code: str) -> str:
        return self.inner.choice_name(kernel_code(code))


def inner_words(words: Words) -> Words:
    return words.inner if isinstance(words, EditionWords) else words


class KernelPanelView(PanelView):
    """The generic panel (``pv``, over the 1897 panel) as the classic panel code reads it:
    the kernel-words panel and words, the classic presenter with 1897's catalog (``inner``).
    The components it makes carry 1897's codes: a button its code's, a menu kernel codes its
    presenter turns into 1897's (:meth:`GamePresenter.select_code`)."""

    def __init__(
        self, pv: PanelControls, inner: GamePresenter, legal: Sequence[str] | None = None
    ) -> None:
        # no PanelView.__init__: it would word the panel with the registered presenter;
        # ``legal``: the 1897 codes the controls are for (default: all the panel's)
        panel = pv.panel if legal is None else dataclasses.replace(pv.panel, legal=tuple(legal))
        self.panel = kernel_panel(panel)
        self.presenter = inner
        self.lang = pv.lang
        self.catalog = pv.catalog
        self.note = pv.note
        self.draft = pv.draft
        self.chooser = inner_words(pv.chooser)
        self.game_id = pv.game_id
        self.version = pv.version

    def button(self, code_: str) -> GameButton:
        style = self.presenter.button_style(code_) or (
            discord.ButtonStyle.secondary if code_ == "pass" else discord.ButtonStyle.primary
        )
        return GameButton(
            self.game_id, self.version, code(code_), label=self.chooser.label(code_), style=style
        )


class EditionLogWriter(PrLogWriter):
    """The classic log's lines of 1897's events (read back into the kernel's words)."""

    def prepare(self, events: list[Event]) -> list[Event]:
        return super().prepare([kernel_event(e) for e in events])

    def phase_ended(
        self, round_: int, role: str, chooser: int | None, chosen_at: int | None
    ) -> str:
        return super().phase_ended(round_, kernel_word(role), chooser, chosen_at)


def kernel_refusing(words: Refusing, inner: GamePresenter) -> Refusing:
    """A refusal's situation as the classic refusals read it: the seat's view, its legal
    codes and the refused code in the kernel's words, worded by ``inner``."""
    s = words.s
    situation = dataclasses.replace(
        s,
        view=kernel_view(s.view),
        legal=tuple(kernel_code(c) for c in s.legal),
        action=None if s.action is None else kernel_code(s.action),
    )
    return Refusing(situation, inner, words.lang)


def edition_roles(buttons: Iterable[tuple[str, int | None]]) -> list[tuple[str, int | None]]:
    return [(code(c), taken) for c, taken in buttons]


__all__ = [
    "EditionArrangement",
    "EditionLogWriter",
    "EditionWords",
    "KernelGame",
    "KernelPanelView",
    "code",
    "edition_extras",
    "edition_roles",
    "edition_view",
    "edition_word",
    "inner_words",
    "kernel_actions",
    "kernel_code",
    "kernel_event",
    "kernel_panel",
    "kernel_refusing",
    "kernel_view",
    "kernel_word",
]
