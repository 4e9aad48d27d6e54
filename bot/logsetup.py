"""Logging for the bot process: one stream handler, a level from the settings, and a filter
that blanks secrets (the token) from every record, whoever logs it."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import TextIO

REDACTED = "[redacted]"
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


class RedactingFilter(logging.Filter):
    """Replaces each secret in the formatted message (and in the traceback text) of a record."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_info[1] is not None:
            formatted = logging.Formatter().formatException(record.exc_info)
            if any(s in formatted for s in self.secrets):
                record.exc_text = self._clean(formatted)
                record.exc_info = None
        return True


def configure_logging(
    level: str, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> logging.Handler:
    """Log to ``stream`` (stderr) at ``level``; secrets never reach the output."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RedactingFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's gateway chatter is DEBUG noise unless asked for.
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))
    return handler
