"""Editing a round's draw before it starts (issue 27, R1064, R1065, R1068): two teams swapped
between tables (or with the bye), a match moved to a free table, and what a swap makes that the
pairing avoids: a rematch, a same-school pair. Pure: the record decides when a draw may change,
which tables the tournament has, and keeps who and why."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence

from rules.errors import InvalidInput
from rules.tournament.pentathlon import MAX_TABLE
from rules.tournament.records import Match, RoundPairing, spell_tables
from rules.tournament.teams import Entrant, find_entrant, name_key


def swap_teams(pairing: RoundPairing, first: str, second: str) -> RoundPairing:
    """``pairing`` with ``first`` and ``second`` (any case) in each other's places: each takes
    the other's table and side, or the bye. Two teams of one table are refused: swapping their
    sides changes no match."""
    one, other = _place(pairing, first), _place(pairing, second)
    if name_key(one) == name_key(other):
        raise InvalidInput(f"swapping {one!r} with itself: expected two different teams")
    table_one, table_other = _table_of(pairing, one), _table_of(pairing, other)
    if table_one is not None and table_one == table_other:
        raise InvalidInput(
            f"{one!r} and {other!r} both play at table {table_one}: expected teams at two "
            "tables (or one with the bye)"
        )
    swapped = {one: other, other: one}
    matches = tuple(
        Match(m.table, swapped.get(m.a, m.a), swapped.get(m.b, m.b)) for m in pairing.matches
    )
    bye = None if pairing.bye is None else swapped.get(pairing.bye, pairing.bye)
    return RoundPairing(pairing.round, matches, bye)


def move_match(
    pairing: RoundPairing, team: str, table: int, tables: Collection[int]
) -> RoundPairing:
    """``pairing`` with ``team``'s match (both its teams, on their sides) at ``table`` (R1068):
    one of the tournament's ``tables`` that no match of the round is at. A team with the bye has
    no match to move."""
    if not 1 <= table <= MAX_TABLE:
        raise InvalidInput(f"table {table}: expected a table number from 1 to {MAX_TABLE}")
    name = _place(pairing, team)
    now = _table_of(pairing, name)
    if now is None:
        raise InvalidInput(
            f"{name} has the bye in round {pairing.round}: no match to move (swap it with a "
            "team instead)"
        )
    if table == now:
        raise InvalidInput(f"{name} already plays at table {table}: expected another table")
    taken = next((m for m in pairing.matches if m.table == table), None)
    if taken is not None:
        raise InvalidInput(
            f"table {table} is in use in round {pairing.round} ({taken.a} v {taken.b}): "
            f"expected a free table{_free_tables(pairing, tables)}, or swap the teams instead"
        )
    if table not in tables:
        raise InvalidInput(
            f"table {table} is not one of the tournament's tables ({spell_tables(tables)}): "
            f"expected a free table{_free_tables(pairing, tables)}; to play at table {table}, "
            "add a room holding it"
        )
    matches = sorted(
        (Match(table, m.a, m.b) if m.table == now else m for m in pairing.matches),
        key=lambda match: match.table,
    )
    return RoundPairing(pairing.round, tuple(matches), pairing.bye)


def tournament_tables(rounds: Iterable[RoundPairing], rooms: Iterable[int]) -> frozenset[int]:
    """The tables the tournament has (R1068): with rooms, the rooms' tables and any a round was
    paired at; without, every number from 1 to the highest table a round was paired at."""
    paired = {match.table for pairing in rounds for match in pairing.matches}
    in_rooms = set(rooms)
    if in_rooms:
        return frozenset(in_rooms | paired)
    return frozenset(range(1, max(paired, default=0) + 1))


def free_tables(pairing: RoundPairing, tables: Collection[int]) -> tuple[int, ...]:
    """The tournament's ``tables`` that no match of the round is at, ascending."""
    used = {match.table for match in pairing.matches}
    return tuple(sorted(set(tables) - used))


def _free_tables(pairing: RoundPairing, tables: Collection[int]) -> str:
    free = free_tables(pairing, tables)
    return f" ({spell_tables(free)})" if free else ""


def draw_warnings(
    changed: RoundPairing,
    before: RoundPairing,
    earlier: Sequence[RoundPairing],
    entrants: Sequence[Entrant],
) -> tuple[str, ...]:
    """What the change makes that the pairing avoids (R1065): a match of two teams that met in
    an earlier round, or of two teams of one school. Only the matches the change makes are
    named: one the pairing itself made stays as it was."""
    met = {frozenset((name_key(m.a), name_key(m.b))): r.round for r in earlier for m in r.matches}
    schools = {name_key(e.name): name_key(e.school) for e in entrants}
    old = {frozenset((name_key(m.a), name_key(m.b))) for m in before.matches}
    warnings: list[str] = []
    for match in changed.matches:
        pair = frozenset((name_key(match.a), name_key(match.b)))
        if pair in old:
            continue
        if pair in met:
            warnings.append(
                f"table {match.table}: {match.a} and {match.b} met in round {met[pair]} (a rematch)"
            )
        school = schools.get(name_key(match.a), "")
        if school and school == schools.get(name_key(match.b)):
            warnings.append(f"table {match.table}: {match.a} and {match.b} are of one school")
    return tuple(warnings)


def pairing_stamp(pairing: RoundPairing) -> str:
    """A short digest of a round's matches and bye: a form names the draw it was made from,
    so one made from a draw changed since changes nothing (R1066)."""
    text = "|".join(f"{m.table}:{m.a}:{m.b}" for m in pairing.matches) + f"|bye:{pairing.bye}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _place(pairing: RoundPairing, name: str) -> str:
    """The team called ``name`` in the round (its name as entered), or an error listing them."""
    playing = [Entrant(team) for team in pairing.teams]
    try:
        return find_entrant(playing, name).name
    except InvalidInput as error:
        raise InvalidInput(f"round {pairing.round}: {error}") from None


def _table_of(pairing: RoundPairing, team: str) -> int | None:
    for match in pairing.matches:
        if team in (match.a, match.b):
            return match.table
    return None  # the bye
