"""What every worker process of the bot (the image workers, the AI's) does when it starts.

A worker waits for work from the bot that started it.  When that bot is killed (SIGKILL, a
crash, the host's OOM killer), nothing tells its workers: they would wait forever, each holding
its memory.  :func:`follow_parent` makes a worker end itself within a second of its bot's end
(its parent changes: it was adopted by init or a subreaper).
"""

from __future__ import annotations

import os
import threading
import time

CHECK_SECONDS = 1.0


def follow_parent() -> None:
    """Initializer of a worker process: end this process once its parent is gone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(CHECK_SECONDS)
        os._exit(0)  # no clean-up to run: the bot that wanted the work is gone

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
