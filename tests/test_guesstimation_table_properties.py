"""Random play at a Guesstimation table: every console button, every buzzer and every phone entry
(good guesses, bad ones, answers from any seat), in any order, never raises, every screen fits
the OLED, the pieces stay on the board, and a journaled game rebuilds the same table.
``GAMETABLE_SOAK=1`` (``make soak``) tries many more games."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from tests.guesstimation_table_helpers import GuessTable
from tests.guesstimation_table_helpers import settings as table_settings
from tests.soak import SOAK

GAMES = settings(
    max_examples=500 if SOAK else 10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BUTTONS = ("go", "go", "yes", "yes", "yes", "no", "next", "undo", "count")
VALUES = ("1969", "2.54", "0", "-3", "29,029", "1e5", "NaN", "88", "1969.0", "x")


@dataclass(frozen=True, slots=True)
class Move:
    kind: str  # button | buzz | guess | answer
    what: str  # the button, the seat
    value: str = ""


MOVES = st.one_of(
    st.builds(Move, st.just("button"), st.sampled_from(BUTTONS)),
    st.builds(Move, st.just("buzz"), st.sampled_from("ABC")),
    st.builds(Move, st.just("guess"), st.sampled_from("ABC"), st.sampled_from(VALUES)),
    st.builds(Move, st.just("answer"), st.sampled_from("ABC"), st.sampled_from(VALUES)),
)
SCRIPTS = st.lists(MOVES, min_size=30, max_size=150)
OPTIONS = st.fixed_dictionaries(
    {"finish": st.sampled_from((2, 5, 20)), "deck": st.sampled_from(("sample", None))}
)


def _play(table: GuessTable, moves: list[Move]) -> None:
    for move in moves:  # every step checks that the screen fits the OLED
        if move.kind == "button":
            table.buttons(move.what)
        elif move.kind == "buzz":
            table.buzz(move.what)
        else:
            table.enter(move.what, move.value, name=move.kind)
        state = table.state
        assert all(0 <= space <= state.finish for space in state.positions)


@GAMES
@given(options=OPTIONS, moves=SCRIPTS)
def test_random_play_never_raises_and_keeps_every_piece_on_the_board(
    options: dict[str, Any], moves: list[Move]
) -> None:
    table = GuessTable(**options)
    try:
        _play(table, moves)
    finally:
        table.close()


@GAMES
@given(options=OPTIONS, moves=SCRIPTS)
def test_a_journaled_random_game_rebuilds_the_same_table(
    options: dict[str, Any], moves: list[Move]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        table = GuessTable(journal=path, **options)
        try:
            _play(table, moves)
            live = table.controller
            expected = (live.log, live.finished, live.prompt.key, live.view())
        finally:
            table.close()
        journal = Journal.open(path)
        try:
            rebuilt = RecordedTable.start(
                journal=journal, settings=table_settings(), now=0.0, read_pin=lambda name: False
            ).controller
        finally:
            journal.close()
    assert (rebuilt.log, rebuilt.finished, rebuilt.prompt.key, rebuilt.view()) == expected
