"""``make run`` as a person sees it: ``gametable sim`` in tmux at 80x24 and 200x60, the pane
captured, the OLED picture in it decoded back into pixels and compared with the frame the
table renders for the same screen. A scrambled picture fails here, whatever the unit tests say.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from drivers.oled import render
from drivers.terminal_oled import Encoding, cells, decode
from firmware_py.table.config import default_config
from firmware_py.table.controller import TableController
from firmware_py.table.wiring import table_settings

GAMETABLE = Path(sys.executable).parent / "gametable"
PANEL = (128, 64)
TIMEOUT = 15.0


class Tmux:
    """A tmux server of the test's own (its own socket), running the simulator."""

    def __init__(self, columns: int, rows: int, *sim_args: str) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("tmux is not installed: .ci/run installs it (apt-get install tmux)")
        self.socket = f"gametable-test-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "TERM": "xterm-256color"}
        self.run(
            "new-session",
            "-d",
            "-x",
            str(columns),
            "-y",
            str(rows),
            str(GAMETABLE),
            "sim",
            *sim_args,
            env=env,
        )

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=TIMEOUT,
        )
        return done.stdout

    def pane(self) -> list[str]:
        return self.run("capture-pane", "-p").splitlines()

    def wait_for(self, text: str) -> list[str]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            lines = self.pane()
            if any(text in line for line in lines):
                return lines
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared:\n" + "\n".join(self.pane()))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def tmux_at(request: pytest.FixtureRequest) -> Iterator[Tmux]:
    columns, rows = request.param
    tmux = Tmux(columns, rows)
    try:
        yield tmux
    finally:
        tmux.close()


def _first_frame() -> Image.Image:
    """What the OLED shows when the simulator starts: the table's own first screen."""
    controller = TableController(
        settings=table_settings(default_config()),
        emit=lambda event: None,
        now=0.0,
        read_pin=lambda name: False,
    )
    return render(controller.view().screen)


def _picture(lines: list[str]) -> list[str]:
    """The framed picture's rows, or [] while there is none on the pane."""
    tops = [i for i, line in enumerate(lines) if line.startswith("┌")]
    bottoms = [i for i, line in enumerate(lines) if line.startswith("└")]
    if not tops or not bottoms or bottoms[0] < tops[0]:
        return []
    return [line.rstrip() for line in lines[tops[0] : bottoms[0] + 1]]


@pytest.mark.parametrize(
    ("tmux_at", "encoding"),
    [((80, 24), "braille"), ((200, 60), "half")],
    indirect=["tmux_at"],
    ids=["80x24", "200x60"],
)
def test_the_oled_rows_in_the_pane_are_the_frames_rows(tmux_at: Tmux, encoding: Encoding) -> None:
    tmux_at.wait_for("OLED  MATCH")
    # the frame comes from the OLED's thread: on a busy machine the status lines come first
    deadline = time.monotonic() + TIMEOUT
    while not (picture := _picture(tmux_at.pane())):
        assert time.monotonic() < deadline, "the picture was never drawn"
        time.sleep(0.2)
    columns, rows = cells(encoding, *PANEL)
    assert len(picture) == rows
    assert {len(line) for line in picture} == {columns}
    shown = decode(picture, encoding, *PANEL)
    assert ImageChops.difference(shown, _first_frame().convert("1")).getbbox() is None


@pytest.mark.parametrize("tmux_at", [(80, 24)], indirect=True, ids=["80x24"])
def test_every_line_fits_the_terminal_and_the_keys_are_shown(tmux_at: Tmux) -> None:
    lines = tmux_at.wait_for("ctrl-c=quit")
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) <= 24


@pytest.mark.parametrize("tmux_at", [(80, 24)], indirect=True, ids=["80x24"])
def test_a_resized_terminal_gets_the_picture_fitted_again(tmux_at: Tmux) -> None:
    tmux_at.wait_for("OLED  MATCH")
    tmux_at.run("resize-window", "-x", "200", "-y", "60")
    deadline = time.monotonic() + TIMEOUT
    wide = cells("half", *PANEL)[0]
    while not (picture := _picture(tmux_at.pane())) or len(picture[0]) != wide:
        assert time.monotonic() < deadline, "the picture was not redrawn for 200x60"
        time.sleep(0.2)
    shown = decode(picture, "half", *PANEL)
    assert ImageChops.difference(shown, _first_frame().convert("1")).getbbox() is None


@pytest.mark.parametrize("tmux_at", [(60, 20)], indirect=True, ids=["60x20"])
def test_a_terminal_too_small_says_so_in_one_line(tmux_at: Tmux) -> None:
    lines = tmux_at.wait_for("terminal too small for the OLED")
    assert sum("too small" in line for line in lines) == 1
    assert not any(line.startswith("┌") for line in lines)


@pytest.mark.parametrize("tmux_at", [(40, 24)], indirect=True, ids=["40x24"])
def test_a_narrow_terminal_still_says_what_size_it_needs(tmux_at: Tmux) -> None:
    lines = tmux_at.wait_for("too small: need 66x")
    assert all(len(line) <= 40 for line in lines)


@pytest.mark.parametrize("tmux_at", [(20, 5)], indirect=True, ids=["20x5"])
def test_a_tiny_terminal_shows_the_size_needed_whole_and_nothing_else(tmux_at: Tmux) -> None:
    lines = tmux_at.wait_for("need 66x")
    time.sleep(1.0)  # the status the table draws after its first frame must not appear
    shown = [line for line in tmux_at.pane() if line.strip()]
    assert len(shown) == 1 and re.fullmatch(r"need 66x\d\d", shown[0]), lines


@pytest.mark.parametrize("tmux_at", [(80, 24)], indirect=True, ids=["80x24"])
def test_the_status_lines_come_back_whole_when_the_terminal_grows_again(tmux_at: Tmux) -> None:
    tmux_at.wait_for("ctrl-c=quit")
    tmux_at.run("resize-window", "-x", "40", "-y", "24")
    tmux_at.wait_for("too small")
    tmux_at.run("resize-window", "-x", "80", "-y", "24")
    tmux_at.wait_for("enter=NEXT  A: a=stand s=shout")  # cut at 40 columns before


@pytest.mark.parametrize("tmux_at", [(80, 24)], indirect=True, ids=["80x24"])
def test_the_picture_follows_the_buttons(tmux_at: Tmux) -> None:
    tmux_at.wait_for("OLED  MATCH")
    tmux_at.run("send-keys", "g")
    lines = tmux_at.wait_for("Are you GeoPlunging?")
    assert any("CLOCK 19:5" in line or "CLOCK 20:00" in line for line in lines)
