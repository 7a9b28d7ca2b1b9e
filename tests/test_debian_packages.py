"""``make run`` and ``make test`` on a fresh Debian machine (scripts/debian-packages.sh): what is
missing is installed with apt-get as root, or with a sudo that asks no password; anyone else is
told in one line, with the one apt-get command naming exactly what is missing, and nothing runs.

Debian's own record of what is installed is faked at dpkg's seam (``DPKG_ADMINDIR``), the
interpreter the venv would come from by ``PYTHON``, and apt-get and sudo by stand-ins on a PATH
that holds nothing else: no test installs anything."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "debian-packages.sh"
SUITE = ["shellcheck", "tmux", "mosquitto", "chromium", "openssl", "systemd", "poppler-utils"]
BASH = shutil.which("bash") or "/bin/bash"
UNSHARE = shutil.which("unshare") or "/usr/bin/unshare"
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
# what the script runs besides its stand-ins
TOOLS = ("id", "dpkg-query", "env")
# a stand-in that writes its command line to the log, then does what it was asked
STAND_IN = '#!/bin/sh\necho "${{0##*/}} $*" >> "{log}"\n{then}\n'


@dataclass(frozen=True)
class Done:
    code: int
    stdout: str
    stderr: str
    calls: list[str]  # the stand-ins' command lines, in order


@dataclass(frozen=True)
class Machine:
    """A Debian machine as the script sees it, in a directory any user may read."""

    directory: Path

    @property
    def bin(self) -> Path:
        return self.directory / "bin"

    @property
    def log(self) -> Path:
        return self.directory / "calls.log"

    def installed(self, *packages: str) -> None:
        """dpkg's status file, with exactly ``packages`` installed."""
        stanzas = [
            f"Package: {name}\nStatus: install ok installed\nVersion: 1\nArchitecture: all\n"
            f"Maintainer: Nobody <nobody@example.org>\nDescription: {name}\n"
            for name in packages
        ]
        (self.directory / "status").write_text("\n".join(stanzas), encoding="utf-8")

    def stand_in(self, name: str, then: str = "exit 0") -> None:
        path = self.bin / name
        path.write_text(STAND_IN.format(log=self.log, then=then), encoding="utf-8")
        path.chmod(0o755)

    def run(self, target: str, *, python_has_venv: bool = True, as_user: str = "") -> Done:
        """The script for ``target``, as root (``as_user="root"``: a user namespace where this
        user is root), or as an ordinary user (``as_user="nobody"``)."""
        env = {
            "PATH": str(self.bin),
            "DPKG_ADMINDIR": str(self.directory),
            "PYTHON": shutil.which("true" if python_has_venv else "false") or "",
        }
        command = [BASH, str(self.directory / SCRIPT.name), target]
        if as_user == "root":
            command = [UNSHARE, "--map-root-user", *command]
        elif os.geteuid() == 0:  # an ordinary user: root's own uid dropped for nobody's
            command = [SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=30, check=False
        )
        calls = self.log.read_text(encoding="utf-8").splitlines() if self.log.exists() else []
        return Done(done.returncode, done.stdout, done.stderr, calls)


@pytest.fixture
def machine() -> Iterator[Machine]:
    # not under tmp_path: its parents are root's own (0700) and the script also runs as nobody
    with tempfile.TemporaryDirectory(prefix="gametable-debian-") as name:
        directory = Path(name)
        directory.chmod(0o755)
        shutil.copy(SCRIPT, directory / SCRIPT.name)
        (directory / "bin").mkdir(mode=0o755)
        for tool in TOOLS:
            found = shutil.which(tool)
            assert found is not None, f"{tool} is not installed"
            (directory / "bin" / tool).symlink_to(found)
        (directory / "calls.log").touch(mode=0o666)
        (directory / "calls.log").chmod(0o666)
        yield Machine(directory)


def test_a_machine_with_everything_installed_goes_on_without_a_word(machine: Machine) -> None:
    machine.installed(*SUITE)
    machine.stand_in("apt-get")
    done = machine.run("test", as_user="nobody")
    assert (done.code, done.stdout, done.stderr, done.calls) == (0, "", "", [])


def test_an_ordinary_user_is_told_the_one_apt_command_naming_exactly_what_is_missing(
    machine: Machine,
) -> None:
    machine.installed("shellcheck", "mosquitto", "openssl", "systemd", "poppler-utils")
    machine.stand_in("apt-get")
    done = machine.run("test", python_has_venv=False, as_user="nobody")
    assert done.code == 1
    assert done.stdout == ""
    assert done.stderr == (
        "make test needs Debian packages that are not installed; "
        "run: sudo apt-get install python3-venv tmux chromium\n"
    )
    assert done.calls == []  # nothing was tried


def test_a_package_removed_with_its_config_left_is_missing(machine: Machine) -> None:
    machine.installed(*SUITE)
    status = machine.directory / "status"
    status.write_text(
        status.read_text(encoding="utf-8").replace(
            "Package: tmux\nStatus: install ok installed",
            "Package: tmux\nStatus: deinstall ok config-files",
        ),
        encoding="utf-8",
    )
    done = machine.run("test", as_user="nobody")
    assert done.code == 1
    assert done.stderr.endswith("run: sudo apt-get install tmux\n")


def test_make_run_needs_only_a_python_that_makes_a_venv(machine: Machine) -> None:
    machine.installed()  # none of the suite's tools
    assert machine.run("run", as_user="nobody").code == 0
    done = machine.run("run", python_has_venv=False, as_user="nobody")
    assert done.code == 1
    assert done.stderr == (
        "make run needs Debian packages that are not installed; "
        "run: sudo apt-get install python3-venv\n"
    )


def test_root_installs_what_is_missing_with_apt_get(machine: Machine) -> None:
    machine.installed("shellcheck", "tmux", "openssl", "systemd", "poppler-utils")
    machine.stand_in("apt-get")
    done = machine.run("test", as_user="root")
    assert done.code == 0, done.stderr
    assert done.calls == [
        "apt-get update -qq",
        "apt-get install -y -qq mosquitto chromium",
    ]
    assert done.stderr == "make test: installing mosquitto chromium from Debian's packages\n"


def test_a_user_with_sudo_that_asks_no_password_installs_with_it(machine: Machine) -> None:
    machine.installed(*SUITE)
    machine.stand_in("apt-get")
    machine.stand_in("sudo", then='[ "$1" = -n ] && shift; [ "$1" = true ] || exec "$@"')
    done = machine.run("test", python_has_venv=False, as_user="nobody")
    assert done.code == 0, done.stderr
    assert done.calls == [
        "sudo -n true",
        "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
        "apt-get update -qq",
        "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv",
        "apt-get install -y -qq python3-venv",
    ]


def test_a_sudo_that_would_ask_for_a_password_is_not_used(machine: Machine) -> None:
    machine.installed(*SUITE)
    machine.stand_in("apt-get")
    machine.stand_in("sudo", then="echo 'sudo: a password is required' >&2; exit 1")
    done = machine.run("test", python_has_venv=False, as_user="nobody")
    assert done.code == 1
    assert done.stderr.endswith("run: sudo apt-get install python3-venv\n")
    assert done.calls == ["sudo -n true"]  # asked whether it may, never to install


def test_a_failing_apt_get_fails_the_make(machine: Machine) -> None:
    machine.installed()
    machine.stand_in("apt-get", then='[ "$1" = update ] || exit 100')
    assert machine.run("test", as_user="root").code == 100


@pytest.mark.parametrize("argv", [[], ["lint"], ["run", "test"]], ids=["none", "lint", "two"])
def test_a_target_it_does_not_know_is_one_usage_line(argv: list[str]) -> None:
    done = subprocess.run(
        [BASH, str(SCRIPT), *argv], capture_output=True, text=True, timeout=30, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "usage: debian-packages.sh run|test\n"


def test_the_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck is not None, "shellcheck is not installed: make test installs it"
    result = subprocess.run([shellcheck, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout
