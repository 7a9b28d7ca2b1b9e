"""The command line builds only the part a command needs, so that ``gametable run`` on a Pi
loads the table and not the judges, the tournament record or the hub (issue 18: the daemon's
RSS <= 40 MB, measured by make bench)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firmware_py.cli import PARTS, UsageError, build_parser

HEAVY_FOR_A_TABLE = ("firmware_py.director", "firmware_py.judge", "rules.tournament")


def _modules_after_parsing(argv: list[str]) -> set[str]:
    code = (
        "import sys\n"
        "from firmware_py.cli import _command_named, build_parser\n"
        f"build_parser(_command_named({argv!r})).parse_args({argv!r})\n"
        "print('\\n'.join(sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(done.stdout.split())


@pytest.mark.parametrize(
    "argv",
    [["run", "--config", "table.toml"], ["sim", "--headless"], ["config", "check", "x.toml"]],
)
def test_a_table_command_loads_no_judge_record_or_hub(argv: list[str]) -> None:
    loaded = _modules_after_parsing(argv)
    heavy = sorted(m for m in loaded if m.startswith(HEAVY_FOR_A_TABLE))
    assert heavy == []


def test_every_command_word_has_exactly_one_part() -> None:
    words = [word for names, _ in PARTS for word in names]
    assert len(words) == len(set(words))
    listed = build_parser().format_usage().split("{", 1)[1].split("}", 1)[0]
    assert set(listed.split(",")) == set(words)


def test_an_unknown_command_is_refused_with_every_command_listed() -> None:
    with pytest.raises(UsageError, match=r"'tournament'.*'states'"):
        build_parser("nope").parse_args(["nope"])


def test_a_part_parses_its_command_as_the_whole_does() -> None:
    argv = ["score", "--result", "A", "--bonus"]
    assert vars(build_parser("score").parse_args(argv)) == vars(build_parser().parse_args(argv))
