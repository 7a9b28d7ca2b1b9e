"""Random play at a STATES table: every console button, every shout and knock input and every
page entry (good and bad), in any order, never raises, every screen fits the OLED, no score is
ever negative, and a journaled game rebuilds the same table. ``GAMETABLE_SOAK=1`` tries more."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from tests.soak import SOAK
from tests.states_table_helpers import StatesTable
from tests.states_table_helpers import settings as table_settings

GAMES = settings(
    max_examples=300 if SOAK else 8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BUTTONS = ("go", "yes", "yes", "yes", "no", "next", "undo", "count")
TEXTS = ("UT,CO,KS,OK", "UT,CO,KS,TX", "DE,OR,NM,water", "RI,CT,ID", "AK,DE", "x", "")
ENTRIES = ("claim", "knock", "cards")


@dataclass(frozen=True, slots=True)
class Move:
    kind: str  # button | shout | knock | entry
    what: str  # the button, the seat, the entry's name
    seat: str = "A"
    value: str = ""


MOVES = st.one_of(
    st.builds(Move, st.just("button"), st.sampled_from(BUTTONS)),
    st.builds(Move, st.just("shout"), st.sampled_from("ABC")),
    st.builds(Move, st.just("knock"), st.sampled_from("ABC")),
    st.builds(
        Move,
        st.just("entry"),
        st.sampled_from(ENTRIES),
        st.sampled_from("ABC"),
        st.sampled_from(TEXTS),
    ),
)
SCRIPTS = st.lists(MOVES, min_size=20, max_size=120)
OPTIONS = st.fixed_dictionaries(
    {
        "players": st.just(["Ann", "Bo", "Cy"]),
        "scoring": st.sampled_from(("standard", "alternate")),
        "target": st.sampled_from((4, 15)),
    }
)


def _play(table: StatesTable, moves: list[Move]) -> None:
    for move in moves:  # every step checks that the screen fits the OLED
        if move.kind == "button":
            table.buttons(move.what)
        elif move.kind == "shout":
            table.shout(move.what)
        elif move.kind == "knock":
            table.knock(move.what)
        else:
            table.enter(move.seat, move.what, move.value)
        assert all(score >= 0 for score in table.game.scores)


@GAMES
@given(options=OPTIONS, moves=SCRIPTS)
def test_random_play_never_raises_and_no_score_goes_negative(
    options: dict[str, Any], moves: list[Move]
) -> None:
    table = StatesTable(**options)
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
        table = StatesTable(journal=path, **options)
        try:
            _play(table, moves)
            live = table.controller
            expected = (live.log, live.finished, live.session, live.prompt.key, live.view())
        finally:
            table.close()
        journal = Journal.open(path)
        try:
            rebuilt = RecordedTable.start(
                journal=journal,
                settings=table_settings(("A", "B")),
                now=0.0,
                read_pin=lambda name: False,
            ).controller
        finally:
            journal.close()
    assert (
        rebuilt.log,
        rebuilt.finished,
        rebuilt.session,
        rebuilt.prompt.key,
        rebuilt.view(),
    ) == expected
