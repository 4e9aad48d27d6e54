""""Since your last turn" (issue #35; docs/time.md): what the others did since a seat last
acted, in the reader's language, for the turn DM and the private panel.

The lines are the game's public log lines (the writer the channel's table uses), so nothing
hidden can be in them; at most :data:`RECAP_LINES` of them, the latest, with a line saying how
many earlier ones were left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage import ActionRecord, GameRecord

from .games import presenter_for
from .i18n import Catalog
from .limits import clip

RECAP_LINES = 6
LINE = 200
"""The longest a recap line gets (a DM holds the turn line and the whole recap)."""


def since_last_turn(actions: Sequence[ActionRecord], seat: int) -> list[ActionRecord]:
    """Of ``actions`` (the end of the log, in order), those after ``seat``'s last one: the
    others' moves and the automatic ones since (all of them if the seat's last move is
    older)."""
    last = max((a.seq for a in actions if a.seat == seat), default=0)
    return [a for a in actions if a.seq > last]


def recap(record: GameRecord, names: Mapping[int, str], actions: Sequence[ActionRecord],
          seat: int, lang: str, catalog: Catalog) -> list[str]:
    """The recap's lines for ``seat`` in ``lang`` (empty when nothing happened since)."""
    since = since_last_turn(actions, seat)
    if not since:
        return []
    humans = [s.seat for s in record.seats if s.user_id is not None]
    lines = presenter_for(record.game).log_writer(names, lang, humans).lines(
        since, trailing=False)
    shown = [clip(line, LINE) for line in lines[-RECAP_LINES:]]
    if len(lines) > RECAP_LINES:
        shown.insert(0, catalog.t(lang, "recap.earlier", n=len(lines) - RECAP_LINES))
    return shown


def recap_text(lines: Sequence[str], lang: str, catalog: Catalog) -> str:
    """The recap as a block: its title, then a line each ("" without lines)."""
    if not lines:
        return ""
    return "\n".join([catalog.t(lang, "recap.title"), *(f"- {line}" for line in lines)])
