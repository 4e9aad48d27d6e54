"""The game's messages in its channel, drawn with Discord's layout components (Components V2):
the live table, the story post of the role phases that ended, and the final standings.

Pure: a :class:`bot.changes.TableUpdate` (public view, image, log tail...) in, a
``discord.ui.LayoutView`` and the files it shows out.  One container holds the title, whose
decision it is and since when, the board image, the last lines of the log and the buttons: the
role buttons (with their doubloons) when a role is to be chosen, and **My turn** (the private
panel), **Undo** and **Log**.  Without an image the container carries the structured text of
the board instead.  Everything here is public: it is built from the public view only, so no VP
chip total ever appears.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord
from discord import ui

from storage import ActionRecord, GameRecord

from .banks import away_line, banks_line
from .changes import PhaseEnd, TableUpdate
from .components import GameButton, TableButton
from .gamelog import phase_actions
from .games import presenter_for
from .i18n import Catalog
from .limits import fit_view
from .presenters import CLOSED_COLOUR, GAME_COLOUR, table_embed, waiting_line
from .seatnames import everyone, plain

LOG_LINES = 6
STORY_LINES = 14
TEXT_LIMIT = 3500  # Discord allows 4000 characters of text per message
ROW = 5


def _files_and_items(images: Sequence[tuple[str, bytes | None]], alt: str
                     ) -> tuple[list[discord.File], list[discord.MediaGalleryItem]]:
    """The images as files and gallery items, ``alt`` their description (plain text: Discord
    does not read it as markdown, so the names in it lose their escapes)."""
    files, items = [], []
    for name, data in images:
        if data:
            files.append(discord.File(io.BytesIO(data), filename=name))
            items.append(discord.MediaGalleryItem(f"attachment://{name}",
                                                  description=plain(alt)[:1000]))
    return files, items


def timestamp(moment: datetime | None) -> str:
    return f"<t:{int(moment.timestamp())}:R>" if moment else ""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def small(lines: Sequence[str]) -> str:
    return "\n".join(f"-# {line}" for line in lines)


class TableMessages:
    """The channel messages of one game, in the game's language."""

    def __init__(self, record: GameRecord, names: Mapping[int, str], lang: str,
                 catalog: Catalog | None = None, *, now: datetime | None = None) -> None:
        self.record = record
        self.now = now
        """The moment the banks are shown at (default: the record's last change)."""
        self.names = names
        self.lang = lang
        self.presenter = presenter_for(record.game)
        self.catalog = catalog or self.presenter.catalog
        humans = [s.seat for s in record.seats if s.user_id is not None]
        self.writer = self.presenter.log_writer(names, lang, humans)

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    # --- the live table ---------------------------------------------------------------------

    def header(self, view: Mapping[str, Any]) -> str:
        record = self.record
        lines = [f"## {self.t('table.title', game=record.id, round=view.get('round', 1))}"]
        head = self.presenter.header_lines(view, self.names, self.lang)
        lines.extend(head[:1])
        waiting = waiting_line(view, self.names, self.lang, self.catalog)
        if waiting:
            since = [s.waiting_since for s in record.seats if s.waiting_since is not None]
            lines.append(f"{waiting} {timestamp(min(since)) if since else ''}".rstrip())
        banks = banks_line(record, self.names, self.lang, self.catalog, self.now)
        if banks and not view.get("game_over"):
            lines.append(banks)
        away = away_line(record, self.names, self.lang, self.catalog, self.now)
        if away and not view.get("game_over"):
            lines.append(away)
        lines.extend(head[1:])
        if record.hints and not view.get("game_over"):
            lines.append(self.t("table.hints_on"))
        return "\n".join(lines)

    def summary(self, view: Mapping[str, Any]) -> str:
        """The board as text (when there is no image): the fields of the table embed."""
        embed = table_embed(self.record, view, self.names, self.lang, presenter=self.presenter)
        return "\n".join(f"**{f.name}**: {f.value}" for f in embed.fields)

    def log_tail(self, recent: Sequence[ActionRecord], notes: Sequence[str]) -> str:
        lines = self.writer.lines(recent[-2 * LOG_LINES :])[-LOG_LINES:]
        return small([*lines, *notes]) if lines or notes else ""

    def table(self, update: TableUpdate) -> tuple[ui.LayoutView, list[discord.File]]:
        view = update.view
        if view.get("game_over"):
            return self.final(update, None)
        record = self.record
        box: ui.Container[Any] = ui.Container(accent_colour=GAME_COLOUR)
        box.add_item(ui.TextDisplay(self.header(view)))
        name = f"game-{record.id}-v{record.version}.png"
        # The board's text is the image's description (screen readers; Discord shows it on
        # demand); without an image it is in the message itself.
        files, items = _files_and_items([(name, update.image)], self.summary(view))
        if items:
            box.add_item(ui.MediaGallery(*items))
        else:
            box.add_item(ui.TextDisplay(_clip(self.summary(view), TEXT_LIMIT // 2)))
        tail = self.log_tail(update.recent, update.notes)
        if tail:
            box.add_item(ui.Separator())
            box.add_item(ui.TextDisplay(_clip(tail, 1200)))
        prompt = view.get("prompt") or {}
        if prompt.get("kind") == "role":
            for row in self.role_rows(view):
                box.add_item(row)
        buttons: ui.ActionRow[Any] = ui.ActionRow()
        buttons.add_item(TableButton(record.id, record.version, "panel",
                                     label=self.t("button.my_turn"),
                                     style=discord.ButtonStyle.success))
        buttons.add_item(TableButton(record.id, record.version, "undo",
                                     label=self.t("button.undo")))
        buttons.add_item(TableButton(record.id, record.version, "log",
                                     label=self.t("button.log")))
        box.add_item(buttons)
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def board(self, update: TableUpdate) -> tuple[ui.LayoutView, list[discord.File]]:
        """``/game board``: the header and the board image (its text as the description), or
        the board's text without an image; within Discord's limits like every message (very
        long names make a long header and summary)."""
        box: ui.Container[Any] = ui.Container(accent_colour=GAME_COLOUR)
        box.add_item(ui.TextDisplay(self.header(update.view)))
        name = f"game-{self.record.id}-board-v{self.record.version}.png"
        files, items = _files_and_items([(name, update.image)], self.summary(update.view))
        if items:
            box.add_item(ui.MediaGallery(*items))
        else:
            box.add_item(ui.TextDisplay(self.summary(update.view)))
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def role_rows(self, view: Mapping[str, Any]) -> list[ui.ActionRow[Any]]:
        """The role cards as buttons (with what lies on each); taken ones are shown
        disabled."""
        words = self.presenter.words(view, self.lang)
        buttons = []
        for code, taken_by in self.presenter.role_buttons(view):
            taken = taken_by is not None
            label = words.label(code)
            if taken_by is not None:  # a label is plain text: the name without its escapes
                label = plain(self.t("button.role_taken", role=label,
                                     name=self.names.get(int(taken_by), "?")))[:80]
            buttons.append(GameButton(
                self.record.id, self.record.version, code, label=label, disabled=taken,
                style=discord.ButtonStyle.secondary if taken else discord.ButtonStyle.primary,
            ))
        rows = []
        for start in range(0, len(buttons), ROW):
            row: ui.ActionRow[Any] = ui.ActionRow()
            for button in buttons[start : start + ROW]:
                row.add_item(button)
            rows.append(row)
        return rows

    # --- the story of the phases that ended -------------------------------------------------

    def phase_title(self, phase: PhaseEnd, chosen_at: int | None = None) -> str:
        """The phase's title, naming who chose the role then (the action ``chosen_at``)."""
        role = self.t(f"role.{phase.role}") if self.catalog.has(f"role.{phase.role}") else (
            phase.role)
        name = self.writer.name_at(phase.chooser, chosen_at) if phase.chooser is not None else "?"
        return self.t("story.title", round=phase.round, role=role, name=name)

    def phase_actions(self, phase: PhaseEnd, recent: Sequence[ActionRecord]
                      ) -> list[ActionRecord]:
        """The actions of ``phase``: from its role choice to its end."""
        upto = [a for a in recent if a.seq <= phase.seq]
        return phase_actions(upto, ended=True, part=phase.part,
                             openers=self.presenter.phase_openers)

    def phase_lines(self, phase: PhaseEnd, recent: Sequence[ActionRecord]) -> list[str]:
        return self.writer.lines(self.phase_actions(phase, recent), trailing=False)

    def story(self, phases: Sequence[PhaseEnd], recent: Sequence[ActionRecord], link: str,
              *, over: bool = False) -> tuple[ui.LayoutView, list[discord.File]]:
        """The board at the end of each phase, with that phase's log: the channel's story; with
        **My turn** and a link up to the table, so the newest post is a place to act from."""
        box: ui.Container[Any] = ui.Container(accent_colour=CLOSED_COLOUR)
        files: list[discord.File] = []
        budget = TEXT_LIMIT // max(1, len(phases))
        for phase in phases[-8:]:
            lines = self.phase_lines(phase, recent)
            actions = self.phase_actions(phase, recent)
            title = self.phase_title(phase, actions[0].seq if actions else phase.seq)
            text = f"### {title}"
            if lines:
                text += "\n" + small(lines[-STORY_LINES:])
            box.add_item(ui.TextDisplay(_clip(text, budget)))
            suffix = f"-{phase.part}" if phase.part else ""  # the second phase of one action
            name = f"game-{self.record.id}-phase-{phase.seq}{suffix}.png"
            more, items = _files_and_items([(name, phase.image)], title)
            if items:
                box.add_item(ui.MediaGallery(*items))
                files.extend(more)
        box.add_item(self.links(link, panel=not over))
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def round_story(self, phases: Sequence[PhaseEnd], actions: Sequence[ActionRecord],
                    link: str, *, over: bool = False) -> tuple[ui.LayoutView, list[discord.File]]:
        """A whole round in one post, where the story has no thread (the channel then gets
        one post per round): each phase's title and log lines, and the board at the round's
        end (the image of its last phase)."""
        last = phases[-1]
        head = f"### {self.t('story.round', round=last.round)}"
        budget = (TEXT_LIMIT - len(head)) // max(1, len(phases))
        parts = [head]
        for phase in phases:
            done = self.phase_actions(phase, actions)
            title = self.t("story.phase",
                           title=self.phase_title(phase, done[0].seq if done else phase.seq))
            lines = self.writer.lines(done, trailing=False)
            parts.append(_clip("\n".join([title, small(lines[-STORY_LINES:])]) if lines
                               else title, budget))
        box: ui.Container[Any] = ui.Container(accent_colour=CLOSED_COLOUR)
        box.add_item(ui.TextDisplay("\n".join(parts)))
        name = f"game-{self.record.id}-round-{last.round}-{last.seq}.png"
        files, items = _files_and_items([(name, last.image)], head.removeprefix("### "))
        if items:
            box.add_item(ui.MediaGallery(*items))
        box.add_item(self.links(link, panel=not over))
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files

    def links(self, link: str | None, *, panel: bool) -> ui.ActionRow[Any]:
        record = self.record
        row: ui.ActionRow[Any] = ui.ActionRow()
        if panel:
            row.add_item(TableButton(record.id, record.version, "panel",
                                     label=self.t("button.my_turn"),
                                     style=discord.ButtonStyle.success))
        else:
            row.add_item(TableButton(record.id, record.version, "log",
                                     label=self.t("button.log")))
        if link:
            row.add_item(ui.Button(label=self.t("button.to_table"), url=link))
        return row

    # --- the end ----------------------------------------------------------------------------

    def closed(self) -> ui.LayoutView:
        """The table of a game abandoned without a result."""
        box: ui.Container[Any] = ui.Container(accent_colour=CLOSED_COLOUR)
        box.add_item(ui.TextDisplay(f"## {self.t('table.closed', game=self.record.id)}"))
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout)

    def standings(self, outcome: Mapping[str, Any]) -> list[str]:
        lines = []
        for score in sorted(outcome.get("scores", ()), key=lambda s: (s["rank"], s["seat"])):
            parts = [f"{self.presenter.score_part(part, self.lang)} {points}"
                     for part, points in score.get("breakdown", {}).items()]
            lines.append(self.t("final.line", rank=score["rank"],
                                name=everyone(self.names).get(int(score["seat"]), "?"),
                                total=score["total"], breakdown=" · ".join(parts),
                                tiebreak=score["tiebreak"]))
        return lines

    def rating_lines(self, update: TableUpdate) -> list[str]:
        """Each rated person's new rating and its change, or why the game is not rated."""
        if update.ratings:
            items = [self.t("final.rating_item", name=line.name, points=line.after,
                            change=signed(line.after - line.before))
                     for line in update.ratings]
            return ["", self.t("final.ratings", changes=" · ".join(items))]
        if update.rating is not None:
            return ["", small([self.t(f"final.unrated.{update.rating}")])]
        return []

    def final(self, update: TableUpdate, link: str | None
              ) -> tuple[ui.LayoutView, list[discord.File]]:
        """Game over: reasons, winners, standings with their breakdown and tie-break; the table
        (``link`` is ``None``) shows the final board, the last post (with the ``link`` up to the
        table) the score sheet and the chart of the score by round."""
        view, record = update.view, self.record
        outcome = view.get("outcome") or {}
        reasons = ", ".join(self.t(f"end.{r}") for r in outcome.get("end_reasons", ()))
        winners = ", ".join(everyone(self.names).get(int(w), "?")
                            for w in outcome.get("winners", ()))
        key = "final.winners" if len(outcome.get("winners", ())) > 1 else "final.winner"
        text = [f"## {self.t('final.title', game=record.id)}",
                self.t("table.game_over", reasons=reasons), self.t(key, names=winners),
                "", *self.standings(outcome), *self.rating_lines(update),
                "", small([*self.presenter.score_notes(view, self.lang),
                           self.t("score.tiebreak_note")])]
        box: ui.Container[Any] = ui.Container(accent_colour=GAME_COLOUR)
        box.add_item(ui.TextDisplay(_clip("\n".join(text), TEXT_LIMIT)))
        images = [(f"game-{record.id}-scores.png", update.scoresheet),
                  (f"game-{record.id}-chart.png", update.chart)] if link else [
            (f"game-{record.id}-v{record.version}.png", update.image)]
        files, items = _files_and_items(images, self.t("final.title", game=record.id))
        if items:
            box.add_item(ui.MediaGallery(*items))
        box.add_item(self.links(link, panel=False))
        layout = ui.LayoutView(timeout=None)
        layout.add_item(box)
        return fit_view(layout), files


def signed(change: int) -> str:
    """"+28", "−20" (a minus sign), "±0"."""
    if change > 0:
        return f"+{change}"
    return f"\u2212{-change}" if change < 0 else "\u00b10"
