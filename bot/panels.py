"""A player's private panel: an ephemeral message with their own board (their VP chips on it)
and exactly their legal choices now.

Pure: a :class:`bot.turns.Panel` in, a Components V2 ``LayoutView`` and its image out.  The
controls come from the legal action codes (the engine is the only source of legality), grouped
for a phone: a few choices are buttons; many are select menus of at most 25 options each; the
Builder's buildings are one menu per market column with the price after this player's
discounts; the Mayor arrangement is the suggestion in one click or a draft in two menus
(:mod:`bot.arrange`).  Every control is a persistent component (:mod:`bot.components`), so a
panel opened before a restart still works after it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from .arrange import Arrangement, decode, encode
from .choices import Chooser, clip, family
from .components import ArrangeButton, ArrangeSelect, GameButton, GameSelect, TableButton
from .i18n import CATALOG, Catalog
from .limits import fit_view
from .presenters import GAME_COLOUR, waiting_line
from .turns import Panel

MAX_BUTTONS = 10  # more choices than this become select menus
ROW = 5
OPTIONS = 25
DESCRIPTION = 100


class PanelView:
    def __init__(self, panel: Panel, lang: str, catalog: Catalog = CATALOG, *,
                 note: str | None = None, draft: str | None = None) -> None:
        self.panel = panel
        self.lang = lang
        self.catalog = catalog
        self.note = note
        self.draft = draft
        self.chooser = Chooser(panel.view, lang, catalog, effects=panel.effects,
                               prompt_kind=panel.kind)
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
        if panel.kind is not None:
            box.add_item(ui.Separator())
            for item in self.controls():
                box.add_item(item)
        box.add_item(self.footer())
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def header(self) -> str:
        panel, view = self.panel, self.panel.view
        me = view["players"][panel.seat]
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
        goods = ", ".join(f"{n} {self.chooser.tile(g)}" for g, n in me["goods"].items() if n)
        lines.append(self.t("panel.me", doubloons=me["doubloons"], vp=me["vp"] or 0,
                            san_juan=me["san_juan"], goods=goods or "—"))
        return "\n".join(line for line in lines if line)

    def prompt_words(self, kind: str) -> str:
        key = f"prompt.{kind}"
        return self.t(key) if self.catalog.has(key) else kind

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
        if panel.kind == "arrange" and panel.arrangement is not None:
            return self.arrange_controls(panel.arrangement)
        if panel.kind == "build":
            return self.build_controls(codes)
        items: list[ui.Item[Any]] = [ui.TextDisplay(self.t(f"panel.help.{panel.kind}")
                                                    if self.catalog.has(f"panel.help.{panel.kind}")
                                                    else self.prompt_words(panel.kind or ""))]
        items.extend(self.choice_rows(codes, str(panel.kind)))
        return items

    def button(self, code: str) -> GameButton:
        style = discord.ButtonStyle.primary
        if code == "pass":
            style = discord.ButtonStyle.secondary
        elif family(code) == "offer" or code == "m.privilege":
            style = discord.ButtonStyle.success
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

    def build_controls(self, codes: Sequence[str]) -> list[ui.Item[Any]]:
        """One menu per market column (the quarry discount depends on it), each listing the
        buildings this player can build now at their price; an empty column is disabled."""
        items: list[ui.Item[Any]] = [ui.TextDisplay(self.t("panel.help.build"))]
        columns: dict[int, list[str]] = {}
        for entry in self.panel.view.get("market", ()):
            columns.setdefault(int(entry["column"]), [])
            code = f"b.{entry['building']}"
            if code in codes:
                columns[int(entry["column"])].append(code)
        for column in sorted(columns):
            options = [self.option(c) for c in columns[column]][:OPTIONS]
            row: ui.ActionRow[Any] = ui.ActionRow()
            if options:
                row.add_item(GameSelect(self.game_id, self.version, f"build_{column}", options,
                                        placeholder=self.t("panel.column", n=column,
                                                           count=len(options))))
            else:
                row.add_item(GameSelect(self.game_id, self.version, f"build_{column}",
                                        placeholder=self.t("panel.column_none", n=column),
                                        disabled=True))
            items.append(row)
        if "pass" in codes:
            items.extend(self.rows_of([self.button("pass")]))
        return items

    def arrange_controls(self, plan: Arrangement) -> list[ui.Item[Any]]:
        """The suggestion in one click, or the draft in two menus and a confirmation."""
        draft = decode(self.draft) if self.draft is not None else None
        if draft is None or not plan.valid(draft):
            draft = plan.suggested
        text = encode(draft)
        placed = sum(draft)
        lines = [self.t("panel.arrange", n=plan.to_place),
                 self.t("panel.arrange_suggested", places=self.places(plan, plan.suggested)),
                 self.t("panel.arrange_draft", places=self.places(plan, draft), n=placed,
                        of=plan.to_place)]
        items: list[ui.Item[Any]] = [ui.TextDisplay("\n".join(lines))]
        items.extend(self.rows_of([self.button("m.auto")]))
        for part, island in (("i", True), ("c", False)):
            options = plan.options(island, draft)
            if not options:
                continue
            row: ui.ActionRow[Any] = ui.ActionRow()
            row.add_item(ArrangeSelect(
                self.game_id, self.version, part, text,
                [discord.SelectOption(label=self.circle(place, number, island), value=value,
                                      default=chosen)
                 for value, place, number, chosen in options[:OPTIONS]],
                placeholder=self.t("panel.island" if island else "panel.city"),
                max_values=min(len(options), OPTIONS, max(1, plan.to_place)),
            ))
            items.append(row)
        confirm: ui.ActionRow[Any] = ui.ActionRow()
        confirm.add_item(ArrangeButton(
            self.game_id, self.version, text, label=self.t("button.confirm", n=placed,
                                                           of=plan.to_place),
            disabled=not plan.complete(draft)))
        items.append(confirm)
        return items

    def circle(self, place: str, number: int, island: bool) -> str:
        name = self.chooser.slot(place)
        return clip(self.t("panel.circle", place=name, n=number), 100)

    def places(self, plan: Arrangement, draft: Sequence[int]) -> str:
        parts = [f"{self.chooser.slot(p.name)} ×{n}" for p, n in zip(plan.places, draft,
                                                                     strict=True) if n]
        return ", ".join(parts) or "—"
