"""A bench's login on the hub's page, whose views are for staff (R816): a viewer account
added to the record before the hub starts, and the session cookie a login gives it."""

from __future__ import annotations

import http.client
import urllib.parse
from pathlib import Path

from firmware_py.director.hub.page.app import COOKIE
from firmware_py.director.hub.staff import Role, StaffRecord, hash_new_password
from firmware_py.director.record.tournament_db import TournamentDB

NAME = "bench"
PASSWORD = "the bench's own password"
NOW = "2026-05-09T09:00:00+00:00"


def add_viewer(record: Path) -> None:
    with TournamentDB.open(record) as opened:
        StaffRecord(opened).add(NAME, Role.VIEWER, hash_new_password(PASSWORD), now=NOW, by=NAME)


def login_cookie(port: int, name: str = NAME, password: str = PASSWORD) -> str | None:
    """The ``Cookie`` header of a viewer's session (or the account ``name``'s) on the page at
    127.0.0.1:``port``, or None while the page does not answer."""
    form = urllib.parse.urlencode({"name": name, "password": password})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"http://127.0.0.1:{port}",
    }
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("POST", "/login", body=form, headers=headers)
            answer = connection.getresponse()
            answer.read()
        finally:
            connection.close()
    except OSError:
        return None
    for value in answer.headers.get_all("Set-Cookie") or []:
        if value.startswith(f"{COOKIE}="):
            return value.split(";", 1)[0]
    return None
