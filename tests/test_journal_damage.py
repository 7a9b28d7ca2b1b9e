"""A damaged journal is refused, never shown: every entry carries a checksum, every row must have
the shape its kind promises, and the journal must replay to its record (R125, R126). ``journal
show`` and ``sim`` refuse it in one line and leave it; ``run`` moves it aside and exits 1, so
systemd's restart begins a new match instead of failing the same way until the unit gives up
(R122)."""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_py.table.journal import SCHEMA_VERSION, Journal, JournalCorrupt, JournalError
from firmware_py.table.journal_format import checksum
from tests.journal_helpers import (
    SCRIPTS,
    Outcome,
    assert_one_critical_line,
    assert_one_line_refusal,
    fingerprint,
    in_process,
    make_journal,
    mock_table_config,
    own_process,
)
from tests.soak import sized


def _rewrite(path: Path, seq: int, *, body: str | None = None, wall: bytes | None = None) -> None:
    """Change one entry and give it a matching checksum: a row that passes the CRC and SQLite's
    own checks, as a deliberate edit (or an older gametable) could leave it."""
    with sqlite3.connect(path) as db:
        kind, t, old_wall, old_body = db.execute(
            "SELECT kind, t, wall, body FROM entries WHERE seq = ?", (seq,)
        ).fetchone()
        body = old_body if body is None else body
        crc = checksum(seq, kind, t, old_wall, body)
        db.execute("UPDATE entries SET body = ?, crc = ? WHERE seq = ?", (body, crc, seq))
        if wall is not None:
            db.execute("UPDATE entries SET wall = CAST(? AS TEXT) WHERE seq = ?", (wall, seq))
    db.close()


def _seq_of(path: Path, fragment: str) -> int:
    with sqlite3.connect(path) as db:
        (seq,) = db.execute(
            "SELECT min(seq) FROM entries WHERE body LIKE ?", (f"%{fragment}%",)
        ).fetchone()
    db.close()
    assert isinstance(seq, int)
    return seq


# --- a flipped byte anywhere --------------------------------------------------------------------


def test_a_flipped_byte_anywhere_is_shown_exactly_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seeded trials (100; 300 in make soak), each XORing one byte with a random non-zero value:
    every other trial anywhere in the file, the rest among the bytes that hold something (most
    of a small journal is free space). Either the output is exactly the original (the byte was
    not read) or the journal is refused in one line; never a traceback, a changed value, or a
    changed file."""
    original = make_journal(tmp_path / "original.db", "plunge")
    pristine = original.read_bytes()
    holding = [where for where, byte in enumerate(pristine) if byte]
    path = tmp_path / "journal.db"
    shutil.copyfile(original, path)
    show = ["journal", "show", "--json", str(path)]  # every decision, each with its wall time
    shown = in_process(capsys, *show)
    assert shown.code == 0 and '"event": "plunge"' in shown.stdout
    draw = random.Random(20261123)
    refused = 0
    trials = sized(ci=100, soak=300)
    for trial in range(trials):
        damaged = bytearray(pristine)
        where = draw.randrange(len(damaged)) if trial % 2 else draw.choice(holding)
        damaged[where] ^= draw.randrange(1, 256)
        path.write_bytes(damaged)
        outcome = in_process(capsys, *show)
        if outcome != shown:
            assert outcome.code == 2, f"trial {trial}, byte {where}: {outcome}"
            assert outcome.stdout == "" and outcome.stderr.count("\n") == 1, outcome
            refused += 1
        assert path.read_bytes() == damaged
        assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db", "original.db"]
    assert refused > trials // 3  # the flips did reach what is read


def test_a_changed_wall_clock_time_is_refused_not_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    seq = _seq_of(path, '"event":"plunge"')
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET wall = replace(wall, ':', ';') WHERE seq = ?", (seq,))
    db.close()
    outcome = in_process(capsys, "journal", "show", str(path))
    assert_one_line_refusal(outcome, names=f"entry {seq} does not match its checksum")


# --- rows that pass the checksum but are not entries --------------------------------------------

SETTINGS = (
    '{"settings":{"seats":["A","B"],"tie_window":0.015,"settle":0.05,"debounce":"%s",'
    '"count_cadence":1.0,"family":"geoplunge","options":{"chummy_seconds":15.0,"round":1,'
    '"minutes":20,"on_time_up":"abandon","game":1}}}'
)
BAD_BODIES = {
    "an edge with two fields": ("edge", '{"edge":["A.stand",1.0]}', "malformed 'edge' input"),
    "a read that is an object": ("read", '{"read":{"A.stand":true}}', "malformed 'read' input"),
    "an unknown input": ("mark", '{"sneeze":1}', "unknown input 'sneeze'"),
    "two inputs in one": ("mark", '{"mark":1,"advance":2}', "exactly one thing"),
    "a mark that is text": ("mark", '{"mark":"one"}', "malformed 'mark' input"),
    "a page entry with a number for its text": (
        "mark",
        '{"entry":["A","guess",5,1.0]}',
        "malformed 'entry' input",
    ),
    "NaN for a time": ("advance", '{"advance":NaN}', "not valid JSON"),
    "a 5000-digit number": ("advance", '{"advance":' + "9" * 5000 + "}", "not valid JSON"),
    "JSON nested 100 000 deep": ("mark", "[" * 100_000 + "]" * 100_000, "not valid JSON"),
    "an event without a name": ('"event":"plunge"', '{"t":6.05}', "an event without a name"),
    "a list for a body": ('"event":"plunge"', "[1,2]", "not a session, input or event"),
    "seats that are not a list": ("settings", '{"settings":{"seats":"AB"}}', "seats is 'AB'"),
    "a setting the table lacks": ("settings", '{"settings":{"speed":9}}', "unknown settings speed"),
    "a debounce that is text": ("settings", SETTINGS % "x", "setting debounce is 'x'"),
    "an option the family refuses": (
        "settings",
        '{"settings":{"seats":["A","B"],"family":"geoplunge","options":{"game":9}}}',
        "game: expected a whole number from 1 to 5, got 9",
    ),
    "a family the table does not have": (
        "settings",
        '{"settings":{"seats":["A","B"],"family":"chess","options":{}}}',
        "unknown game family 'chess'",
    ),
    "an edge on an input the table lacks": (
        "edge",
        '{"edge":["Z.stand",1.0,true,1.0]}',
        "replay differs from the record",
    ),
}


@pytest.mark.parametrize("case", list(BAD_BODIES))
def test_a_row_with_a_good_checksum_but_a_bad_body_is_refused_in_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fragment, body, reason = BAD_BODIES[case]
    path = make_journal(tmp_path / "journal.db")
    seq = _seq_of(path, fragment)
    _rewrite(path, seq, body=body)
    before = fingerprint(tmp_path)
    for argv in (["journal", "show", str(path)], ["journal", "export", str(path)]):
        outcome = in_process(capsys, *argv)
        assert_one_line_refusal(outcome, names=f"journal {path} is damaged")
        assert reason in outcome.stderr
    assert fingerprint(tmp_path) == before


def test_a_wall_time_that_is_not_utf8_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    _rewrite(path, 2, wall=b"\xff\xfe2026-11-23")
    outcome = in_process(capsys, "journal", "show", str(path))
    assert_one_line_refusal(outcome, names="entry 2 is not UTF-8 text")


def test_sim_refuses_a_damaged_journal_and_leaves_it_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    _rewrite(path, _seq_of(path, "edge"), body='{"edge":["A.stand",1.0]}')
    before = fingerprint(tmp_path)
    script = str(SCRIPTS / "plunge.jsonl")
    outcome = in_process(capsys, "sim", "--headless", "--script", script, "--journal", str(path))
    assert_one_line_refusal(outcome, names=f"journal {path} is damaged")
    assert "left as it is" in outcome.stderr
    assert fingerprint(tmp_path) == before


# --- run: moved aside, exit 1, one line ---------------------------------------------------------


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mock_table_config(tmp_path_factory.mktemp("config"))


def _run(config: Path, path: Path) -> Outcome:
    return own_process("run", "--config", str(config), "--journal", str(path))


@pytest.mark.parametrize(
    "damage",
    ["a flipped byte in an entry", "a malformed row", "a journal that does not replay"],
)
def test_run_moves_a_damaged_journal_aside_and_exits_1(
    damage: str, tmp_path: Path, config: Path
) -> None:
    path = make_journal(tmp_path / "journal.db")
    if damage == "a flipped byte in an entry":
        with sqlite3.connect(path) as db:
            db.execute("UPDATE entries SET body = replace(body, 'A', 'B') WHERE seq = 1")
        db.close()
    elif damage == "a malformed row":
        _rewrite(path, _seq_of(path, "edge"), body='{"edge":["A.stand",1.0]}')
    else:
        _rewrite(path, _seq_of(path, "edge"), body='{"edge":["Z.stand",1.0,true,1.0]}')
    content = path.read_bytes()
    outcome = _run(config, path)
    assert_one_critical_line(outcome, 1, names=f"journal {path} is damaged")
    assert "the next start begins a new match" in outcome.stdout
    (moved,) = tmp_path.glob("journal.db.corrupt-*")
    assert moved.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == [moved.name]  # the next start: a new one


def test_only_run_moves_a_damaged_journal_aside(tmp_path: Path) -> None:
    path = make_journal(tmp_path / "journal.db")
    _rewrite(path, _seq_of(path, "edge"), body='{"edge":["A.stand",1.0]}')
    with pytest.raises(JournalCorrupt) as refused:
        Journal.open(path)
    assert refused.value.moved_to is None and path.exists()
    with pytest.raises(JournalCorrupt) as moved:
        Journal.open(path, move_damaged_aside=True)
    assert moved.value.moved_to is not None and moved.value.moved_to.exists()
    assert ".corrupt-" in moved.value.moved_to.name and not path.exists()


# --- journals of another schema -----------------------------------------------------------------

SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('session', 'input', 'event')),
    t REAL NOT NULL, wall TEXT NOT NULL, body TEXT NOT NULL
);
INSERT INTO meta(key, value) VALUES ('schema', '1');
INSERT INTO entries(kind, t, wall, body) VALUES ('session', 0, '2026-11-22T10:00:00', '{}');
"""


def _schema_1_journal(path: Path) -> Path:
    """A journal as gametable wrote them before entries had checksums."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA_1)
    db.close()
    return path


def test_a_journal_from_before_checksums_is_refused_naming_its_schema(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _schema_1_journal(tmp_path / "journal.db")
    before = fingerprint(tmp_path)
    outcome = in_process(capsys, "journal", "show", str(path))
    assert_one_line_refusal(outcome, names="from an older gametable (schema 1")
    assert_one_critical_line(_run(config, path), 2, names="schema 1")
    assert fingerprint(tmp_path) == before


def test_new_journal_moves_a_journal_from_before_checksums_aside(tmp_path: Path) -> None:
    path = _schema_1_journal(tmp_path / "journal.db")
    content = path.read_bytes()
    Journal.open(path, new=True).close()
    (old,) = tmp_path.glob("journal.db.old-*")
    assert old.read_bytes() == content
    assert Journal.open_read_only(path).is_empty()


def test_a_journal_from_a_newer_gametable_is_refused_and_left(tmp_path: Path, config: Path) -> None:
    path = make_journal(tmp_path / "journal.db")
    newer = SCHEMA_VERSION + 1
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(newer),))
    db.close()
    before = fingerprint(tmp_path)
    with pytest.raises(JournalError, match="from a newer gametable"):
        Journal.open(path, move_damaged_aside=True)
    assert_one_critical_line(_run(config, path), 2, names=f"schema {newer}")
    assert fingerprint(tmp_path) == before


def test_run_leaves_a_damaged_journal_reached_through_a_link_and_names_the_file_to_give(
    tmp_path: Path, config: Path
) -> None:
    """R902: never "move the file yourself"; the line names the file, and giving it to
    --journal (as the line says, literally) moves the damaged journal aside."""
    path = make_journal(tmp_path / "journal.db")
    _rewrite(path, _seq_of(path, "edge"), body='{"edge":["A.stand",1.0]}')
    (tmp_path / "latest.db").symlink_to(path)
    before = fingerprint(tmp_path)
    outcome = _run(config, tmp_path / "latest.db")
    assert_one_critical_line(outcome, 2, names=f"journal {tmp_path / 'latest.db'} is damaged")
    assert fingerprint(tmp_path) == before
    said = re.search(r"symbolic link to (\S+); give that path to --journal", outcome.stdout)
    assert said is not None, outcome.stdout
    followed = _run(config, Path(said[1]))
    assert_one_critical_line(followed, 1, names="moved aside to")
    assert not path.exists() and len(list(tmp_path.glob("journal.db.corrupt-*"))) == 1
