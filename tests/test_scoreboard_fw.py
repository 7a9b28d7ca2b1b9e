"""The reference scoreboard's firmware (scoreboard_fw/, R1090): its parser and display model,
pure Python, checked against docs/scoreboard.md's own examples (read from the page, so the page
and the board cannot drift apart) and against gametable's scoreboard driver through a pty."""

from __future__ import annotations

import ast
import importlib
import math
import os
import re
import select
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.scoreboard import (
    CANCEL_LINE,
    Scoreboard,
    encode_clock,
    encode_count,
    encode_message,
    encode_scores,
)
from firmware_py.table.controller import TableView
from firmware_py.table.daemon import ScoreboardLink
from scoreboard_fw.board import KINDS, LINE_MAX, WIDTH, Board
from tests.test_table import Table

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = (ROOT / "docs" / "scoreboard.md").read_text(encoding="utf-8")
FIRMWARE = ROOT / "scoreboard_fw"


# --- the page's examples ---------------------------------------------------------------------


def message_table() -> list[tuple[str, list[str]]]:
    """The Messages table's rows: each line's form and its examples, as the page writes them."""
    rows = []
    for row in re.findall(r"^\| `([^`]+)` \|[^|]*\|(.*)\|$", PROTOCOL, re.M):
        form, examples = row
        rows.append((form, re.findall(r"`([^`]+)`", examples)))
    assert len(rows) == 7
    return rows


def examples() -> list[str]:
    return [example for _, row in message_table() for example in row]


def typical_stretch() -> list[str]:
    block: str
    (block,) = re.findall(r"A typical stretch of a game:\n\n```text\n(.*?)```", PROTOCOL, re.S)
    return block.splitlines()


def torn_example() -> bytes:
    """The page's "a board must not take `SCORE A=2<CAN>` as a score", with CAN in its place."""
    torn: str
    (torn,) = re.findall(r"must not take `([^`]*<CAN>)`", PROTOCOL)
    return torn.replace("<CAN>", "\x18").encode("ascii")


def reencoded(board: Board, kind: str) -> bytes:
    """The line gametable's own driver would send for what the board keeps of ``kind``."""
    if kind == "SCORE":
        return encode_scores(dict(board.scores))
    if kind == "CLOCK":
        return encode_clock(board.clock)
    if kind == "COUNT":
        return encode_count(board.count)
    return encode_message(board.message)


def fed(*lines: str | bytes) -> Board:
    board = Board()
    for line in lines:
        board.feed(line if isinstance(line, bytes) else line.encode("ascii") + b"\n")
    return board


def state(board: Board) -> tuple[object, ...]:
    return (list(board.scores), board.clock, board.count, board.message)


@pytest.mark.parametrize("example", examples())
def test_every_example_on_the_page_is_kept_as_the_table_would_send_it(example: str) -> None:
    board = fed(example)
    assert reencoded(board, example.split(" ", maxsplit=1)[0]) == example.encode("ascii") + b"\n"


def test_the_page_names_exactly_the_kinds_the_board_knows() -> None:
    assert {form.split(" ")[0] for form, _ in message_table()} == set(KINDS)


@pytest.mark.parametrize(
    ("shown", "clear", "cleared"),
    [
        ("CLOCK 14:59", "CLOCK --:--", lambda b: b.clock is None),
        ("COUNT 5", "COUNT -", lambda b: b.count is None),
        ("MSG A WINS", "MSG", lambda b: b.message == ""),
    ],
)
def test_each_clear_on_the_page_clears_what_was_shown(
    shown: str, clear: str, cleared: object
) -> None:
    assert clear in examples()
    assert callable(cleared)
    assert not cleared(fed(shown))
    assert cleared(fed(shown, clear))


def test_the_typical_stretch_leaves_the_last_value_of_each_kind() -> None:
    board = fed(*typical_stretch())
    assert state(board) == ([("A", 20), ("B", 0)], 14 * 60 + 59, None, "")


@pytest.mark.parametrize("line", ["BRIGHTNESS 5", "score A=1", "SCOREBOARD A=1", "HELLO", ""])
def test_a_line_whose_first_word_the_board_does_not_know_changes_nothing(line: str) -> None:
    before = fed(*typical_stretch())
    after = fed(*typical_stretch(), line)
    assert state(after) == state(before)
    assert not Board().apply_line(line.encode("ascii"))


def test_the_pages_torn_score_holding_can_is_not_taken_as_a_score() -> None:
    board = fed("SCORE A=0 B=0", torn_example() + b"\n")
    assert board.scores == [("A", 0), ("B", 0)]


def test_the_cancel_line_ends_a_torn_line_and_the_next_line_is_read() -> None:
    board = fed("SCORE A=0 B=0", b"SCORE A=2" + CANCEL_LINE + b"SCORE A=20 B=30\n")
    assert board.scores == [("A", 20), ("B", 30)]


def test_a_torn_message_is_dropped_with_its_cancel_line() -> None:
    board = fed("MSG A WINS", b"MSG B WI" + CANCEL_LINE + b"COUNT 3\n")
    assert (board.message, board.count) == ("A WINS", 3)


@pytest.mark.parametrize("text", ["a wins", "caf\u00e9\nok", "x" * 40, "Time up: B!", "~" * 33])
def test_a_message_shows_as_the_table_encodes_it(text: str) -> None:
    line = encode_message(text)
    board = fed(line)
    assert board.message == line[4:-1].decode("ascii")
    assert board.message == board.message.upper() and len(board.message) <= 32


def test_a_hand_typed_message_is_upper_cased_and_cut_to_32() -> None:
    assert fed("MSG " + "a" * 40).message == "A" * 32


def test_the_board_shows_the_same_upper_case_and_question_marks_as_the_table() -> None:
    assert fed(encode_message("é a\tb")).message == "? A?B"


def test_a_line_with_bytes_outside_printable_ascii_is_dropped_r1091() -> None:
    board = fed("MSG A WINS", b"MSG CAF\xc3\xa9\n")
    assert board.message == "A WINS"


def test_a_line_ending_in_return_newline_is_read_r1091() -> None:
    assert fed(b"SCORE A=3 B=4\r\n").scores == [("A", 3), ("B", 4)]


@pytest.mark.parametrize(
    "line",
    [
        "SCORE A=x B=1",
        "SCORE A B",
        "SCORE A=1=2",
        "SCORE =1",
        "SCORE A-B=1",
        "CLOCK 1:5",
        "CLOCK 1:60",
        "CLOCK 14",
        "CLOCK -1:00",
        "COUNT x",
        "COUNT -1",
        "COUNT",
    ],
)
def test_a_known_line_not_in_the_pages_form_keeps_the_last_value_r1091(line: str) -> None:
    before = fed(*typical_stretch(), "COUNT 4")
    after = fed(*typical_stretch(), "COUNT 4", line)
    assert state(after) == state(before)


def test_negative_points_are_kept() -> None:
    assert fed("SCORE A=-5 B=0").scores == [("A", -5), ("B", 0)]


def test_an_overlong_line_is_dropped_and_the_next_one_read() -> None:
    board = fed("MSG " + "A" * LINE_MAX + "\nCOUNT 2")
    assert (board.message, board.count) == ("", 2)


def test_bytes_arriving_one_at_a_time_are_read_as_whole_lines() -> None:
    board = Board()
    for line in typical_stretch():
        for byte in line.encode("ascii") + b"\n":
            board.feed(bytes([byte]))
    assert state(board) == state(fed(*typical_stretch()))


def test_a_power_cycled_board_has_everything_again_after_the_resend_order() -> None:
    shown = fed(*typical_stretch(), "COUNT 3", "MSG B WINS")
    resent = [reencoded(shown, kind) for kind in KINDS]  # SCORE, CLOCK, COUNT, MSG
    assert state(fed(*resent)) == state(shown)


def test_a_resend_to_a_board_that_kept_its_values_changes_nothing() -> None:
    shown = fed(*typical_stretch(), "COUNT 3")
    again = fed(*typical_stretch(), "COUNT 3", *[reencoded(shown, kind) for kind in KINDS])
    assert state(again) == state(shown)


@given(
    scores=st.dictionaries(
        st.text("ABCDEF0123456789", min_size=1, max_size=2), st.integers(-999, 9999), max_size=6
    ),
    clock=st.none() | st.floats(-10, 10_000, allow_nan=False),
    count=st.none() | st.integers(0, 99),
    message=st.text(max_size=40),
)
def test_whatever_the_table_encodes_the_board_keeps(
    scores: dict[str, int], clock: float | None, count: int | None, message: str
) -> None:
    lines = [encode_scores(scores), encode_clock(clock), encode_count(count)]
    lines.append(encode_message(message))
    board = fed(*lines)
    assert [reencoded(board, kind) for kind in KINDS] == lines


# --- what the panel shows --------------------------------------------------------------------


def test_the_panel_shows_scores_clock_with_count_and_message_one_row_each() -> None:
    board = fed("SCORE A=20 B=30", "CLOCK 14:59", "COUNT 5", "MSG A WINS")
    assert board.rows() == ["A20 B30 ", "14:59  5", "A WINS  "]


def test_a_stopped_clock_and_cleared_count_show_dashes_and_nothing() -> None:
    assert fed("CLOCK --:--", "COUNT -").rows()[1] == "--:--   "


def test_a_blank_board_shows_a_stopped_clock() -> None:
    assert Board().rows() == [" " * WIDTH, "--:--   ", " " * WIDTH]


def test_a_row_longer_than_the_panel_scrolls_one_character_a_tick() -> None:
    board = fed("MSG TIME UP FOR B")
    assert [board.rows(tick)[2] for tick in range(3)] == ["TIME UP ", "IME UP F", "ME UP FO"]


def test_a_scrolling_row_comes_round_after_a_gap() -> None:
    board = fed("MSG TIME UP FOR B")
    assert board.rows(len("TIME UP FOR B") + 3)[2] == "TIME UP "
    assert board.rows(len("TIME UP FOR B") - 1)[2] == "B   TIME"


def test_every_row_is_exactly_the_panels_width() -> None:
    board = fed("SCORE A=100 B=20 C=5 D=0 E=0 F=0", "CLOCK 120:00", "COUNT 12", "MSG " + "W" * 32)
    assert all(len(row) == WIDTH for tick in range(40) for row in board.rows(tick))


def boxed(*boards: Board) -> str:
    """The panels side by side as the text art on docs/hardware.md draws them."""
    edge = "+" + "-" * WIDTH + "+"
    boxes = [[edge, *("|" + row + "|" for row in board.rows()), edge] for board in boards]
    return "\n".join("   ".join(line) for line in zip(*boxes, strict=True))


def test_the_panels_drawn_on_the_hardware_page_are_what_the_board_shows() -> None:
    stretch = typical_stretch()
    after = [fed(*stretch[:n]) for n in (5, 8, 9)]  # COUNT 4; MSG A WINS, SCORE A=20; MSG
    assert [stretch[n - 1] for n in (5, 8, 9)] == ["COUNT 4", "SCORE A=20 B=0", "MSG"]
    page = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    assert "```text\n" + boxed(*after) + "\n```" in page


# --- the firmware's shape ----------------------------------------------------------------------


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    return names | {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    }


def test_the_parser_and_model_import_nothing_so_micropython_runs_them_as_they_are() -> None:
    assert imported(FIRMWARE / "board.py") == set()


def test_the_hardware_layer_imports_only_micropythons_modules_and_the_model() -> None:
    assert imported(FIRMWARE / "panel.py") == {"framebuf", "machine", "time", "scoreboard_fw.board"}
    assert imported(FIRMWARE / "main.py") == {"scoreboard_fw.panel"}


# --- the hardware layer, on stand-ins for MicroPython's machine and framebuf ------------------


class FakeFrameBuffer:
    """MONO_HLSB with a stand-in font: every line of a character's 8x8 cell is its code (a
    space is dark), so each module's bytes say which character landed on it."""

    def __init__(self, buffer: bytearray, width: int, height: int, _format: int) -> None:
        self.buffer, self.width = buffer, width

    def fill(self, colour: int) -> None:
        self.buffer[:] = bytes([0xFF if colour else 0]) * len(self.buffer)

    def text(self, text: str, x: int, y: int, _colour: int) -> None:
        for index, char in enumerate(text):
            for line in range(8):
                self.buffer[((y + line) * self.width + x) // 8 + index] = (
                    0 if char == " " else ord(char)
                )


class FakePin:
    OUT = 1

    def __init__(self, number: int, _mode: int = 0, value: int = 0) -> None:
        self.number, self.value = number, value

    def __call__(self, value: int) -> None:
        self.value = value


class Bus:
    """What went out on SPI, and whether chip select was low for each write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.selected: list[bool] = []
        self.cs: FakePin | None = None
        self.uart_bytes = b""

    def machine(self) -> types.ModuleType:
        bus = self

        class SPI:
            def __init__(self, _id: int, **_settings: object) -> None:
                pass

            def write(self, data: bytearray) -> None:
                bus.writes.append(bytes(data))
                bus.selected.append(bus.cs is not None and bus.cs.value == 0)

        class Pin(FakePin):
            def __init__(self, number: int, mode: int = 0, value: int = 0) -> None:
                super().__init__(number, mode, value)
                if number == 17:  # GP17: the chip select
                    bus.cs = self

        class UART:
            def __init__(self, _id: int, **_settings: object) -> None:
                pass

            def any(self) -> int:
                return len(bus.uart_bytes)

            def read(self, n: int) -> bytes:
                taken, bus.uart_bytes = bus.uart_bytes[:n], bus.uart_bytes[n:]
                return taken

        module = types.ModuleType("machine")
        module.SPI, module.Pin, module.UART = SPI, Pin, UART  # type: ignore[attr-defined]
        return module

    def characters(self, writes: list[bytes]) -> list[str]:
        """The panel's rows read back from one frame's eight writes (their first line)."""
        first = writes[0]
        assert first[0::2] == bytes([1]) * (len(first) // 2)  # digit register 1: the top line
        codes = list(reversed(first[1::2]))  # the first bytes out end in the last module
        text = "".join(" " if code == 0 else chr(code) for code in codes)
        return [text[i : i + WIDTH] for i in range(0, len(text), WIDTH)]


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bus]:
    bus = Bus()
    framebuf = types.ModuleType("framebuf")
    framebuf.FrameBuffer = FakeFrameBuffer  # type: ignore[attr-defined]
    framebuf.MONO_HLSB = 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", bus.machine())
    monkeypatch.setitem(sys.modules, "framebuf", framebuf)
    monkeypatch.delitem(sys.modules, "scoreboard_fw.panel", raising=False)
    yield bus
    sys.modules.pop("scoreboard_fw.panel", None)


def panel_module() -> types.ModuleType:
    return importlib.import_module("scoreboard_fw.panel")  # afresh, on the stand-ins


def test_the_panel_wakes_every_module_with_no_decoding_and_all_eight_lines(bus: Bus) -> None:
    panel_module().Panel()
    registers = [(write[0], write[1]) for write in bus.writes]
    assert registers == [(0x0F, 0), (0x0B, 7), (0x09, 0), (0x0A, 4), (0x0C, 1)]
    assert all(write == write[:2] * 24 for write in bus.writes)  # 24 modules each


def test_the_chain_starts_at_the_top_rows_leftmost_module(bus: Bus) -> None:
    panel = panel_module().Panel()
    bus.writes.clear()
    panel.show(["ABCDEFGH", "IJKLMNOP", "QRSTUVWX"])
    assert bus.writes[0] == bytes(b for char in "XWVUTSRQPONMLKJIHGFEDCBA" for b in (1, ord(char)))
    assert [write[0] for write in bus.writes] == list(range(1, 9))  # one write per line


def test_every_spi_write_is_inside_chip_select(bus: Bus) -> None:
    panel_module().Panel().show(["A" * WIDTH] * 3)
    assert bus.selected and all(bus.selected)
    assert bus.cs is not None and bus.cs.value == 1


def test_the_pico_shows_what_came_in_on_its_uart(bus: Bus) -> None:
    bus.uart_bytes = b"SCORE A=20 B=30\nCLOCK 14:59\nCOUNT 4\nMSG A WINS\n"
    panel_module().run(polls=3)
    assert bus.uart_bytes == b""
    assert bus.characters(bus.writes[-8:]) == ["A20 B30 ", "14:59  4", "A WINS  "]


# --- end to end: gametable's driver, a pty, the board -------------------------------------------


class Wire:
    """The table's scoreboard on one end of a pty, the reference board reading the other."""

    def __init__(self, master: int, path: str) -> None:
        self.master = master
        self.scoreboard = Scoreboard(url=path)
        self.link = ScoreboardLink(self.scoreboard)
        self.board = Board()

    def show(self, view: TableView) -> None:
        self.link.send(view)
        assert self.scoreboard.drain(2.0)
        while select.select([self.master], [], [], 0.05)[0]:
            self.board.feed(os.read(self.master, 4096))

    def power_cycle(self) -> None:
        self.board = Board()
        self.scoreboard.resend()


@pytest.fixture
def wire() -> Iterator[Wire]:
    master, slave = os.openpty()
    wire = Wire(master, os.ttyname(slave))
    yield wire
    wire.scoreboard.close()
    os.close(slave)
    os.close(master)


def shown_by_the_table(view: TableView) -> tuple[object, ...]:
    """What the table shows, by the page's rules: the clock rounded up, the message cleaned."""
    board = view.scoreboard
    return (
        list(board.scores.items()),
        None if board.clock is None else max(0, math.ceil(board.clock)),
        board.count,
        encode_message(board.message)[len(b"MSG ") : -1].decode("ascii"),
    )


def test_a_short_match_through_a_pty_leaves_the_board_showing_what_the_table_shows(
    wire: Wire,
) -> None:
    table = Table()
    steps: list[Callable[[], Table]] = [
        lambda: table.buttons("go"),
        lambda: table.set("A.stand", True),
        lambda: table.buttons("count"),
        lambda: table.at(table.t + 2.5),
        lambda: table.at(table.t + 5.0),
        lambda: table.buttons("go"),
        lambda: table.press("A.shout"),
        lambda: table.buttons("no", "yes"),
        lambda: table.at(table.t + 37.4),
    ]
    seen = []
    for step in steps:
        step()
        view = table.controller.view()
        wire.show(view)
        assert state(wire.board) == shown_by_the_table(view)
        seen.append(wire.board.rows())
    assert "19:56  3" in [rows[1] for rows in seen]  # the count was on the board
    assert wire.board.rows() == ["A20 B0  ", "19:10   ", "A WINS  "]


def test_a_board_power_cycled_mid_match_shows_everything_again_after_the_resend(
    wire: Wire,
) -> None:
    table = Table().buttons("go").set("A.stand", True).count()
    wire.show(table.controller.view())
    wire.power_cycle()
    wire.show(table.controller.view())
    assert state(wire.board) == shown_by_the_table(table.controller.view())
    assert wire.board.clock is not None
