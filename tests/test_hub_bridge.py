"""A hall's broker bridged to the central one, as shipped (systemd/mosquitto/gametable-hall.conf,
docs/hub.md "Beyond one hall"): the tables' topics go out to the hub, the tournament's come in to
the tables, each way queued across a cut; the bridge's account writes the tables' topics and
nothing else (R1000, R1001). On real mosquittos, on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.passwords import read_accounts, verifies
from tests.hub_helpers import SHIPPED_ACL, Broker, Peer, central_acl, hall_bridge, wait_for
from tests.journal_helpers import assert_one_line_refusal, fingerprint
from tests.test_hub_cli import hub
from tests.test_hub_tls import NAME as TLS_NAME
from tests.test_hub_tls import _make_ca, _make_server_certificate

HALL = "east"
BRIDGE = f"bridge-{HALL}"


@pytest.fixture
def central(tmp_path: Path) -> Iterator[Broker]:
    directory = tmp_path / "central"
    directory.mkdir()
    broker = Broker(directory, accounts=("hub", BRIDGE), acl=central_acl(directory, (HALL,)))
    broker.start()
    yield broker
    broker.stop()


def _hall_broker(tmp_path: Path, central: Broker) -> Broker:
    directory = tmp_path / HALL
    directory.mkdir(exist_ok=True)
    return Broker(directory, accounts=("7", "8"), bridge=hall_bridge(HALL, central.port))


@pytest.fixture
def hall(tmp_path: Path, central: Broker) -> Iterator[Broker]:
    broker = _hall_broker(tmp_path, central)
    broker.start()
    yield broker
    broker.stop()


def _bridged(hall: Broker) -> bool:
    return "Connecting bridge" in hall.log.read_text(errors="replace")


def test_a_tables_decision_in_a_hall_reaches_the_hub_at_the_centre(
    central: Broker, hall: Broker
) -> None:
    hub = Peer(central, "hub")
    hub.subscribe("tables/#")
    table = Peer(hall, "7")

    def arrived() -> bool:
        assert not table.publish("tables/7/events", b"decision").is_failure
        return hub.payloads("tables/7/events") != []

    wait_for(arrived, "the decision at the centre")  # published again until the bridge is up


def test_the_hubs_retained_confirmation_reaches_a_table_that_joins_later(
    central: Broker, hall: Broker
) -> None:
    hub = Peer(central, "hub")
    watcher = Peer(hall, "8")
    watcher.subscribe("tournament/#")
    wait_for(lambda: _bridged(hall), "the bridge to connect")

    def arrived() -> bool:
        assert not hub.publish("tournament/applied/7", b"through 5", retain=True).is_failure
        return watcher.payloads("tournament/applied/7") != []

    wait_for(arrived, "the confirmation in the hall")
    table = Peer(hall, "7")
    table.subscribe("tournament/applied/7")
    wait_for(lambda: table.payloads("tournament/applied/7") == [b"through 5"], "it, retained")


def test_what_a_hall_publishes_while_the_centre_is_down_arrives_when_it_is_back(
    central: Broker, hall: Broker
) -> None:
    hub = Peer(central, "hub", keep_session=True)
    hub.subscribe("tables/#")
    table = Peer(hall, "7")

    def arrived() -> bool:
        assert not table.publish("tables/7/events", b"first").is_failure
        return hub.payloads("tables/7/events") != []

    wait_for(arrived, "the bridge up")
    hub.close()
    central.stop()
    assert not table.publish("tables/7/events", b"while away").is_failure  # the hall queues it
    central.start()
    hub = Peer(central, "hub", keep_session=True)
    hub.subscribe("tables/#")
    wait_for(lambda: b"while away" in hub.payloads("tables/7/events"), "the queued decision")


def test_the_bridges_account_cannot_write_the_tournaments_topics(central: Broker) -> None:
    """A hall's broker is as trusted as its tables: it writes their topics only (R1001)."""
    bridge = Peer(central, BRIDGE)
    assert not bridge.publish("tables/7/events", b"decision").is_failure
    assert str(bridge.publish("tournament/applied/7", b"{}", retain=True)) == "Not authorized"


def test_without_its_acl_lines_the_bridge_delivers_nothing(tmp_path: Path) -> None:
    """The audit's central broker (the shipped ACL alone): the bridge logs in and is refused
    every publish, so its account's lines are part of making it (R1001)."""
    directory = tmp_path / "central"
    directory.mkdir()
    central = Broker(directory, accounts=("hub", BRIDGE), acl=SHIPPED_ACL)
    central.start()
    try:
        bridge = Peer(central, BRIDGE)
        assert str(bridge.publish("tables/7/events", b"decision")) == "Not authorized"
    finally:
        central.stop()


def test_a_refusal_at_the_centre_is_seen_by_the_halls_bridge(tmp_path: Path) -> None:
    """MQTT 5 (bridge_protocol_version mqttv50): the central broker's "Not authorized" (reason
    135) reaches the hall's broker; MQTT 3.1.1, mosquitto's default for a bridge, acknowledges
    the refused publish as taken (reason 0), as the audit found."""
    directory = tmp_path / "central"
    directory.mkdir()
    central = Broker(directory, accounts=("hub", BRIDGE), acl=SHIPPED_ACL)  # no bridge lines
    central.start()
    hall = _hall_broker(tmp_path, central)
    hall.bridge = (*hall_bridge(HALL, central.port), "log_type all")
    hall.start()
    try:
        table = Peer(hall, "7")

        def answered() -> bool:
            assert not table.publish("tables/7/events", b"decision").is_failure
            return f"Received PUBACK from {BRIDGE}" in hall.log.read_text()

        wait_for(answered, "the central broker's answer to the bridge")
        answers = [line for line in hall.log.read_text().splitlines() if "PUBACK from" in line]
        assert answers and all(line.endswith("RC:135)") for line in answers), answers
    finally:
        hall.stop()
        central.stop()


def _tls_hall(tmp_path: Path, central: Broker, ca: Path) -> Broker:
    """Hall east's broker with its bridge over TLS as docs/hub.md says: the central broker by
    the name in its certificate, on its TLS port, and ``bridge_cafile`` the CA to trust."""
    directory = tmp_path / HALL
    directory.mkdir()
    bridge = hall_bridge(HALL, central.port, host=TLS_NAME)
    return Broker(directory, accounts=("7",), bridge=(*bridge, f"bridge_cafile {ca}"))


@pytest.fixture
def tls_central(tmp_path: Path) -> Iterator[tuple[Broker, Path]]:
    certificates = tmp_path / "certs"
    certificates.mkdir()
    for ca in ("hub-ca", "stranger-ca"):
        _make_ca(certificates, ca)
    tls = _make_server_certificate(certificates, "hub-ca")
    directory = tmp_path / "central"
    directory.mkdir()
    acl = central_acl(directory, (HALL,))
    broker = Broker(directory, tls=tls, accounts=("hub", BRIDGE), acl=acl)
    broker.start()
    yield broker, certificates
    broker.stop()


def test_a_hall_bridged_over_tls_delivers_to_the_centre(
    tmp_path: Path, tls_central: tuple[Broker, Path]
) -> None:
    central, certificates = tls_central
    hall = _tls_hall(tmp_path, central, certificates / "hub-ca.pem")
    hall.start()
    try:
        hub = Peer(central, "hub", ca_file=certificates / "hub-ca.pem", host=TLS_NAME)
        hub.subscribe("tables/#")
        table = Peer(hall, "7")

        def arrived() -> bool:
            assert not table.publish("tables/7/events", b"decision").is_failure
            return hub.payloads("tables/7/events") != []

        wait_for(arrived, "the decision at the centre, over TLS")
    finally:
        hall.stop()


def test_a_hall_that_trusts_another_ca_is_not_bridged(
    tmp_path: Path, tls_central: tuple[Broker, Path]
) -> None:
    central, certificates = tls_central
    hall = _tls_hall(tmp_path, central, certificates / "stranger-ca.pem")
    hall.start()
    try:
        wait_for(lambda: "certificate verify failed" in hall.log.read_text(), "the refusal")
    finally:
        hall.stop()


# --- gametable hub users PASSWD HALL --bridge ------------------------------------------------


@pytest.fixture
def central_files(tmp_path: Path) -> tuple[Path, Path]:
    """The central broker's password file (the hub in it) and its shipped ACL."""
    passwd, acl = tmp_path / "gametable.passwd", tmp_path / "gametable.acl"
    acl.write_bytes(SHIPPED_ACL.read_bytes())
    assert hub("users", str(passwd), "hub", stdin="hub-pw\n").code == 0
    return passwd, acl


def test_a_halls_bridge_gets_its_account_and_its_acl_lines(
    tmp_path: Path, central_files: tuple[Path, Path]
) -> None:
    passwd, acl = central_files
    secret = tmp_path / "bridge-east.password"
    done = hub("users", str(passwd), HALL, "--bridge", "--generate", str(secret))
    assert done.code == 0, done.stderr
    assert verifies(_accounts(passwd)[BRIDGE], secret.read_text().strip())
    assert acl.read_text().endswith(f"user {BRIDGE}\ntopic write tables/#\n")
    assert acl.read_text().startswith(SHIPPED_ACL.read_text())  # the tables' and hub's lines kept
    assert f"--hall-name {HALL} --bridge-password {secret.name}" in done.stdout


def test_a_bridges_acl_lines_are_written_once(central_files: tuple[Path, Path]) -> None:
    passwd, acl = central_files
    assert hub("users", str(passwd), HALL, "--bridge", stdin="one\n").code == 0
    once = acl.read_text()
    done = hub("users", str(passwd), HALL, "--bridge", stdin="two\n")
    assert done.code == 0, done.stderr
    assert f"its ACL lines were already in {acl}" in done.stdout
    assert acl.read_text() == once
    assert verifies(_accounts(passwd)[BRIDGE], "two")


def test_an_acl_file_elsewhere_is_named_with_acl(
    tmp_path: Path, central_files: tuple[Path, Path]
) -> None:
    passwd, _ = central_files
    elsewhere = tmp_path / "acl" / "central.acl"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(SHIPPED_ACL.read_bytes())
    done = hub("users", str(passwd), HALL, "--bridge", "--acl", str(elsewhere), stdin="pw\n")
    assert done.code == 0, done.stderr
    assert f"user {BRIDGE}" in elsewhere.read_text()


def test_a_bridges_account_by_its_name_is_refused_and_the_advice_works(
    central_files: tuple[Path, Path],
) -> None:
    passwd, acl = central_files
    before = fingerprint(passwd.parent)
    done = hub("users", str(passwd), BRIDGE, stdin="pw\n")
    assert_one_line_refusal(done, names=f"{BRIDGE} is hall {HALL}'s bridge: give {HALL} --bridge")
    assert fingerprint(passwd.parent) == before
    assert hub("users", str(passwd), HALL, "--bridge", stdin="pw\n").code == 0  # as it says
    assert BRIDGE in _accounts(passwd) and f"user {BRIDGE}" in acl.read_text()


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["East Hall", "--bridge"], "a hall named 'East Hall': expected 1 to 32 lowercase"),
        (["east-", "--bridge"], "a hall named 'east-'"),
        (["e" * 33, "--bridge"], "expected 1 to 32 lowercase letters"),
        (["east/1", "--bridge"], "a hall named 'east/1'"),
        ([HALL, "--bridge", "--acl", "missing.acl"], "no ACL file missing.acl: expected the"),
        (["7", "--acl", "gametable.acl"], "--acl is for a hall's bridge: expected HALL --bridge"),
    ],
)
def test_a_bad_bridge_is_one_line_and_changes_nothing(
    central_files: tuple[Path, Path], argv: list[str], names: str
) -> None:
    passwd, _ = central_files
    before = fingerprint(passwd.parent)
    done = hub("users", str(passwd), *argv, "--generate", "new.password", cwd=passwd.parent)
    assert_one_line_refusal(done, names=names)
    assert fingerprint(passwd.parent) == before  # no secret made either


@pytest.mark.parametrize("password", ["two words", "café-au-lait"])
def test_a_bridge_password_the_halls_config_cannot_hold_is_refused(
    central_files: tuple[Path, Path], password: str
) -> None:
    """It is written into the hall broker's config as a word (install.sh --hall)."""
    passwd, _ = central_files
    before = fingerprint(passwd.parent)
    done = hub("users", str(passwd), HALL, "--bridge", stdin=f"{password}\n")
    assert_one_line_refusal(done, names="expected 1 to 256 printable ASCII characters without")
    assert fingerprint(passwd.parent) == before


def _accounts(path: Path) -> dict[str, str]:
    return {account.user: account.hash for account in read_accounts(path)}
