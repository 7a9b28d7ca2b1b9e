"""TLS to the broker as docs/hub.md sets it up: a throw-away CA and the broker's certificate made
with the openssl commands of the docs, mosquitto with a TLS listener, a table configured with
the documented ``[hub]`` keys (``port``, ``ca_file``, ``host`` the certificate's name) and
``gametable hub run --port --ca-file``: a result reaches the record over TLS, and a client that
does not trust the CA, or names the broker otherwise than its certificate, is refused."""

from __future__ import annotations

import asyncio
import signal
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.commands import hub_link
from firmware_py.table.config import load_config
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_helpers import Broker, password_of
from tests.hub_table_helpers import Table, linked, until
from tests.journal_helpers import CLI, MOCK_TABLE

NOW = "2026-05-09T09:00:00+00:00"
TEAMS = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls", "Ravens"))
NAME = "localhost"  # the broker's name in its certificate, as hub.local is in the docs


def _openssl(*argv: str, cwd: Path) -> None:
    subprocess.run(["openssl", *argv], cwd=cwd, check=True, capture_output=True)


def _make_ca(directory: Path, name: str) -> Path:
    """A CA of its own (docs/hub.md's first command): its certificate."""
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", f"/CN={name}", "-keyout", f"{name}.key", "-out", f"{name}.pem",
        cwd=directory,
    )  # fmt: skip
    return directory / f"{name}.pem"


def _make_server_certificate(directory: Path, ca: str) -> tuple[Path, Path]:
    """The broker's certificate for ``NAME``, signed by ``ca`` (the docs' next two commands)."""
    (directory / "san.ext").write_text(f"subjectAltName=DNS:{NAME}\n")
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={NAME}",
        "-keyout", "hub.key", "-out", "hub.csr",
        cwd=directory,
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", "hub.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "hub.crt",
        cwd=directory,
    )  # fmt: skip
    return directory / "hub.crt", directory / "hub.key"


@pytest.fixture
def certificates(tmp_path: Path) -> Path:
    directory = tmp_path / "certs"
    directory.mkdir()
    _make_ca(directory, "hub-ca")
    _make_ca(directory, "stranger-ca")
    _make_server_certificate(directory, "hub-ca")
    return directory


@pytest.fixture
def tls_broker(tmp_path: Path, certificates: Path) -> Iterator[Broker]:
    running = Broker(tmp_path / "broker", tls=(certificates / "hub.crt", certificates / "hub.key"))
    running.directory.mkdir()
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _record(path: Path) -> Path:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, TEAMS, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    return path


def _table_config(path: Path, broker: Broker, ca_file: Path) -> Path:
    """Table 1's config with the keys docs/hub.md names for TLS."""
    path.write_text(
        MOCK_TABLE
        + "[hub]\nenabled = true\n"
        + f'host = "{NAME}"\nport = {broker.port}\ntable = 1\n'
        + f'password_file = "{broker.secret_file("1")}"\nca_file = "{ca_file}"\n'
    )
    return path


def test_a_table_and_the_hub_over_tls_bring_a_result_to_the_record(
    tmp_path: Path, tls_broker: Broker, certificates: Path
) -> None:
    ca_file = certificates / "hub-ca.pem"
    record_path = _record(tmp_path / "tournament.db")
    hub = subprocess.Popen(
        [
            *CLI, "hub", "run", "--db", str(record_path),
            "--password-file", str(tls_broker.secret_file("hub")),
            "--host", NAME, "--port", str(tls_broker.port), "--ca-file", str(ca_file),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    table = Table(tls_broker, tmp_path / "table-1.db")
    link = hub_link(load_config(_table_config(tmp_path / "table.toml", tls_broker, ca_file)))
    assert link is not None
    link.journal = table.journal
    table.link = link

    def recorded() -> list[tuple[int, int, str]]:
        with TournamentDB.open(record_path) as record:
            return [(e.a_points, e.b_points, e.entered_by) for e in record.result_history(1, 1)]

    async def scenario() -> None:
        async with linked(table):
            await until(lambda: link.connected, "the table to connect over TLS")
            table.play()
            await until(lambda: table.delivered() and bool(recorded()), "the result, confirmed")

    try:
        asyncio.run(scenario())
    finally:
        hub.send_signal(signal.SIGTERM)
        out, _ = hub.communicate(timeout=20)
    _, body = table.result()
    assert recorded() == [(body["A"], body["B"], "table 1")]
    assert f"event=hub_connected broker={NAME}:{tls_broker.port}" in out
    table.close()


def _connect_over_tls(broker: Broker, host: str, ca_file: Path) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.username_pw_set("1", password_of("1"))
    client.tls_set(ca_certs=str(ca_file))
    try:
        client.connect(host, broker.port, keepalive=10)
    finally:
        client.disconnect()


def test_a_client_that_does_not_trust_the_ca_is_refused(
    tls_broker: Broker, certificates: Path
) -> None:
    with pytest.raises(ssl.SSLCertVerificationError, match="unable to get local issuer"):
        _connect_over_tls(tls_broker, NAME, certificates / "stranger-ca.pem")


def test_a_client_naming_the_broker_otherwise_than_its_certificate_is_refused(
    tls_broker: Broker, certificates: Path
) -> None:
    """Why a table's ``host`` must be the name in the broker's certificate (docs/hub.md)."""
    with pytest.raises(ssl.SSLCertVerificationError, match="mismatch"):
        _connect_over_tls(tls_broker, "127.0.0.1", certificates / "hub-ca.pem")


def test_a_client_trusting_the_ca_by_the_certificates_name_is_let_in(
    tls_broker: Broker, certificates: Path
) -> None:
    _connect_over_tls(tls_broker, NAME, certificates / "hub-ca.pem")
