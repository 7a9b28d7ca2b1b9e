"""A "STATES!" claim: do the four states shown border each other?

Against the shared atlas (Four Corners contacts count, water-only contacts do not: R303). By
default any connected group wins (R302): UT, CO, KS, OK connects, and so does the star MO with
IA, KY and OK; with ``Connection.CHAIN`` the four must also line up so that each borders the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, pairwise, permutations

from rules.atlas import Atlas, default_atlas
from rules.errors import InvalidInput
from rules.states.deck import WATER

CLAIM_SIZE = 4


class Connection(StrEnum):
    """What "4 states that border each other" asks (R302)."""

    GROUP = "group"  # the four form one connected group on the map, in any shape
    CHAIN = "chain"  # ... and can be ordered so that each borders the next


@dataclass(frozen=True, slots=True)
class ConnectionCheck:
    states: tuple[str, ...]  # postal codes, as shown
    rule: Connection
    borders: tuple[tuple[str, str], ...]  # every bordering pair among them
    pieces: tuple[tuple[str, ...], ...]  # the connected pieces: one when they connect
    chain: tuple[str, ...] | None  # an order in which each borders the next, if there is one

    @property
    def connects(self) -> bool:
        if self.rule is Connection.CHAIN:
            return self.chain is not None
        return len(self.pieces) == 1

    @property
    def reason(self) -> str:
        """One line for a person: why the claim wins or fails."""
        shown = _listed(self.states)
        if len(self.pieces) > 1:
            return f"{shown} do not connect: {_apart(self.pieces)}"
        if self.chain is not None:
            return f"{shown} connect: {'-'.join(self.chain)}"
        links = ", ".join(f"{a}-{b}" for a, b in self.borders)
        if self.rule is Connection.CHAIN:
            return f"{shown} connect ({links}) but not in a chain, as this game requires"
        return f"{shown} connect as a group ({links}), not in a chain"


def check_connection(
    states: Sequence[str], rule: Connection = Connection.GROUP, atlas: Atlas | None = None
) -> ConnectionCheck:
    """Judge four shown states; ``read_claim`` makes sure they are four different states."""
    atlas = atlas or default_atlas()
    codes = read_claim(states, atlas)
    borders = tuple((a, b) for a, b in combinations(codes, 2) if atlas.borders(a, b))
    chain = next(
        (order for order in permutations(codes) if _is_chain(order, atlas)),
        None,
    )
    return ConnectionCheck(codes, rule, borders, _pieces(codes, borders), chain)


def read_claim(states: Iterable[str], atlas: Atlas | None = None) -> tuple[str, ...]:
    """Four different states, as postal codes; a water card or a repeat is bad input."""
    atlas = atlas or default_atlas()
    shown = list(states)
    if len(shown) != CLAIM_SIZE:
        raise InvalidInput(f"{len(shown)} state(s) shown: expected {CLAIM_SIZE} states")
    if any(text.strip().lower() == WATER for text in shown):
        raise InvalidInput(f"a water card is not a state: expected {CLAIM_SIZE} states")
    codes = tuple(atlas.code(text) for text in shown)
    for code in codes:
        if codes.count(code) > 1:
            raise InvalidInput(f"{code} is shown twice: expected {CLAIM_SIZE} different states")
    return codes


def _is_chain(order: Sequence[str], atlas: Atlas) -> bool:
    return all(atlas.borders(a, b) for a, b in pairwise(order))


def _pieces(
    codes: tuple[str, ...], borders: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, ...], ...]:
    """The connected pieces, each in the order shown, the first-shown state's piece first."""
    piece_of = {code: {code} for code in codes}
    for a, b in borders:
        merged = piece_of[a] | piece_of[b]
        for code in merged:
            piece_of[code] = merged
    pieces: list[tuple[str, ...]] = []
    for code in codes:
        piece = tuple(other for other in codes if other in piece_of[code])
        if piece not in pieces:
            pieces.append(piece)
    return tuple(pieces)


def _apart(pieces: tuple[tuple[str, ...], ...]) -> str:
    alone = [piece for piece in pieces if len(piece) == 1]
    if len(pieces) == 2 and alone:  # one state off on its own
        (single,) = alone[0]
        rest = next(piece for piece in pieces if piece != alone[0])
        return f"{single} borders none of {_listed(rest)}"
    return " and ".join(f"({', '.join(piece)})" for piece in pieces) + " do not touch"


def _listed(codes: Sequence[str]) -> str:
    return ", ".join(codes[:-1]) + f" and {codes[-1]}" if len(codes) > 1 else codes[0]
