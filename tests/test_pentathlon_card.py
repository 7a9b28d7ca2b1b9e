"""The printable score card (R261-R263): per player the result and how, the final score, the
challenges made and the I/IA; every challenge with who ruled and who asked for the opinions;
a line for each player's signature; one self-contained page with every text escaped.
``gametable pentathlon card`` makes it from a game's log or a table's journal."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from firmware_py.families.pentathlon.card import Heading, card_html, finished_card
from rules.pentathlon.log import replay_log
from rules.pentathlon.record import record
from tests.cli_helpers import assert_bad_input, run
from tests.pentathlon_card_helpers import GAME_LOG, write_log
from tests.pentathlon_table_helpers import PTable, begin


def _record(lines: list[str] = GAME_LOG) -> dict[str, object]:
    return record(replay_log(lines))


def _text(html: str) -> str:
    """The card's words, tags dropped, runs of space made one."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _cards(html: str) -> list[str]:
    """Each Pentathlete's card's words, A's then B's."""
    return [_text(part) for part in re.split(r'<section class="card[^"]*">', html)[1:]]


def test_each_pentathlete_has_a_card_of_their_own() -> None:
    """Rulebook: "Pentathletes are to verify the information on their score card and sign
    their own score card": one card per Pentathlete, each with its own signature line (R788)."""
    a, b = _cards(card_html(_record(), names={"A": "Ann Lee", "B": "Ben Cho"}))
    assert "Official Score Card of Player A: Ann Lee" in a
    assert "Official Score Card of Player B: Ben Cho" in b
    assert "Player A's signature: Ann Lee" in a and "Player B's signature" not in a
    assert "Player B's signature: Ben Cho" in b and "Game Monitor's signature" in b


def test_each_card_says_the_result_and_how_it_was_decided() -> None:
    a, b = _cards(card_html(_record()))
    assert "WIN time-limit adjudication. time limit: A has the lower score by 3 or more" in a
    assert "LOSS time-limit adjudication" in b
    for card in (a, b):
        assert "Player A: running score 25, 17 chips left; Player B: running score 34" in card


def test_the_challenge_record_names_the_rule_the_ruling_and_who_ruled() -> None:
    a, _ = _cards(card_html(_record()))
    assert (
        "1 B Recording and announcing the running score I "
        "I by the Game Monitor; I by the Game Leader, asked by B"
    ) in a
    assert "2 A Placing the chip on the corresponding space IA IA by the Game Monitor" in a


def test_each_card_counts_its_player_s_challenges_by_ruling() -> None:
    a, b = _cards(card_html(_record()))
    assert "Player A's challenges: 1 (C 0, I 0, IA 1); I/IA in force 1 of 3." in a
    assert "Player B's challenges: 1 (C 0, I 1, IA 0); I/IA in force 1 of 3." in b


def test_the_heading_names_the_event_date_division_round_table_game_and_monitor() -> None:
    """Rulebook: "The Score Card is THE ONLY Official Record of a Pentathlete's score": it says
    which game of which event it records (R788)."""
    heading = Heading("Spring Open", "2026-04-18", "III", "2", "7", "Mo Reyes")
    a, _ = _cards(card_html(_record(), heading=heading))
    assert "Event Spring Open Division III Date 2026-04-18 Round 2 Table 7 Game Contig 60" in a
    assert "Game Monitor's signature: Mo Reyes" in a


def test_what_is_not_known_is_a_blank_line_to_write_on() -> None:
    html = card_html(_record())
    assert html.count('<span class="blank"></span>') == 2 * 7  # 5 facts and 2 names a card


def test_the_start_is_on_the_card() -> None:
    """Rulebook: "Players each toss one of the die. The player with the lower toss receives
    Scoring Flag Card and begins": the tosses, re-tosses included (R788)."""
    lines = [
        GAME_LOG[0],
        '{"action": "pentathlon.die_toss", "a": 4, "b": 4}',
        '{"action": "pentathlon.die_toss", "a": 1, "b": 3}',
    ]
    a, _ = _cards(card_html(_record(lines)))
    assert (
        "The start: Die toss: A 4, B 4: equal, tossed again; Die toss: A 1, B 3: A has the lower "
        "toss and begins."
    ) in a


def test_every_declaration_and_its_fate_is_on_the_card() -> None:
    """Rulebook: "If CORRECT, a win is granted to the challenger" (R780)."""
    lines = [
        GAME_LOG[0],
        '{"action": "pentathlon.die_toss", "a": 1, "b": 3}',
        '{"action": "pentathlon.contig.play", "score": 2}',
        '{"action": "pentathlon.declare_win", "player": "A", "goal": "five-in-a-row"}',
        '{"action": "pentathlon.challenge", "challenger": "B", "rules": ["five-in-a-row"]}',
        '{"action": "pentathlon.rule", "ruling": "C"}',
    ]
    a, _ = _cards(card_html(_record(lines)))
    assert (
        "5 chips of the player's colour in a row, declared by Player A in turn 1: the win went "
        "to the challenger: the challenge was ruled Correct (challenge 1). The record said: A "
        "has placed 1 chip: 5 in a row needs 5."
    ) in a


def test_a_declared_win_the_game_did_not_end_with_is_not_said_to_have_stood() -> None:
    """Rulebook: "Three incorrect and/or inappropriate challenges ... result in a forfeiture of
    the game": a declarer's own third I/IA makes the game a loss, so the card the declarer signs
    must not say the declared win stood beside LOSS (audit of issue 20)."""
    lines = [
        GAME_LOG[0],
        '{"action": "pentathlon.die_toss", "a": 1, "b": 3}',
        '{"action": "pentathlon.challenge", "challenger": "A", "rules": ["other"]}',
        '{"action": "pentathlon.rule", "ruling": "IA"}',
        '{"action": "pentathlon.challenge", "challenger": "A", "rules": ["other"]}',
        '{"action": "pentathlon.rule", "ruling": "IA"}',
        '{"action": "pentathlon.declare_win", "player": "A", "goal": "five-in-a-row"}',
        '{"action": "pentathlon.challenge", "challenger": "A", "rules": ["other"]}',
        '{"action": "pentathlon.rule", "ruling": "IA"}',
    ]
    a, b = _cards(card_html(_record(lines)))
    for card in (a, b):
        assert "stood" not in card
        assert (
            "declared by Player A in turn 1: set aside: the game was decided otherwise (A has "
            "three I/IA rulings: the game is a loss for A)."
        ) in card
    assert "LOSS three I/IA" in a


def test_an_infraction_is_on_both_cards_and_the_zero_points_on_the_player_s() -> None:
    """Rulebook: "Such infractions can result in 0 points and/or being required to leave the
    tournament site" (R789)."""
    lines = [
        *GAME_LOG[:-1],
        '{"action": "pentathlon.infraction", "player": "B", "zero_points": true}',
        GAME_LOG[-1],
    ]
    a, b = _cards(card_html(_record(lines)))
    said = "Code of Conduct infraction by B, handled by the Tournament Director: 0 points."
    assert said in a and said in b
    assert "0 points: a Code of Conduct infraction" in b
    assert "0 points: a Code of Conduct infraction" not in a


def test_the_result_the_director_gives_is_on_both_cards() -> None:
    """R789: "the Director may stop the game; the monitor then records the result the
    Director gives": the card says whose result it is (R748)."""
    lines = [
        *GAME_LOG[:2],
        '{"action": "pentathlon.infraction", "player": "B", "removal": true}',
        '{"action": "pentathlon.director_result", "winner": "A"}',
        '{"action": "pentathlon.confirm"}',
    ]
    a, b = _cards(card_html(_record(lines)))
    said = "the Tournament Director's result. the Tournament Director stopped the game: A wins."
    assert f"WIN {said}" in a and f"LOSS {said}" in b


def test_every_text_is_escaped() -> None:
    heading = Heading(event="<i>Open</i>")
    html = card_html(_record(), names={"A": "<b>Ann</b>", "B": 'Ben "&" Cho'}, heading=heading)
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html
    assert "Ben &quot;&amp;&quot; Cho" in html
    assert "&lt;i&gt;Open&lt;/i&gt;" in html


def test_a_right_to_left_name_is_isolated_wherever_the_card_prints_it() -> None:
    """R848: "مرحبا (A)" takes the card's left-to-right direction unless isolated: its "(A)"
    shows on the wrong side. Every name, the event, division and monitor in a ``<bdi>``."""
    rtl, other = "مرحبا (A)", "אבי 2"
    heading = Heading(event="אלופ", division="ח 1", monitor="רות")
    html = card_html(_record(), names={"A": rtl, "B": other}, heading=heading)
    for text in (rtl, other, "אלופ", "ח 1", "רות"):
        shown = html.count(text)
        assert shown > 0 and html.count(f"<bdi>{text}</bdi>") == shown, text


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
    assert out.startswith("<!DOCTYPE html>") and "Player A's signature: <bdi>Ann" in out
    assert str(tmp_path) not in out and "game.jsonl" not in out  # nothing of the machine


def test_the_card_is_written_to_a_new_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log, out = write_log(tmp_path / "game.jsonl"), tmp_path / "card.html"
    code, printed, err = run(capsys, "pentathlon", "card", str(log), "-o", str(out))
    assert (code, printed, err) == (0, f"wrote {out}\n", "")
    assert "Official Score Card of Player A" in out.read_text(encoding="utf-8")


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
    assert code == 0 and "Official Score Card" in out.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.html", "game.jsonl"]


def test_the_card_of_a_journal_is_its_last_pentathlon_session_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "table.journal"
    table = PTable(journal=journal, game="queens-guards")
    begin(table, "B").buttons("yes").choose("Tie: agreed").buttons("yes")
    table.close()
    before = journal.read_bytes()
    code, out, err = run(capsys, "pentathlon", "card", str(journal), "--session", "1")
    assert (code, err) == (0, "")
    assert "Queens &amp; Guards (30 min)" in out and "TIE" in out
    assert str(journal) not in out
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
        # the character at fault is named, not only "not printable" (finding 4 of the attack)
        (["--names", "Ann,Ben \U0001f469\u200d\U0001f52c"], "U+200D ZERO WIDTH JOINER is not"),
        (["--names", "Ann,\x1b[2JBen"], "U+001B (a control character) is not printable"),
        (["--event", "Open\u202e"], "--event: 'Open\\u202e': U+202E RIGHT-TO-LEFT OVERRIDE"),
        # the official record's round and table are the tournament record's (1 to 99, 1 to 999)
        (["--round", "0"], "--round 0: expected 1 to 99"),
        (["--round", "-1"], "--round -1: expected 1 to 99"),
        (["--table", "0"], "--table 0: expected 1 to 999"),
        # the date as the table prints its own (R819): a real day
        (["--date", "2026-02-30"], "--date '2026-02-30': expected a day as YYYY-MM-DD"),
        (["--date", "yesterday"], "--date 'yesterday': expected a day as YYYY-MM-DD"),
        (["--date", "\uff12\uff10\uff12\uff16-01-01"], "expected a day as YYYY-MM-DD"),  # fullwidth
        # the five divisions the help names, I to V (issue 26, finding 6; R984)
        (["--division", "VI"], "--division 'VI': expected one of I, II, III, IV, V (or 1 to 5)"),
        (["--division", "6"], "--division '6': expected one of I, II, III, IV, V"),
        (["--division", "Open\u202e"], "--division: 'Open\\u202e': U+202E RIGHT-TO-LEFT"),
        # one ASCII digit, 1 to 5: not a superscript, a fullwidth or another script's (R990)
        (["--division", "\u00b2"], "--division '\u00b2': expected one of I, II, III, IV, V"),
        (["--division", "\uff14"], "--division '\uff14': expected one of I, II, III, IV, V"),
        (["--division", "\u0664"], "--division '\u0664': expected one of I, II, III, IV, V"),
        (["--division", "04"], "--division '04': expected one of I, II, III, IV, V"),
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
    begin(table, "A")
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


def test_the_names_and_division_come_from_the_tournament_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Rulebook: "Pentathletes are to verify the information on their score card": the names
    the director seated at the table, from the record, not typed again (R788)."""
    players = tmp_path / "players.csv"
    players.write_text("name,division,school\nAnn Lee,III,Oak\nBen Cho,III,Elm\n", "utf-8")
    db = tmp_path / "t.db"
    for argv in (
        ["new", "--players", str(players)],
        ["seat", "--round", "1", "--table", "7", "--game", "contig-60", "--a", "Ann Lee",
         "--b", "Ben Cho"],
    ):  # fmt: skip
        assert run(capsys, "tournament", "pentathlon", *argv, "--db", str(db))[0] == 0
    before = db.read_bytes()
    log = write_log(tmp_path / "game.jsonl")
    code, out, err = run(
        capsys, "pentathlon", "card", str(log), "--db", str(db), "--round", "1", "--table", "7",
        "--event", "Spring Open", "--date", "2026-04-18", "--monitor", "Mo Reyes",
    )  # fmt: skip
    assert (code, err) == (0, "")
    a, b = _cards(out)
    assert "Event Spring Open Division III Date 2026-04-18 Round 1 Table 7" in a
    assert "Player A (this card) Ann Lee Player B (the opponent) Ben Cho" in a
    assert "Player B's signature: Ben Cho Game Monitor's signature: Mo Reyes" in b
    assert db.read_bytes() == before
    assert_bad_input(
        capsys, "pentathlon", "card", str(log), "--db", str(db), "--round", "1",
        names="give --round and --table too",
    )  # fmt: skip


def test_a_layout_is_pages_or_halves(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = write_log(tmp_path / "game.jsonl")
    assert_bad_input(capsys, "pentathlon", "card", str(log), "--layout", "a5", names="--layout")
    code, out, _ = run(capsys, "pentathlon", "card", str(log), "--layout", "halves")
    assert code == 0 and '<body class="halves">' in out and "cut here" in out


@pytest.mark.parametrize(("given", "printed"), [("III", "III"), ("iv", "IV"), ("2", "II")])
def test_the_division_prints_as_the_tournament_record_keeps_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, given: str, printed: str
) -> None:
    """R984: a division by its numeral or its number, printed as the record's numeral."""
    log = write_log(tmp_path / "game.jsonl")
    code, out, _ = run(capsys, "pentathlon", "card", str(log), "--division", given)
    assert code == 0 and f"Division</span><bdi>{printed}</bdi>" in out


def test_each_card_shows_what_its_result_is_worth_in_the_standings() -> None:
    """Issue 26, finding 6 (R985): the standings points the hub ranks, on the card the player
    signs, with the scale so that they can be checked: A won, B lost."""
    a, b = _cards(card_html(_record()))
    assert "Standings: this game is worth 2 points (a win 2, a tie 1, a loss 0)." in a
    assert "Standings: this game is worth 0 points (a win 2, a tie 1, a loss 0)." in b


def test_the_tournament_directors_0_points_are_the_card_s_standings_points() -> None:
    lines = [
        *GAME_LOG[:-1],
        '{"action": "pentathlon.infraction", "player": "A", "zero_points": true}',
        GAME_LOG[-1],
    ]
    a, _ = _cards(card_html(_record(lines)))
    assert "LOSS" not in a and "WIN" in a
    assert "worth 0 points (the Tournament Director's 0 points) (a win 2" in a


def test_the_card_from_the_tournament_record_uses_the_event_s_points(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,division,school\nAnn Lee,III,Oak\nBen Cho,III,Elm\n", "utf-8")
    db = tmp_path / "t.db"
    for argv in (
        ["new", "--players", str(players), "--points", "3,1,0"],
        ["seat", "--round", "1", "--table", "7", "--game", "contig-60", "--a", "Ann Lee",
         "--b", "Ben Cho"],
    ):  # fmt: skip
        assert run(capsys, "tournament", "pentathlon", *argv, "--db", str(db))[0] == 0
    log = write_log(tmp_path / "game.jsonl")
    code, out, _ = run(
        capsys, "pentathlon", "card", str(log), "--db", str(db), "--round", "1", "--table", "7"
    )
    assert code == 0
    a, b = _cards(out)
    assert "worth 3 points (a win 3, a tie 1, a loss 0)" in a
    assert "worth 0 points (a win 3, a tie 1, a loss 0)" in b
