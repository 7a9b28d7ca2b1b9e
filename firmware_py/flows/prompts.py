"""What a flow can ask of the dealer, and what each answer does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from firmware_py.arbiter import ShoutDecision

LogAction = dict[str, Any]  # an action in its log form: {"action": kind, ...}


@dataclass(frozen=True, slots=True)
class FlowSettings:
    """The table's configuration that flows need."""

    chummy_seconds: float = 15.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """An answer's effect: a rules action to apply and/or scratch entries to remember."""

    label: str
    action: LogAction | None = None
    scratch: Mapping[str, Any] = field(default_factory=dict)
    starts_match_clock: bool = False  # the match's first GO (R58)


class Kind(StrEnum):
    """What the buttons mean on a step. Each kind has a fixed number of options, checked when
    the prompt is made, so a button can never reach for an option that is not there."""

    COUNT = "count"  # COUNT runs the 5-count; the stand-up sensors at 5 are the plunge
    CHOICE = "choice"  # NEXT cycles the options, YES takes the one shown, NO goes back one
    YES_NO = "yes_no"  # YES takes options[0], NO takes options[1]
    CONFIRM = "confirm"  # YES takes options[0]
    SHOUT = "shout"  # a shout window: first to shout, decided by edge times
    NOTICE = "notice"  # nothing to answer: only the prompt's GO or NEXT (if any) acts


# How many options each kind holds: (at least, at most; None: no limit).
OPTION_COUNTS: dict[Kind, tuple[int, int | None]] = {
    Kind.COUNT: (0, 0),
    Kind.CHOICE: (1, None),
    Kind.YES_NO: (2, 2),
    Kind.CONFIRM: (1, 1),
    Kind.SHOUT: (0, 0),
    Kind.NOTICE: (0, 0),
}


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
    next: Outcome | None = None  # what NEXT does on a step that is not a CHOICE
    timer: tuple[str, float, Outcome] | None = None  # (name, seconds, outcome when it runs out)

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

    def answer(self, button: str, cursor: int) -> Outcome | None:
        """The outcome a console button takes on this step (``cursor``: the option shown), or
        None: a button that means nothing now does nothing. COUNT, UNDO, moving through a
        choice and opening a shout window are the controller's, not outcomes."""
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


def plunge_prompt(key: str) -> Prompt:
    return Prompt(
        key=key,
        kind=Kind.COUNT,
        text="Are you GeoPlunging?",
        hint="COUNT: count to 5",
    )


def yes_no(key: str, text: str, yes: Outcome, no: Outcome) -> Prompt:
    return Prompt(key=key, kind=Kind.YES_NO, text=text, options=(yes, no), hint="YES / NO")


def confirm(key: str, text: str, outcome: Outcome) -> Prompt:
    return Prompt(key=key, kind=Kind.CONFIRM, text=text, options=(outcome,), hint="YES: done")


def choice(key: str, text: str, options: Sequence[Outcome]) -> Prompt:
    return Prompt(
        key=key, kind=Kind.CHOICE, text=text, options=tuple(options), hint="NEXT: other  YES: ok"
    )


def draw_prompt(key: str, purpose: str) -> Prompt:
    """The statehood draw: each team draws a card; the dealer says whose is closer to 1."""
    return choice(
        key,
        f"Draw: statehood closer to 1 {purpose}",
        [Outcome(f"Team {team}", {"action": "draw_winner", "first": team}) for team in ("A", "B")],
    )


def ask_each(
    key: str,
    teams: Sequence[str],
    scratch: Mapping[str, Any],
    question: str,
    finish: Callable[[dict[str, bool]], LogAction],
) -> Prompt:
    """Ask the same YES/NO question of each team in turn, then make one action of the answers."""
    answers: dict[str, bool] = dict(scratch.get(key, {}))
    team = next(team for team in teams if team not in answers)

    def answer(value: bool) -> Outcome:
        done = {**answers, team: value}
        label = "yes" if value else "no"
        if len(done) == len(teams):
            return Outcome(label, finish(done), {key: {}})
        return Outcome(label, None, {key: done})

    return yes_no(f"{key}/{team}", question.format(team=team), answer(True), answer(False))
