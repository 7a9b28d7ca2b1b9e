"""The web page's errors that the command line reports (without loading aiohttp)."""

from __future__ import annotations

from collections.abc import Iterable


class Refused(Exception):
    """A request refused, on the table's page or the director's: the HTTP status and the one
    line the page shows."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class WebListenError(Exception):
    """The page cannot listen where the config says; str() is one line naming the keys."""


def json_kind(value: object) -> str:
    """What a JSON value is, in the words of the page's documentation (not Python's types)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def refused_route(
    status: int,
    reason: str,
    method: str,
    path: str,
    allowed: Iterable[str] = (),
    *,
    routes_doc: str = "docs/web.md",
) -> str:
    """The one line for a request no route takes: an unknown path, or a method it does not
    answer (aiohttp's own "404: Not Found" says neither what was asked nor what is served);
    ``routes_doc`` is where the page's routes are listed (R945)."""
    if status == 404:
        return f"nothing at {path}: expected one of the page's routes ({routes_doc})"
    if status == 405:
        methods = " or ".join(sorted(allowed)) or "another method"
        return f"{method} {path} is not answered: expected {methods}"
    return f"{reason}: {method} {path}"
