"""The director's page over TLS (``--page-cert``, ``--page-key``): served as https, and the
director may log in from another machine's address (R181), which plain HTTP refuses."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
from pathlib import Path

import pytest
from aiohttp import ClientSession, CookieJar

from firmware_py.director.hub.page.server import DirectorPage, PageSetupError, listen, tls
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import NOW, PASSWORD, make_record


def certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for hub.local and 127.0.0.1, made with openssl."""
    cert, key = directory / "hub.crt", directory / "hub.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=hub.local",
            "-addext",
            "subjectAltName=DNS:hub.local,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_over_tls_the_director_logs_in_from_the_halls_network(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        page = DirectorPage(
            listen("127.0.0.1", 0),
            record,
            LiveBoard(),
            lambda: NOW,
            tls=tls(cert, key),
            names=frozenset({"hub.local"}),
        )

        async def scenario() -> tuple[int, int, str]:
            await page.start()
            trust = ssl.create_default_context(cafile=str(cert))
            base = f"https://127.0.0.1:{page.port}"
            try:
                async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as client:
                    public = await client.get(f"{base}/public", ssl=trust)
                    login = await client.post(
                        f"{base}/login",
                        data={"password": PASSWORD},
                        headers={
                            "Host": f"hub.local:{page.port}",
                            "Origin": f"https://hub.local:{page.port}",
                        },
                        ssl=trust,
                        allow_redirects=False,
                    )
                    return public.status, login.status, login.headers.get("Set-Cookie", "")
            finally:
                await page.stop()

        public, login, cookie = asyncio.run(scenario())
    assert public == 200
    assert login == 303
    assert "Secure" in cookie and "HttpOnly" in cookie


def test_a_certificate_that_does_not_load_is_one_line(tmp_path: Path) -> None:
    cert, _ = certificate(tmp_path)
    other = tmp_path / "other.key"
    other.write_text("not a key\n")
    with pytest.raises(PageSetupError, match="expected a PEM certificate and its private key"):
        tls(cert, other)
