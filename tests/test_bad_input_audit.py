"""The outside audit's defects (bad input to the commands), one behaviour each: refused in one
line with exit 2, and nothing the user named is deleted, replaced or read without limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.cli_args import MAX_ECHOED, shortened
from firmware_py.director.hub.staff_password import DirectorPasswordError, store_password
from firmware_py.judge.pentathlon_source import write_card
from firmware_py.user_files import MAX_BOARD, UserFileError, read_limited_text
from rules.errors import InvalidInput
from tests.cli_helpers import assert_bad_input, run
from tests.journal_helpers import fingerprint

TEAMS = "name,school,players\nA,S1,a1\nB,S2,b1\nC,S3,c1\nD,S4,d1\n"
Capture = pytest.CaptureFixture[str]


def _new_tournament(tmp_path: Path, db: Path) -> tuple[str, ...]:
    teams = tmp_path / "teams.csv"
    teams.write_text(TEAMS)
    return ("tournament", "new", "--format", "combo4", "--teams", str(teams), "--db", str(db))


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _link(path: Path) -> Path:
    target = path.with_name("target.txt")
    target.write_text("kept\n")
    path.symlink_to(target.name)
    return path


def _empty(path: Path) -> Path:
    path.touch()
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [(_empty, "an empty file"), (_fifo, "a FIFO"), (_link, "a symbolic link")],
    ids=["an empty file", "a FIFO", "a symbolic link"],
)
def test_a_new_tournament_is_refused_where_anything_is_and_it_is_kept(
    capsys: Capture, tmp_path: Path, make: object, says: str
) -> None:
    db = make(tmp_path / "t.db")  # type: ignore[operator]
    argv = _new_tournament(tmp_path, db)
    before = fingerprint(tmp_path)
    assert_bad_input(capsys, *argv, names=f"already exists ({says})")
    assert fingerprint(tmp_path) == before


def test_a_new_tournament_that_fails_leaves_nothing_but_what_was_there(
    capsys: Capture, tmp_path: Path
) -> None:
    argv = _new_tournament(tmp_path, tmp_path / "t.db")
    (tmp_path / "teams.csv").write_text("name,school,players\nA,S1,a1\nA,S2,b1\n")
    before = fingerprint(tmp_path)
    code, _, _ = run(capsys, *argv)
    assert code == 2
    assert fingerprint(tmp_path) == before


def test_a_new_tournament_record_is_made_whole_and_named_once(
    capsys: Capture, tmp_path: Path
) -> None:
    code, _, err = run(capsys, *_new_tournament(tmp_path, tmp_path / "t.db"))
    assert (code, err) == (0, "")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.db", "teams.csv"]
    assert run(capsys, "tournament", "standings", "--db", str(tmp_path / "t.db"))[0] == 0


@pytest.mark.parametrize(("make", "says"), [(_fifo, "a FIFO"), (_link, "a symbolic link")])
def test_the_broker_password_file_is_written_only_over_a_regular_file(
    capsys: Capture, tmp_path: Path, make: object, says: str
) -> None:
    passwords = make(tmp_path / "passwords")  # type: ignore[operator]
    before = fingerprint(tmp_path)
    assert_bad_input(
        capsys,
        "hub",
        "users",
        str(passwords),
        "3",
        "--generate",
        str(tmp_path / "secret"),
        names=f"is {says}: expected a regular file",
    )
    assert fingerprint(tmp_path) == before


def test_the_directors_password_is_written_only_over_a_regular_file(tmp_path: Path) -> None:
    _link(tmp_path / "t.db.director")
    before = fingerprint(tmp_path)
    with pytest.raises(DirectorPasswordError, match="is a symbolic link: expected a regular"):
        store_password(tmp_path / "t.db", "a long enough password")
    assert fingerprint(tmp_path) == before


def test_a_card_replaces_only_a_regular_file(tmp_path: Path) -> None:
    card = _link(tmp_path / "card.html")
    before = fingerprint(tmp_path)
    with pytest.raises(InvalidInput, match="is a symbolic link: expected a regular file"):
        write_card(card, "<p>card</p>", force=True)
    assert fingerprint(tmp_path) == before


def test_a_sentence_nested_too_deeply_is_one_line(capsys: Capture) -> None:
    deep = "(" * 400 + "3" + ")" * 400
    assert_bad_input(
        capsys,
        "pentathlon",
        "sentence",
        "--dice",
        "3,5,4",
        f"{deep} + 5 + 4",
        names="nested too deeply at character 13: expected at most 12 brackets",
    )


def test_a_sentence_too_long_is_one_line(capsys: Capture) -> None:
    long = "+".join(["3"] * 3000)
    assert_bad_input(
        capsys, "pentathlon", "sentence", "--dice", "3,5,4", long, names="expected at most 100"
    )


@pytest.mark.parametrize(
    ("number", "says"),
    [("9" * 5000, "a number of 5000 digits"), ("²", "unexpected '²'")],
    ids=["huge", "a superscript"],
)
def test_a_number_int_cannot_read_is_one_line(capsys: Capture, number: str, says: str) -> None:
    assert_bad_input(
        capsys, "pentathlon", "sentence", "--dice", "3,5,4", f"3 + {number}", names=says
    )


def test_a_juggle_board_larger_than_a_board_is_refused_unread(
    capsys: Capture, tmp_path: Path
) -> None:
    board = tmp_path / "board.txt"
    board.write_text("R1 " * MAX_BOARD)
    assert_bad_input(
        capsys,
        "pentathlon",
        "juggle-board",
        str(board),
        names="is larger than 4 KiB: expected a Juggle board of at most 4 KiB",
    )


def test_a_fifo_is_refused_at_once_even_while_something_writes_to_it(tmp_path: Path) -> None:
    """R773: only a regular file is read; a FIFO is never read, writer or none."""
    fifo = _fifo(tmp_path / "endless")
    writer = os.fork()
    if writer == 0:  # writes until the reader goes
        try:
            with open(fifo, "wb") as out:
                while True:
                    out.write(b"x" * 65536)
        finally:
            os._exit(0)
    try:
        with pytest.raises(UserFileError, match="is a FIFO: expected a regular file holding"):
            read_limited_text(fifo, 1024, "a test's text")
    finally:
        os.kill(writer, 9)
        os.waitpid(writer, 0)


@pytest.mark.parametrize(
    "argv",
    [("states", "deck"), ("guesstimation", "replay"), ("replay",), ("guesstimation", "deck")],
)
def test_a_command_given_a_fifo_with_no_writer_refuses_it_and_never_waits(
    capsys: Capture, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    """Issue 19, finding 7: `states deck FIFO` and `guesstimation replay FIFO` hung forever."""
    fifo = _fifo(tmp_path / "pipe")
    assert_bad_input(capsys, *argv, str(fifo), names=f"{fifo} is a FIFO: expected a regular file")


def test_dev_null_is_not_an_empty_deck(capsys: Capture) -> None:
    """Issue 19, finding 7: `states deck /dev/null` read as a deck with no cards."""
    assert_bad_input(
        capsys,
        "states",
        "deck",
        "/dev/null",
        names="/dev/null is a character device: expected a regular file holding a deck's TOML",
    )


def test_a_knock_s_hands_hold_no_more_water_cards_than_the_deck(capsys: Capture) -> None:
    """Issue 19, finding 7: `states knock` took 5 water cards; the deck has 4."""
    hands = ("--hand", "A=DE,OR,NM,water", "--hand", "B=water,water,water,water")
    assert_bad_input(
        capsys,
        "states",
        "knock",
        *hands,
        "--deck",
        "docs/states/example-deck.toml",
        names="--hand: 5 water cards in the hands: expected at most the 4 in "
        "docs/states/example-deck.toml",
    )


def test_a_deck_colour_spelt_with_a_space_is_a_typo_not_a_new_colour(
    capsys: Capture, tmp_path: Path
) -> None:
    """Issue 19, finding 7: "bl ue" beside "blue" was taken as a fifth colour."""
    deck = tmp_path / "deck.toml"
    text = Path("docs/states/example-deck.toml").read_text()
    deck.write_text(text.replace('OR = { colour = "blue"', 'OR = { colour = "bl ue"'))
    assert 'colour = "bl ue"' in deck.read_text()
    assert_bad_input(
        capsys,
        "states",
        "deck",
        str(deck),
        names="colour 'bl ue' is AR's 'blue' spelt another way: expected one spelling",
    )


def test_an_echoed_value_is_cut_to_its_start_and_its_length(capsys: Capture) -> None:
    nines = "9" * 100_000
    code, out, err = run(
        capsys, "guesstimation", "closest", "--answer", "5", "--guesses", f"A={nines},B=2"
    )
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert "...(100000 characters): expected at most 30 digits" in err
    assert len(err) < 300


def test_a_value_no_longer_than_the_limit_is_echoed_whole() -> None:
    value = "x" * MAX_ECHOED
    assert shortened(f"{value}: expected y") == f"{value}: expected y"


def test_a_line_of_many_short_values_keeps_its_start_and_end() -> None:
    line = shortened("wrong: " + "ab " * 2000 + "expected c")
    assert line.startswith("wrong: ab") and line.endswith("expected c")
    assert "characters left out" in line and len(line) < 1100


# --- numbers Python's int() or SQLite cannot hold (issue 25, finding 7; R941) ----------------

HUGE = "9" * 5000  # past the 4,300 digits int() reads
LONG = "9" * 30  # past SQLite's 64-bit INTEGER


def test_a_broker_account_of_5000_digits_is_one_line(capsys: Capture, tmp_path: Path) -> None:
    before = fingerprint(tmp_path)
    assert_bad_input(
        capsys,
        "hub",
        "users",
        str(tmp_path / "passwords"),
        HUGE,
        "--generate",
        str(tmp_path / "secret"),
        names="expected a table number 1-999 or hub",
    )
    assert fingerprint(tmp_path) == before


def _paired_record(capsys: Capture, tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    assert run(capsys, *_new_tournament(tmp_path, db))[0] == 0
    assert run(capsys, "tournament", "pair", "--round", "1", "--db", str(db))[0] == 0
    return db


@pytest.mark.parametrize("where", [("--round", LONG), ("--round", "1", "--table", LONG)])
def test_a_protest_naming_a_round_or_table_of_30_digits_is_one_line(
    capsys: Capture, tmp_path: Path, where: tuple[str, ...]
) -> None:
    db = _paired_record(capsys, tmp_path)
    before = fingerprint(tmp_path)
    assert_bad_input(
        capsys,
        "tournament",
        "protest",
        *where,
        "--db",
        str(db),
        "the clock stopped",
        names=f"argument {where[-2]}: expected a whole number of at most 9 digits, got 30 digits",
    )
    assert fingerprint(tmp_path) == before


@pytest.mark.parametrize(
    ("rolls", "says"),
    [(f"A={HUGE},B=2", "expected a die roll 1 to 6"), ("A=²,B=2", "A='²': expected a die roll")],
    ids=["5000 digits", "a superscript"],
)
def test_a_duel_s_die_roll_int_cannot_read_is_one_line(
    capsys: Capture, rolls: str, says: str
) -> None:
    assert_bad_input(
        capsys,
        "guesstimation",
        "duel",
        "--answer",
        "100",
        "--dueler",
        "A=50",
        "--opponent",
        "B=50",
        "--rolls",
        rolls,
        names=says,
    )


def test_a_simulated_game_of_5000_digits_is_one_line(capsys: Capture) -> None:
    assert_bad_input(
        capsys, "sim", "--headless", "--game", HUGE, names="--game: expected a whole number"
    )


def test_pentathlon_challenges_of_5000_digits_are_one_line(capsys: Capture, tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,division,school\nAnn Lee,III,Elm\nBen Cho,III,Elm\n")
    db = str(tmp_path / "p.db")
    new = ("new", "--players", str(players), "--db", db)
    assert run(capsys, "tournament", "pentathlon", *new)[0] == 0
    seat = ("--round", "1", "--table", "1")
    argv = ("seat", *seat, "--game", "contig-60", "--a", "Ann Lee", "--b", "Ben Cho", "--db", db)
    assert run(capsys, "tournament", "pentathlon", *argv)[0] == 0
    assert_bad_input(
        capsys,
        "tournament",
        "pentathlon",
        "result",
        *seat,
        "--winner",
        "A",
        "--how",
        "goal",
        "--challenges",
        f"{HUGE}/0/0,0/0/0",
        "--db",
        db,
        names="challenges",
    )


def test_a_page_port_of_5000_digits_is_one_line(capsys: Capture, tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("secret\n")
    db = _paired_record(capsys, tmp_path)
    assert_bad_input(
        capsys,
        "hub",
        "run",
        "--db",
        str(db),
        "--password-file",
        str(tmp_path / "pw"),
        "--page",
        f"127.0.0.1:{HUGE}",
        names="expected a port from 0 to 65535",
    )


def test_a_card_from_a_fifo_is_refused_at_once_in_one_line(tmp_path: Path) -> None:
    """`pentathlon card FIFO` opened it to look for a journal's header and waited forever for
    a writer (issue 25's attack, finding 5): in its own process, with a deadline."""
    fifo = _fifo(tmp_path / "game.jsonl")
    assert _in_own_process("pentathlon", "card", str(fifo)) == (
        2,
        f"gametable: error: {fifo} is a FIFO: expected a regular file holding a game's log or "
        "a journal\n",
    )


def _in_own_process(*argv: str) -> tuple[int, str]:
    """``gametable ARGV`` in its own process, with a deadline (a FIFO it opens waits forever
    for a writer): its exit status and what it wrote to stderr."""
    root = Path(__file__).resolve().parent.parent
    command = "import sys; from firmware_py.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", command, *argv],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stderr


def test_a_table_s_hub_ca_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """paho handed the path to OpenSSL, which opened the FIFO and waited for a writer: the
    table never started and said nothing (issue 25's attack, finding 6)."""
    fifo = _fifo(tmp_path / "ca.pem")
    password = tmp_path / "hub-password"
    password.write_text("a table's password\n")
    config = tmp_path / "table.toml"
    config.write_text(
        f'[hub]\nenabled = true\nhost = "127.0.0.1"\ntable = 3\npassword_file = "{password}"\n'
        f'ca_file = "{fifo}"\n'
    )
    journal = tmp_path / "journal.db"
    assert _in_own_process("run", "--config", str(config), "--journal", str(journal)) == (
        2,
        f"gametable: error: hub.ca_file: {fifo} is a FIFO: expected a regular file holding "
        "the CA's PEM certificate\n",
    )


@pytest.mark.parametrize("option", ["--ca-file", "--page-cert"])
def test_the_hub_s_tls_files_that_are_fifos_are_refused_at_once(
    capsys: Capture, tmp_path: Path, option: str
) -> None:
    db = tmp_path / "t.db"
    assert run(capsys, *_new_tournament(tmp_path, db))[0] == 0
    password = tmp_path / "hub-password"
    password.write_text("the hub's password\n")
    fifo = _fifo(tmp_path / "tls.pem")
    argv = ["hub", "run", "--db", str(db), "--password-file", str(password), "--port", "1"]
    if option == "--ca-file":
        argv += ["--ca-file", str(fifo)]
        says = f"--ca-file: {fifo} is a FIFO: expected a regular file holding the CA's PEM"
    else:
        argv += ["--page", "127.0.0.1:0", "--page-cert", str(fifo), "--page-key", str(fifo)]
        says = f"--page-cert: {fifo} is a FIFO: expected a regular file holding a PEM"
    code, err = _in_own_process(*argv)
    assert code == 2
    assert err.startswith(f"gametable: error: {says}") and err.count("\n") == 1
