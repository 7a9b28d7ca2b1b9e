"""Juggle boards as text: covered, overlaps, like colours touching, and the count at time."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.pentathlon.juggle_board import BoardCheck, cell_name, check_board, parse_board

GOAL = """\
# four colours, no two pieces of one colour touching
R1 R1 B1 B1
G1 G1 Y1 Y1
R2 R2 B2 B2

R1 red
R2 red
B1 blue
B2 blue
G1 green
Y1 yellow
"""


def check(text: str) -> BoardCheck:
    return check_board(parse_board(text))


def test_a_covered_board_with_no_like_colours_touching_is_the_goal() -> None:
    result = check(GOAL)
    assert (result.goal, result.covered, result.empty_after_removal) == (True, True, 0)


def test_the_grid_gives_the_board_its_size() -> None:
    board = parse_board(GOAL)
    assert (board.rows, board.columns) == (3, 4)


def test_empty_spaces_are_listed_by_name() -> None:
    result = check("R1 .\nR1 .\n\nR1 red\n")
    assert [cell_name(cell) for cell in result.empty] == ["r1c2", "r2c2"]
    assert not result.goal


def test_like_colours_touching_at_an_edge_is_found() -> None:
    result = check("R1 R2\n\nR1 red\nR2 red\n")
    (contact,) = result.touching
    assert (contact.first, contact.second, contact.colour) == ("R1", "R2", "red")
    assert contact.where == (((0, 0), (0, 1), "edge"),)


def test_like_colours_touching_at_a_corner_is_found() -> None:
    result = check("R1 B1\nB2 R2\n\nR1 red\nR2 red\nB1 blue\nB2 blue\n")
    assert [(c.first, c.second, c.where[0][2]) for c in result.touching] == [
        ("B1", "B2", "corner"),
        ("R1", "R2", "corner"),
    ]


def test_different_colours_may_touch() -> None:
    assert check("R1 B1\n\nR1 red\nB1 blue\n").goal


def test_overlapping_pieces_are_listed() -> None:
    result = check("R1 R1+B1 B1\n\nR1 red\nB1 blue\n")
    assert result.overlaps == (((0, 1), ("B1", "R1")),)
    assert not result.goal


def test_touching_pieces_are_removed_before_counting_at_the_time_limit() -> None:
    result = check("R1 R1 R2\nB1 .  R2\n\nR1 red\nR2 red\nB1 blue\n")
    assert result.removed == ("R1", "R2")
    assert result.empty_after_removal == 5  # 1 empty, and R1's 2 and R2's 2 spaces


def test_colour_names_are_compared_without_case() -> None:
    assert check("R1 R2\n\nR1 Red\nR2 RED\n").touching


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("R1 R1 .\nR1 .\n\nR1 red\n", "line 2: row 2 has 2 spaces, expected 3 like row 1"),
        ("", "the board has no rows"),
        ("R1 B1\n\nR1 red\n", "piece B1 has no colour"),
        ("R1\n\nR1 red\nB1 blue\n", "piece B1 has a colour but is not on the board"),
        ("R1\n\nR1 red\nR1 blue\n", "line 4: piece R1 has a colour already"),
        ("R1 . R1\n\nR1 red\n", "piece R1's spaces are not joined edge to edge"),
        ("R1 R!\n\nR1 red\n", "line 1: space 'R!'"),
        ("R1+R1\n\nR1 red\n", "names a piece twice"),
        ("R1\n\nR1\n", "line 3: 'R1': expected 'PIECE COLOUR'"),
    ],
)
def test_a_board_file_that_cannot_be_read_is_invalid_input(text: str, named: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_board(text)
    assert named in str(error.value)
