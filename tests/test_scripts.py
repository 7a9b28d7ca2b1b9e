"""The example scripts of docs/scripts.md, played headless: they are the specification of
what the table decides, and docs/scripts.md shows them verbatim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import ScriptError, parse_script, run_script

SCRIPTS = Path(__file__).resolve().parents[1] / "docs/scripts"
DOC = Path(__file__).resolve().parents[1] / "docs/scripts.md"


def play(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    run_script((SCRIPTS / f"{name}.jsonl").read_text().splitlines(), TableSettings(), events.append)
    return events


def decisions(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == kind]


def test_plunge_standing_at_count_5_and_sitting_down_before_5() -> None:
    (plunge,) = decisions(play("plunge"), "plunge")
    assert plunge["plunging"] == ["A"]
    assert plunge["t"] == pytest.approx(2.0 + 4 * 1.0 + TableSettings().settle)


def test_shout_won_by_a_few_ms() -> None:
    (shout,) = decisions(play("shout-won-by-ms"), "shout")
    assert (shout["first"], shout["result"], shout["margin_ms"]) == ("B", "B", 18.0)


def test_simultaneous_shouts_inside_the_tie_window_are_a_tie() -> None:
    (shout,) = decisions(play("simultaneous-shouts"), "shout")
    assert (shout["result"], shout["margin_ms"]) == ("tie", 4.2)


def test_chummy_question_without_a_shout_times_out_after_15_s() -> None:
    events = play("chummy-no-shout")
    (timeout,) = decisions(events, "timeout")
    # GO at 20 s: the 15 s end at 35 s, announced settle_ms later (R110)
    assert (timeout["timer"], timeout["t"]) == (
        "chummy",
        pytest.approx(35.0 + TableSettings().settle),
    )
    assert any(e.get("action") == "chummy.timeout" for e in decisions(events, "action"))


def test_buzzer_held_before_the_window_opened_is_stuck_and_cannot_win() -> None:
    events = play("stuck-buzzer")
    assert decisions(events, "stuck") == [{"t": 8.0, "event": "stuck", "input": "B.shout"}]
    (shout,) = decisions(events, "shout")
    assert shout["result"] == "A"


def test_whole_combo4_match_from_first_count_to_match_result() -> None:
    events = play("combo4-match")
    results = [(e["game"], e["winner"], e["points"]) for e in decisions(events, "game_result")]
    assert results == [
        (1, "A", {"A": 20, "B": 0}),
        (2, "A", {"A": 10, "B": 0}),
        (3, "B", {"A": 0, "B": 30}),
        (4, "B", {"A": 0, "B": 20}),
        (5, "A", {"A": 10, "B": 0}),
        (1, None, {"A": 0, "B": 0}),
    ]
    assert decisions(events, "match_result") == [
        {"t": 1202.0, "event": "match_result", "winner": "B", "A": 40, "B": 50}
    ]
    assert decisions(events, "score")[-1] == {"t": 1202.0, "event": "score", "A": 40, "B": 50}
    assert not decisions(events, "refused")


def test_whole_combo3_match_then_the_next_round_from_the_console() -> None:
    events = play("combo3-match")
    results = [
        (e["game"], e["level"], e["winner"], e["points"]) for e in decisions(events, "game_result")
    ]
    assert results == [
        (1, 3, "A", {"A": 20, "B": 0}),
        (2, 3, "A", {"A": 20, "B": 0}),
        (3, 3, "B", {"A": 0, "B": 20}),
        (4, 3, "B", {"A": 0, "B": 20}),
        (5, 3, "A", {"A": 10, "B": 0}),
        (1, 3, None, {"A": 0, "B": 0}),
        (3, 3, "A", {"A": 30, "B": 0}),  # round 5
        (5, 3, None, {"A": 0, "B": 0}),
    ]
    assert [(e["winner"], e["A"], e["B"]) for e in decisions(events, "match_result")] == [
        ("A", 50, 40),
        ("A", 30, 0),
    ]
    (session,) = decisions(events, "session")
    assert (session["number"], session["action"], session["round"]) == (2, "match3.start", 5)
    assert [e["minutes"] for e in decisions(events, "clock")] == [20, 12]
    assert not decisions(events, "refused")


def test_championship_tied_2_2_is_decided_by_border_up_played_until_it_has_a_winner() -> None:
    events = play("championship")
    results = [(e["game"], e["winner"], e["tiebreaker"]) for e in decisions(events, "game_result")]
    assert results == [
        (1, "A", False),
        (2, "B", False),
        (3, "A", False),
        (4, "B", False),
        (1, None, True),
        (1, "B", True),
    ]
    assert decisions(events, "wins")[-1] == {"t": 198.0, "event": "wins", "A": 2, "B": 2}
    assert decisions(events, "match_result") == [
        {"t": 198.0, "event": "match_result", "champion": "B", "wins": {"A": 2, "B": 2},
         "not_played": []}
    ]  # fmt: skip
    assert not decisions(events, "session")
    assert not decisions(events, "refused")


def test_guesstimation_two_rounds_with_guesses_from_phones_and_the_console() -> None:
    events = play("guesstimation-two-rounds")
    assert [
        (e["round"], e["answer"], e["winners"], e["moves"])
        for e in decisions(events, "round_result")
    ] == [(1, "1969", ["Bo"], {"Bo": 3}), (2, "2.54", ["Cy"], {"Cy": 3})]
    refusals = [(e["seat"], e["reason"]) for e in decisions(events, "entry_refused")]
    assert refusals == [
        ("B", "guess for Bo '1,969' is not a number: expected a decimal like 29029 or -3.75 "
              "(no thousands separators)"),
        ("C", "seat C has entered its guess already"),
    ]  # fmt: skip
    console = [e for e in decisions(events, "action") if e.get("player") == "Ann"][-1]
    assert (console["action"], console["value"]) == ("guesstimation.guess", "3")
    assert decisions(events, "score")[-1] | {"t": 0} == {"t": 0, "event": "score", "A": 0,
                                                         "B": 3, "C": 3}  # fmt: skip


def test_a_script_entry_line_is_checked_like_the_rest() -> None:
    setup = '{"setup": {"family": "guesstimation", "seats": ["A", "B", "C"]}}'
    for line, wanted in (
        ('{"t": 1, "entry": {"seat": "D", "name": "guess", "value": "1"}}', "entry.seat"),
        ('{"t": 1, "entry": {"seat": "A", "name": "guess"}}', "entry: missing value"),
        ('{"t": 1, "entry": {"seat": "A", "name": "guess", "value": 5}}', "entry.value"),
        ('{"t": 1, "entry": "A=5"}', "entry: expected an object"),
        (
            '{"t": 1, "press": "A.shout", "entry": {}}',
            r"a line does one thing \(press, release or entry\)",
        ),
    ):
        with pytest.raises(ScriptError, match=f"line 2: {wanted}"):
            parse_script([setup, line], TableSettings())


def test_a_setup_may_seat_more_players_in_the_configs_seat_order() -> None:
    setup = '{"setup": {"family": "guesstimation", "seats": ["A", "B", "C", "D"]}}'
    settings, _ = parse_script([setup, '{"t": 1, "press": "D.shout"}'], TableSettings())
    assert settings.seats == ("A", "B", "C", "D")
    with pytest.raises(ScriptError, match=r"setup.seats: expected a list of 2 to 6 seats"):
        parse_script(['{"setup": {"seats": ["A", "C"]}}'], TableSettings())


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_example_script_is_shown_verbatim_in_the_docs(script: Path) -> None:
    assert script.read_text().strip() in DOC.read_text()


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ('{"t": -1, "press": "A.shout"}', "t: expected seconds"),
        ('{"t": 1, "press": "C.shout"}', "unknown input 'C.shout'"),
        ('{"t": 1, "press": "A.shout", "release": "A.shout"}', "not both"),
        ('{"t": 1, "hold": "A.shout"}', "unknown key(s) hold"),
        ("[1, 2]", "expected a JSON object"),
        ("{oops", "not JSON"),
        ('{"setup": {"game": 9}}', "setup.game: expected a whole number from 1 to 5"),
        ('{"setup": {"colour": 1}}', "setup.colour: unknown"),
    ],
)
def test_a_bad_script_line_is_named(line: str, names: str) -> None:
    with pytest.raises(ScriptError, match="line 1: ") as raised:
        parse_script([line], TableSettings())
    assert names in str(raised.value)


DEEP = '{"t": 1, "press": ' + "[" * 100_000 + "]" * 100_000 + "}"
TOO_MANY_DIGITS = '{"t": ' + "9" * 400 + "}"


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        (DEEP, "line 2: not JSON we can read (nested too deeply)"),
        ('{"t": ' + "1" * 5000 + "}", "line 2: not JSON we can read (a number too long)"),
        (
            '{"t": 1, "press": ["A.shout"]}',
            "line 2: press: expected an input name (a string), got a list",
        ),
        (
            '{"t": 1, "release": {"A": 1}}',
            "line 2: release: expected an input name (a string), got an object",
        ),
        ('{"t": 1, "press": null}', "line 2: press: expected an input name (a string), got null"),
        (
            TOO_MANY_DIGITS,
            "line 2: t: expected seconds (a number from 0 to 1000000), got 9999999999",
        ),
        ('{"t": NaN}', "line 2: t: expected seconds (a number from 0 to 1000000), got NaN"),
        (
            '{"t": Infinity, "press": "A.shout"}',
            "line 2: t: expected seconds (a number from 0 to 1000000), got Infinity",
        ),
        ('{"t": -Infinity}', "line 2: t: expected seconds (a number from 0 to 1000000), got"),
        ('{"t": 1e400}', "line 2: t: expected seconds (a number from 0 to 1000000), got Infinity"),
        ('{"t": 1e300}', "line 2: t: expected seconds (a number from 0 to 1000000), got 1e+300"),
        ('{"t": "5"}', 'line 2: t: expected seconds (a number from 0 to 1000000), got "5"'),
        ('{"press": "A.shout"}', "line 2: t: expected seconds (a number from 0 to 1000000), got "),
    ],
)
def test_a_malformed_value_is_one_line_naming_its_line_and_field(line: str, wanted: str) -> None:
    with pytest.raises(ScriptError) as raised:
        parse_script(['{"t": 0}', line], TableSettings())
    message = str(raised.value)
    assert message.startswith(wanted) and "\n" not in message and len(message) < 200


@pytest.mark.parametrize(
    ("setup", "wanted"),
    [
        ('{"minutes": ' + "9" * 400 + "}", "setup.minutes: expected a whole number from 1 to 120"),
        ('{"round": 0}', "setup.round: expected a whole number from 1 to 99, got 0"),
        ('{"round": 2.5}', "setup.round: expected a whole number from 1 to 99, got 2.5"),
        ('{"on_time_up": ["tie"]}', "setup.on_time_up: expected one of abandon, finish, tie"),
        ("[]", "setup: expected an object, got a list"),
    ],
)
def test_a_setup_out_of_bounds_is_one_line(setup: str, wanted: str) -> None:
    with pytest.raises(ScriptError, match=r"^line 1: ") as raised:
        parse_script([f'{{"setup": {setup}}}'], TableSettings())
    assert wanted in str(raised.value)


def test_a_setup_line_holds_only_setup() -> None:
    with pytest.raises(ScriptError, match="line 1: a setup line holds only setup, not press, t"):
        parse_script(['{"setup": {"game": 1}, "t": 1, "press": "A.shout"}'], TableSettings())


def test_a_script_has_one_setup_line() -> None:
    lines = ['{"setup": {"game": 1}}', '{"setup": {"game": 5}}']
    with pytest.raises(ScriptError, match="line 2: a second setup line: expected one"):
        parse_script(lines, TableSettings())


def test_script_times_never_go_backwards() -> None:
    lines = ['{"t": 2, "press": "A.shout"}', '{"t": 1, "release": "A.shout"}']
    with pytest.raises(ScriptError, match="line 2: t 1 is before"):
        parse_script(lines, TableSettings())


def test_headless_cli_prints_decisions_as_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_py.cli import main

    assert main(["sim", "--headless", "--script", str(SCRIPTS / "plunge.jsonl")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # the count is read at 5 and decided the lgpio settle (6 ms) later
    assert {"t": 6.006, "event": "plunge", "plunging": ["A"]} in lines


def test_headless_cli_format_and_round_set_up_a_script_without_setup(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from firmware_py.cli import main

    script = tmp_path / "draw.jsonl"
    script.write_text('{"t": 1, "press": "console.yes"}\n{"t": 1.1, "release": "console.yes"}\n')
    argv = ["sim", "--headless", "--format", "combo3", "--round", "5", "--script", str(script)]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    actions = [line for line in lines if line["event"] == "action"]
    assert actions == [{"t": 1.0, "event": "action", "action": "draw_winner", "first": "A"}]


def test_headless_cli_a_round_the_format_has_not_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from firmware_py.cli import main

    script = str(SCRIPTS / "plunge.jsonl")
    assert (
        main(["sim", "--headless", "--format", "combo3", "--round", "9", "--script", script]) == 2
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err == "gametable: error: --round: expected a whole number from 1 to 8"
        " (a Combo 3 round), got 9\n"
    )


def test_headless_cli_bad_script_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from firmware_py.cli import main

    script = tmp_path / "bad.jsonl"
    script.write_text('{"t": 1, "press": "Z.shout"}\n')
    assert main(["sim", "--headless", "--script", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown input 'Z.shout'" in err


BAD_SCRIPTS = {
    "deep": DEEP,
    "list-press": '{"t": 1, "press": ["A.shout"]}',
    "400-digit-t": TOO_MANY_DIGITS,
    "nan": '{"t": NaN, "press": "A.shout"}',
    "round-0": '{"setup": {"round": 0}}',
}


@pytest.mark.parametrize("name", BAD_SCRIPTS)
def test_headless_cli_rejects_a_bad_script_without_creating_the_journal(
    name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from firmware_py.cli import main

    script = tmp_path / "bad.jsonl"
    script.write_text('{"t": 1, "press": "console.go"}\n' + BAD_SCRIPTS[name] + "\n")
    journal = tmp_path / "new.db"
    assert main(["sim", "--headless", "--script", str(script), "--journal", str(journal)]) == 2
    out, err = capsys.readouterr()
    assert (out, err.count("\n")) == ("", 1) and err.startswith("gametable: error: ")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.jsonl"]


def test_headless_cli_leaves_an_existing_journal_untouched_by_a_bad_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from firmware_py.cli import main

    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text('{"t": 1, "press": "console.go"}\n')
    bad.write_text('{"t": 1, "press": "console.go"}\n{"t": NaN}\n')
    journal = tmp_path / "match.db"
    assert main(["sim", "--headless", "--script", str(good), "--journal", str(journal)]) == 0
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert main(["sim", "--headless", "--script", str(bad), "--journal", str(journal)]) == 2
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
    assert "line 2: t: expected seconds" in capsys.readouterr().err


def test_docs_scripts_page_is_up_to_date() -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts/make_scripts_doc.py"
    spec = importlib.util.spec_from_file_location("make_scripts_doc", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == DOC.read_text(), "run scripts/make_scripts_doc.py"


def test_states_a_claim_typed_on_the_page_and_the_rulebooks_knock() -> None:
    events = play("states-connect-and-knock")
    claims = [(e["states"], e["connects"]) for e in decisions(events, "claim")]
    assert claims == [(["UT", "CO", "KS", "TX"], False), (["UT", "CO", "KS", "OK"], True)]
    (refused,) = decisions(events, "entry_refused")
    assert refused["reason"].startswith("Bo cannot knock with DE, OR, CO")
    results = [(e["how"], e["winners"], e["points"]) for e in decisions(events, "hand_result")]
    assert results == [
        ("connect", ["Ann"], {"Ann": 5, "Bo": 0}),
        ("knock", ["Bo"], {"Ann": 0, "Bo": 3}),
    ]
    assert not decisions(events, "refused")
