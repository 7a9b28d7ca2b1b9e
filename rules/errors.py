"""Typed errors of the rules core. Nothing in ``rules`` raises anything else on bad input."""

from __future__ import annotations

ECHOED = 60  # characters of a person's own text that an error line repeats (R858)


def echoed(text: str) -> str:
    """``text`` quoted for an error line, cut to ECHOED characters with "…" (R858): a name
    sent by hand 5000 characters long is refused in one readable line, not repeated whole."""
    return repr(text if len(text) <= ECHOED else text[: ECHOED - 1] + "…")


class RuleError(Exception):
    """Base of every error the rules core raises. ``str(err)`` is one line for a person."""


class InvalidInput(RuleError):
    """The input is malformed: unknown state, wrong group size, unknown category, bad base."""


class UnknownState(InvalidInput):
    """A state name or postal code that is not one of the 50 states."""

    def __init__(self, text: str, suggestions: tuple[str, ...]) -> None:
        self.text = text
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown state {text!r}: expected a state name or postal code{hint}")


class IllegalAction(RuleError):
    """A well-formed action that the rules do not allow now (wrong phase, wrong team...)."""


class GameOver(IllegalAction):
    """An action sent to a game or match that has already ended."""


class InvalidLog(RuleError):
    """A replay log line that is not an action the rules core knows."""
