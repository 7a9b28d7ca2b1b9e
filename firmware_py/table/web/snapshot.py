"""The table as the web page shows it: plain JSON that anyone may see.

Built from what the table shows anyway (the OLED's screen, the seats' lights, the scoreboard)
and what the step says the page may show and take (``Prompt.page``, ``Prompt.entry``): never
the join code, never a value a step keeps hidden (the guesses not yet revealed, a number being
dialled on the console for one: R493), never the journal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from firmware_py.table.controller import TableController, TableView, format_clock

HIDDEN_NUMBER = "?"  # the big line while a hidden number is being dialled


def snapshot(controller: TableController, view: TableView, *, saved: bool) -> dict[str, Any]:
    prompt = controller.prompt
    seats = controller.settings.seats
    names = {seat: prompt.page.names.get(seat, seat) for seat in seats}
    screen = view.screen
    if prompt.number is not None and prompt.number.hidden:
        screen = replace(screen, big=HIDDEN_NUMBER)  # the OLED's digits, for the dealer only
    board = view.scoreboard
    entry = prompt.entry
    return {
        "family": controller.settings.family,
        "match": len(controller.finished) + 1,
        "seats": [{"seat": seat, "name": names[seat]} for seat in seats],
        "officials": [{"seat": role, "name": name} for role, name in prompt.page.officials.items()],
        # never the OLED's footer: it says what the console's buttons do, which no phone has
        # (and the join code is put there for the OLED alone)
        "screen": {
            "title": screen.title,
            "subtitle": screen.subtitle,
            "big": screen.big,
            "lines": list(screen.lines),
            "alert": screen.alert,
        },
        "lights": {seat: str(light) for seat, light in view.lights.items()},
        "scores": {seat: board.scores.get(seat, 0) for seat in seats},
        "clock": None if board.clock is None else format_clock(board.clock),
        "count": board.count,
        "lines": list(prompt.page.lines),
        "heading": list(prompt.page.heading),
        "rows": [list(row) for row in prompt.page.rows],
        "entry": None
        if entry is None
        else {
            "name": entry.name,
            "label": entry.label,
            "seats": list(entry.seats),
            "done": list(entry.done),
            "keyboard": entry.keyboard,
        },
        "saved": saved,  # False: the journal is failing, the view is the last one saved
    }
