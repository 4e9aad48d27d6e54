"""The game log in words: logged actions and their events -> short localized lines.

Pure functions of :class:`storage.ActionRecord` values (their events are stored as JSON).  Every
event is first reduced to what the public may see (``Event.for_viewer(None)``), so a VP chip
earned (face down) or a card drawn never shows in a channel.  Also here: which events belong to
the current role phase (the "what just changed" highlights of the board image) and where the
phases ended.  Every game with role phases tells them with the same events: ``RoleChosen`` opens
a phase (or another event its presenter names in ``phase_openers``), ``PhaseEnded`` closes it
(``data["role"]``), ``RoundEnded`` ends a round.

:class:`LogWriter` writes the lines every game shares (who held a seat, hand-overs, moves played
for a person); each game's presenter extends it with its own events' lines
(:meth:`LogWriter.event_line`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import Event, Game
from storage import ActionRecord

from .i18n import CATALOG, Catalog
from .seatnames import Former, SeatNames

LINE_LIMIT = 300
OPENERS: tuple[str, ...] = ("RoleChosen",)
"""The events that open a role phase unless a presenter names more."""
HANDOVER_KEYS = {"left": "log.handover_left", "clock": "log.handover_clock",
                 "timeout": "log.handover_timeout", "returned": "log.handover_returned"}
"""The line of a seat that changed hands, by reason (else ``log.handover_replaced``)."""


def public_events(action: ActionRecord) -> list[Event]:
    """The events of one logged action as everybody may see them."""
    out = []
    for data in action.events:
        event = Event.from_json(data).for_viewer(None)
        if event is not None:
            out.append(event)
    return out


def phase_start(actions: Sequence[ActionRecord], end: int | None = None,
                openers: Sequence[str] = OPENERS) -> int:
    """Index in ``actions`` of the last role choice (an event of ``openers``) at or before
    index ``end`` (default: the last action); 0 when the list holds none (the phase began
    earlier)."""
    last = len(actions) - 1 if end is None else end
    for index in range(last, -1, -1):
        if chose_role(actions[index], openers):
            return index
    return 0


def chose_role(action: ActionRecord, openers: Sequence[str] = OPENERS) -> bool:
    """Whether ``action`` chose a role (opened a phase: an event of ``openers``)."""
    return any(e.get("type") in openers for e in action.events)


def _opener_before(actions: Sequence[ActionRecord], last: int, stop: int,
                   openers: Sequence[str]) -> tuple[int, int]:
    """(action index, event index) of the last opening event before event ``stop`` of the
    action ``last``; (0, 0) when the list holds none (the phase began earlier)."""
    for index in range(last, -1, -1):
        events = actions[index].events
        for at in range((stop if index == last else len(events)) - 1, -1, -1):
            if events[at].get("type") in openers:
                return index, at
    return 0, 0


def phase_actions(actions: Sequence[ActionRecord], end: int | None = None, *,
                  ended: bool = False, part: int = 0, openers: Sequence[str] = OPENERS
                  ) -> list[ActionRecord]:
    """The actions of the role phase under way at index ``end`` (default: the last action),
    or with ``ended`` of the phase that the action ``end`` ended (its ``part``-th
    ``PhaseEnded``: one action may end two phases, the round's last pick whose phase ends at
    once and the role the Buccaneer captured, Exp. 3, played at once after it).  The first
    action's events start at the phase's opening event, and an ended phase's last action stops
    where the next phase opens (the next phase's story tells the rest)."""
    if not actions:
        return []
    last = len(actions) - 1 if end is None else end
    events = actions[last].events
    stop = len(events)
    if ended:
        ends = [i for i, e in enumerate(events) if e.get("type") == "PhaseEnded"]
        if ends:
            stop = ends[min(part, len(ends) - 1)] + 1
    first, at = _opener_before(actions, last, stop, openers)
    out = list(actions[first : last + 1])
    following = next((i for i, e in enumerate(events[stop:]) if e.get("type") in openers), None)
    if ended and following is not None:
        out[-1] = replace(out[-1], events=events[: stop + following])
    if at:
        out[0] = replace(out[0], events=out[0].events[at:])
    return out


def phase_events(actions: Sequence[ActionRecord], end: int | None = None, *,
                 to_phase_end: bool = False, part: int = 0, openers: Sequence[str] = OPENERS
                 ) -> list[Event]:
    """Public events of the role phase under way at index ``end`` (:func:`phase_actions`):
    what the board image highlights (the role phase under way, or the one that just ended).
    ``to_phase_end``: the phase the action ``end`` ended (its ``part``-th), not what that
    action did after it (the end of the round: the Governor passed...), for the board as it
    stood then."""
    out: list[Event] = []
    for action in phase_actions(actions, end, ended=to_phase_end, part=part, openers=openers):
        out.extend(public_events(action))
    if to_phase_end:
        ended = [i for i, e in enumerate(out) if e.type == "PhaseEnded"]
        if ended:
            del out[ended[-1] + 1 :]
    return out


def roles_taken(actions: Sequence[ActionRecord], end: int, key: str) -> dict[object, int | None]:
    """Who chose each role (``RoleChosen``'s ``data[key]``) in the round that the action
    ``end`` closes, back to the previous ``RoundEnded``: the role cards as they stood when the
    round's last phase ended (a story image drawn after the round moved on)."""
    taken: dict[object, int | None] = {}
    for index in range(end, -1, -1):
        events = public_events(actions[index])
        if index != end and any(e.type == "RoundEnded" for e in events):
            break  # the round before
        for event in events:
            if event.type == "RoleChosen":
                taken[event.data.get(key)] = event.seat
    return taken


def phase_ends(actions: Sequence[ActionRecord]) -> list[int]:
    """Indexes of the actions that ended a role phase (their events hold ``PhaseEnded``)."""
    return [
        i for i, a in enumerate(actions) if any(e.get("type") == "PhaseEnded" for e in a.events)
    ]


def phase_end_points(actions: Sequence[ActionRecord]) -> list[tuple[int, int]]:
    """Every role phase that ended, in order: (index of the action, which of its
    ``PhaseEnded`` events: 0, or 1 when one action ended two phases)."""
    return [(i, part) for i, a in enumerate(actions)
            for part in range(sum(e.get("type") == "PhaseEnded" for e in a.events))]


def views_after(
    game: Game[Any],
    options: Mapping[str, Any],
    seed: int,
    actions: Sequence[ActionRecord],
    indexes: Sequence[int],
) -> list[Mapping[str, Any]]:
    """The public views right after the actions at ``indexes`` (a replay of the log, which is
    the whole log of the game: the actions that count, from the first)."""
    wanted = set(indexes)
    found: dict[int, Mapping[str, Any]] = {}
    if wanted:
        state = game.setup(options, seed)
        for index, action in enumerate(actions[: max(wanted) + 1]):
            state, _ = game.apply(state, action.seat, game.decode_action(action.code))
            if index in wanted:
                found[index] = game.view(state, None)
    return [found[i] for i in indexes]


class LogWriter:
    """Lines for a game's log in one language, with display names by seat.

    With :class:`bot.seatnames.SeatNames` each line names whoever held the seat when the action
    was taken (a player who left keeps their moves), and the hand-overs are lines of their own
    at their place in the history.  ``humans`` are the seats people hold now."""

    def __init__(
        self,
        names: Mapping[int, str],
        lang: str,
        catalog: Catalog = CATALOG,
        *,
        humans: Iterable[int] = (),
    ) -> None:
        self.names = names
        self.lang = lang
        self.catalog = catalog
        self.humans = frozenset(humans)
        self.formers = names.formers if isinstance(names, SeatNames) else ()
        self.at: int | None = None
        """The ``seq`` of the action whose lines are being written (``None``: now)."""

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def counted(self, key: str, n: object, **fields: Any) -> str:
        """``key`` with the count ``n`` (its plural forms come from the catalog); ``key_free``
        instead for 0 when it exists ("for nothing" rather than "for 0 doubloons")."""
        if n == 0 and self.catalog.has(f"{key}_free"):
            return self.t(f"{key}_free", n=0, **fields)
        return self.t(key, n=n, **fields)

    def name(self, seat: object) -> str:
        """Whoever held ``seat`` for the action being written (else its occupant now)."""
        return self.name_at(seat, self.at)

    def name_at(self, seat: object, seq: int | None) -> str:
        """Whoever held ``seat`` for the action ``seq`` (``None``: its occupant now)."""
        if isinstance(seat, int):
            if isinstance(self.names, SeatNames):
                held = self.names.at(seat, seq)
                if held is not None:
                    return held
            return self.names.get(seat, self.t("table.seat_name", n=seat + 1))
        return "?"

    def phase_ended(self, round_: int, role: str, chooser: int | None, chosen_at: int | None
                    ) -> str:
        """What a story image shows: "Round 3 · the Builder phase (chosen by alice) ended",
        naming whoever chose the role then (the action ``chosen_at``)."""
        name = self.name_at(chooser, chosen_at) if chooser is not None else "?"
        return self.t("story.ended", round=round_, role=self.thing("role", role), name=name)

    def human(self, seat: int, seq: int) -> bool:
        """Whether a person held ``seat`` for the action ``seq``."""
        if isinstance(self.names, SeatNames):
            former = self.names.holder(seat, seq)
            if former is not None:
                return former.human
        return seat in self.humans

    def handover_line(self, former: Former) -> str:
        """The seat changed hands: "bob left the game; AI 2 (normal) plays that seat..."."""
        key = HANDOVER_KEYS.get(former.reason, "log.handover_replaced")
        return self.t(key, name=former.name, next=former.successor)[:LINE_LIMIT]

    def thing(self, prefix: str, value: object) -> str:
        key = f"{prefix}.{value}"
        return self.t(key) if self.catalog.has(key) else str(value)

    def lines(self, actions: Iterable[ActionRecord], *, trailing: bool = True) -> list[str]:
        """The lines of ``actions`` (in log order), with the seat hand-overs among them; those
        after the last action too unless not ``trailing`` (a phase's story, an undone move)."""
        out: list[str] = []
        previous: int | None = None
        for action in actions:
            low = action.seq - 1 if previous is None else previous
            out.extend(self.handover_line(f) for f in self.formers
                       if low <= f.after_seq < action.seq)
            previous = self.at = action.seq
            automatic = action.user_id is None and self.human(action.seat, action.seq)
            for event in self.prepare(public_events(action)):
                line = self.event_line(event)
                if line is None:
                    continue
                if automatic and event.seat == action.seat:
                    line = self.t("log.automatic", line=line)
                    automatic = False
                out.append(line[:LINE_LIMIT])
        self.at = None
        if trailing and previous is not None:
            out.extend(self.handover_line(f) for f in self.formers if f.after_seq >= previous)
        return out

    def prepare(self, events: list[Event]) -> list[Event]:
        """One action's public events as the lines tell them (a game may merge some)."""
        return events

    def event_line(self, event: Event) -> str | None:
        """One event in words; ``None`` for events that make no line (the game's presenter
        words its own events)."""
        return None
