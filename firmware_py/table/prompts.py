"""What a game family's flow can ask of the dealer, and what each answer does.

The kernel knows these prompt kinds and what the six console buttons do on each; a family's
flow builds prompts from its rules state and never sees a button. A button that means nothing
on the prompt shown does nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from firmware_py.table.arbiter import ShoutDecision

LogAction = dict[str, Any]  # an action in its log form: {"action": kind, ...}


@dataclass(frozen=True, slots=True)
class Outcome:
    """An answer's effect: a rules action to apply and/or scratch entries to remember.

    ``clock_minutes`` starts the match clock as the answer is taken (GO at a match's start);
    ``new_session`` (a start action) closes the finished session and starts the next one in
    the same journal (the next round's match, from the console), and ``scratch`` is then
    remembered in the new session (the answer already given there). ``then`` is a second action
    applied once ``action`` is (a flag pressed while the entry was being made, R256/R260).
    """

    label: str
    action: LogAction | None = None
    scratch: Mapping[str, Any] = field(default_factory=dict)
    clock_minutes: int | None = None
    new_session: LogAction | None = None
    then: LogAction | None = None


class Kind(StrEnum):
    """What the buttons mean on a step. Each kind has a fixed number of options, checked when
    the prompt is made, so a button can never reach for an option that is not there."""

    COUNT = "count"  # COUNT runs the count; the inputs it reads at the end are the outcome
    CHOICE = "choice"  # NEXT cycles the options, YES takes the one shown, NO goes back one
    YES_NO = "yes_no"  # YES takes options[0], NO takes options[1]
    CONFIRM = "confirm"  # YES takes options[0]
    SHOUT = "shout"  # a shout window: first to shout, decided by edge times
    NOTICE = "notice"  # nothing to answer: only the prompt's GO or NEXT (if any) acts
    NUMBER = "number"  # NEXT +1, NO -1 (held: repeats, faster), YES takes it, UNDO backs out;
    # a decimal one: GO opens the next decimal place, UNDO closes it (R774)


# How many options each kind holds: (at least, at most; None: no limit).
OPTION_COUNTS: dict[Kind, tuple[int, int | None]] = {
    Kind.COUNT: (0, 0),
    Kind.CHOICE: (1, None),
    Kind.YES_NO: (2, 2),
    Kind.CONFIRM: (1, 1),
    Kind.SHOUT: (0, 0),
    Kind.NOTICE: (0, 0),
    Kind.NUMBER: (0, 0),
}


@dataclass(frozen=True, slots=True)
class CountSpec:
    """A count to ``to`` at the count cadence; at its last number the kernel reads each seat's
    ``role`` input (as it was at that instant) and takes ``outcome(seats active)``."""

    outcome: Callable[[list[str]], Outcome]
    role: str
    event: str  # the decision's event name, e.g. "plunge"
    field: str  # the event's field holding the seats, e.g. "plunging"
    to: int = 5


@dataclass(frozen=True, slots=True)
class NumberSpec:
    """A number entered on the console: starts at ``start``, stays within ``low..high``."""

    take: Callable[[int], Outcome]
    start: int = 0
    low: int = 0
    high: int = 999
    back: Outcome | None = None  # what UNDO does here; None: the ordinary UNDO
    # A secret until the step reveals it (a guess, a knock's total): the dealer's OLED shows
    # the number being dialled, the table's web page never does (R493).
    hidden: bool = False
    # A decimal too (a Guesstimation answer of 0.45, for a table without phones): GO opens the
    # next decimal place, up to ``places`` of them, NEXT and NO then step it, UNDO closes it;
    # YES with a place open gives ``take_decimal`` the number as text, "0.45" (R774).
    places: int = 0
    take_decimal: Callable[[str], Outcome] | None = None

    def __post_init__(self) -> None:
        if (self.places > 0) != (self.take_decimal is not None):
            raise ValueError("a number with decimal places, and only one, takes a decimal")

    def clamp(self, value: int, places: int = 0) -> int:
        """``value`` in units of the ``places``-th decimal place, kept within low..high."""
        scale: int = 10**places
        return max(self.low * scale, min(self.high * scale, value))


@dataclass(frozen=True, slots=True)
class EntrySpec:
    """What the table's web page takes on a step: one typed value from a seat's own phone (a
    guess of 29,029 feet that six buttons cannot enter). ``take`` makes the seat's text an
    outcome, as a button would (raising the rules' ``RuleError`` for text it cannot read); the
    rules core judges its action, and refuses it with its own typed error."""

    name: str  # what is entered, e.g. "guess"
    label: str  # what the page asks for, e.g. "Your guess, in feet"
    seats: tuple[str, ...]  # the seats that may enter it now
    take: Callable[[str, str], Outcome]  # (seat, text) -> what it does
    done: tuple[str, ...] = ()  # the seats whose entry is in: shown as in, never its value
    keyboard: str = "text"  # the phone's keyboard: "decimal", "numeric" (whole), "text" (words)


@dataclass(frozen=True, slots=True)
class PageInfo:
    """What the table's web page shows beside the OLED's view on a step. Every spectator sees
    it: nothing secret (a guess not yet revealed) belongs here."""

    names: Mapping[str, str] = field(default_factory=dict)  # seat -> the player's name
    lines: tuple[str, ...] = ()  # facts in words: the question read, who is still guessing
    rows: tuple[tuple[str, ...], ...] = ()  # a small table: the guesses once revealed
    heading: tuple[str, ...] = ()  # the table's column names
    # who else may take a place on the page to enter (role -> name): the Pentathlon's Game
    # Monitor, who enters the moves' numbers; a role is never a seat (no light, no score)
    officials: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Prompt:
    key: str  # a new key starts a new step: cursor reset, windows opened, timers started
    kind: Kind
    text: str  # the question, for the OLED and the scoreboard
    options: tuple[Outcome, ...] = ()
    hint: str = ""  # what the buttons do now (OLED footer)
    window: str | None = None  # SHOUT: the window's id; the same id keeps it open
    opens_on_go: bool = False  # SHOUT: GO opens the window ("Ready, Set, GeoPlunge!")
    on_shout: Callable[[ShoutDecision], Outcome] | None = None
    go: Outcome | None = None  # what GO does on this step
    next: Outcome | None = None  # what NEXT does on this step (CONFIRM)
    timer: tuple[str, float, Outcome] | None = None  # (name, seconds, outcome when it runs out)
    # Steps that name the same span share its start: a timer counts from when the span began,
    # not from when its step was shown (a player's turn, while the dealer enters its moves on
    # other steps of the span; those without the timer only hold it off until it shows again).
    timer_span: str | None = None
    # A time out (a challenge): while it shows, the match clock and the span stand still; they
    # go on with the time they had when a step that is not a time out shows.
    time_out: bool = False
    alert: str | None = None  # a warning for the OLED's inverse top row (a stuck input wins)
    count: CountSpec | None = None  # COUNT
    number: NumberSpec | None = None  # NUMBER
    # a seat input pressed outside a shout window: (seat, input) -> what it does, if anything
    on_press: Callable[[str, str], Outcome | None] | None = None
    entry: EntrySpec | None = None  # what the table's web page takes on this step
    # Not play (R846, the Tournament Director's decisions): the match clock running out while
    # this step shows keeps its entry open, where it was, when the game after the call still
    # asks it; the OLED's top row then says this text (that time was called) while it shows.
    open_at_time_up: str | None = None
    # A YES or NO pressed within LATE_PRESS of the match clock replacing this step (R259 drops
    # the entry) does nothing: the press was meant for what was shown (R846).
    late_press_guard: bool = False
    page: PageInfo = field(default_factory=PageInfo)  # what the page shows besides the view

    def __post_init__(self) -> None:
        least, most = OPTION_COUNTS[self.kind]
        got = len(self.options)
        if got < least or (most is not None and got > most):
            wanted = f"at least {least}" if most is None else f"exactly {least}"
            raise ValueError(
                f"prompt {self.key}: a {self.kind} step needs {wanted} option(s), got {got}"
            )
        if self.next is not None and self.kind is Kind.CHOICE:
            raise ValueError(f"prompt {self.key}: NEXT already cycles a choice's options")
        if (self.kind is Kind.COUNT) != (self.count is not None):
            raise ValueError(f"prompt {self.key}: a count step, and only one, has a count")
        if (self.kind is Kind.NUMBER) != (self.number is not None):
            raise ValueError(f"prompt {self.key}: a number step, and only one, has a number")
        if self.number is not None and self.number.places and self.go is not None:
            raise ValueError(f"prompt {self.key}: GO opens a decimal place here: no GO outcome")
        if self.time_out and (self.timer is not None or self.timer_span is not None):
            raise ValueError(f"prompt {self.key}: a time out runs no timer and holds no span")

    def answer(self, button: str, cursor: int) -> Outcome | None:
        """The outcome a console button takes on this step (``cursor``: the option shown), or
        None: a button that means nothing now does nothing. COUNT, UNDO, moving through a
        choice, number entry and opening a shout window are the kernel's, not outcomes."""
        if button == "go":
            return self.go
        if button == "yes" and self.kind is Kind.CHOICE:
            return self.options[cursor % len(self.options)]
        if button == "yes" and self.kind in (Kind.YES_NO, Kind.CONFIRM):
            return self.options[0]
        if button == "no" and self.kind is Kind.YES_NO:
            return self.options[1]
        if button == "next" and self.kind is not Kind.CHOICE:
            return self.next
        return None


def yes_no(key: str, text: str, yes: Outcome, no: Outcome) -> Prompt:
    return Prompt(key=key, kind=Kind.YES_NO, text=text, options=(yes, no), hint="YES / NO")


def confirm(key: str, text: str, outcome: Outcome, hint: str = "YES: done") -> Prompt:
    return Prompt(key=key, kind=Kind.CONFIRM, text=text, options=(outcome,), hint=hint)


def notice(key: str, text: str, hint: str = "") -> Prompt:
    """Something to read with nothing to answer: YES, NO and NEXT do nothing."""
    return Prompt(key=key, kind=Kind.NOTICE, text=text, hint=hint)


def choice(key: str, text: str, options: Sequence[Outcome]) -> Prompt:
    return Prompt(
        key=key, kind=Kind.CHOICE, text=text, options=tuple(options), hint="NEXT: other  YES: ok"
    )


def number(key: str, text: str, spec: NumberSpec) -> Prompt:
    hint = "NEXT+ NO- GO:. YES:ok" if spec.places else "NEXT +1 NO -1 YES:ok"
    return Prompt(key=key, kind=Kind.NUMBER, text=text, number=spec, hint=hint)


def decimal_text(number: int, places: int) -> str:
    """A number entry's value as shown and taken: ``number`` in units of the ``places``-th
    decimal place (254 and 2: "2.54"; 20 and 1: "2.0", the place just opened)."""
    return format(Decimal(number).scaleb(-places), "f")


def ask_each(
    key: str,
    seats: Sequence[str],
    scratch: Mapping[str, Any],
    question: str,
    finish: Callable[[dict[str, bool]], LogAction],
) -> Prompt:
    """Ask the same YES/NO question of each seat in turn, then make one action of the answers."""
    answers: dict[str, bool] = dict(scratch.get(key, {}))
    seat = next(seat for seat in seats if seat not in answers)

    def answer(value: bool) -> Outcome:
        done = {**answers, seat: value}
        label = "yes" if value else "no"
        if len(done) == len(seats):
            return Outcome(label, finish(done), {key: {}})
        return Outcome(label, None, {key: done})

    return yes_no(f"{key}/{seat}", question.format(team=seat), answer(True), answer(False))
