"""Typed errors of the rules core. Nothing in ``rules`` raises anything else on bad input."""

from __future__ import annotations


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
