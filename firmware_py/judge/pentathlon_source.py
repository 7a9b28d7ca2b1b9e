"""Where a Pentathlon game's record comes from for its score card: the table's journal (one of
its sessions) or a game's log (JSON Lines), and where the card goes.

A journal is read as ``journal export`` reads it: read-only, nothing created beside it (R121).
The card is written whole or not at all, and never over a file unless ``--force`` says so
(R262).
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from firmware_py.families.pentathlon.card import Heading, Layout
from firmware_py.families.pentathlon.options import parse_options
from firmware_py.table.family import play_date
from firmware_py.table.journal import JournalError
from firmware_py.table.journal_cli import export_data, write_new_file
from firmware_py.user_files import (
    MAX_LOG,
    UserFileError,
    read_limited_text,
    read_start,
    replace_whole,
)
from rules.actions import decode
from rules.errors import InvalidInput
from rules.pentathlon.log import START_KIND, replay, replay_log
from rules.pentathlon.record import record
from rules.text import unprintable
from rules.tournament.formats import MAX_ROUNDS
from rules.tournament.pentathlon import DIVISIONS, MAX_TABLE, PentathlonPoints, parse_division

SQLITE_MAGIC = b"SQLite format 3\x00"
MAX_NAME = 60  # characters of a player's name on the card


@dataclass(frozen=True, slots=True)
class GameSource:
    """A game's record, where it came from in a few words, and its date of play: the table's
    local date of the journal entry that confirmed the result (R819, R842); None for a game's
    log (it keeps no wall time), a game not confirmed, or a clock that was not set."""

    record: dict[str, Any]
    where: str
    played: date | None = None


def game_record(source: Path, session: int | None) -> GameSource:
    """The record of the game in ``source``, with where it came from and its date of play."""
    holding = "a game's log or a journal"
    try:
        is_database = read_start(source, len(SQLITE_MAGIC), holding) == SQLITE_MAGIC
    except UserFileError as error:
        raise InvalidInput(str(error)) from None
    if is_database:
        return _from_journal(source, session)
    if session is not None:
        raise InvalidInput(f"--session {session}: {source} is a game's log, not a journal")
    try:
        lines = read_limited_text(source, MAX_LOG, holding).splitlines()
    except UserFileError as error:
        raise InvalidInput(str(error)) from None
    return GameSource(record(replay_log(lines)), f"the log {source}")


def _from_journal(path: Path, session: int | None) -> GameSource:
    try:
        data = export_data(path)
    except (JournalError, UserFileError) as error:
        raise InvalidInput(str(error)) from None
    games = [s for s in data["sessions"] if s["actions"][0]["action"] == START_KIND]
    if not games:
        raise InvalidInput(f"journal {path} holds no Pentathlon game")
    if session is None:
        chosen = games[-1]
    else:
        numbers = [s["number"] for s in games]
        found = [s for s in games if s["number"] == session]
        if not found:
            listed = ", ".join(map(str, numbers))
            raise InvalidInput(
                f"--session {session}: journal {path}'s Pentathlon sessions are {listed}"
            )
        chosen = found[0]
    # the rulings the table played the game under, as the table's own card (R796)
    rulings = parse_options(data["settings"]["options"]).rulings
    game = replay((decode(action) for action in chosen["actions"]), rulings=rulings)
    played = _confirmed_on(data["decisions"], chosen["number"]) if game.result else None
    where = f"the journal {path}, session {chosen['number']}"
    return GameSource(record(game), where, played)


def _confirmed_on(decisions: list[dict[str, Any]], number: int) -> date | None:
    """The date of play of session ``number``: the local date of its latest action's journal
    entry, which in a confirmed game is the confirmation, as the table dates its card (R819)."""
    session, wall = 1, None
    for decision in decisions:
        if decision["event"] == "session":  # the next session begins
            session = decision["number"]
            if session == number:  # a session replaced (nothing decided in it) begins again
                wall = None
        elif decision["event"] == "action" and session == number:
            wall = decision["wall"]
    return play_date(wall)


def names(text: str | None) -> dict[str, str]:
    """``--names 'Ann Lee,Ben Cho'``: Player A's name, then B's."""
    if text is None:
        return {}
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise InvalidInput(f"--names {text!r}: expected two names, A's then B's: 'Ann,Ben'")
    for part in parts:
        if (at_fault := unprintable(part)) is not None:
            raise InvalidInput(
                f"--names: {part[:MAX_NAME]!r}: {at_fault} is not printable: expected a "
                f"printable name of at most {MAX_NAME} characters"
            )
        if len(part) > MAX_NAME:
            raise InvalidInput(
                f"--names: {part[:MAX_NAME]!r}: expected a printable name of at most "
                f"{MAX_NAME} characters"
            )
    return {"A": parts[0], "B": parts[1]}


def write_card(out: Path, text: str, *, force: bool) -> None:
    """Write the card to ``out``: a new file, or (``force``) in place of the one there, whole."""
    try:
        if not force:
            if os.path.lexists(out):
                raise InvalidInput(f"{out} already exists: give --force to replace it")
            write_new_file(out, text)
            return
        replace_whole(out, text, "the card")  # never a link, a FIFO or a device (R701)
    except (JournalError, UserFileError) as error:
        raise InvalidInput(str(error)) from None


def card_layout(text: str) -> Layout:
    try:
        return Layout(text.strip().lower())
    except ValueError:
        raise InvalidInput(
            f"--layout {text!r}: expected pages (a card a page) or halves (one page, cut in two)"
        ) from None


def _line(text: str, option: str) -> str:
    text = " ".join(text.split())
    if (at_fault := unprintable(text)) is not None:
        raise InvalidInput(
            f"{option}: {text[:MAX_NAME]!r}: {at_fault} is not printable: expected printable "
            f"text of at most {MAX_NAME} characters"
        )
    if len(text) > MAX_NAME:
        raise InvalidInput(
            f"{option}: {text[:MAX_NAME]!r}: expected printable text of at most {MAX_NAME} "
            "characters"
        )
    return text


def _number(number: int | None, option: str, most: int) -> str:
    """A round or table as the tournament record numbers them; none: a line to write on."""
    if number is None:
        return ""
    if not 1 <= number <= most:
        raise InvalidInput(f"{option} {number}: expected 1 to {most}")
    return str(number)


def card_heading(args: Any, division: str, played: date | None = None) -> Heading:
    """The card's heading from the command's options (each one printable line); the date is
    ``--date``, else ``played`` (the journal's date of play, R842), else a line to write on."""
    return Heading(
        event=_line(args.event, "--event"),
        date=_date(args.date) or (played.isoformat() if played else ""),
        division=_division(division),
        round=_number(args.round_number, "--round", MAX_ROUNDS),
        table=_number(args.table, "--table", MAX_TABLE),
        monitor=_line(args.monitor, "--monitor"),
    )


def _division(text: str) -> str:
    """--division as the tournament record keeps it: one of the five divisions, I to V (or 1
    to 5, R984); none is a line to write on. The record's own (``--db``) is one already."""
    if not text.strip():
        return ""
    try:
        return parse_division(text)
    except InvalidInput:
        shown = _line(text, "--division")
        raise InvalidInput(
            f"--division {shown[:40]!r}: expected one of {', '.join(DIVISIONS)} (or 1 to 5)"
        ) from None


def _date(text: str) -> str:
    """--date as the table prints its own (R819): a real day, YYYY-MM-DD; none is a line to
    write on."""
    day = text.strip()
    if not day:
        return ""
    if _ISO_DAY.fullmatch(day):
        with contextlib.suppress(ValueError):
            return date.fromisoformat(day).isoformat()
    raise InvalidInput(f"--date {text[:40]!r}: expected a day as YYYY-MM-DD, e.g. 2026-11-26")


_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def seat_of(
    db: Path, round_number: int | None, table: int | None, game: str
) -> tuple[dict[str, str], str, PentathlonPoints]:
    """Player A's and B's names and their division, as the tournament record seats them at
    ``table`` in ``round_number`` for ``game`` (R788), and what a result is worth in its
    standings (R985). Read only."""
    from firmware_py.director.record.pentathlon import PentathlonRecord
    from firmware_py.director.record.tournament_db import TournamentDB

    if round_number is None or table is None:
        raise InvalidInput("--db: give --round and --table too: the seat whose names to print")
    with TournamentDB.open(db) as opened:
        event = PentathlonRecord(opened).event()
        seat = event.seat_at(round_number, table)
        if seat.game.value != game:
            raise InvalidInput(
                f"round {round_number} table {table} plays {seat.game.value} in the record, not "
                f"{game}"
            )
        division = event.player(seat.a).division
    return {"A": seat.a, "B": seat.b}, division, event.points
