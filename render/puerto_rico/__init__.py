"""Puerto Rico's images: the table, the private panel and the score sheet's rows.  Importing
this package registers its renderer under the game's name."""

from __future__ import annotations

from ..games import GameRenderer, register_renderer
from .labels import ENGLISH
from .layout import layout_table
from .panel import FOCUSES, layout_panel, panel_focus
from .pieces import COLORS
from .scoresheet import layout_scoresheet, score_split

RENDERER = register_renderer(GameRenderer(
    name="puerto-rico",
    english=ENGLISH,
    layout_table=layout_table,
    layout_panel=layout_panel,
    layout_scoresheet=layout_scoresheet,
    panel_focus=panel_focus,
    focuses=FOCUSES,
    score_split=score_split,
    colors=COLORS,
))

__all__ = ["ENGLISH", "FOCUSES", "RENDERER", "layout_panel", "layout_scoresheet", "layout_table",
           "panel_focus"]
