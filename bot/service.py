"""The game service: where engine, storage and render meet, one part per concern.

Cogs and components parse, defer, call a method here and present what comes back.  The parts
(each with public methods; none calls another's private ones):

* :mod:`bot.lobby_service` -- a lobby created, joined, its seats and rules, started, cancelled;
* :mod:`bot.play_service` -- a person's move, a seat handed to an AI, a game moved;
* :mod:`bot.ai_turns` -- the forced decisions and the AI seats' moves after a change;
* :mod:`bot.history` -- every commit, the end of the log kept, the story's boards, the replay;
* :mod:`bot.publishing` -- the table drawn, published in the game's order, recorded as shown;
* :mod:`bot.resume` -- the games behind their stored state brought up to date;
* :mod:`bot.turns` -- a player's private panel, undo, leaving, the log and hints.

:class:`GameService` builds them over one storage and publisher and offers their public
methods under one name, so a caller needs one object.  Every change of a game runs under that
game's lock and is committed with the version the caller saw, so a double click or an outdated
button is refused (``StaleVersion``) instead of being applied twice.  Refusals are
:class:`bot.errors.UserError` (rules of the table) or the storage and engine errors themselves;
:mod:`bot.errors` words all of them.
"""

from __future__ import annotations

import random
from contextlib import AbstractAsyncContextManager
from typing import Any

from storage import Storage

from .ai_turns import AiTurns
from .changes import Publisher
from .history import History
from .i18n import CATALOG, Catalog
from .lobby_service import LobbyService
from .play_service import PlayService
from .publishing import PUBLISH_WAIT, Publications, Publishing
from .rendering import Drawing, Renderer, ScoreRenderer
from .resume import Resumer
from .thinking import Thinker

_DEFAULT: Any = object()


class GameService:
    def __init__(
        self,
        storage: Storage,
        publisher: Publisher | None = None,
        *,
        rng: random.Random | None = None,
        renderer: Renderer | None = None,
        catalog: Catalog = CATALOG,
        score_renderer: ScoreRenderer | None = _DEFAULT,
        thinker: Thinker | None = None,
        publish_wait: float = PUBLISH_WAIT,
    ) -> None:
        self.storage = storage
        self.publisher = publisher
        self.catalog = catalog
        self.thinker = thinker or Thinker()
        self.drawing = (Drawing(renderer, catalog=catalog) if score_renderer is _DEFAULT
                        else Drawing(renderer, score_renderer, catalog))
        self.publications = Publications(publish_wait)
        """Each game's publications in order, in the background (:mod:`bot.publishing`)."""
        self.history = History(storage)
        self.publishing = Publishing(storage, publisher, self.drawing, self.history,
                                     self.publications, catalog)
        self.ai = AiTurns(storage, self.history, self.publishing, self.thinker)
        self.play = PlayService(storage, self.history, self.publishing, self.ai)
        self.lobby = LobbyService(storage, rng or random.SystemRandom(), self.ai,
                                  self.publishing)
        self.resumer = Resumer(storage, self.ai, self.publishing, self.publications)
        # the parts' public methods under one name
        self.create_lobby = self.lobby.create_lobby
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_ai = self.lobby.add_ai
        self.remove_ai = self.lobby.remove_ai
        self.set_variants = self.lobby.set_variants
        self.cancel = self.lobby.cancel
        self.start = self.lobby.start
        self.submit = self.play.submit
        self.hand_to_ai = self.play.hand_to_ai
        self.come_back = self.play.come_back
        self.move = self.play.move
        self.resume = self.resumer.resume
        self.resume_all = self.resumer.resume_all
        self.resume_stalled = self.resumer.resume_stalled
        self.table = self.publishing.table
        self.timelapse = self.publishing.timelapse
        self.replay_file = self.history.replay_file
        self.recent = self.history.recent

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The game's lock: one change of a game at a time, in every process on the database
        (:meth:`storage.Database.lock`)."""
        return self.storage.db.lock(game_id)

    def close(self) -> None:
        """Let the render threads and the AI workers go (the bot is closing)."""
        self.ai.close()
        self.publications.close()
        self.drawing.close()
        self.thinker.close()

    async def settled(self) -> None:
        """Wait until no AI seat is thinking and no table is being published in any game
        (tests, and a clean shutdown)."""
        await self.ai.settled()
        await self.publications.settled()
