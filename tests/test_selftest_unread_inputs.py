"""``gametable selftest`` asks only for the inputs the table's family reads: a Guesstimation
table's seats have a ``stand`` GPIO with nothing wired to it (R1020), so a table built as
docs/hardware.md says can end ``all inputs seen``."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py import families
from firmware_py.table.family import family
from firmware_py.table.wiring_diagram import SEAT_PARTS
from tests.cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent


def six_seats_on_a_pc(tmp_path: Path) -> Path:
    """config/six-seats.toml on mock pins, with no OLED and no scoreboard to open here."""
    config = tmp_path / "table.toml"
    text = (ROOT / "config" / "six-seats.toml").read_text(encoding="utf-8")
    text = text.replace('driver = "ssd1306"', 'enabled = false\ndriver = "ssd1306"')
    text = text.replace('url = "/dev/ttyUSB0"', 'enabled = false\nurl = "/dev/ttyUSB0"')
    config.write_text(text, encoding="utf-8")
    return config


def test_selftest_does_not_ask_for_an_input_the_family_never_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    code, out, _ = run(
        capsys, "selftest", "--config", str(six_seats_on_a_pc(tmp_path)), "--seconds", "0"
    )
    assert code == 1  # nobody pressed a die button on the mock pins
    lines = out.splitlines()
    assert (
        "not read by guesstimation (wire nothing): A.stand, B.stand, C.stand, D.stand, "
        "E.stand, F.stand" in lines
    )
    assert lines[-1] == (
        "never pressed: A.shout, B.shout, C.shout, D.shout, E.shout, F.shout, console.count, "
        "console.go, console.yes, console.no, console.undo, console.next"
    )


def test_a_family_that_reads_both_inputs_is_asked_for_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = six_seats_on_a_pc(tmp_path)
    text = config.read_text(encoding="utf-8").replace('"guesstimation"', '"states"')
    text = text.replace('[guesstimation]\ndeck = "sample"', "")
    text = text[: text.index("[seats.E]")] + text[text.index("[oled]") :]
    config.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "selftest", "--config", str(config), "--seconds", "0")
    assert code == 1
    assert "not read by" not in out
    assert out.splitlines()[-1].startswith("never pressed: A.stand, A.shout, B.stand")


@pytest.mark.parametrize("name", ["geoplunge", "pentathlon", "guesstimation", "states"])
def test_the_diagram_says_wire_nothing_for_exactly_the_inputs_a_family_never_reads(
    name: str,
) -> None:
    families.install()
    unread = {role for role, part in SEAT_PARTS[name].items() if part is None}
    assert unread == set(family(name).unread)
