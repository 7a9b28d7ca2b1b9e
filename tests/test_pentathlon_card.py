"""The printable score card (R261-R263): per player the result and how, the final score, the
challenges made and the I/IA; every challenge with who ruled and who asked for the opinions;
a line for each player's signature; one self-contained page with every text escaped.
``gametable pentathlon card`` makes it from a game's log or a table's journal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_py.families.pentathlon.card import card_html, finished_card
from rules.pentathlon.log import replay_log
from rules.pentathlon.record import record
from tests.cli_helpers import assert_bad_input, run
from tests.pentathlon_card_helpers import GAME_LOG, write_log
from tests.pentathlon_table_helpers import PTable


def _record(lines: list[str] = GAME_LOG) -> dict[str, object]:
    return record(replay_log(lines))


def _text(html: str) -> str:
    """The card's words, tags dropped, runs of space made one."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_each_player_s_result_says_how_it_was_decided() -> None:
    text = _text(card_html(_record()))
    assert "A Ann WIN" not in text  # no names given: a blank to write them on
    assert re.search(r"A\s+WIN time-limit adjudication running score 25, 17 chips left", text)
    assert re.search(r"B\s+LOSS time-limit adjudication running score 34, 18 chips left", text)


def test_the_challenge_record_names_the_rule_the_ruling_and_who_ruled() -> None:
    text = _text(card_html(_record()))
    assert (
        "1 B Recording and announcing the running score I "
        "I by the Game Monitor; I by the Game Leader, asked by B"
    ) in text
    assert "2 A Placing the chip on the corresponding space IA IA by the Game Monitor" in text


def test_each_player_s_challenges_are_counted_by_ruling() -> None:
    text = _text(card_html(_record()))
    assert "1 (C 0, I 0, IA 1)" in text  # A's
    assert "1 (C 0, I 1, IA 0)" in text  # B's


def test_the_card_has_a_signature_line_for_each_player_and_the_monitor() -> None:
    html = card_html(_record(), names={"A": "Ann Lee", "B": "Ben Cho"})
    signatures = re.findall(r"<div>([^<]*)</div>", html)
    assert signatures == [
        "Player A signature: Ann Lee",
        "Player B signature: Ben Cho",
        "Game Monitor",
    ]


def test_every_text_is_escaped() -> None:
    html = card_html(_record(), names={"A": "<b>Ann</b>", "B": 'Ben "&" Cho'}, source="<x>")
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html
    assert "Ben &quot;&amp;&quot; Cho" in html
    assert "From &lt;x&gt;." in html


def test_the_card_fetches_nothing_and_runs_nothing() -> None:
    html = card_html(_record())
    assert not re.search(r"<script|<link|<img|src=|href=|url\(|@import", html)


def test_a_game_not_confirmed_is_marked_not_the_official_record() -> None:
    unconfirmed = _record(GAME_LOG[:-1])
    assert "Not the official record yet" in card_html(unconfirmed)
    assert "Not the official record yet" not in card_html(_record())


def test_the_table_offers_a_card_only_once_the_result_is_confirmed() -> None:
    assert finished_card(_record(GAME_LOG[:-1])) is None
    assert finished_card(_record()) is not None


@pytest.mark.parametrize(
    ("lines", "score"),
    [
        (
            [
                '{"action": "pentathlon.start", "game": "queens-guards", "minutes": 20}',
                '{"action": "pentathlon.begins", "player": "B"}',
            ],
            "no score kept",
        ),
        (
            [
                '{"action": "pentathlon.start", "game": "fab-a-diffy", "minutes": 20, '
                '"partitions": [2, 3, 4, 6, 12]}',
                '{"action": "pentathlon.begins", "player": "B"}',
            ],
            "games won 0, tied 0 (of 0)",
        ),
        (
            [
                '{"action": "pentathlon.start", "game": "stars-bars", "minutes": 20}',
                '{"action": "pentathlon.begins", "player": "A"}',
            ],
            "running score 0",
        ),
    ],
)
def test_the_final_score_is_in_the_game_s_own_terms(lines: list[str], score: str) -> None:
    assert score in _text(card_html(_record(lines)))


# --- gametable pentathlon card -------------------------------------------------------------


def test_the_card_of_a_log_goes_to_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = write_log(tmp_path / "game.jsonl")
    code, out, err = run(capsys, "pentathlon", "card", str(log), "--names", "Ann,Ben")
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>") and "Player A signature: Ann" in out


def test_the_card_is_written_to_a_new_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log, out = write_log(tmp_path / "game.jsonl"), tmp_path / "card.html"
    code, printed, err = run(capsys, "pentathlon", "card", str(log), "-o", str(out))
    assert (code, printed, err) == (0, f"wrote {out}\n", "")
    assert "Contig 60: Score Card" in out.read_text(encoding="utf-8")


def test_an_existing_file_is_kept_unless_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log, out = write_log(tmp_path / "game.jsonl"), tmp_path / "card.html"
    out.write_text("yesterday's card", encoding="utf-8")
    assert_bad_input(
        capsys, "pentathlon", "card", str(log), "-o", str(out), names="give --force to replace it"
    )
    assert out.read_text(encoding="utf-8") == "yesterday's card"
    code, _, _ = run(capsys, "pentathlon", "card", str(log), "-o", str(out), "--force")
    assert code == 0 and "Score Card" in out.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.html", "game.jsonl"]


def test_the_card_of_a_journal_is_its_last_pentathlon_session_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "table.journal"
    table = PTable(journal=journal, game="queens-guards")
    table.choose("B begins").buttons("yes").choose("Tie: agreed").buttons("yes")
    table.close()
    before = journal.read_bytes()
    code, out, err = run(capsys, "pentathlon", "card", str(journal), "--session", "1")
    assert (code, err) == (0, "")
    assert "Queens &amp; Guards: Score Card" in out and "TIE" in out
    assert "session 1" in out
    assert journal.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.journal"]


@pytest.mark.parametrize(
    ("extra", "names"),
    [
        (["--session", "1"], "is a game's log, not a journal"),
        (["--force"], "give --out too"),
        (["--names", "Ann"], "expected two names"),
        (["--names", "Ann,"], "expected two names"),
        (["--names", "Ann,\x1b[2JBen"], "printable name"),
    ],
)
def test_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], names: str
) -> None:
    log = write_log(tmp_path / "game.jsonl")
    assert_bad_input(capsys, "pentathlon", "card", str(log), *extra, names=names)
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


def test_a_journal_session_that_is_not_there_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "table.journal"
    table = PTable(journal=journal, game="contig-60")
    table.choose("A begins")
    table.close()
    assert_bad_input(
        capsys, "pentathlon", "card", str(journal), "--session", "4", names="sessions are 1"
    )


def test_a_log_that_does_not_replay_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = write_log(tmp_path / "game.jsonl", [*GAME_LOG[:3], '{"action": "pentathlon.rule"}'])
    out = tmp_path / "card.html"
    assert_bad_input(capsys, "pentathlon", "card", str(log), "-o", str(out), names="line 4")
    assert not out.exists()


def test_a_database_that_is_not_a_journal_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import sqlite3

    other = tmp_path / "tournament.db"
    sqlite3.connect(other).execute("create table t (x)").connection.close()
    assert_bad_input(capsys, "pentathlon", "card", str(other), names="not a journal")
