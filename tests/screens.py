"""What every test that drives a table checks of each screen: it shows whole on the OLED."""

from __future__ import annotations

from drivers.oled import fits_small
from firmware_py.table.controller import OLED_QUESTION_LINES, TableController, question_lines


def assert_fits_the_oled(controller: TableController) -> None:
    """The question on at most two lines; the title, each line, the footer (what the buttons
    do) and an alert within the panel's width: nothing a dealer needs is cut off."""
    screen = controller.view().screen
    text = controller.prompt.text
    assert len(question_lines(text)) <= OLED_QUESTION_LINES, text
    for line in (screen.title, *screen.lines, screen.footer, screen.alert or ""):
        assert fits_small(line), line
