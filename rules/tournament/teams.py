"""The teams entered in a tournament, and the ``name,school,players`` CSV they come from."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.errors import InvalidInput, echoed
from rules.text import character, unprintable
from rules.tournament.short_names import check_short, short_key

CSV_HEADER = ("name", "school", "players")
CSV_HEADER_SHORT = (*CSV_HEADER, "short")  # with each team's short name (R830), "" to derive it
PLAYER_SEPARATOR = ";"
MIN_TEAMS = 2
# The largest field a record takes: 200 tables of two teams, with room to spare. Pairing a
# field is a matching over every pair of teams; far larger ones are refused up front (R130).
MAX_TEAMS = 512
# What a name may hold (R134): a team's name is shown on the OLED, the scoreboard and the result
# sheet; a roster is the two to four players of a GeoPlunge team, with room to spare.
MAX_NAME = 40
MAX_SCHOOL = 80
MAX_PLAYERS = 8
MAX_REASON = 500  # characters of an amendment's reason (R133)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team entered in the tournament. ``school`` "" means none (never a same-school pair)."""

    name: str
    school: str = ""
    players: tuple[str, ...] = ()
    short: str = ""  # the short name given at registration (R830); "" to derive one


def clean_text(text: str, where: str) -> str:
    """A name as entered, made one way (R131): Unicode NFC, invisible format characters such
    as a zero-width space removed, runs of white space made one space. A control character
    (an escape sequence, a bell) is refused: it would reach the terminal."""
    text = unicodedata.normalize("NFC", text)
    for char in text:
        if unicodedata.category(char) == "Cc" and not char.isspace():
            raise InvalidInput(
                f"{where}: {text!r} holds a control character, {character(char)}: expected "
                "plain text"
            )
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return " ".join(text.split())


def one_line_reason(text: str) -> str:
    """A reason for the record (an amendment's, a voided playoff's), made one way as names are
    (R133); refused unless it is one line of at most MAX_REASON printable characters (R342): a
    second line is refused, not joined to the first. Empty stays empty for the caller to refuse
    in its own words."""
    expected = f"the reason: expected one line of at most {MAX_REASON} printable characters"
    lines = text.strip().splitlines()
    if len(lines) > 1:
        raise InvalidInput(f"{expected}, got {len(lines)} lines")
    cleaned = clean_text(text, "the reason")  # a control character is refused, named
    if (at_fault := unprintable(cleaned)) is not None:
        raise InvalidInput(f"{expected}, got {at_fault}, which is not printable")
    if len(cleaned) > MAX_REASON:
        raise InvalidInput(f"{expected}, got {len(cleaned)} characters")
    return cleaned


def name_key(name: str) -> str:
    """Team names are compared without case, Unicode form, invisible characters or surrounding
    spaces: "Eagles", " eagles" and "Eag\u200bles" are one team."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return " ".join(text.split()).casefold()


def check_entrants(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """At least two teams, every name non-empty and unique (``name_key``). The lengths and
    rosters of R134 are checked where teams are entered (``parse_teams_csv``), so that a record
    made before them still opens."""
    seen: dict[str, str] = {}
    for entrant in entrants:
        key = name_key(entrant.name)
        if not key:
            raise InvalidInput("a team has an empty name: expected a name for every team")
        if key in seen:
            raise InvalidInput(
                f"duplicate team name {entrant.name!r} (also {seen[key]!r}): "
                "expected every team name once"
            )
        seen[key] = entrant.name
    if len(entrants) < MIN_TEAMS:
        raise InvalidInput(f"{len(entrants)} team(s): expected at least {MIN_TEAMS}")
    if len(entrants) > MAX_TEAMS:
        raise InvalidInput(f"{len(entrants)} teams: expected at most {MAX_TEAMS}")
    return tuple(entrants)


@dataclass(frozen=True, slots=True)
class TeamsPreview:
    """What a teams CSV holds before anything is saved (R1062): the good lines' teams, and a
    line for each bad line naming it, what is wrong and what was expected. ``problems`` empty:
    the teams may be entered."""

    entrants: tuple[Entrant, ...]
    problems: tuple[str, ...]


def parse_teams_csv(text: str, source: str = "teams.csv") -> tuple[Entrant, ...]:
    """Teams from CSV text with the header ``name,school,players`` (players split by ``;``),
    or ``name,school,players,short`` with each team's short name (R830, empty to derive it);
    a spreadsheet's rows pasted, separated by tabs, are read alike (R1062).

    Errors name the file and line: ``teams.csv line 5: duplicate team name 'Eagles' ...``;
    the first bad line's (``preview_teams_csv`` names every one).
    """
    preview = preview_teams_csv(text, source)
    if preview.problems:
        raise InvalidInput(preview.problems[0])
    if len(preview.entrants) < MIN_TEAMS:
        raise InvalidInput(
            f"{source} has {len(preview.entrants)} team(s): expected at least {MIN_TEAMS}"
        )
    return preview.entrants


def preview_teams_csv(
    text: str, source: str = "teams.csv", entered: Sequence[Entrant] = ()
) -> TeamsPreview:
    """Every team of a teams CSV and every bad line (R1062), checked as ``parse_teams_csv``
    checks them, line by line; ``entered``: the teams already in the tournament, whose names,
    short names and players a new line may not take again. A bad line's team is left out, so
    a later line is checked against the good ones only."""
    try:
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=_delimiter(text)))
    except csv.Error as error:  # a field over csv's limit, a NUL byte...
        return TeamsPreview((), (f"{source}: not a teams CSV ({error})",))
    numbered = [
        (number, row) for number, row in enumerate(rows, start=1) if any(map(str.strip, row))
    ]
    if not numbered:
        return TeamsPreview((), (f"{source} is empty: expected the header {','.join(CSV_HEADER)}",))
    header_line, header = numbered[0]
    columns = tuple(cell.strip().casefold() for cell in header)
    if columns not in (CSV_HEADER, CSV_HEADER_SHORT):
        return TeamsPreview(
            (),
            (
                f"{source} line {header_line}: header {','.join(header)!r}: "
                f"expected {','.join(CSV_HEADER)} (or {','.join(CSV_HEADER_SHORT)})",
            ),
        )
    lines = _Lines(source, entered)
    for number, row in numbered[1:]:
        lines.check(number, row, columns)
        if len(lines.entrants) > MAX_TEAMS - len(entered):
            lines.problems.append(
                f"{source} line {number}: more than {MAX_TEAMS} teams: "
                f"expected at most {MAX_TEAMS} (a field larger than a hall of 200 tables)"
            )
            lines.entrants.pop()
            break
    return TeamsPreview(tuple(lines.entrants), tuple(lines.problems))


def _delimiter(text: str) -> str:
    """A tab when the first line holds one and no comma (a spreadsheet's rows pasted, R1062),
    else a comma."""
    first = text.lstrip("\ufeff\r\n").partition("\n")[0]
    return "\t" if "\t" in first and "," not in first else ","


class _Lines:
    """The lines of a teams CSV checked one by one, the good ones' teams kept (R1062)."""

    def __init__(self, source: str, entered: Sequence[Entrant]) -> None:
        self.source = source
        self.entrants: list[Entrant] = []
        self.problems: list[str] = []
        self._first_line: dict[str, str] = {name_key(e.name): "the field" for e in entered}
        self._short_line: dict[str, str] = {
            short_key(e.short): "the field" for e in entered if e.short
        }
        self._rosters = _Rosters()
        for entrant in entered:
            self._rosters.enter(entrant, "in the field")

    def check(self, number: int, row: Sequence[str], columns: Sequence[str]) -> None:
        where = f"{self.source} line {number}"
        try:
            entrant = _entrant(row, where, columns)
            self._rosters.enter(entrant, where)
            key = name_key(entrant.name)
            if key in self._first_line:
                raise InvalidInput(
                    f"{where}: duplicate team name {entrant.name!r} "
                    f"({_first(self._first_line[key])}): expected every team name once"
                )
            if entrant.short and short_key(entrant.short) in self._short_line:
                raise InvalidInput(
                    f"{where}: short name {entrant.short!r} is also "
                    f"{_on(self._short_line[short_key(entrant.short)])}: "
                    "expected every short name once"
                )
        except InvalidInput as error:
            self.problems.append(str(error))
            return
        self._first_line[key] = str(number)
        if entrant.short:
            self._short_line[short_key(entrant.short)] = str(number)
        self.entrants.append(entrant)


def _first(line: str) -> str:
    return f"first on line {line}" if line.isdecimal() else "already in the field"


def _on(line: str) -> str:
    return f"on line {line}" if line.isdecimal() else "in the field"


def _entrant(row: Sequence[str], where: str, columns: Sequence[str] = CSV_HEADER) -> Entrant:
    if len(row) != len(columns):
        raise InvalidInput(
            f"{where}: {len(row)} field(s): expected {len(columns)} ({','.join(columns)}); "
            "quote a field that holds a comma"
        )
    name, school, players, *short = (clean_text(cell, where) for cell in row)
    if not name:
        raise InvalidInput(f"{where}: the team has no name: expected a name")
    entrant = Entrant(
        name=name,
        school=school,
        players=_players(players.split(PLAYER_SEPARATOR)),
        short=check_short(short[0], where) if short and short[0] else "",
    )
    check_lengths(entrant, where)
    return entrant


def check_lengths(entrant: Entrant, where: str) -> None:
    """R134: names that fit where they are shown, and a roster of a team's size."""
    for what, text, limit in (
        ("team name", entrant.name, MAX_NAME),
        ("school", entrant.school, MAX_SCHOOL),
        *(("player", player, MAX_NAME) for player in entrant.players),
    ):
        if len(text) > limit:
            raise InvalidInput(
                f"{where}: {what} {text[:limit]!r}... has {len(text)} characters: "
                f"expected at most {limit}"
            )
    if len(entrant.players) > MAX_PLAYERS:
        raise InvalidInput(
            f"{where}: {len(entrant.players)} players: expected at most {MAX_PLAYERS} a team"
        )
    keys = [name_key(player) for player in entrant.players]
    for index, key in enumerate(keys):
        if key in keys[:index]:
            raise InvalidInput(
                f"{where}: player {entrant.players[index]!r} is listed twice: "
                "expected each player once"
            )


class _Rosters:
    """Who plays for which team, school by school: one player is on one team (R134). The same
    name at two schools is two children; with no school given, one name is one player."""

    def __init__(self) -> None:
        self._team_of: dict[tuple[str, str], tuple[str, str]] = {}

    def enter(self, entrant: Entrant, where: str) -> None:
        for player in entrant.players:
            key = (name_key(entrant.school), name_key(player))
            if key in self._team_of:
                team, first = self._team_of[key]
                raise InvalidInput(
                    f"{where}: player {player!r} is already on team {team!r} ({first}): "
                    "expected each player on one team (two children of one name at one school: "
                    "tell them apart, e.g. 'Sam Lee (5th)')"
                )
        for player in entrant.players:
            key = (name_key(entrant.school), name_key(player))
            self._team_of[key] = (entrant.name, where)


def _players(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(name.strip() for name in names if name.strip())


def find_entrant(entrants: Sequence[Entrant], name: str) -> Entrant:
    """The team called ``name`` (any case), or an error that lists what was expected."""
    key = name_key(name)
    for entrant in entrants:
        if name_key(entrant.name) == key:
            return entrant
    known = ", ".join(repr(entrant.name) for entrant in entrants[:6])
    more = f" and {len(entrants) - 6} more" if len(entrants) > 6 else ""
    raise InvalidInput(f"unknown team {echoed(name)}: expected one of {known}{more}")


def check_edited(entrant: Entrant, others: Sequence[Entrant], where: str) -> Entrant:
    """A team as edited (R1067), checked as a line of a teams CSV is against the rest of the
    field: a name, lengths that fit, each player once, no player of another team of the same
    school, and a name no other team has."""
    if not entrant.name:
        raise InvalidInput(f"{where}: the team has no name: expected a name")
    check_lengths(entrant, where)
    rosters = _Rosters()
    for other in others:
        rosters.enter(other, "in the field")
    rosters.enter(entrant, where)
    for other in others:
        if name_key(other.name) == name_key(entrant.name):
            raise InvalidInput(
                f"{where}: duplicate team name {entrant.name!r} (already in the field): "
                "expected every team name once"
            )
    return entrant
