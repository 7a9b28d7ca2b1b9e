"""The simulator's screen (``TerminalScreen``) as a terminal would show it: what is drawn at
each size, the one line a terminal too small gets, and each family's words beneath the picture.
The escape sequences written are played onto a grid of rows, as a terminal plays them."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from PIL import Image

from drivers.leds import SeatLight
from firmware_py.table.config import FamilyName, default_config
from firmware_py.table.controller import TableController, TableView
from firmware_py.table.family import family
from firmware_py.table.sim import TerminalScreen
from firmware_py.table.sim_config import simulator_config
from firmware_py.table.wiring import table_settings

FAMILIES: tuple[FamilyName, ...] = ("geoplunge", "pentathlon", "guesstimation", "states")
CURSOR = re.compile(r"\x1b\[(\d+);1H\x1b\[2K")


def played(output: str) -> dict[int, str]:
    """The rows a terminal shows after ``output`` (row number -> text), blank rows left out."""
    rows: dict[int, str] = {}
    for screen in output.split("\x1b[2J")[-1:]:
        parts = CURSOR.split(screen)
        for number, text in zip(parts[1::2], parts[2::2], strict=True):
            rows[int(number)] = text
    return {number: text for number, text in rows.items() if text}


def screen_for(name: FamilyName, size: tuple[int, int]) -> TerminalScreen:
    plugged = family(name)
    seats = tuple(seat.name for seat in simulator_config(name).seats)
    return TerminalScreen(seats, plugged.words, plugged.lights, counts=plugged.counts, size=size)


def first_view(name: FamilyName) -> TableView:
    settings = table_settings(simulator_config(name))
    controller = TableController(
        settings=settings, emit=lambda event: None, now=0.0, read_pin=lambda pin: False
    )
    return controller.view()


def drawn(
    screen: TerminalScreen, name: FamilyName, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """Everything the screen shows after a frame, the status and a resize to its own size."""
    screen.frame(Image.new("1", (128, 64), 1))
    screen.view(first_view(name))
    screen.resize(*screen.size)
    return list(played(capsys.readouterr().out).values())


@pytest.mark.parametrize("name", FAMILIES)
def test_the_size_needed_shows_the_picture_and_one_row_less_does_not(name: FamilyName) -> None:
    columns, rows = screen_for(name, (80, 24)).needed()
    assert screen_for(name, (columns, rows)).layout() is not None
    assert screen_for(name, (columns, rows - 1)).layout() is None
    assert screen_for(name, (columns - 1, rows)).layout() is None


@pytest.mark.parametrize("size", [(40, 10), (66, 20), (66, 22), (20, 5), (200, 10)])
def test_a_terminal_too_small_is_told_the_same_size_needed_whatever_its_size(
    size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    need = "{}x{}".format(*screen_for("geoplunge", (80, 24)).needed())
    (shown,) = drawn(screen_for("geoplunge", size), "geoplunge", capsys)
    assert re.search(rf"need {need}\b", shown)


@pytest.mark.parametrize("columns", [4, 5, 9, 10, 20, 21, 40])
def test_the_size_needed_is_shown_whole_or_not_at_all(
    columns: int, capsys: pytest.CaptureFixture[str]
) -> None:
    screen = screen_for("geoplunge", (columns, 5))
    need = "{}x{}".format(*screen.needed())
    shown = drawn(screen, "geoplunge", capsys)
    if columns < len(need):
        assert shown == []
    else:
        (line,) = shown
        assert re.search(rf"(^|need ){need}\b", line) and len(line) <= columns


@pytest.mark.parametrize("name", FAMILIES)
def test_a_terminal_too_small_shows_that_one_line_and_nothing_else(
    name: FamilyName, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = drawn(screen_for(name, (60, 20)), name, capsys)
    assert len(shown) == 1
    assert shown[0].startswith("terminal too small for the OLED: need 66x")


@pytest.mark.parametrize("name", FAMILIES)
def test_a_terminal_of_the_size_needed_shows_every_status_line_whole(
    name: FamilyName, capsys: pytest.CaptureFixture[str]
) -> None:
    screen = screen_for(name, (80, 24))
    screen = screen_for(name, screen.needed())
    shown = drawn(screen, name, capsys)
    assert shown[-1].endswith("ctrl-c=quit")
    assert any(line.startswith("LEDs  ") for line in shown)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pentathlon", ("a=challenge s=flag",)),
        ("guesstimation", ("s=roll",)),
        ("states", ("a=knock s=STATES!",)),
    ],
)
def test_each_family_names_its_inputs_in_its_own_words(
    name: FamilyName, words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    shown = " ".join(drawn(screen_for(name, (200, 60)), name, capsys))
    assert all(word in shown for word in words)
    assert "=stand" not in shown and "=shout" not in shown


@pytest.mark.parametrize("name", ["pentathlon", "guesstimation", "states"])
def test_only_geoplunge_shows_the_dealers_count_on_the_scoreboard_line(
    name: FamilyName, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = drawn(screen_for(name, (200, 60)), name, capsys)
    board = next(line for line in shown if line.startswith("board "))
    assert "COUNT" not in board


def test_geoplunge_shows_the_dealers_count_on_the_scoreboard_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = drawn(screen_for("geoplunge", (200, 60)), "geoplunge", capsys)
    assert any(line.startswith("board ") and "COUNT -" in line for line in shown)


@pytest.mark.parametrize(
    ("name", "light", "word"),
    [
        ("pentathlon", SeatLight.PLUNGING, "steady"),
        ("pentathlon", SeatLight.WON, "blinking"),
        ("pentathlon", SeatLight.LOCKED, "pulsing"),
        ("guesstimation", SeatLight.STANDING, "to roll"),
        ("guesstimation", SeatLight.PLUNGING, "guessed"),
        ("states", SeatLight.STANDING, "knocked"),
        ("states", SeatLight.WON, "first/won"),  # the first "STATES!", or the hand's winner
        ("states", SeatLight.LOCKED, "too late"),
        ("geoplunge", SeatLight.PLUNGING, "plunging"),
    ],
)
def test_each_family_names_its_lights_in_its_own_words(
    name: FamilyName, light: SeatLight, word: str
) -> None:
    view = replace(first_view(name), lights={"A": light, "B": SeatLight.OFF})
    leds = screen_for(name, (200, 60)).status_lines(view)[0]
    assert leds.startswith(f"LEDs  A:{word}")


def test_the_default_config_is_geoplunges() -> None:
    assert simulator_config(None) == default_config()
