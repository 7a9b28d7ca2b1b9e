"""Running the CLI in-process for tests: its exit code, stdout and stderr."""

from __future__ import annotations

import json

import pytest

from firmware_py.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code, out, err = run(capsys, *argv, "--json")
    assert err == ""
    data: dict[str, object] = json.loads(out)
    return code, data


def assert_bad_input(capsys: pytest.CaptureFixture[str], *argv: str, names: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("gametable: error: ")
    assert names in err
