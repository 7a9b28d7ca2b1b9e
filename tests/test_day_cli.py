"""``gametable day ...`` (issue 27): a day record naming each event's record, which event each
table plays for (moved between rounds only), what the day shows; and every ``gametable
tournament`` command on an event's record by ``--day DAY --event SLUG`` (R1130). Bad input is
one line on stderr, exit 2, nothing changed."""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from firmware_py.cli import build_parser
from firmware_py.director.record.day import DayRecord, parse_table_list
from firmware_py.director.record.day_tables import busy_tables, table_ranges
from firmware_py.director.record.tournament_db import TournamentDB
from tests.cli_helpers import assert_bad_input, run
from tests.pentathlon_card_helpers import write_log
from tests.test_hub_page_close import _play_out
from tests.test_tournament_cli import TEAMS_CSV
from tests.test_tournament_pentathlon_cli import PLAYERS_CSV

Capture = pytest.CaptureFixture[str]


def ok(capsys: Capture, *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


@pytest.fixture
def day(tmp_path: Path, capsys: Capture) -> Path:
    """A day of two GeoPlunge events, combo4 (tables 1-3) and combo3 (tables 4-6), six teams
    each and nothing paired yet."""
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    path = tmp_path / "day.sqlite"
    ok(capsys, "day", "new", str(path), "--name", "League day", "--time-zone", "America/Chicago")
    for slug, fmt, name in (("combo4", "combo4", "Combo 4"), ("combo3", "combo3", "Combo 3")):
        record = str(tmp_path / f"{slug}.db")
        ok(capsys, "tournament", "new", "--format", fmt, "--teams", str(tmp_path / "teams.csv"),
           "--db", record, "--seed", "1")  # fmt: skip
        ok(capsys, "day", "event", str(path), slug, name, "--record", record)
    ok(capsys, "day", "assign", str(path), "1-3", "combo4", "--reason", "morning")
    ok(capsys, "day", "assign", str(path), "4-6", "combo3", "--reason", "morning")
    return path


def on_event(day: Path, slug: str) -> tuple[str, ...]:
    return ("--day", str(day), "--event", slug)


def events_of(day: Path) -> dict[str, Any]:
    with DayRecord.open(day) as record:
        return {
            "events": record.events(),
            "tables": {t: a.event for t, a in record.assignments().items()},
            "history": [record.assignment_history(t) for t in range(1, 10)],
        }


def snapshot(day: Path) -> tuple[bytes, bytes, bytes]:
    folder = day.parent
    return (
        day.read_bytes(),
        (folder / "combo4.db").read_bytes(),
        (folder / "combo3.db").read_bytes(),
    )


def pair_round_one(capsys: Capture, day: Path) -> None:
    ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo4"))


def enter(capsys: Capture, day: Path, table: int) -> None:
    ok(capsys, "tournament", "result", "--round", "1", "--table", str(table),
       "--a-points", "30", "--b-points", "20", *on_event(day, "combo4"))  # fmt: skip


# -- day new, event, show -----------------------------------------------------------------


def test_show_lists_each_event_with_its_round_results_and_tables(
    capsys: Capture, day: Path
) -> None:
    pair_round_one(capsys, day)
    enter(capsys, day, 1)
    shown = ok(capsys, "day", "show", str(day))
    assert (shown["name"], shown["time_zone"]) == ("League day", "America/Chicago")
    assert [
        (e["slug"], e["round"], e["results_in"], e["results_out"], e["tables"])
        for e in shown["events"]
    ] == [("combo4", 1, 1, 2, [1, 2, 3]), ("combo3", None, 0, 0, [4, 5, 6])]


def test_show_text_tells_each_event_on_its_line(capsys: Capture, day: Path) -> None:
    pair_round_one(capsys, day)
    code, out, err = run(capsys, "day", "show", str(day))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "League day (America/Chicago): 2 events",
        "  combo4  Combo 4: round 1, 0 results in, 3 out; tables 1-3",
        "  combo3  Combo 3: nothing paired yet; tables 4-6",
    ]


def test_a_closed_event_says_so_with_its_champion(capsys: Capture, day: Path) -> None:
    # R1182: closed from its page (or the command line), the day's line says it is over
    pair_round_one(capsys, day)
    with TournamentDB.open(day.parent / "combo4.db") as record:
        champion = _play_out(record)[0]
        record.set_champion(champion, now="2026-11-29T18:00:00+00:00", by="director")
    code, out, err = run(capsys, "day", "show", str(day))
    assert (code, err) == (0, "")
    assert out.splitlines()[1].startswith(f"  combo4  Combo 4: round 8, 3 results in, 0 out; "
                                          f"closed, {champion} champion; tables 1-3")  # fmt: skip
    assert ok(capsys, "day", "show", str(day))["events"][0]["champion"] == champion


def test_an_event_record_gone_is_said_on_its_line_and_the_others_still_show(
    capsys: Capture, day: Path
) -> None:
    (day.parent / "combo3.db").unlink()
    shown = ok(capsys, "day", "show", str(day))
    assert "no tournament at" in shown["events"][1]["problem"]
    assert shown["events"][0]["round"] is None and "problem" not in shown["events"][0]


def test_a_new_day_is_not_made_over_an_existing_file(capsys: Capture, day: Path) -> None:
    before = snapshot(day)
    assert_bad_input(capsys, "day", "new", str(day), "--name", "x", "--time-zone", "UTC",
                     names="already exists")  # fmt: skip
    assert snapshot(day) == before


def test_a_new_day_with_an_unknown_time_zone_leaves_no_file(
    capsys: Capture, tmp_path: Path
) -> None:
    path = tmp_path / "d.sqlite"
    assert_bad_input(capsys, "day", "new", str(path), "--name", "x", "--time-zone", "Mars/Base",
                     names="time zone 'Mars/Base' is not known")  # fmt: skip
    assert not path.exists()


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("Combo 5", "C5", "--record", "combo4.db"), "expected 1-24 lower-case letters"),
        (("combo5", "Combo 5", "--record", "combo4.db"), "already an event of this day"),
        (("combo4", "Other", "--record", "combo3.db"), "already has an event 'combo4'"),
        (("combo5", "Combo 5", "--record", "missing.db"), "missing.db"),
        (("combo5", "Combo 5", "--record", "day.sqlite"), "is a day record"),
    ],
)
def test_a_bad_event_is_refused_in_one_line_and_the_day_is_unchanged(
    capsys: Capture, day: Path, argv: tuple[str, ...], names: str, monkeypatch: Any
) -> None:
    monkeypatch.chdir(day.parent)
    before = snapshot(day)
    assert_bad_input(capsys, "day", "event", str(day), *argv, names=names)
    assert snapshot(day) == before


def test_a_day_command_on_a_tournament_record_says_what_to_do_and_doing_so_works(
    capsys: Capture, day: Path
) -> None:
    """R1151: a ``day`` command has no --db; its advice is the day's own command, followed."""
    record = day.parent / "combo5.db"
    ok(capsys, "tournament", "new", "--format", "combo4", "--teams", str(day.parent / "teams.csv"),
       "--db", str(record), "--seed", "1")  # fmt: skip
    advice = f"add it to a day with 'gametable day event DAY SLUG NAME --record {record}'"
    assert_bad_input(capsys, "day", "show", str(record), names=f"a tournament record? {advice}")
    ok(capsys, "day", "event", str(day), "combo5", "Combo 5", "--record", str(record))
    assert [event.slug for event in events_of(day)["events"]] == ["combo4", "combo3", "combo5"]


def test_a_missing_day_says_how_to_start_it_and_doing_so_works(
    capsys: Capture, tmp_path: Path
) -> None:
    path = tmp_path / "day.sqlite"
    advice = f"'gametable day new {path} --name NAME --time-zone ZONE'"
    assert_bad_input(capsys, "day", "show", str(path), names=f"start one with {advice}")
    ok(capsys, "day", "new", str(path), "--name", "League day", "--time-zone", "UTC")
    assert ok(capsys, "day", "show", str(path))["events"] == []


def test_a_missing_event_record_says_how_to_make_it_and_doing_so_works(
    capsys: Capture, day: Path
) -> None:
    record = day.parent / "combo5.db"
    advice = f"'gametable tournament new --format FORMAT --teams CSV --db {record}'"
    says = f"make the event's record first, with {advice}"
    assert_bad_input(capsys, "day", "event", str(day), "combo5", "Combo 5", "--record",
                     str(record), names=says)  # fmt: skip
    ok(capsys, "tournament", "new", "--format", "combo4", "--teams", str(day.parent / "teams.csv"),
       "--db", str(record))  # fmt: skip
    ok(capsys, "day", "event", str(day), "combo5", "Combo 5", "--record", str(record))


def test_a_day_named_as_an_events_record_is_refused_without_advice_for_another_command(
    capsys: Capture, day: Path
) -> None:
    """R1151: ``day event`` has no --day or --event to name the day with."""
    before = snapshot(day)
    code, out, err = run(capsys, "day", "event", str(day), "combo5", "C5", "--record", str(day))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "is a day record, not an event's: expected a tournament record" in err
    assert "--event" not in err
    assert snapshot(day) == before


# -- day assign ---------------------------------------------------------------------------


def test_assign_moves_the_tables_between_rounds_and_keeps_why(capsys: Capture, day: Path) -> None:
    moved = ok(capsys, "day", "assign", str(day), "3,4", "combo3", "--reason", "more teams",
               "--by", "Pat")  # fmt: skip
    assert moved["moved"] == [3]  # table 4 played for combo3 already
    assert events_of(day)["tables"] == {1: "combo4", 2: "combo4", 3: "combo3", 4: "combo3",
                                        5: "combo3", 6: "combo3"}  # fmt: skip
    with DayRecord.open(day) as record:
        latest = record.assignment_history(3)[-1]
    assert (latest.by, latest.reason) == ("Pat", "more teams")


def test_assigning_tables_already_there_moves_nothing_and_says_so(
    capsys: Capture, day: Path
) -> None:
    code, out, err = run(capsys, "day", "assign", str(day), "1-3", "combo4", "--reason", "again")
    assert (code, err) == (0, "")
    assert out == "tables 1-3 already play for combo4: nothing moved\n"


def test_a_table_whose_match_has_no_result_is_not_moved_and_nothing_moves(
    capsys: Capture, day: Path
) -> None:
    pair_round_one(capsys, day)
    enter(capsys, day, 1)
    before = events_of(day)
    assert_bad_input(capsys, "day", "assign", str(day), "1-2", "combo3", "--reason", "x",
                     names="nothing moved: table 2: its round 1 match in combo4")  # fmt: skip
    assert events_of(day) == before


def test_a_table_moves_once_its_match_has_a_result(capsys: Capture, day: Path) -> None:
    pair_round_one(capsys, day)
    enter(capsys, day, 1)
    moved = ok(capsys, "day", "assign", str(day), "1", "combo3", "--reason", "between rounds")
    assert moved["moved"] == [1]


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("1-x", "combo3", "--reason", "r"), "'1-x' is not a table or a range"),
        (("5-2", "combo3", "--reason", "r"), "low to high"),
        # digits 0-9 only, as a room's tables (R1110): int() would read these as tables 10,
        # 3 and 1-3, moving tables nobody typed (R1152)
        (("1_0", "combo3", "--reason", "r"), "'1_0' is not a table or a range"),
        (("+3", "combo3", "--reason", "r"), "'+3' is not a table or a range"),
        (("\u0661-\u0663", "combo3", "--reason", "r"), "is not a table or a range"),
        (("1-" + "9" * 5000, "combo3", "--reason", "r"), "is not a range of tables"),
        (
            ("1", "zz", "--reason", "r"),
            "no event 'zz' in day.sqlite: its events are combo4, combo3",
        ),
        (("1", "combo3", "--reason", " "), "reason"),
        (("1", "combo3"), "--reason"),
    ],
)
def test_a_bad_assignment_is_refused_in_one_line_and_nothing_moves(
    capsys: Capture, day: Path, argv: tuple[str, ...], names: str
) -> None:
    before = snapshot(day)
    assert_bad_input(capsys, "day", "assign", str(day), *argv, names=names)
    assert snapshot(day) == before


def test_a_pentathlon_seat_without_a_result_keeps_its_table(
    capsys: Capture, day: Path, tmp_path: Path
) -> None:
    (tmp_path / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    record = str(tmp_path / "penta.db")
    ok(capsys, "tournament", "pentathlon", "new", "--players", str(tmp_path / "players.csv"),
       "--db", record)  # fmt: skip
    ok(capsys, "day", "event", str(day), "penta", "Pentathlon", "--record", record)
    ok(capsys, "day", "assign", str(day), "7", "penta", "--reason", "afternoon")
    ok(capsys, "tournament", "pentathlon", "seat", "--round", "1", "--table", "7",
       "--game", "contig-60", "--a", "Ann Lee", "--b", "Ben Cho",
       *on_event(day, "penta"))  # fmt: skip
    with DayRecord.open(day) as opened:
        assert busy_tables(opened) == {
            7: "its round 1 match in penta (Ann Lee v Ben Cho) has no result yet"
        }


def test_a_pentathlon_seat_by_day_and_event_is_at_a_table_of_that_event(
    capsys: Capture, day: Path
) -> None:
    """R1172: table 1 plays for combo4; a Pentathlete seated there by combo3's record would
    find another event's match, and table 1 would never show the seat."""
    (day.parent / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    ok(capsys, "tournament", "pentathlon", "new", "--players", str(day.parent / "players.csv"),
       *on_event(day, "combo3"))  # fmt: skip
    seat = ("tournament", "pentathlon", "seat", "--round", "1", "--game", "contig-60", "--a",
            "Ann Lee", "--b", "Ben Cho", *on_event(day, "combo3"))  # fmt: skip
    before = snapshot(day)
    says = "table 1 does not play for combo3: its tables are 4-6; give the table to the event first"
    assert_bad_input(capsys, *seat, "--table", "1", names=says)
    assert snapshot(day) == before
    assert ok(capsys, *seat, "--table", "4")["table"] == 4


def test_busy_tables_reads_the_records_the_caller_holds_open(capsys: Capture, day: Path) -> None:
    pair_round_one(capsys, day)
    with DayRecord.open(day) as opened:
        records = opened.open_events()
        try:
            assert sorted(busy_tables(opened, records)) == [1, 2, 3]
        finally:
            for record in records.values():
                record.close()


def test_table_ranges_are_written_as_a_person_types_them() -> None:
    assert table_ranges([15, 1, 2, 3, 7, 8]) == "1-3,7-8,15"
    assert parse_table_list(table_ranges([15, 1, 2, 3, 7, 8])) == (1, 2, 3, 7, 8, 15)


# -- tournament ... --day DAY --event SLUG (R1130) -----------------------------------------


def test_a_tournament_command_works_on_the_events_record(capsys: Capture, day: Path) -> None:
    pair_round_one(capsys, day)
    with TournamentDB.open(day.parent / "combo4.db") as record:
        assert [r.round for r in record.rounds()] == [1]
    with TournamentDB.open(day.parent / "combo3.db") as record:
        assert record.rounds() == ()


def test_an_events_round_is_paired_at_the_tables_that_play_for_it(
    capsys: Capture, day: Path
) -> None:
    """R1172: combo3's tables are 4-6; paired at 1-3 its teams would go to combo4's tables
    while combo3's own show no match."""
    pair_round_one(capsys, day)
    paired = ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"))
    assert [row["table"] for row in paired["pairings"]] == [4, 5, 6]
    with TournamentDB.open(day.parent / "combo3.db") as record:
        assert [match.table for match in record.rounds()[0].matches] == [4, 5, 6]
    ok(capsys, "tournament", "result", "--round", "1", "--table", "5", "--a-points", "30",
       "--b-points", "20", *on_event(day, "combo3"))  # fmt: skip


def test_an_event_with_too_few_tables_for_its_round_says_to_assign_more_and_doing_so_works(
    capsys: Capture, day: Path
) -> None:
    ok(capsys, "day", "assign", str(day), "5-6", "combo4", "--reason", "combo4 grows")
    before = snapshot(day)
    says = "round 1 of combo3 has 3 matches but only table 4 plays for it: give it more tables"
    assert_bad_input(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"),
                     names=says)  # fmt: skip
    assert snapshot(day) == before
    ok(capsys, "day", "assign", str(day), "7-8", "combo3", "--reason", "more teams")
    paired = ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"))
    assert [row["table"] for row in paired["pairings"]] == [4, 7, 8]


def _move(day: Path, table: int, *more: str) -> tuple[str, ...]:
    return ("tournament", "move", "--round", "1", "--team", "Hawks", "--table", str(table),
            "--reason", "broken", *more, *on_event(day, "combo4"))  # fmt: skip


def test_a_match_moved_by_day_and_event_goes_to_a_free_table_of_that_event_once_assigned(
    capsys: Capture, day: Path
) -> None:
    """R1068's free tables, in a day, are the event's (R1172): a table given to the event is
    one, and the refusal's advice, followed, makes it one."""
    pair_round_one(capsys, day)
    advice = "give the table to the event first ('Move tables to an event' on the day page, or "
    assert_bad_input(capsys, *_move(day, 7), names=advice + "'gametable day assign')")
    ok(capsys, "day", "assign", str(day), "7", "combo4", "--reason", "a spare")
    moved = ok(capsys, *_move(day, 7))
    assert 7 in [row["table"] for row in moved["matches"]]


def test_a_match_is_not_moved_to_another_events_table_even_in_a_room_of_its_own(
    capsys: Capture, day: Path
) -> None:
    pair_round_one(capsys, day)
    ok(capsys, "tournament", "room", "add", "Hall", "--tables", "1-6", *on_event(day, "combo4"))
    before = snapshot(day)
    assert_bad_input(capsys, *_move(day, 4), names="table 4 does not play for combo4")
    assert snapshot(day) == before


def test_a_result_by_day_and_event_reaches_that_events_standings(
    capsys: Capture, day: Path
) -> None:
    pair_round_one(capsys, day)
    enter(capsys, day, 1)
    by_day = ok(capsys, "tournament", "standings", *on_event(day, "combo4"))
    by_db = ok(capsys, "tournament", "standings", "--db", str(day.parent / "combo4.db"))
    assert by_day == by_db and by_day != ok(
        capsys, "tournament", "standings", *on_event(day, "combo3")
    )


def test_a_pentathlon_command_takes_the_day_and_event(capsys: Capture, day: Path) -> None:
    (day.parent / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    ok(capsys, "tournament", "pentathlon", "new", "--players", str(day.parent / "players.csv"),
       *on_event(day, "combo3"))  # fmt: skip
    standings = ok(capsys, "tournament", "pentathlon", "standings", *on_event(day, "combo3"))
    assert {row["name"] for row in standings} >= {"Ann Lee", "Ben Cho"}


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("--day", "{day}"), "--day {day} needs --event SLUG: its events are combo4, combo3"),
        (("--day", "{day}", "--event", "zz"), "no event 'zz' in day.sqlite: its events are"),
        (("--event", "combo4"), "--event combo4 names an event of a day: expected --day DAY"),
        (("--db", "{folder}/combo4.db", "--day", "{day}", "--event", "combo4"),
         "argument --day: not allowed with argument --db"),
        (("--day", "{folder}/combo4.db", "--event", "combo4"), "is not a day record"),
    ],
)  # fmt: skip
def test_a_record_named_wrongly_is_refused_in_one_line_and_nothing_changes(
    capsys: Capture, day: Path, argv: tuple[str, ...], names: str
) -> None:
    words = {"day": str(day), "folder": str(day.parent)}
    before = snapshot(day)
    filled = [arg.format(**words) for arg in argv]
    assert_bad_input(capsys, "tournament", "pair", "--round", "1", *filled,
                     names=names.format(**words))  # fmt: skip
    assert snapshot(day) == before


def test_the_day_named_as_a_record_says_how_and_doing_so_works(capsys: Capture, day: Path) -> None:
    assert_bad_input(capsys, "tournament", "standings", "--db", str(day),
                     names="name it with --day and the event with --event")  # fmt: skip
    ok(capsys, "tournament", "standings", "--day", str(day), "--event", "combo4")


def _leaf_commands(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, set[str]]]:
    """Every command under ``parser`` with its options, named by its words."""
    subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subcommands:
        yield name, {option for action in parser._actions for option in action.option_strings}
    for action in subcommands:
        for word, child in action.choices.items():
            yield from _leaf_commands(child, f"{name} {word}".strip())


def test_every_tournament_command_with_a_record_takes_the_day() -> None:
    leaves = dict(_leaf_commands(build_parser("tournament"), ""))
    with_db = {name for name, options in leaves.items() if "--db" in options}
    assert len(with_db) > 20 and "tournament pentathlon result" in with_db
    assert [name for name in with_db if not {"--day", "--event"} <= leaves[name]] == []


def test_a_score_card_takes_the_seat_and_the_event_name_from_the_day(
    capsys: Capture, day: Path
) -> None:
    (day.parent / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    ok(capsys, "day", "assign", str(day), "7", "combo3", "--reason", "the Pentathlon's table")
    for argv in (
        ["new", "--players", str(day.parent / "players.csv")],
        # table 5: one of combo3's (a seat goes to its event's tables only, R1172)
        ["seat", "--round", "1", "--table", "5", "--game", "contig-60", "--a", "Ann Lee",
         "--b", "Ben Cho"],
    ):  # fmt: skip
        ok(capsys, "tournament", "pentathlon", *argv, *on_event(day, "combo3"))
    log = write_log(day.parent / "game.jsonl")
    code, out, err = run(capsys, "pentathlon", "card", str(log), "--round", "1", "--table", "5",
                         *on_event(day, "combo3"))  # fmt: skip
    assert (code, err) == (0, "")
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", out)).split())
    assert "Event Combo 3 Division III" in text and "Ann Lee" in text


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("--day", "{day}"), "--day {day} needs --event SLUG: its events are combo4, combo3"),
        (("--day", "{day}", "--event", "zz"), "no event 'zz' in day.sqlite"),
        (("--db", "{folder}/combo4.db", "--day", "{day}"), "not allowed with argument --db"),
    ],
)
def test_a_score_card_refuses_a_day_without_its_event_in_one_line(
    capsys: Capture, day: Path, argv: tuple[str, ...], names: str
) -> None:
    words = {"day": str(day), "folder": str(day.parent)}
    log = write_log(day.parent / "game.jsonl")
    filled = [arg.format(**words) for arg in argv]
    where = ("--round", "1", "--table", "7")
    assert_bad_input(capsys, "pentathlon", "card", str(log), *where, *filled,
                     names=names.format(**words))  # fmt: skip


def test_an_event_record_gone_is_to_be_put_back_not_started_anew(
    capsys: Capture, day: Path
) -> None:
    """R1151: 'start one with gametable tournament new' would start the event over, its
    rounds and results lost; the record is to be put back, and then the command works."""
    record = day.parent / "combo4.db"
    kept = record.rename(day.parent / "elsewhere.db")
    says = f"no tournament at {record}, where the day keeps event 'combo4''s record"
    code, out, err = run(capsys, "tournament", "standings", *on_event(day, "combo4"))
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert says in err and "tournament new" not in err
    shown = ok(capsys, "day", "show", str(day))["events"][0]["problem"]
    assert says in shown and "tournament new" not in shown
    kept.rename(record)
    ok(capsys, "tournament", "standings", *on_event(day, "combo4"))


def test_an_events_record_locked_by_another_program_is_said_in_use_not_damaged(
    capsys: Capture, day: Path
) -> None:
    """R1153: 'is not a tournament record: database is locked' sends a director to replace a
    good record; it is in use, and trying again once it is free works, as the line says."""
    holder = sqlite3.connect(day.parent / "combo4.db", isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")  # held until closed: readers too are kept out
    try:
        says = f"{day.parent / 'combo4.db'} is in use by another program"
        code, out, err = run(capsys, "tournament", "standings", *on_event(day, "combo4"))
        assert (code, out, err.count("\n")) == (2, "", 1)
        assert says in err and "try again once it is free" in err
        assert "not a tournament record" not in err
    finally:
        holder.close()
    ok(capsys, "tournament", "standings", *on_event(day, "combo4"))


def test_a_tournament_record_named_as_the_day_says_to_name_it_with_db_and_doing_so_works(
    capsys: Capture, day: Path
) -> None:
    record = str(day.parent / "combo4.db")
    assert_bad_input(capsys, "tournament", "standings", "--day", record, "--event", "combo4",
                     names=f"a tournament record? name it with --db {record}")  # fmt: skip
    ok(capsys, "tournament", "standings", "--db", record)


def test_a_day_reached_by_a_symlink_finds_its_events_beside_its_real_file(
    capsys: Capture, day: Path, tmp_path: Path
) -> None:
    """R1150: the events kept beside the day are beside its file, not beside a link to it."""
    (tmp_path / "desk").mkdir()
    link = tmp_path / "desk" / "day.sqlite"
    link.symlink_to(day)
    assert all("problem" not in event for event in ok(capsys, "day", "show", str(link))["events"])
    ok(capsys, "tournament", "pair", "--round", "1", *on_event(link, "combo4"))
    assert ok(capsys, "day", "show", str(day))["events"][0]["round"] == 1


def test_an_event_added_through_a_symlinked_day_is_found_by_the_day_itself(
    capsys: Capture, day: Path, tmp_path: Path
) -> None:
    (tmp_path / "desk").mkdir()
    link = tmp_path / "desk" / "day.sqlite"
    link.symlink_to(day)
    record = link.parent / "combo5.db"  # beside the link: kept so as to be found from the day
    ok(capsys, "tournament", "new", "--format", "combo4", "--teams", str(day.parent / "teams.csv"),
       "--db", str(record), "--seed", "1")  # fmt: skip
    ok(capsys, "day", "event", str(link), "combo5", "Combo 5", "--record", str(record))
    assert "problem" not in ok(capsys, "day", "show", str(day))["events"][2]


def test_an_event_record_gone_refuses_a_move_naming_the_event(capsys: Capture, day: Path) -> None:
    (day.parent / "combo3.db").unlink()
    before = events_of(day)
    assert_bad_input(capsys, "day", "assign", str(day), "9", "combo4", "--reason", "x",
                     names="event 'combo3' of day.sqlite: no tournament at")  # fmt: skip
    assert events_of(day) == before


def test_a_table_keeps_the_rounds_of_as_many_events_as_a_day_holds() -> None:
    """R1131: the table's bound is the day's, so no event of a full day is dropped."""
    from firmware_py.director.record import day as day_record
    from firmware_py.table import hub_wire

    assert hub_wire.MAX_EVENTS == day_record.MAX_EVENTS
    assert hub_wire.EVENT_SLUG.pattern == day_record.SLUG.pattern


def test_an_events_round_is_paired_at_the_tables_the_day_gives_it(
    capsys: Capture, day: Path
) -> None:
    paired = ok(capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"))
    assert [row["table"] for row in paired["pairings"]] == [4, 5, 6]  # R1172


def test_an_event_with_too_few_tables_for_its_round_is_refused_and_nothing_is_paired(
    capsys: Capture, day: Path
) -> None:
    ok(capsys, "day", "assign", str(day), "6", "combo4", "--reason", "one more for combo4")
    before = snapshot(day)
    assert_bad_input(
        capsys, "tournament", "pair", "--round", "1", *on_event(day, "combo3"),
        names="round 1 of combo3 has 3 matches but only tables 4-5 play for it: give it more",
    )  # fmt: skip
    assert snapshot(day) == before
