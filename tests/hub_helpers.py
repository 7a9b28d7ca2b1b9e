"""For the hub's tests: a mosquitto of their own (the shipped config on a free loopback port, with
a temporary password file and persistence directory), a plain MQTT client to watch and to
misbehave with, and waiting for a condition with a deadline."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_py.director.hub.bridges import add_bridge_acl, bridge_account
from firmware_py.director.hub.passwords import set_password

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_CONF = ROOT / "systemd" / "mosquitto" / "gametable.conf"
SHIPPED_ACL = ROOT / "systemd" / "mosquitto" / "gametable.acl"
SHIPPED_HALL = ROOT / "systemd" / "mosquitto" / "gametable-hall.conf"
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
ACCOUNTS = ("hub", "1", "2", "3", "7", "8")
# What the shipped config names in place (ports, paths) is given here instead; the rest is the
# shipped file as it is, the ACL included.
REPLACED = ("listener ", "password_file ", "acl_file ", "autosave_interval ")
PORT_CHOICES = 5  # ports tried by a broker that chooses its own, before its start fails
WAIT_SECONDS = 30.0  # the longest any condition is waited for: paho's backoff tops out at 10 s


def password_of(account: str) -> str:
    return f"{account}-secret"


def wait_for(condition: Callable[[], bool], what: str, seconds: float = WAIT_SECONDS) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` if it never does."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        time.sleep(0.02)


def free_port() -> int:
    """A loopback port nobody listened on a moment ago. Only a moment: it is released for the
    server to take, and another process (another pytest worker) may take it first; a
    :class:`Broker` then hears so from its mosquitto and chooses again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Broker:
    """A mosquitto on 127.0.0.1 that the test starts, kills and restarts on the same port."""

    directory: Path
    # 0: a free port chosen at the first start, and chosen again if another process takes it
    # before mosquitto binds it (parallel test workers); a port given here is kept, and a clash
    # on it fails the start naming the port
    port: int = 0
    # saved every second rather than every 10: a test need not wait for it; a test of what a
    # kill between saves loses saves only at a clean stop
    autosave_seconds: int = 1
    tls: tuple[Path, Path] | None = None  # the broker's certificate and key: a TLS listener
    accounts: tuple[str, ...] = ACCOUNTS  # made in its password file when it first starts
    # put before mosquitto's command (tests/hall_campaign.py: setpriv, to die with its campaign)
    wrapper: tuple[str, ...] = ()
    acl: Path = SHIPPED_ACL  # a central broker's: the shipped one with its halls' bridges
    bridge: tuple[str, ...] = ()  # a hall's broker's: its bridge to the central (hall_bridge)
    process: subprocess.Popen[bytes] | None = None

    @property
    def password_file(self) -> Path:
        return self.directory / "gametable.passwd"

    @property
    def log(self) -> Path:
        return self.directory / "mosquitto.log"

    def secret_file(self, account: str) -> Path:
        """A table's or the hub's own password file, as it keeps it."""
        path = self.directory / f"{account}.password"
        if not path.exists():
            path.write_text(password_of(account) + "\n", encoding="utf-8")
        return path

    def write_config(self) -> Path:
        lines: list[str] = []
        for line in SHIPPED_CONF.read_text(encoding="utf-8").splitlines():
            if line.startswith("listener "):
                # in its place: the listener's own options (use_username_as_clientid) follow it
                lines += [
                    f"listener {self.port} 127.0.0.1",
                    *(
                        []
                        if self.tls is None
                        else [f"certfile {self.tls[0]}", f"keyfile {self.tls[1]}"]  # docs/hub.md
                    ),
                ]
            elif not line.startswith(REPLACED):
                lines.append(line)
        lines += [
            f"password_file {self.password_file}",
            f"acl_file {self.acl}",
            f"persistence_location {self.directory}/",
            f"autosave_interval {self.autosave_seconds}",
            f"log_dest file {self.log}",
        ]
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to "mosquitto", who cannot read tmp_path
        lines += self.bridge  # last: a bridge's options follow its `connection` line
        config = self.directory / "mosquitto.conf"
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return config

    def start(self) -> None:
        if not self.password_file.exists():
            for account in self.accounts:
                set_password(self.password_file, account, password_of(account))
        choose = self.port == 0
        for _ in range(PORT_CHOICES if choose else 1):
            if choose:
                self.port = free_port()
            said = self._launch()
            if said is None:
                return
            if not (choose and "Address already in use" in said):
                break
        raise AssertionError(f"mosquitto did not start on port {self.port}: {said}")

    def _launch(self) -> str | None:
        """Start mosquitto; None once it listens, else what it said as it exited."""
        config = self.write_config()
        logged = self.log.stat().st_size if self.log.exists() else 0
        self.process = subprocess.Popen(
            [*self.wrapper, MOSQUITTO, "-c", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while not self._running(logged):
            if self.process.poll() is not None:
                said = self._said(logged)
                self.process = None
                return said
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError("mosquitto did not listen within 10 s")
            time.sleep(0.02)
        return None

    def _running(self, logged: int) -> bool:
        """Whether *this* mosquitto listens: it logs "running" once its listener is open, and exits
        without it when the port is taken; another process listening on the port (it took the
        port first) answers a connection just as well, so a connection proves nothing."""
        if not self.log.exists():
            return False
        with self.log.open("rb") as log:
            log.seek(logged)
            return any(line.endswith(b" running") for line in log.read().splitlines())

    def _said(self, logged: int) -> str:
        """What the exited mosquitto wrote on stderr and in its log since byte ``logged``."""
        assert self.process is not None and self.process.stderr is not None
        said = self.process.stderr.read().decode(errors="replace").strip()
        if self.log.exists():
            with self.log.open("rb") as log:
                log.seek(logged)
                said += " " + log.read().decode(errors="replace").strip().replace("\n", " | ")
        return said.strip()

    def kill(self) -> None:
        """kill -9: no goodbye, nothing saved since the last autosave."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, sig: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None

    def saved(self) -> bool:
        """Whether the broker has written its persistence file."""
        return (self.directory / "mosquitto.db").exists()


def hall_bridge(hall: str, central_port: int, host: str = "127.0.0.1") -> tuple[str, ...]:
    """The shipped gametable-hall.conf as install.sh --hall fills it in, for a hall's broker
    bridged to the central broker at ``host:central_port`` (on this machine); the bridge's
    account is ``bridge-<hall>`` with its test password (R1000)."""
    filled = (
        SHIPPED_HALL.read_text(encoding="utf-8")
        .replace("@CENTRAL@", f"{host}:{central_port}")
        .replace("@HALL@", hall)
        .replace("@PASSWORD@", password_of(f"bridge-{hall}"))
    )
    return tuple(line for line in filled.splitlines() if line and not line.startswith("#"))


def central_acl(directory: Path, halls: tuple[str, ...]) -> Path:
    """The central broker's ACL: the shipped one, with each hall's bridge given its lines as
    ``gametable hub users PASSWD HALL --bridge`` gives them (R1001)."""
    acl = directory / "gametable.acl"
    shutil.copyfile(SHIPPED_ACL, acl)
    for hall in halls:
        add_bridge_acl(acl, bridge_account(hall))
    return acl


class Peer:
    """A plain MQTT 5 client on its own thread: it records what it receives and says whether
    the broker accepted each of its publishes."""

    def __init__(
        self,
        broker: Broker,
        account: str | None,
        *,
        password: str | None = None,
        will: tuple[str, str] | None = None,
        client_id: str = "",
        keep_session: bool = False,
        ca_file: Path | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        """``keep_session``: a persistent session, as the hub keeps (no clean start, an hour's
        expiry), else a clean one that ends with the connection. ``ca_file``: over TLS, to the
        broker by ``host``, the name in its certificate."""
        self.received: list[mqtt.MQTTMessage] = []
        self.connack: ReasonCode | None = None
        self.session_present: bool | None = None
        self.thrown_off: list[ReasonCode] = []  # the broker's reasons for ending the connection
        self._acks: dict[int, ReasonCode] = {}
        self._lock = threading.Lock()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTProtocolVersion.MQTTv5
        )
        if account is not None:
            self.client.username_pw_set(account, password or password_of(account))
        if will is not None:
            self.client.will_set(will[0], will[1], qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_disconnect = self._on_disconnect
        session = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        session.SessionExpiryInterval = 3600 if keep_session else 0
        if ca_file is not None:
            self.client.tls_set(ca_certs=str(ca_file))
        self.client.connect(
            host,
            broker.port,
            keepalive=10,
            clean_start=not keep_session,
            properties=session,
        )
        self.client.loop_start()
        wait_for(lambda: self.connack is not None, "the broker's answer to a connection")

    @property
    def accepted(self) -> bool:
        return self.connack is not None and not self.connack.is_failure

    def _on_connect(
        self, client: Any, userdata: Any, flags: Any, reason: ReasonCode, _: Any
    ) -> None:
        self.connack = reason
        self.session_present = flags.session_present

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: ReasonCode, _: Any
    ) -> None:
        if reason.value != 0:  # not the client's own goodbye
            with self._lock:
                self.thrown_off.append(reason)

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.received.append(message)

    def _on_publish(
        self, client: Any, userdata: Any, mid: int, reason: ReasonCode, props: Properties | None
    ) -> None:
        with self._lock:
            self._acks[mid] = reason

    def subscribe(self, topic: str) -> None:
        self.client.subscribe(topic, qos=1)

    def publish(self, topic: str, payload: bytes | str, *, retain: bool = False) -> ReasonCode:
        """Publish at QoS 1 and wait for the broker's answer."""
        sent = self.client.publish(topic, payload, qos=1, retain=retain)
        wait_for(lambda: sent.mid in self._acks, f"the broker's answer to a publish on {topic}")
        return self._acks[sent.mid]

    def payloads(self, topic: str) -> list[bytes]:
        with self._lock:
            return [bytes(m.payload) for m in self.received if m.topic == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
