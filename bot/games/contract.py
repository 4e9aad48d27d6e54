"""What the generic bot asks of each game: the :class:`GamePresenter`.

The generic modules (the service, the table and story messages, the private panel, the slash
commands, the notices, the errors) speak game ids, prompts, action codes and the generic keys of
every engine's view (``game``, ``viewer``, ``round``, ``prompt``, ``game_over``, ``outcome``);
everything a game says in its own words comes from its presenter.  The base class holds the
defaults a new game gets for free (choices as buttons and menus, the log's generic lines, a
text summary), so a game overrides only what it shows differently.

Every method is pure and fast (called on the event loop): words, Discord components and small
views, never I/O.

The contract sits at the bottom of the bot: it stands on the words (:mod:`bot.i18n`,
:mod:`bot.words`, :mod:`bot.gamelog`) and on the values it hands a game, defined here (a
seat's :class:`Panel`, a refusal's :class:`Situation` and :class:`Refusing`, the panel's
:class:`PanelControls`), never on the service or the Discord flows above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources.abc import Traversable
from typing import Any, ClassVar, Protocol

import discord
from discord import ui

from engine.core import Event, Game
from storage import ActionRecord, GameRecord

from ..gamelog import LogWriter
from ..i18n import Catalog
from ..words import Words


@dataclass(frozen=True, slots=True)
class Decision:
    """One of a game's decision commands: ``/<group> <name> <option>``, whose autocomplete
    offers exactly the caller's legal codes that ``matches`` accepts.

    ``name`` and ``option`` are catalog ids (``cmd.<name>.name``, ``opt.<option>.name``, in the
    game's catalog); ``option`` is ``None`` for a command without one (``pass``).  ``prefixes``
    say what a name typed by hand may stand for (``b.`` + a building's id or name);
    ``representative`` is a code of this kind, for the refusal "not now"."""

    name: str
    option: str | None
    matches: Callable[[str], bool]
    prefixes: tuple[str, ...] = ()
    representative: str = ""


@dataclass(frozen=True, slots=True)
class HelpTopic:
    """One ``/game rules`` topic of a game: ``id`` is unique within the game; ``group`` orders
    the topics when there are more than Discord's 25 choices."""

    id: str
    group: str
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Panel:
    """What one player may see and do now (their seat view: their own VP chips included)."""

    record: GameRecord
    seat: int
    view: Mapping[str, Any]
    kind: str | None
    """The decision asked of this seat now, or ``None`` when it waits for others."""
    legal: tuple[str, ...]
    names: dict[int, str]
    extras: dict[str, Any] = field(default_factory=dict)
    """What the game's words need beyond the view (:meth:`GamePresenter.panel_extras`)."""
    image: bytes | None = None
    highlights: tuple[Event, ...] = ()
    """What changed in the current role phase (framed on the image)."""
    can_undo: bool = False
    recent: tuple[ActionRecord, ...] = ()
    """The end of the log (the recap of what the others did since this seat's last move)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """Where a refusal happened: the refused seat's view of the game at that moment
    (:mod:`bot.refusals` attaches it to the exception)."""

    game: int
    seat: int | None
    view: Mapping[str, Any]
    names: Mapping[int, str]
    legal: tuple[str, ...] = field(default=())
    action: str | None = None
    """The code refused, when the exception does not carry it (a command typed by name)."""
    game_name: str = ""
    """The engine's name of the game (its presenter words the refusal); default: the view's."""

    @property
    def kind(self) -> str:
        return self.game_name or str(self.view.get("game", ""))


class Refusing:
    """A refusal's situation in one language, for the generic texts and the game's own
    (:meth:`GamePresenter.refusal`)."""

    def __init__(self, situation: Situation, presenter: GamePresenter, lang: str) -> None:
        self.s = situation
        self.presenter = presenter
        self.catalog: Catalog = presenter.catalog
        self.lang = lang
        self.view = situation.view
        self.chooser = presenter.words(situation.view, lang)
        self.me: Mapping[str, Any] = self.chooser.me()

    def t(self, key: str, **fields: Any) -> str:
        return self.catalog.t(self.lang, key, **fields)

    def name(self, seat: object) -> str:
        if isinstance(seat, int):
            if seat == self.s.seat:
                return self.t("why.you")
            return self.s.names.get(seat, self.t("table.seat_name", n=seat + 1))
        return "?"

    def prompt(self) -> tuple[list[int], str]:
        prompt = self.view.get("prompt") or {}
        what = self.presenter.prompt_text(str(prompt.get("kind", "")), self.lang)
        return [int(s) for s in prompt.get("seats", ())], what

    def when(self, family: str) -> str | None:
        """When a kind of decision is taken ("Roles are chosen only between phases")."""
        key = self.presenter.action_family_when(family)
        return self.t(key) if key else None


class PanelControls(Protocol):
    """The private panel as a game draws its decision's controls
    (:meth:`GamePresenter.panel_controls`; the generic one is :class:`bot.panels.PanelView`):
    the panel, its words and the generic controls to build on."""

    panel: Panel
    presenter: GamePresenter
    lang: str
    catalog: Catalog
    note: str | None
    draft: str | None
    """A draft being arranged (a Mayor arrangement), carried by the panel's custom_ids."""
    chooser: Words
    game_id: int
    version: int

    def t(self, key: str, **fields: Any) -> str: ...

    def prompt_words(self, kind: str) -> str: ...

    def button(self, code: str) -> ui.Item[Any]:
        """The button submitting ``code``."""
        ...

    def rows_of(self, buttons: Sequence[ui.Item[Any]]) -> list[ui.ActionRow[Any]]: ...

    def option(self, code: str) -> discord.SelectOption: ...

    def choice_rows(self, codes: Sequence[str], name: str) -> list[ui.ActionRow[Any]]:
        """The generic controls of ``codes``: buttons for a few, menus for many."""
        ...


class GamePresenter:
    """A game on Discord.  Subclass it in ``bot/games/<game>/`` and register one instance with
    :func:`register_presenter` when the package is imported."""

    name: ClassVar[str]
    """The engine's name of the game (``engine.get_game(name)``)."""
    command: ClassVar[str]
    """The id of the game's decision command group (``cmd.<command>.name`` in its catalog)."""
    folder: ClassVar[Traversable]
    """The game's catalog folder (its words in every language)."""
    players: ClassVar[tuple[int, int]] = (2, 5)
    """The smallest and largest table."""
    decisions: ClassVar[tuple[Decision, ...]] = ()
    phase_openers: ClassVar[tuple[str, ...]] = ("RoleChosen",)
    """The event types that open a role phase (the story tells a phase from there)."""
    dynamic_items: ClassVar[tuple[type[Any], ...]] = ()
    """The game's own persistent components (``discord.ui.DynamicItem`` subclasses)."""
    image_prefixes: ClassVar[tuple[str, ...]] = ()
    """Prefixes of the catalog keys that are words on the game's images (passed to its
    renderer as labels: ``role.``, ``building.``...)."""
    automata: ClassVar[tuple[str, ...]] = ()
    """Seat kinds the engine plays itself (1897's Puertoma): a lobby seats one like an AI of that
    name (the seat's ``ai_policy``); the engine never asks it anything, and it sits after every
    other seat (:meth:`seated_options` tells the engine how many there are; :meth:`seat_refusal`
    and :meth:`start_refusal` say at which tables)."""
    variants: ClassVar[tuple[str, ...]] = ()
    """The game's optional rules a lobby may turn on (``variant.<id>`` in its catalog names
    each; :meth:`lobby_options` turns the chosen ones into engine options)."""
    expansions: ClassVar[tuple[str, ...]] = ()
    """The :data:`variants` that are the game's published expansions, in their order (the
    overview of ``/game rules`` names them; the others are optional rules)."""
    select_parts: ClassVar[str | tuple[str, ...]] = ""
    """Names of the game's multi-select menus whose chosen values :meth:`compose` turns into one
    code (a prefix test: ``"pay"`` covers ``pay``, ``pay_1``...)."""

    # --- words ------------------------------------------------------------------------------

    @cached_property
    def catalog(self) -> Catalog:
        """The generic words plus the game's (a game may not redefine a generic key)."""
        return Catalog.load(folders=[self.folder])

    def title(self, lang: str) -> str:
        return self.catalog.t(lang, "game.title")

    def words(self, view: Mapping[str, Any], lang: str, *, extras: Mapping[str, Any] | None = None,
              kind: str | None = None) -> Words:
        """Labels for the codes ``view``'s viewer may choose (buttons, menus, autocomplete)."""
        return Words(view, lang, self.catalog, extras=extras, kind=kind)

    def family(self, code: str) -> str:
        """The kind of decision a code belongs to (groups the panel's controls)."""
        return code.split(".", 1)[0]

    def prompt_text(self, kind: str, lang: str) -> str:
        """What a prompt asks, in words ("choose a role")."""
        key = f"prompt.{kind}"
        return self.catalog.t(lang, key) if self.catalog.has(key) else kind.replace("_", " ")

    def names_for(self, words: Words, wanted: str) -> list[str]:
        """Ids a name typed in a command stands for (``harbor`` for "Puerto")."""
        return []

    # --- the lobby ---------------------------------------------------------------------------

    def lobby_options(self, players: int, variants: Iterable[str] = ()) -> dict[str, Any]:
        """The engine options of a table of ``players`` seats with the ``variants`` chosen
        (ids of :data:`variants`)."""
        return {"players": players}

    def seated_options(self, options: Mapping[str, Any], automata: Sequence[str]
                       ) -> dict[str, Any]:
        """The lobby's ``options`` once seated, with seats of the kinds ``automata`` (of
        :data:`automata`) last (the game's own options say how many, and how they play).
        Raises ``UserError`` for a mix it cannot play."""
        return dict(options)

    def seat_refusal(self, kinds: Sequence[str | None], kind: str, capacity: int, lang: str
                     ) -> tuple[str, dict[str, Any]] | None:
        """Why a lobby whose seats are ``kinds`` (each seat's ``ai_policy``, ``None`` for a
        person) may not seat one more of ``kind`` (an AI level or one of :data:`automata`) at a
        table of ``capacity`` seats, as a catalog key and its fields (words in ``lang``, the
        game's language); ``None``: it may.  Refuse
        only what no later seat can mend (the start would refuse the table whoever joins): the
        lobby offers the kinds this allows and refuses the others.  A free seat is the generic
        lobby's own check."""
        return None

    def start_refusal(self, kinds: Sequence[str | None], lang: str
                      ) -> tuple[str, dict[str, Any]] | None:
        """Why a table whose seats are ``kinds`` (as in :meth:`seat_refusal`) may not start,
        as a catalog key and its fields (words in ``lang``, the game's language); ``None``: it
        may (the generic checks, a person seated and enough seats, come first)."""
        return None

    def variants_on(self, options: Mapping[str, Any]) -> list[str]:
        """The optional rules that stored ``options`` turn on (ids of :data:`variants`, in
        their order): the inverse of :meth:`lobby_options`.  Default: each variant is a
        boolean option of its own name."""
        return [v for v in self.variants if options.get(v)]

    # --- the table and the story -------------------------------------------------------------

    def header_lines(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                     ) -> list[str]:
        """The lines under the table's title: the phase and who chose it, the end coming."""
        phase_key = f"phase.{view.get('phase')}"
        phase = self.catalog.t(lang, phase_key) if self.catalog.has(phase_key) else str(
            view.get("phase") or "")
        return [self.catalog.t(lang, "table.phase", phase=phase)] if phase else []

    def summary(self, view: Mapping[str, Any], names: Mapping[int, str], lang: str
                ) -> list[tuple[str, str]]:
        """The public board as text (name, value) pairs: the table without its image, the
        image's description for screen readers."""
        return []

    def role_buttons(self, view: Mapping[str, Any]) -> list[tuple[str, int | None]]:
        """The table's buttons while a role is to be chosen: (code, taken by) in order."""
        return []

    def choice_name(self, kind: str, name: str, lang: str) -> str:
        """A role (``kind`` ``role``) or a building (``building``) by its engine id, in words
        (a player's favourites)."""
        key = f"{kind}.{name}"
        return self.catalog.t(lang, key) if self.catalog.has(key) else name.replace("_", " ")

    def score_part(self, part: str, lang: str) -> str:
        """A part of a final score's breakdown in words."""
        key = f"score.{part}"
        return self.catalog.t(lang, key) if self.catalog.has(key) else part.replace("_", " ")

    def score_notes(self, view: Mapping[str, Any], lang: str) -> list[str]:
        """What the score sheet of the finished ``view`` must explain besides its numbers (a
        part some players do not score, and why)."""
        return []

    def log_writer(self, names: Mapping[int, str], lang: str, humans: Iterable[int] = ()
                   ) -> LogWriter:
        return LogWriter(names, lang, self.catalog, humans=humans)

    def view_at_phase_end(self, view: Mapping[str, Any], actions: Sequence[ActionRecord],
                          end: int, part: int = 0) -> Mapping[str, Any]:
        """The public board as it stood when the phase ended by ``actions[end]`` (its
        ``part``-th ``PhaseEnded``) ended, from ``view`` (the view right after that action): a
        game whose same action also ends the round, or plays another phase, takes that back
        here."""
        return dict(view)

    # --- the private panel -------------------------------------------------------------------

    def panel_extras(self, game: Game[Any], state: Any, seat: int, view: Mapping[str, Any],
                     codes: Sequence[str], kind: str | None) -> dict[str, Any]:
        """What the panel's words need beyond the view (e.g. what each choice would bring,
        measured on a copy of the state).  Must not reveal anything the seat cannot see."""
        return {}

    def panel_view(self, panel: Panel, draft: str | None) -> Mapping[str, Any]:
        """The view the panel's image shows (a draft being arranged drawn on it)."""
        return panel.view

    def panel_status(self, panel: Panel, words: Words, lang: str) -> str | None:
        """A line about the player's own holdings under the panel's title."""
        return None

    def panel_controls(self, view: PanelControls) -> list[ui.Item[Any]] | None:
        """The controls of the panel's decision; ``None``: the generic buttons and menus."""
        return None

    def select_code(self, name: str, values: Sequence[str]) -> str | None:
        """The code the values chosen in the menu ``name`` stand for: one value is a code, the
        values of a multi-select (:data:`select_parts`) one code :meth:`compose` makes of
        them; ``None``: no code (a wrong count)."""
        parts = self.select_parts
        if parts and name.startswith(parts):
            return self.compose(name, values)
        return values[0] if len(values) == 1 else None

    def compose(self, name: str, values: Sequence[str]) -> str | None:
        """The code a multi-select's chosen ``values`` stand for (see :data:`select_parts`)."""
        return values[0] if len(values) == 1 else None

    def decompose(self, name: str, code: str, values: Sequence[str]) -> list[str] | None:
        """The inverse of :meth:`compose`: which of a multi-select's ``values`` stand for
        ``code`` (``None``: none do) — for scripted players and benches."""
        return [code] if code in values else None

    def button_style(self, code: str) -> discord.ButtonStyle | None:
        """A choice's button style (``None``: the generic one)."""
        return None

    # --- refusals and help -------------------------------------------------------------------

    def refusal(self, words: Refusing, code: str, action: str
                ) -> tuple[str, dict[str, Any]] | None:
        """An engine refusal (``IllegalAction.code``) of ``action`` explained with the numbers
        of the refused seat (``words.view``); ``None``: the plain text."""
        return None

    def prompt_family(self, kind: str) -> str:
        """The family of the codes a prompt kind asks for (see :meth:`family`)."""
        return kind

    def action_family_when(self, family: str) -> str | None:
        """The catalog key saying when a kind of decision is taken ("Roles are chosen only
        between phases"), for "not now" refusals."""
        key = f"why.when.{family}"
        return key if self.catalog.has(key) else None

    def help_topics(self) -> tuple[HelpTopic, ...]:
        return (HelpTopic("overview", "overview"),)

    def topic_name(self, topic: HelpTopic, lang: str) -> str:
        return self.catalog.t(lang, "help.overview_name")

    def help_text(self, topic: HelpTopic, lang: str, commands: Mapping[str, str]) -> str:
        """The help on ``topic``; ``commands`` maps ``cmd_<name>`` to each command as the
        reader's client shows it (generic and this game's decisions)."""
        return self.catalog.t(lang, "help.overview", **commands)


_PRESENTERS: dict[str, GamePresenter] = {}


def register_presenter(presenter: GamePresenter) -> GamePresenter:
    _PRESENTERS[presenter.name] = presenter
    return presenter


def registered(name: str) -> GamePresenter | None:
    return _PRESENTERS.get(name)
