"""One guard for both web pages (the table's and the director's): what each checks of a request
lives here once, so a fix lands on both (R770). It needs nothing of aiohttp (the command line
loads it to check names); the pages' aiohttp glue is ``serving``.

- a request is for a name this server answers to (its ``Host``), and a change comes from this
  server's own page (its ``Origin``): ``SiteGuard``;
- a session's secrets: ``new_secret``, ``same_secret`` (the CSRF token, compared in constant
  time) and the cookie's attributes, ``cookie_attributes``;
- the shares of what a client may hold or try, counted per address *and* per IPv6 /64, the
  block one device can hold every address of (R768): ``client_keys``, ``StreamShares`` (open
  event streams), ``WindowLimit`` (wrong codes in a window: only an address's own count
  refuses, R776), ``DoublingWait`` (wrong passwords).

Why both checks. A page on another site can make the browser send a form here: its ``Origin``
names the other site, so every change must carry an ``Origin`` that is this server. But a page
whose own name an attacker points at this server's address (DNS rebinding) is, to the browser,
still its own site: its requests carry ``Origin: http://evil.example`` and ``Host:
evil.example``, which agree. Only the ``Host`` tells them apart: it is the attacker's name, not
one this server is opened by (R722, R723).
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import re
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

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


# --- a session's secrets -----------------------------------------------------------------------


def new_secret() -> str:
    """A session's cookie value or CSRF token: 256 random bits."""
    return secrets.token_urlsafe(32)


def same_secret(given: str | None, expected: str) -> bool:
    """Whether ``given`` is the secret, compared in constant time (nothing is learnt by timing)."""
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def cookie_attributes(*, secure: bool, max_age: int | None = None) -> dict[str, Any]:
    """A session cookie's attributes on both pages: never readable by script, never sent by
    another site's request; ``Secure`` where the page is served over TLS."""
    attributes: dict[str, Any] = {"path": "/", "httponly": True, "samesite": "Strict"}
    if secure:
        attributes["secure"] = True
    if max_age is not None:
        attributes["max_age"] = max_age
    return attributes


# --- per address and per /64 -------------------------------------------------------------------

NETWORK_PREFIX = 64  # an IPv6 device is given a whole /64 (SLAAC, privacy addresses)


def client_keys(address: str) -> tuple[str, str]:
    """The keys a client's shares are counted under: its address, and its network (the /64 of an
    IPv6 address, where one device may take any of 2**64 addresses; an IPv4 address, or an
    IPv4-mapped one, is its own network). Something that is no address is its own key."""
    try:
        peer = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address, address
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        peer = peer.ipv4_mapped
    if isinstance(peer, ipaddress.IPv4Address):
        return str(peer), str(peer)
    network = ipaddress.IPv6Network((peer, NETWORK_PREFIX), strict=False)
    return str(peer), str(network)


@dataclass(frozen=True, slots=True)
class Share:
    """How much one client may hold: ``per_address`` from one address, ``per_network`` from one
    /64 (at least as many: a hall's phones may share one), ``total`` from everyone."""

    per_address: int
    per_network: int
    total: int


@dataclass(slots=True)
class StreamShares:
    """The open event streams, by the client that holds each: one client cannot take them all
    (R767). ``take`` answers Refused (429 for a client's share, 503 for the server's) in words:
    what the streams are, and what the page does about it."""

    share: Share
    what: str = "live pages"
    advice: str = "close one; this page checks every few seconds instead"
    # past the /64's share, the streams are mostly other addresses': closing one may not help
    network_advice: str = "this page checks every few seconds instead"
    server: str = "this table"
    # the client's address and its network, in the refusal's words (the table's page says
    # them to a player: "this phone", "this Wi-Fi", R942)
    address: str = "this address"
    network: str = "this network (its /64)"
    _held: dict[object, tuple[str, str]] = field(default_factory=dict)  # stream -> its keys

    def take(self, stream: object, address: str) -> None:
        address_key, network = client_keys(address)
        if len(self._held) >= self.share.total:
            raise Refused(
                503,
                f"{self.server} serves as many {self.what} as it can ({self.share.total}): try "
                "again later",
            )
        same_address = sum(1 for keys in self._held.values() if keys[0] == address_key)
        same_network = sum(1 for keys in self._held.values() if keys[1] == network)
        if same_address >= self.share.per_address:
            raise Refused(
                429,
                f"too many {self.what} open from {self.address} ({self.share.per_address} at "
                f"most): {self.advice}",
            )
        if same_network >= self.share.per_network:
            raise Refused(
                429,
                f"too many {self.what} open from {self.network} "
                f"({self.share.per_network} at most; {self.address} holds {same_address}): "
                f"{self.network_advice}",
            )
        self._held[stream] = (address_key, network)

    def give_back(self, stream: object) -> None:
        self._held.pop(stream, None)

    def __len__(self) -> int:
        return len(self._held)

    def streams(self) -> list[object]:
        return list(self._held)


@dataclass(slots=True)
class WindowLimit:
    """Wrong tries (a join code) in a sliding ``window``, counted per address and per /64 (R776).

    Only an address's own count refuses it outright: past ``share.per_address`` wrong tries it
    waits until its oldest leaves the window, and what it sends meanwhile is not looked at. A
    /64's count refuses nobody, since a whole IPv6 hall may share one /64 and a device's wrong
    tries must never keep another's right one out; past ``share.per_network`` it tightens its
    addresses instead: there each wrong try ends its address's tries for the window. So from a
    /64 of k addresses at most ``per_network + k`` tries are looked at in a window."""

    clock: Callable[[], float]
    share: Share  # ``total``: keys (addresses and networks) remembered at most
    window: float  # seconds
    _tries: dict[str, deque[float]] = field(default_factory=dict)  # least recently tried first

    def wait(self, address: str) -> float | None:
        """Seconds ``address`` must wait before it may try again, or None."""
        recent = self._recent(client_keys(address)[0])
        if len(recent) < self.share.per_address:
            return None
        return max(1.0, recent[0] + self.window - self.clock())

    def crowded(self, address: str) -> bool:
        """Whether the network of ``address`` (another key than the address: an IPv6 /64) is past
        its share of wrong tries in the window."""
        address_key, network = client_keys(address)
        return network != address_key and len(self._recent(network)) >= self.share.per_network

    def miss(self, address: str) -> int:
        """Count a wrong try from ``address``; how many more it may make in the window (none
        once its network is crowded)."""
        if len(self._tries) >= self.share.total:
            self._forget()
        crowded = self.crowded(address)
        address_key, network = client_keys(address)
        now = self.clock()
        for key in {network, address_key}:  # IPv4: one key
            times = self._tries.pop(key, None) or deque()
            times.append(now)
            self._tries[key] = times  # the most recent last: a flooded /64 is never forgotten
        tries = self._tries[address_key]
        if crowded:  # this address's tries end for a whole window from now
            tries.clear()
            tries.extend([now] * self.share.per_address)
        return max(0, self.share.per_address - len(tries))

    def __len__(self) -> int:
        """The keys remembered (memory is bounded by ``share.total``, however many addresses)."""
        return len(self._tries)

    def _forget(self) -> None:
        """Keys whose tries are all old go; then the least recently tried, down to three
        quarters of ``share.total`` (so this runs seldom). A device must bring that many fresh
        addresses to have one forgotten, and fresh addresses would have got it as many tries."""
        for key in list(self._tries):
            self._recent(key)
        for key in list(self._tries)[: max(0, len(self._tries) - self.share.total * 3 // 4)]:
            del self._tries[key]

    def _recent(self, key: str) -> deque[float]:
        times = self._tries.get(key, deque())
        while times and times[0] <= self.clock() - self.window:
            times.popleft()
        if not times:
            self._tries.pop(key, None)
        return times


@dataclass(slots=True)
class _Misses:
    count: int
    until: float  # no try from this key before this time


@dataclass(slots=True)
class DoublingWait:
    """Wrong tries (a password) per address and per /64: past ``free`` of them, each doubles
    the wait before that client may try again, from ``first`` to ``longest`` seconds; a good
    try clears the address (not the network, which other devices share)."""

    clock: Callable[[], float]
    free: int  # per address
    free_per_network: int
    first: float
    longest: float
    remembered: int = 1024  # keys kept; past it the oldest are forgotten
    _misses: dict[str, _Misses] = field(default_factory=dict)

    def wait(self, address: str) -> tuple[int, float] | None:
        """(wrong tries, seconds left) while ``address`` must wait, else None."""
        now = self.clock()
        waits = [
            (misses.count, misses.until - now)
            for key in client_keys(address)
            if (misses := self._misses.get(key)) is not None and now < misses.until
        ]
        return max(waits, key=lambda wait: wait[1]) if waits else None

    def miss(self, address: str) -> float:
        """Count a wrong try from ``address``; the seconds it must now wait (0: none)."""
        address_key, network = client_keys(address)
        shares = {network: self.free_per_network, address_key: self.free}  # IPv4: one key
        longest = 0.0
        for key, free in shares.items():
            if key not in self._misses and len(self._misses) >= self.remembered:
                del self._misses[next(iter(self._misses))]
            misses = self._misses.setdefault(key, _Misses(0, 0.0))
            misses.count += 1
            extra = misses.count - free
            wait = 0.0 if extra < 0 else min(self.longest, self.first * 2**extra)
            misses.until = self.clock() + wait
            longest = max(longest, wait)
        return longest

    def clear(self, address: str) -> None:
        self._misses.pop(client_keys(address)[0], None)


def wait_words(seconds: float) -> str:
    """A wait as the refusals say it: whole seconds, at least 1."""
    return f"{max(1, math.ceil(seconds))} s"
