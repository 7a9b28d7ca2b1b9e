"""The next match on the dealer's OLED with real names (R830-R833): real frames on luma's dummy
device, read back row by row, so the two teams at the table are told apart on the panel itself.
``next_match_frame`` also makes docs/hub/oled-next-match.png."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from drivers.oled import Oled, Screen, open_emulator
from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.hub_wire import RoundPairings, TableMatch, next_match
from firmware_py.table.uplink import with_next_pairing
from rules.tournament.short_names import short_names
from tests.oled_text import row_text

# A hall's entry list as schools send it: long names sharing long prefixes, numbered teams.
NAMES = (
    "Lincoln High School",
    "Lincoln Middle School",
    "Lincoln High School Blue",
    "Lincoln High School Bears",
    "Thomas Jefferson High School for Science and Technology",
    "Team00",
    "Team001",
    "Team002",
    "Académie de Québec",
    "Roosevelt Academy",
)
SHORT = dict(zip(NAMES, short_names(NAMES, [""] * len(NAMES)), strict=True))
TITLE_ROW, TEAMS_ROW, FOOTER_ROW = 0, 10, 54


def next_match_frame(round_number: int, table: int, a: str, b: str, **given: str) -> Image.Image:
    """The frame a GeoPlunge table shows before its match once the hub has paired it: the
    hub's pairing (with the record's short names, or ``a_short``/``b_short`` given at
    registration) over the table's own screen, on luma's dummy device."""
    shorts = {"a_short": SHORT.get(a, ""), "b_short": SHORT.get(b, ""), **given}
    pairings = RoundPairings(round_number, "all", 20, (TableMatch(table, a, b, **shorts),), None)
    controller = TableController(
        settings=TableSettings(), emit=lambda event: None, now=0.0, read_pin=bool
    )
    view = with_next_pairing(
        controller.view(), controller, next_match({round_number: pairings}, table)
    )
    return _shown(view.screen)


def _shown(screen: Screen) -> Image.Image:
    """The frame luma's dummy device holds once the table's Oled has shown ``screen``."""
    device: Any = open_emulator("dummy")  # luma's dummy: ``.image`` is the last frame
    Oled(device=device).show(screen)
    image: Image.Image = device.image
    return image


@pytest.mark.parametrize(
    ("round_number", "table", "a", "b", "shown"),
    [
        (12, 107, "Lincoln High School", "Lincoln Middle School",
         ("Round 12  Table 107", "LincolnHS v LincolnMS")),
        (3, 9, "Lincoln High School Blue", "Lincoln High School Bears",
         ("Round 3  Table 9", "LincolHS1 v LincolHS2")),
        (2, 1, "Team001", "Team002", ("Round 2  Table 1", "Team001 v Team002")),
        (2, 1, "Team00", "Team001", ("Round 2  Table 1", "Team00 v Team001")),
        (10, 200, "Thomas Jefferson High School for Science and Technology", "Académie de Québec",
         ("Round 10  Table 200", "ThomJHSST v AcademieQ")),
    ],
)  # fmt: skip
def test_the_oled_shows_the_round_the_table_and_the_two_teams_told_apart(
    round_number: int, table: int, a: str, b: str, shown: tuple[str, str]
) -> None:
    frame = next_match_frame(round_number, table, a, b)
    assert (row_text(frame, TITLE_ROW), row_text(frame, TEAMS_ROW)) == shown


def test_two_teams_sharing_a_long_prefix_are_never_shown_alike() -> None:
    """The complaint of issue 21: "R12 T107 Linc v Linco", "R2 T1 Team00 v Team00"."""
    for a, b in (("Lincoln High School", "Lincoln Middle School"), ("Team00", "Team001")):
        shown_a, _, shown_b = row_text(next_match_frame(12, 107, a, b), TEAMS_ROW).partition(" v ")
        assert shown_a and shown_b and shown_a != shown_b


def test_the_oled_shows_the_short_names_given_at_registration() -> None:
    frame = next_match_frame(
        4, 17, "Lincoln High School", "Lincoln Middle School", a_short="LHS", b_short="LMS"
    )
    assert row_text(frame, TEAMS_ROW) == "LHS v LMS"


def test_full_names_are_shown_when_both_fit_the_row() -> None:
    frame = next_match_frame(1, 5, "Eagles", "Lincoln Owls", a_short="EAG", b_short="LOW")
    assert row_text(frame, TEAMS_ROW) == "Eagles v Lincoln Owls"


def test_short_names_are_shown_for_both_when_one_name_is_too_long() -> None:
    frame = next_match_frame(1, 5, "Roosevelt Academy", "Team00")
    assert row_text(frame, TEAMS_ROW) == "RoosevelA v Team00"


def test_the_dealers_buttons_stay_on_the_footer() -> None:
    frame = next_match_frame(12, 107, "Lincoln High School", "Lincoln Middle School")
    assert row_text(frame, FOOTER_ROW) == "GO: clock + game 1"


def test_a_table_without_a_match_in_the_round_says_so() -> None:
    pairings = RoundPairings(5, "all", 20, (TableMatch(1, "Team00", "Team001"),), None)
    controller = TableController(
        settings=TableSettings(), emit=lambda event: None, now=0.0, read_pin=bool
    )
    view = with_next_pairing(controller.view(), controller, next_match({5: pairings}, 44))
    frame = _shown(view.screen)
    assert row_text(frame, TITLE_ROW) == "Round 5  Table 44"
    assert row_text(frame, TEAMS_ROW) == "no match this round"
