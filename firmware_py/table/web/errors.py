"""The web page's errors that the command line reports (without loading aiohttp)."""

from __future__ import annotations


class WebListenError(Exception):
    """The page cannot listen where the config says; str() is one line naming the keys."""
