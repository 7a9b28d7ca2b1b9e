"""The web pages' guard (firmware_py/table/web/guard.py): a request names a host the page serves,
and a change comes from the page's own origin (R722, R723); both pages take their checks from it
and from serving.py, none of their own (R770). The attacks themselves are tried on
the director's page in tests/test_hub_page_app.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.page.sessions import (
    FREE_TRIES,
    FREE_TRIES_PER_NETWORK,
    AccessError,
    DirectorSessions,
)
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.guard import (
    MISDIRECTED,
    SiteGuard,
    cookie_attributes,
    name_error,
    new_secret,
    parse_host,
    same_secret,
    served_names,
)

ROOT = Path(__file__).resolve().parent.parent

GUARD = SiteGuard(frozenset({"localhost", "hub.local"}), "http", own_page="the hub's own page")


@pytest.mark.parametrize(
    ("header", "parsed"),
    [
        ("hub.local", ("hub.local", None)),
        ("HUB.Local.:8080", ("hub.local", 8080)),
        ("192.168.1.10:8080", ("192.168.1.10", 8080)),
        ("[::1]:8443", ("::1", 8443)),
        ("[fe80::1]", ("fe80::1", None)),
    ],
)
def test_a_host_header_is_its_name_in_lower_case_and_its_port(
    header: str, parsed: tuple[str, int | None]
) -> None:
    assert parse_host(header) == parsed


@pytest.mark.parametrize(
    "header", ["", ":8080", "hub.local:", "hub.local:80a", "hub.local:99999", "::1", "[hub]:1",
               "hub local", "hub/x", "a..b", "[::1"]
)  # fmt: skip
def test_what_is_not_a_host_header_is_none(header: str) -> None:
    assert parse_host(header) is None


@pytest.mark.parametrize("host", ["hub.local:8080", "localhost:8080", "HUB.LOCAL", "hub.local."])
def test_a_name_the_page_serves_passes(host: str) -> None:
    GUARD.check_host(host)


@pytest.mark.parametrize("host", ["127.0.0.1:8080", "192.168.1.10", "[::1]:8080"])
def test_any_address_passes_a_rebinding_page_cannot_be_one(host: str) -> None:
    GUARD.check_host(host)


def test_a_name_the_page_does_not_serve_is_refused_naming_those_it_does() -> None:
    guard = SiteGuard(GUARD.names, "http", add_name="or start the hub with --page-name {name}")
    with pytest.raises(Refused) as refused:
        guard.check_host("evil.example:8080")
    assert refused.value.status == MISDIRECTED
    assert str(refused.value) == (
        "this page is not served as 'evil.example': open it as hub.local, localhost or by its "
        "address; or start the hub with --page-name evil.example"
    )


@pytest.mark.parametrize(("host", "status"), [(None, 400), ("hub local", 400)])
def test_no_host_or_not_a_host_is_refused(host: str | None, status: int) -> None:
    with pytest.raises(Refused) as refused:
        GUARD.check_host(host)
    assert refused.value.status == status


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://hub.local:8080", "hub.local:8080"),
        ("http://HUB.local:8080", "hub.local:8080"),
        ("http://hub.local", "hub.local"),
        ("http://hub.local:80", "hub.local"),
        ("http://[::1]:8080", "[::1]:8080"),
    ],
)
def test_a_change_from_the_page_itself_passes(origin: str, host: str) -> None:
    GUARD.check_origin(origin, host)


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example:8080",
        "https://hub.local:8080",  # another scheme is another origin
        "http://hub.local:8081",
        "http://localhost:8080",  # a name the page serves, but not the one it was asked by
        "null",
        "not a url at all",
    ],
)
def test_a_change_from_any_other_origin_is_refused(origin: str) -> None:
    with pytest.raises(Refused, match="a change from another site is refused") as refused:
        GUARD.check_origin(origin, "hub.local:8080")
    assert refused.value.status == 403


def test_a_change_without_an_origin_is_refused() -> None:
    with pytest.raises(Refused, match="without an Origin header") as refused:
        GUARD.check_origin(None, "hub.local:8080")
    assert refused.value.status == 403


def test_a_rebinding_page_whose_origin_matches_its_host_is_refused_by_the_host() -> None:
    with pytest.raises(Refused) as refused:
        GUARD.check_origin("http://evil.example:8080", "evil.example:8080")
    assert refused.value.status == MISDIRECTED


def test_the_names_served_by_default_are_localhost_the_machine_s_and_the_listen_host_s() -> None:
    assert served_names("0.0.0.0", [], "gametable-hub") == {
        "localhost",
        "gametable-hub",
        "gametable-hub.local",
    }
    assert served_names("hub.lan", ["Scores.Example."], "pi.home") == {
        "localhost",
        "hub.lan",
        "scores.example",
        "pi.home",
        "pi.local",
    }


@pytest.mark.parametrize("name", ["hub.local:8080", "http://hub.local", "[::1]", "", "a b"])
def test_a_page_name_with_a_scheme_or_port_or_not_a_name_is_refused(name: str) -> None:
    assert name_error(name) == (
        "expected a host name the page is opened by, like hub.local (no scheme, no port)"
    )


def test_a_page_name_is_a_host_name() -> None:
    assert name_error("hub.local") is None


# --- one guard for both pages (issue 19, R770) ------------------------------------------------

PAGES = (
    ROOT / "firmware_py" / "table" / "web" / "app.py",
    ROOT / "firmware_py" / "director" / "hub" / "page" / "app.py",
)


@pytest.mark.parametrize("app", PAGES, ids=["table", "director"])
def test_each_page_installs_the_shared_checks_and_defines_none_of_its_own(app: Path) -> None:
    source = app.read_text()
    assert "@web.middleware" not in source  # Host/Origin, refusals: serving's, not the page's
    assert "set_cookie(" not in source  # cookies: serving.set_session_cookie
    assert "compare_digest" not in source and "token_urlsafe" not in source
    for shared in ("same_site(", "one_line_errors(", "security_headers(", "refused_stream("):
        assert shared in source, shared


def test_wrong_passwords_from_many_addresses_of_one_64_make_that_64_wait() -> None:
    sessions = DirectorSessions(clock=lambda: 0.0)
    for n in range(FREE_TRIES_PER_NETWORK + 1):
        sessions.wrong_password(f"2001:db8:5:6::{n + 1:x}")  # never the address's own third
        if n % 2:
            sessions.open(f"2001:db8:5:6::{n + 1:x}", "director", "")  # clears the address only
    with pytest.raises(AccessError, match="wrong passwords from this address: try again in"):
        sessions.check_may_try("2001:db8:5:6::ffff")
    sessions.check_may_try("2001:db8:5:7::1")  # another /64


def test_an_ipv4_address_keeps_its_three_free_passwords() -> None:
    sessions = DirectorSessions(clock=lambda: 0.0)
    for _ in range(FREE_TRIES - 1):
        sessions.wrong_password("10.0.0.1")
    sessions.check_may_try("10.0.0.1")
    assert "try again in 2 s" in str(sessions.wrong_password("10.0.0.1"))


def test_a_session_cookie_is_httponly_strict_and_secure_over_tls() -> None:
    assert cookie_attributes(secure=False) == {"path": "/", "httponly": True, "samesite": "Strict"}
    assert cookie_attributes(secure=True, max_age=60) == {
        "path": "/", "httponly": True, "samesite": "Strict", "secure": True, "max_age": 60,
    }  # fmt: skip


def test_a_secret_is_compared_whole_and_never_matches_nothing() -> None:
    secret = new_secret()
    assert same_secret(secret, secret)
    assert not same_secret(secret[:-1], secret)
    assert not same_secret(None, secret) and not same_secret("", secret)
