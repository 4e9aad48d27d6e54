"""A player's private panel: an ephemeral message with their own board (what only they may see
on it) and exactly their legal choices now.

Pure: a :class:`bot.games.contract.Panel` in, a Components V2 ``LayoutView`` and its image out.  The
controls come from the legal action codes (the engine is the only source of legality), grouped
for a phone: a few choices are buttons; many are select menus of at most 25 options each; a
game's presenter may draw a decision its own way (Puerto Rico's Builder menus and Mayor draft,
San Juan's payment).  Every control is a persistent component (:mod:`bot.components`), so a
panel opened before a restart still works after it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from .banks import own_bank
from .components import GameButton, GameSelect, TableButton
from .games import presenter_for
from .games.contract import GamePresenter, Panel
from .i18n import Catalog
from .limits import clip, fit_view
from .presenters import GAME_COLOUR, waiting_line
from .recap import recap, recap_text

MAX_BUTTONS = 10  # more choices than this become select menus
ROW = 5
OPTIONS = 25
DESCRIPTION = 100


class PanelView:
    """The generic panel (the contract's :class:`~bot.games.contract.PanelControls`)."""

    def __init__(self, panel: Panel, lang: str, catalog: Catalog | None = None, *,
                 note: str | None = None, draft: str | None = None) -> None:
        self.panel = panel
        self.presenter: GamePresenter = presenter_for(panel.record.game)
        self.lang = lang
        self.catalog = catalog or self.presenter.catalog
        self.note = note
        self.draft = draft
        self.chooser = self.presenter.words(panel.view, lang, extras=panel.extras,
                                            kind=panel.kind)
        self.game_id = panel.record.id
        self.version = panel.record.version

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    # --- the whole panel --------------------------------------------------------------------

    def build(self, *, reuse_image: bool = False) -> tuple[ui.LayoutView, list[discord.File]]:
        """The panel and its image file; ``reuse_image``: no new image, the message keeps the
        one it has (a Mayor draft redrawn as the player edits it)."""
        panel = self.panel
        box: ui.Container[Any] = ui.Container(accent_colour=GAME_COLOUR)
        box.add_item(ui.TextDisplay(self.header()))
        files: list[discord.File] = []
        name = f"game-{self.game_id}-seat-{panel.seat + 1}.png"
        if panel.image is not None:
            files.append(discord.File(io.BytesIO(panel.image), filename=name))
        if panel.image is not None or reuse_image:
            box.add_item(ui.MediaGallery(discord.MediaGalleryItem(
                f"attachment://{name}", description=self.t("panel.image", game=self.game_id))))
        if panel.kind is not None or panel.legal:  # a decision, or actions of any moment
            box.add_item(ui.Separator())
            for item in self.controls():
                box.add_item(item)
        box.add_item(self.footer())
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def header(self) -> str:
        panel, view = self.panel, self.panel.view
        lines = [f"## {self.t('panel.title', game=self.game_id, round=view.get('round', 1))}"]
        if self.note:
            lines.append(self.note)
        if panel.kind is not None:
            lines.append(self.t("panel.your_turn", what=self.prompt_words(panel.kind)))
        elif view.get("game_over"):
            lines.append(self.t("panel.game_over"))
        else:
            waiting = waiting_line(view, panel.names, self.lang, self.catalog)
            lines.append(waiting or "")
        lines.append(self.presenter.panel_status(panel, self.chooser, self.lang) or "")
        if not view.get("game_over"):
            lines.append(own_bank(panel.record, panel.seat, self.lang, self.catalog) or "")
            if panel.kind is not None:  # the decision is this seat's: what happened since
                lines.append(recap_text(recap(panel.record, panel.names, panel.recent,
                                              panel.seat, self.lang, self.catalog),
                                        self.lang, self.catalog))
        return "\n".join(line for line in lines if line)

    def prompt_words(self, kind: str) -> str:
        return self.presenter.prompt_text(kind, self.lang)

    def footer(self) -> ui.ActionRow[Any]:
        row: ui.ActionRow[Any] = ui.ActionRow()
        row.add_item(TableButton(self.game_id, self.version, "panel",
                                 label=self.t("button.refresh")))
        if self.panel.can_undo:
            row.add_item(TableButton(self.game_id, self.version, "undo",
                                     label=self.t("button.undo")))
        row.add_item(TableButton(self.game_id, self.version, "log", label=self.t("button.log")))
        return row

    # --- the controls of each decision ------------------------------------------------------

    def controls(self) -> list[ui.Item[Any]]:
        panel = self.panel
        codes = list(panel.legal)
        special = self.presenter.panel_controls(self)
        if special is not None:
            return special
        if panel.kind is None:  # not asked, but with actions of any moment
            return [ui.TextDisplay(self.t("panel.anytime")),
                    *self.choice_rows(codes, "anytime")]
        items: list[ui.Item[Any]] = [ui.TextDisplay(self.t(f"panel.help.{panel.kind}")
                                                    if self.catalog.has(f"panel.help.{panel.kind}")
                                                    else self.prompt_words(panel.kind or ""))]
        items.extend(self.choice_rows(codes, str(panel.kind)))
        return items

    def button(self, code: str) -> GameButton:
        style = self.presenter.button_style(code) or (
            discord.ButtonStyle.secondary if code == "pass" else discord.ButtonStyle.primary)
        return GameButton(self.game_id, self.version, code, label=self.chooser.label(code),
                          style=style)

    def rows_of(self, buttons: Sequence[ui.Item[Any]]) -> list[ui.ActionRow[Any]]:
        rows = []
        for start in range(0, len(buttons), ROW):
            row: ui.ActionRow[Any] = ui.ActionRow()
            for button in buttons[start : start + ROW]:
                row.add_item(button)
            rows.append(row)
        return rows

    def option(self, code: str) -> discord.SelectOption:
        description = self.chooser.description(code)
        return discord.SelectOption(label=clip(self.chooser.label(code), 100), value=code,
                                    description=description[:DESCRIPTION] if description
                                    else None)

    def choice_rows(self, codes: Sequence[str], name: str) -> list[ui.ActionRow[Any]]:
        """Buttons for a few choices; select menus of at most 25 options for many (``pass``
        stays a button)."""
        if len(codes) <= MAX_BUTTONS:
            return self.rows_of([self.button(c) for c in codes])
        main = [c for c in codes if c != "pass"]
        rows = []
        chunks = [main[i : i + OPTIONS] for i in range(0, len(main), OPTIONS)]
        for number, chunk in enumerate(chunks, start=1):
            placeholder = self.t("panel.choose") if len(chunks) == 1 else self.t(
                "panel.choose_part", n=number, of=len(chunks))
            row: ui.ActionRow[Any] = ui.ActionRow()
            row.add_item(GameSelect(self.game_id, self.version, f"{name}_{number}",
                                    [self.option(c) for c in chunk], placeholder=placeholder))
            rows.append(row)
        if "pass" in codes:
            rows.extend(self.rows_of([self.button("pass")]))
        return rows
