"""Paces and time banks as people choose and read them (issue #35; docs/time.md).

``/game new pace:`` picks a preset or ``custom`` (with ``bank_days``, ``increment_hours`` and
``cap_days``); the lobby says what it means, the table and ``/game status`` show each person's
bank, the private panel one's own.  The arithmetic is :mod:`storage.timebank`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from zoneinfo import available_timezones

from storage import GameRecord
from storage.timebank import (
    DAY_MS,
    HOUR_MS,
    PACE_NAMES,
    PRESETS,
    Pace,
    Quiet,
    Stop,
    left,
    runs_out,
)

from .errors import UserError
from .i18n import CATALOG, Catalog

MAX_BANK_DAYS = 60
MAX_INCREMENT_HOURS = 30 * 24
MAX_CAP_DAYS = 90
LOW_MS = 12 * HOUR_MS
"""A bank under this is marked (🔴) on the table."""


def chosen_pace(pace: str | None, bank_days: int | None = None,
                increment_hours: int | None = None, cap_days: int | None = None) -> Pace | None:
    """The pace ``/game new`` asks for (``None``: unlimited).  A custom figure without a pace
    means ``custom``; a custom pace's missing figures are the normal pace's, the cap at least
    the first bank.  :class:`UserError` for a figure out of range or a pace that does not hold."""
    custom = (bank_days, increment_hours, cap_days) != (None, None, None)
    name = pace or ("custom" if custom else "unlimited")
    if name not in PACE_NAMES:
        raise UserError("err.bad_pace", pace=name[:40])
    if custom and name != "custom":
        raise UserError("err.pace_figures_custom", pace=name)
    if name == "unlimited":
        return None
    if name != "custom":
        return PRESETS[name]
    normal = PRESETS["normal"]
    start = normal.start_ms if bank_days is None else bank_days * DAY_MS
    increment = normal.increment_ms if increment_hours is None else increment_hours * HOUR_MS
    if not (bank_days is None or 1 <= bank_days <= MAX_BANK_DAYS) or not (
            increment_hours is None or 0 <= increment_hours <= MAX_INCREMENT_HOURS) or not (
            cap_days is None or 1 <= cap_days <= MAX_CAP_DAYS):
        raise UserError("err.pace_range", days=MAX_BANK_DAYS, hours=MAX_INCREMENT_HOURS,
                        cap=MAX_CAP_DAYS)
    cap = max(start, normal.cap_ms, increment) if cap_days is None else cap_days * DAY_MS
    if cap < start or cap < increment:
        raise UserError("err.pace_cap", cap=_days(cap), start=_days(start))
    return Pace("custom", start, increment, cap)


def _days(ms: int) -> int:
    return ms // DAY_MS


def span(catalog: Catalog, lang: str, ms: int) -> str:
    """A bank's figure as a line of figures shows it: "2d 4h", "5h 10min"."""
    return catalog.duration(lang, ms / 1000, short=True)


def describe(pace: Pace | None, lang: str, catalog: Catalog = CATALOG) -> str:
    """"normal: 3d to start, +1d a move, at most 5d"; "unlimited (no clock)"."""
    if pace is None:
        return catalog.t(lang, "pace.unlimited")
    return catalog.t(lang, "pace.description", name=catalog.t(lang, f"pace.{pace.name}"),
                     start=span(catalog, lang, pace.start_ms),
                     increment=span(catalog, lang, pace.increment_ms)
                     if pace.increment_ms else "0",
                     cap=span(catalog, lang, pace.cap_ms))


def deadline(bank_ms: int, since: datetime, quiet: Quiet | None, stops: Sequence[Stop] = ()
             ) -> str | None:
    """When a waiting seat's bank runs out (past the quiet time and the pauses), as Discord
    shows a moment: "in 5 hours", in the reader's own language and kept up to date by the
    client; ``None`` while a pause holds it."""
    out = runs_out(bank_ms, since, quiet, stops)
    return None if out is None else f"<t:{int(out.timestamp())}:R>"


def seat_bank(record: GameRecord, seat: int, names: Mapping[int, str], lang: str,
              catalog: Catalog, now: datetime) -> str | None:
    """One seat's bank as the table shows it ("ana 2d 4h"; a waiting seat's by when it runs
    out: "bob 🔴: runs out <t:…:R>", red under 12 hours at ``now``), ``None`` for a seat
    without one."""
    held = record.seat(seat)
    if held is None or held.bank_ms is None or record.pace is None:
        return None
    name = names.get(seat, f"#{seat + 1}")
    rest = left(held.bank_ms, held.waiting_since, now, record.quiet, record.stops(held))
    if rest <= 0:
        return catalog.t(lang, "pace.seat_out", name=name)
    mark = " 🔴" if rest < LOW_MS else ""
    when = None if held.waiting_since is None else deadline(
        held.bank_ms, held.waiting_since, record.quiet, record.stops(held))
    if when is not None:
        return catalog.t(lang, "pace.seat_waiting", name=name, mark=mark, when=when)
    return catalog.t(lang, "pace.seat", name=name + mark, left=span(catalog, lang, rest))


def own_bank(record: GameRecord, seat: int, lang: str, catalog: Catalog = CATALOG
             ) -> str | None:
    """The private panel's line: "⏳ Your time bank: 2d 4h", or when it runs out while the
    game waits on the seat; ``None`` without a bank."""
    held = record.seat(seat)
    if held is None or held.bank_ms is None or record.pace is None:
        return None
    when = None if held.waiting_since is None else deadline(
        held.bank_ms, held.waiting_since, record.quiet, record.stops(held))
    if when is not None:
        return catalog.t(lang, "pace.your_bank_waiting", when=when)
    rest = left(held.bank_ms, held.waiting_since, record.updated_at, record.quiet,
                record.stops(held))
    key = "pace.your_bank_paused" if record.paused else "pace.your_bank"
    return catalog.t(lang, key, left=span(catalog, lang, max(0, rest)))


def banks_line(record: GameRecord, names: Mapping[int, str], lang: str,
               catalog: Catalog = CATALOG, now: datetime | None = None) -> str | None:
    """"⏳ Time banks (normal): ana 2d 4h · bob 🔴: runs out in 5 hours"; ``None`` in a game
    without a pace.  ``now``: the moment the line speaks of (default: the record's last
    change, when the message showing it is drawn)."""
    if record.pace is None:
        return None
    moment = now or record.updated_at
    seats = [seat_bank(record, s.seat, names, lang, catalog, moment) for s in record.seats]
    shown = [s for s in seats if s is not None]
    if not shown:
        return None
    return catalog.t(lang, "pace.banks_paused" if record.paused else "pace.banks",
                     pace=catalog.t(lang, f"pace.{record.pace.name}"), seats=" · ".join(shown))


def away_line(record: GameRecord, names: Mapping[int, str], lang: str,
              catalog: Catalog = CATALOG, now: datetime | None = None) -> str | None:
    """"🏖 Away: ana until <t:…:D>": the people seated whose absence (``/game away``) is under
    way at ``now`` (default: the record's last change); ``None`` when nobody is away."""
    moment = now or record.updated_at
    away = []
    for seat in record.seats:
        until = next((end for start, end in seat.away
                      if start <= moment and (end is None or moment < end)), None)
        if seat.user_id is not None and until is not None:
            away.append(catalog.t(lang, "away.seat", name=names.get(seat.seat, "?"),
                                  until=f"<t:{int(until.timestamp())}:D>"))
    return catalog.t(lang, "away.line", seats=" · ".join(away)) if away else None


# --- quiet time ---------------------------------------------------------------------------------

_HOURS = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*[-–]\s*(\d{1,2})(?::(\d{2}))?\s*$")
NO_WINDOW = frozenset({"", "-", "none", "no", "off", "ninguna", "nenhuma", "nada"})
ZONE_CHOICES = 25


def quiet_window(text: str) -> tuple[int, int] | None:
    """"22-08" or "22:30-07:00" as minutes after midnight; "none" (or "-", "off") as no
    window.  :class:`UserError` otherwise."""
    if text.strip().casefold() in NO_WINDOW:
        return None
    match = _HOURS.match(text)
    if match is None:
        raise UserError("err.quiet_hours", hours=text[:40])
    start_h, start_m, end_h, end_m = (int(g or 0) for g in match.groups())
    if start_h > 23 or end_h > 23 or start_m > 59 or end_m > 59 or (
            (start_h, start_m) == (end_h, end_m)):
        raise UserError("err.quiet_hours", hours=text[:40])
    return start_h * 60 + start_m, end_h * 60 + end_m


def known_zone(name: str) -> str:
    """``name`` as an IANA time zone this machine knows; :class:`UserError` otherwise."""
    wanted = name.strip()
    for zone in zones():
        if zone.casefold() == wanted.casefold():
            return zone
    raise UserError("err.time_zone", zone=wanted[:60])


@cache
def zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone_choices(current: str) -> list[str]:
    """The time zones whose name holds ``current`` (the autocomplete): those that start
    with it first, at most :data:`ZONE_CHOICES`."""
    wanted = current.strip().casefold().replace(" ", "_")
    starts = [z for z in zones() if z.casefold().startswith(wanted)]
    inside = [z for z in zones() if wanted in z.casefold() and z not in starts]
    return [*starts, *inside][:ZONE_CHOICES]


def chosen_quiet(zone: str | None, weekends: bool | None, hours: str | None,
                 fallback_zone: str | None) -> Quiet | None:
    """The quiet time ``/game new`` or ``/game server`` asks for (``None`` when it asks for
    none: the server's then applies to a game).  A rule without a zone takes
    ``fallback_zone`` (the server's), else UTC; weekends and hours left out are off."""
    if (zone, weekends, hours) == (None, None, None):
        return None
    return Quiet(known_zone(zone) if zone is not None else fallback_zone or "UTC",
                 bool(weekends), None if hours is None else quiet_window(hours))


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def describe_window(window: tuple[int, int]) -> str:
    """"22:00–08:00"."""
    return f"{_clock(window[0])}–{_clock(window[1])}"


def describe_quiet(quiet: Quiet | None, lang: str, catalog: Catalog = CATALOG) -> str:
    """"weekends and 22:00–08:00 (Europe/Madrid)"; "none" (every hour counts)."""
    if quiet is None or quiet.empty:
        return catalog.t(lang, "quiet.none")
    parts = []
    if quiet.weekends:
        parts.append(catalog.t(lang, "quiet.weekends"))
    if quiet.window is not None:
        parts.append(describe_window(quiet.window))
    return catalog.t(lang, "quiet.rule", parts=catalog.join(lang, parts), zone=quiet.zone)


def server_quiet(was: Quiet | None, zone: str | None, weekends: bool | None,
                 hours: str | None) -> Quiet:
    """A server's quiet time after ``/game server`` changed some of it (``was``: before); a
    part left out keeps its value, ``quiet_hours:none`` drops the window."""
    return Quiet(
        known_zone(zone) if zone is not None else was.zone if was else "UTC",
        bool(weekends) if weekends is not None else bool(was and was.weekends),
        quiet_window(hours) if hours is not None else was.window if was else None)
