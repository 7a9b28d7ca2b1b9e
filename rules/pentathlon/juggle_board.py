"""A Juggle board as text, and the judge's check of it: covered, overlaps, touching pieces.

The format (docs/pentathlon.md): the grid, one line per row of spaces, spaces separated by
blanks; ``.`` is an empty space, otherwise the id of the piece covering it (letters, digits,
``_`` or ``-``), or several ids joined by ``+`` where pieces overlap. A blank line, then one line
per piece: its id and its colour. ``#`` starts a comment. The grid's size is the board's size.

    # Player A's board
    R1 R1 B1 .
    R1 B1 B1 R2
    R1 .  R2 R2

    R1 red
    R2 red
    B1 blue

The goal: the board completely covered, no two pieces overlapping, and no two pieces of one
colour sharing an edge or a corner. Spaces are named ``r<row>c<column>``, from ``r1c1`` at the
top left.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from itertools import combinations

from rules.errors import InvalidInput

Cell = tuple[int, int]  # (row, column), from 0
_PIECE = re.compile(r"[A-Za-z0-9_-]+")
EMPTY = "."


def cell_name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


@dataclass(frozen=True, slots=True)
class JuggleBoard:
    rows: int
    columns: int
    cells: tuple[tuple[frozenset[str], ...], ...]  # the pieces on each space; empty: none
    colours: tuple[tuple[str, str], ...]  # (piece, colour), by piece id

    def colour(self, piece: str) -> str:
        return dict(self.colours)[piece]

    def spaces(self, piece: str) -> tuple[Cell, ...]:
        return tuple(
            (r, c)
            for r in range(self.rows)
            for c in range(self.columns)
            if piece in self.cells[r][c]
        )


def _strip_comment(line: str) -> str:
    return line.split("#", 1)[0].rstrip()


def parse_board(text: str) -> JuggleBoard:
    """Read the text format; ``InvalidInput`` names the line of the first fault."""
    grid: list[tuple[int, list[frozenset[str]]]] = []
    colours: dict[str, str] = {}
    section = "grid"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if not line.strip():
            if grid:
                section = "colours"
            continue
        if section == "grid":
            grid.append((number, _row(line, number)))
        else:
            _colour_line(line, number, colours)
    if not grid:
        raise InvalidInput("the board has no rows: expected the grid, a blank line, the colours")
    width = len(grid[0][1])
    for index, (number, row) in enumerate(grid, start=1):
        if len(row) != width:
            raise InvalidInput(
                f"line {number}: row {index} has {len(row)} spaces, expected {width} like row 1"
            )
    cells = tuple(tuple(row) for _, row in grid)
    board = JuggleBoard(len(cells), width, cells, tuple(sorted(colours.items())))
    _check_pieces(board, colours)
    return board


def _row(line: str, number: int) -> list[frozenset[str]]:
    row: list[frozenset[str]] = []
    for token in line.split():
        if token == EMPTY:
            row.append(frozenset())
            continue
        pieces = token.split("+")
        if not all(_PIECE.fullmatch(piece) for piece in pieces):
            raise InvalidInput(
                f"line {number}: space {token!r}: expected '.', a piece id (letters, digits, "
                "_ or -) or ids joined by '+'"
            )
        if len(set(pieces)) != len(pieces):
            raise InvalidInput(f"line {number}: space {token!r} names a piece twice")
        row.append(frozenset(pieces))
    return row


def _colour_line(line: str, number: int, colours: dict[str, str]) -> None:
    parts = line.split()
    if len(parts) != 2 or not _PIECE.fullmatch(parts[0]):
        raise InvalidInput(
            f"line {number}: {line.strip()!r}: expected 'PIECE COLOUR', e.g. 'R1 red'"
        )
    piece, colour = parts
    if piece in colours:
        raise InvalidInput(f"line {number}: piece {piece} has a colour already")
    colours[piece] = colour.lower()


def _check_pieces(board: JuggleBoard, colours: dict[str, str]) -> None:
    placed = {piece for row in board.cells for cell in row for piece in cell}
    uncoloured = sorted(placed - set(colours))
    if uncoloured:
        piece = uncoloured[0]
        raise InvalidInput(f"piece {piece} has no colour: expected a line '{piece} COLOUR'")
    absent = sorted(set(colours) - placed)
    if absent:
        raise InvalidInput(f"piece {absent[0]} has a colour but is not on the board")
    for piece in sorted(placed):
        if not _joined(board.spaces(piece)):
            raise InvalidInput(
                f"piece {piece}'s spaces are not joined edge to edge: one id per polyomino"
            )


def _joined(spaces: tuple[Cell, ...]) -> bool:
    todo = set(spaces)
    queue = deque([spaces[0]])
    todo.discard(spaces[0])
    while queue:
        r, c = queue.popleft()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in todo:
                todo.discard(near)
                queue.append(near)
    return not todo


@dataclass(frozen=True, slots=True)
class Contact:
    """Two pieces of one colour that touch, and the pairs of spaces where they do."""

    first: str
    second: str
    colour: str
    where: tuple[tuple[Cell, Cell, str], ...]  # (space of first, space of second, how)


@dataclass(frozen=True, slots=True)
class BoardCheck:
    empty: tuple[Cell, ...]
    overlaps: tuple[tuple[Cell, tuple[str, ...]], ...]
    touching: tuple[Contact, ...]
    removed: tuple[str, ...]  # the touching pieces, removed before counting at the time limit
    empty_after_removal: int

    @property
    def covered(self) -> bool:
        return not self.empty

    @property
    def goal(self) -> bool:
        """Covered, no overlaps, no like-coloured pieces touching: Juggle's winning board."""
        return self.covered and not self.overlaps and not self.touching


def _how(a: Cell, b: Cell) -> str:
    if a == b:
        return "overlap"
    return "edge" if a[0] == b[0] or a[1] == b[1] else "corner"


def _contact(board: JuggleBoard, first: str, second: str) -> Contact | None:
    where = [
        (a, b, _how(a, b))
        for a in board.spaces(first)
        for b in board.spaces(second)
        if abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1
    ]
    if not where:
        return None
    return Contact(first, second, board.colour(first), tuple(where))


def check_board(board: JuggleBoard) -> BoardCheck:
    empty = tuple(
        (r, c) for r in range(board.rows) for c in range(board.columns) if not board.cells[r][c]
    )
    overlaps = tuple(
        ((r, c), tuple(sorted(board.cells[r][c])))
        for r in range(board.rows)
        for c in range(board.columns)
        if len(board.cells[r][c]) > 1
    )
    touching = []
    for (first, colour), (second, other) in combinations(board.colours, 2):
        if colour == other:
            contact = _contact(board, first, second)
            if contact:
                touching.append(contact)
    removed = tuple(sorted({piece for c in touching for piece in (c.first, c.second)}))
    left = sum(
        1
        for row in board.cells
        for cell in row
        if not cell - set(removed)  # empty, or covered only by removed pieces
    )
    return BoardCheck(empty, overlaps, tuple(touching), removed, left)
