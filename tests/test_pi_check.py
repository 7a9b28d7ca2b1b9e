"""scripts/pi_check.sh, which installs the table on fresh arm64 and armhf userlands (make
pi-check, docs/service.md): the script itself is checked here; running it needs root, qemu and an
hour, so the lead runs it before a release and docs/service.md records what it covers."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PI_CHECK = ROOT / "scripts" / "pi_check.sh"


def pi_check(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(PI_CHECK), *argv], capture_output=True, text=True, check=False, timeout=60
    )


def test_pi_check_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck is not None, "apt-get install shellcheck (.ci/run does)"
    result = subprocess.run(
        [shellcheck, str(PI_CHECK)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


def test_pi_check_is_strict_bash() -> None:
    lines = PI_CHECK.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    assert os.access(PI_CHECK, os.X_OK)


def test_the_help_is_the_header() -> None:
    result = pi_check("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Install gametable on fresh Debian bookworm userlands")
    assert result.stdout.rstrip().endswith("docs/service.md: what this covers, what only a Pi can.")


def test_only_the_two_kinds_of_pi_are_checked() -> None:
    result = pi_check("--arch", "i386")
    assert result.returncode == 1
    assert result.stderr == "pi_check.sh: --arch: expected arm64 or armhf, got i386\n"


def test_an_unknown_argument_is_refused() -> None:
    result = pi_check("--fast")
    assert result.returncode == 1
    assert result.stderr == "pi_check.sh: unknown argument: --fast (try --help)\n"


def test_the_make_target_runs_it() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pi-check:\n\tscripts/pi_check.sh\n" in makefile
