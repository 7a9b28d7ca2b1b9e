"""``systemd/install.sh --hall``: a hall's broker bridged to the central one (docs/hub.md, "Beyond
one hall"): the tables' broker config as a hub's, the shipped gametable-hall.conf filled in with
the central broker, the hall's name and the bridge's password (readable by the broker's group
only, never shown), and nothing else: no user, no code, no venv, so a 32-bit Pi can be one. Bad
options are one line before anything is done. And ``--hub`` run again keeps the halls' bridges
in the central ACL (R1001)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.bridges import ACL_HEADING, acl_block
from tests.hub_helpers import SHIPPED_ACL, hall_bridge, password_of
from tests.test_systemd_files import (
    INSTALL,
    a_debian,
    a_hub_machine,
    dry_run,
    dry_run_here,
    planned,
)

PASSWORD = password_of("bridge-east")


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    path = tmp_path / "bridge-east.password"
    path.write_text(PASSWORD + "\n", encoding="utf-8")
    return path


def _hall(password_file: Path) -> list[str]:
    """install.sh's options for hall east, bridged to a central broker on 127.0.0.1."""
    return [
        *("--hall", "127.0.0.1:1883", "--hall-name", "east"),
        *("--bridge-password", str(password_file)),
    ]


def _written(output: str, path: str) -> list[str]:
    """The lines a dry run shows it would write to ``path``."""
    lines = output.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"+ write {path} ")))
    shown = []
    for line in lines[start + 1 :]:
        if not line.startswith("|"):
            break
        shown.append(line.removeprefix("|   ").removeprefix("|"))
    return shown


def test_a_hall_plans_the_tables_broker_and_its_bridge(tmp_path: Path, password_file: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, *_hall(password_file))
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    p = str(prefix)

    def plans(*fragments: str) -> bool:
        return any(all(f in command for f in fragments) for command in commands)

    assert plans("install -m 0644", "mosquitto/gametable.conf", f"{p}/etc/mosquitto/conf.d/")
    assert plans("install -m 0644", "mosquitto/gametable.acl", f"{p}/etc/mosquitto/gametable.acl")
    assert plans("install -m 0640 -o root -g 109 /dev/null", f"{p}/etc/mosquitto/gametable.passwd")
    assert f"+ write {p}/etc/mosquitto/conf.d/gametable-hall.conf (mode 0640):" in result.stdout
    assert plans("chgrp 109", f"{p}/etc/mosquitto/conf.d/gametable-hall.conf")


def test_the_bridge_installed_is_the_one_the_campaign_runs(
    tmp_path: Path, password_file: Path
) -> None:
    """install.sh fills in the shipped file as tests/hub_helpers.py's ``hall_bridge`` does for
    the bridged campaign: what is proven is what is installed."""
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, *_hall(password_file))
    shown = _written(result.stdout, f"{prefix}/etc/mosquitto/conf.d/gametable-hall.conf")
    directives = [line for line in shown if line and not line.startswith("#")]
    expected = [
        line.replace(PASSWORD, "********") for line in hall_bridge("east", central_port=1883)
    ]
    assert directives == expected


def test_the_bridges_password_is_never_shown(tmp_path: Path, password_file: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, *_hall(password_file))
    assert result.returncode == 0, result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    assert "remote_password ********" in result.stdout


def test_a_hall_is_no_table_and_no_hub(tmp_path: Path, password_file: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    result = dry_run(prefix, *_hall(password_file))
    text = result.stdout
    for absent in ("useradd", "usermod", "rsync", "venv", "pip", "table.toml", ".service"):
        assert absent not in text.replace("mosquitto.service", ""), absent


@pytest.mark.parametrize("arch", ["arm64", "armhf"])
def test_a_hall_apt_installs_mosquitto_alone_on_either_pi(
    tmp_path: Path, password_file: Path, arch: str
) -> None:
    env = a_debian(tmp_path, arch=arch, missing=("mosquitto", "python3-dev", "gcc"))
    result = dry_run_here(env, *_hall(password_file))
    assert result.returncode == 0, result.stderr
    commands = [" ".join(argv) for argv in planned(result.stdout)]
    assert commands[1].endswith("--no-install-recommends mosquitto")  # no build packages
    assert commands[-2:] == [
        "systemctl enable mosquitto.service",
        "systemctl restart mosquitto.service",  # a bridge is read at the start only
    ]


def test_without_systemd_running_the_brokers_restart_is_reported_skipped(
    tmp_path: Path, password_file: Path
) -> None:
    result = dry_run_here(a_debian(tmp_path), *_hall(password_file), systemd_running=False)
    assert result.returncode == 0, result.stderr
    assert not [argv for argv in planned(result.stdout) if argv[0] == "systemctl"]
    assert "skipped: systemctl restart mosquitto.service" in result.stdout


def _refused(result_stderr: str, names: str) -> None:
    assert result_stderr.count("\n") == 1, result_stderr
    assert result_stderr.startswith("install.sh: ") and names in result_stderr, result_stderr


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--hall"], "--hall needs a value"),
        (["--hall", "--hub"], "--hall needs a value"),
        (["--hall", "hub local", "--hall-name", "east"], "--hall hub local: expected the central"),
        (["--hall", "hub.local:70000", "--hall-name", "east"], "hub.local:70000: expected"),
        (["--hall", "[::1]:1883", "--hall-name", "east"], "host name or IPv4 address"),
        (["--hall", "hub.local"], "--hall needs --hall-name HALL"),
        (["--hall", "hub.local", "--hall-name", "East"], "--hall-name East: expected 1 to 32"),
        (["--hall", "hub.local", "--hall-name", "east"], "--hall needs --bridge-password FILE"),
        (["--hall", "hub.local", "--hub", "--hall-name", "east"], "--hall and --hub"),
        (["--hall-name", "east"], "expected --hall CENTRAL_HOST"),
        (
            ["--hall", "hub.local", "--hall-name", "east", "--bridge-password", "/nonexistent"],
            "--bridge-password /nonexistent: no such readable file",
        ),
    ],
)
def test_a_bad_hall_option_is_one_line_before_anything_is_done(
    tmp_path: Path, argv: list[str], names: str
) -> None:
    result = dry_run(a_hub_machine(tmp_path / "root"), *argv)
    assert result.returncode == 1
    assert planned(result.stdout) == []
    _refused(result.stderr, names)


@pytest.mark.parametrize("password", ["", "two words", "tab\there"])
def test_a_bridge_password_mosquitto_could_not_read_is_refused(
    tmp_path: Path, password: str
) -> None:
    file = tmp_path / "password"
    file.write_text(password + "\n", encoding="utf-8")
    result = dry_run(a_hub_machine(tmp_path / "root"), *_hall(file))
    assert result.returncode == 1
    assert planned(result.stdout) == []
    _refused(result.stderr, "expected the password on its first line")


def test_a_hubs_update_keeps_the_halls_bridges_in_the_acl(tmp_path: Path) -> None:
    prefix = a_hub_machine(tmp_path / "root")
    acl = prefix / "etc" / "mosquitto" / "gametable.acl"
    acl.parent.mkdir()
    bridges = ["", ACL_HEADING, "", *acl_block("bridge-east")]
    acl.write_text(SHIPPED_ACL.read_text() + "\n".join(bridges) + "\n", encoding="utf-8")
    result = dry_run(prefix, "--hub")
    assert result.returncode == 0, result.stderr
    assert "keeping the halls' bridges in /etc/mosquitto/gametable.acl" in result.stdout
    shown = _written(result.stdout, str(acl))
    assert shown == [*SHIPPED_ACL.read_text().splitlines(), *bridges]


def test_the_acls_bridges_heading_is_the_one_gametable_writes() -> None:
    assert f'ACL_BRIDGES="{ACL_HEADING}"' in INSTALL.read_text(encoding="utf-8")
