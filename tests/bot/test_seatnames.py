"""Names chosen by people, as text for Discord and as drawn on images (bot.seatnames, issue
#33): escaped so that they show literally and ping nobody, and exactly reversible for the
places Discord does not read as markdown."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.rendering import Drawing
from bot.seatnames import escape_name, plain

HOSTILE = [
    "@everyone", "@here", "<@123>", "<@!123>", "<@&456>", "<#789>", "</game board:1>",
    "<t:1700000000:R>", "<:emoji:42>", "**bold**", "*it*", "_it_", "__under__", "~~strike~~",
    "||spoiler||", "`code`", "```block```", "[link](http://x)", "# heading", "## heading",
    "-# small", "> quote", ">>> quote", "- item", "***", "\\", "\\*", "a\\_b", "ana", "José-Luis",
    "名前 <@1>",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_an_escaped_name_is_literal_text_and_comes_back_whole(name: str) -> None:
    """Every markdown or mention character is backslashed (Discord then shows the character
    itself), nothing else changes, and ``plain`` gives the name back."""
    escaped = escape_name(name)
    assert plain(escaped) == name
    assert escaped.replace("\\", "") == name.replace("\\", "")
    special = [i for i, c in enumerate(name) if c in "\\*_~|`<>@#[]-"]
    assert escaped.count("\\") == len(special) + name.count("\\")
    for mention in ("@everyone", "@here", "<@", "<#", "<t:", "</", "[link]("):
        assert mention not in escaped.replace("\\" + mention[0], "")


def test_a_name_stays_on_one_line_and_keeps_its_direction() -> None:
    """Line breaks and control characters become spaces (a name cannot start a line of its
    own: no heading, quote or list), and so do the bidirectional overrides that would turn the
    text after the name around."""
    assert escape_name("a\nb\r\tc\x00") == "a b  c"
    assert escape_name("\n# heading") == "\\# heading"
    assert escape_name("abc\u202edef\u2066x\u2069") == "abc def x"


def test_plain_leaves_our_own_markdown_alone() -> None:
    """``plain`` takes back only escapes: the bot's own markdown around a name stays."""
    line = f"**{escape_name('**x**')}** chose the Mayor"
    assert line == "**\\*\\*x\\*\\*** chose the Mayor"
    assert plain(line) == "****x**** chose the Mayor"


class Recorder:
    """A renderer recording the names and the status line it is asked to draw."""

    def __init__(self) -> None:
        self.names: list[Mapping[int, str]] = []
        self.labels: list[Mapping[str, str]] = []

    def __call__(self, view: Mapping[str, Any], events: Sequence[Any], names: Mapping[int, str],
                 labels: Mapping[str, str]) -> bytes:
        self.names.append(dict(names))
        self.labels.append(dict(labels))
        return b"png"

    def scores(self, game: str, outcome: Mapping[str, Any], names: Mapping[int, str],
               labels: Mapping[str, str]) -> bytes:
        return self(outcome, (), names, labels)


def test_the_images_draw_the_names_without_their_escapes() -> None:
    """A board, a story image's status line and the score sheet get the names as typed (a
    backslash would be drawn)."""
    recorder = Recorder()
    drawing = Drawing(recorder, recorder.scores, processes=False)
    names = {0: escape_name("**ana**"), 1: escape_name("@everyone"), 2: "AI 3 (normal)"}
    status = f"Round 1 · the Mayor phase (chosen by {names[0]}) ended"

    async def draw() -> None:
        try:
            assert await drawing.board({"game": "puerto-rico"}, (), names, "en", status=status)
            assert await drawing.scores("puerto-rico", {}, names, "en")
        finally:
            drawing.close()

    asyncio.run(draw())
    raw = {0: "**ana**", 1: "@everyone", 2: "AI 3 (normal)"}
    assert recorder.names == [raw, raw]
    assert recorder.labels[0]["status"] == "Round 1 · the Mayor phase (chosen by **ana**) ended"
