"""One guard for the web pages: a request is for a name this server answers to (its ``Host``),
and a change comes from this server's own page (its ``Origin``). The director's page uses it
for every request; it needs nothing of aiohttp, so the table's page can use it too.

Why both checks. A page on another site can make the browser send a form here: its ``Origin``
names the other site, so every change must carry an ``Origin`` that is this server. But a page
whose own name an attacker points at this server's address (DNS rebinding) is, to the browser,
still its own site: its requests carry ``Origin: http://evil.example`` and ``Host:
evil.example``, which agree. Only the ``Host`` tells them apart: it is the attacker's name, not
one this server is opened by (R722, R723).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from yarl import URL

from firmware_py.table.web.errors import Refused

MISDIRECTED = 421  # HTTP's "Misdirected Request": this server does not serve that name
DEFAULT_PORTS = {"http": 80, "https": 443}
_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")  # a host name's labels, as browsers send them
MAX_SHOWN = 60  # characters of a refused name said back


def is_address(name: str) -> bool:
    """An IP address (v4 dotted, or v6 without brackets) rather than a name."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def parse_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (lower case, an IPv6 address without its brackets, no trailing
    dot) and its port if it has one; None when it is not a host at all."""
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or ":" not in name or not is_address(name):
            return None
    else:
        name, colon, port = value.partition(":")  # an IPv6 address comes in brackets
        rest = colon + port
    port_number: int | None = None
    if rest:
        digits = rest.removeprefix(":")
        if rest == digits or not digits.isascii() or not digits.isdecimal() or len(digits) > 5:
            return None
        port_number = int(digits)
        if port_number > 65535:
            return None
    name = name.lower().removesuffix(".")
    if not (is_address(name) or _NAME.fullmatch(name)):
        return None
    return name, port_number


def served_names(listen_host: str, given: Iterable[str], machine: str) -> frozenset[str]:
    """The names a page answers to, besides any IP address (R722): those ``given``, the host it
    listens on when that is a name, ``localhost``, and the machine's own name (``machine``, and
    its first label under ``.local``, the name mDNS gives it on the hall's network)."""
    names = {"localhost"}
    for name in (*given, listen_host, machine):
        parsed = parse_host(name)
        if parsed is not None and not is_address(parsed[0]):
            names.add(parsed[0])
    label = machine.lower().split(".")[0]
    if _NAME.fullmatch(label):
        names.add(f"{label}.local")
    return frozenset(names)


def name_error(text: str) -> str | None:
    """What is wrong with ``text`` as a name a page is opened by; None when it is one."""
    parsed = parse_host(text)
    if parsed is None or parsed[1] is not None or text.startswith("["):
        return "expected a host name the page is opened by, like hub.local (no scheme, no port)"
    return None


@dataclass(frozen=True, slots=True)
class SiteGuard:
    """The checks of one page: ``names`` it answers to (lower case; any IP address besides),
    ``scheme`` it is served over, and the words of its refusals."""

    names: frozenset[str]
    scheme: str  # "http" or "https"
    own_page: str = "this server's own page"  # where a change must come from, in words
    add_name: str = ""  # how to serve another name, in words ("start the hub with ...")

    def serves(self, host: str | None) -> bool:
        parsed = None if host is None else parse_host(host)
        return parsed is not None and (is_address(parsed[0]) or parsed[0] in self.names)

    def check_host(self, host: str | None) -> tuple[str, int]:
        """The request's name and port, or Refused: no Host, or a name this page is not."""
        if host is None:
            raise Refused(400, "a request without a Host header is refused: expected one")
        parsed = parse_host(host)
        if parsed is None:
            raise Refused(400, f"the Host header {host[:MAX_SHOWN]!r} is not a host name")
        name, port = parsed
        if not is_address(name) and name not in self.names:
            names = ", ".join(sorted(self.names))
            hint = f"; {self.add_name.format(name=name[:MAX_SHOWN])}" if self.add_name else ""
            raise Refused(
                MISDIRECTED,
                f"this page is not served as {name[:MAX_SHOWN]!r}: open it as {names} or by "
                f"its address{hint}",
            )
        return name, DEFAULT_PORTS.get(self.scheme, 80) if port is None else port

    def check_origin(self, origin: str | None, host: str | None) -> None:
        """Refused unless ``origin`` is this page: its scheme, and the name and port it was
        asked for by (the Host, checked first)."""
        name, port = self.check_host(host)
        if origin is None:
            raise Refused(403, f"a change without an Origin header is refused: use {self.own_page}")
        try:
            got = URL(origin)
            seen = (got.scheme, (got.host or "").lower().removesuffix("."), got.port)
        except (ValueError, TypeError):
            seen = None  # not a URL at all: another site's, or none
        if seen != (self.scheme, name, port):
            raise Refused(403, f"a change from another site is refused: use {self.own_page}")
