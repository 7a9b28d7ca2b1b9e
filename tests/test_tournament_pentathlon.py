"""A Pentathlon event's rules (rules/tournament/pentathlon.py): Pentathletes in divisions, seats
checked, results that say how, and the standings per game and overall (R264-R266)."""

from __future__ import annotations

import re

import pytest

from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.pentathlon import (
    Challenges,
    GameResult,
    Pentathlete,
    PentathlonEvent,
    PentathlonPoints,
    Seat,
    parse_division,
    parse_players_csv,
)

PLAYERS = (
    Pentathlete("Ann", "III"),
    Pentathlete("Ben", "III"),
    Pentathlete("Cy", "III"),
    Pentathlete("Dee", "III"),
    Pentathlete("Eve", "IV"),
    Pentathlete("Fay", "IV"),
)


DEFAULT_POINTS = PentathlonPoints()


def _event(*results: GameResult, points: PentathlonPoints = DEFAULT_POINTS) -> PentathlonEvent:
    seats = tuple(result.seat for result in results)
    return PentathlonEvent(points, PLAYERS, seats, results)


def _game(  # noqa: PLR0917 - a game reads best as its round, table, players and winner
    round_number: int,
    table: int,
    a: str,
    b: str,
    winner: str | None,
    how: How = How.GOAL,
    game: Game = Game.CONTIG_60,
    challenges: tuple[Challenges, Challenges] = (Challenges(), Challenges()),
) -> GameResult:
    return GameResult(Seat(round_number, table, game, a, b), winner, how, challenges=challenges)


def test_a_division_is_named_by_its_numeral_or_its_number() -> None:
    assert [parse_division(text) for text in ("III", "iii", "3", " 5 ")] == [
        "III",
        "III",
        "III",
        "V",
    ]
    with pytest.raises(InvalidInput, match="expected one of I, II, III, IV, V"):
        parse_division("6")


@pytest.mark.parametrize("text", ["\u00b2", "\u2463", "\uff13", "\u0663", "03"])
def test_a_division_s_number_is_one_ascii_digit(text: str) -> None:
    """R990: a superscript or circled digit is refused in words, not a traceback; a fullwidth,
    another script's digit or a leading zero is refused, not read as a division."""
    with pytest.raises(InvalidInput, match="expected one of I, II, III, IV, V"):
        parse_division(text)


def test_only_juggle_ends_level_by_goal() -> None:
    """R992: both players covering Juggle's board in one round is a tie by goal; the other
    games are won by the first to reach the goal, so a tie by goal there is refused."""
    juggle = Seat(1, 1, Game.JUGGLE, "Ann", "Ben")
    assert GameResult(juggle, None, How.GOAL).outcome("A") == "tie"
    with pytest.raises(InvalidInput, match="a tie by goal"):
        GameResult(Seat(1, 1, Game.CONTIG_60, "Ann", "Ben"), None, How.GOAL)


def test_the_players_csv_names_the_line_at_fault() -> None:
    text = "name,division,school\nAnn,III,Oak\nBen,VI,Elm\n"
    with pytest.raises(InvalidInput, match=r"players\.csv line 3: division 'VI'"):
        parse_players_csv(text, "players.csv")


def test_a_name_twice_in_the_csv_is_refused_whatever_its_case() -> None:
    with pytest.raises(InvalidInput, match="duplicate Pentathlete 'ann'"):
        parse_players_csv("name,division,school\nAnn,III,\nann,III,\n", "players.csv")


def test_the_default_points_are_two_one_nothing() -> None:
    assert PentathlonPoints() == PentathlonPoints.parse("2,1,0")


@pytest.mark.parametrize("text", ["1,2,0", "2,1", "a,b,c", "0,0,0", "101,1,0"])
def test_points_that_do_not_rank_a_win_over_a_loss_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        PentathlonPoints.parse(text)


def test_pentathletes_of_two_divisions_do_not_meet() -> None:
    with pytest.raises(IllegalAction, match="play within their division"):
        _event().seat(1, 1, Game.JUGGLE, "Ann", "Eve")


def test_a_pentathlete_plays_one_game_a_round() -> None:
    event = _event(_game(1, 1, "Ann", "Ben", "A"))
    with pytest.raises(IllegalAction, match="Ann already plays in round 1"):
        event.seat(1, 2, Game.CONTIG_60, "Cy", "ann")
    assert event.seat(2, 1, Game.JUGGLE, "Ann", "Cy").a == "Ann"


def test_a_table_seats_one_pair_a_round() -> None:
    with pytest.raises(IllegalAction, match="round 1 table 1 is seated already"):
        _event(_game(1, 1, "Ann", "Ben", "A")).seat(1, 1, Game.CONTIG_60, "Cy", "Dee")


@pytest.mark.parametrize(
    ("round_number", "table", "names"),
    [
        (0, 1, "round 0: expected 1 to 99"),
        (100, 1, "round 100: expected 1 to 99"),
        (10**20, 1, "expected 1 to 99"),
        (1, 0, "table 0: expected 1 to 999"),
        (1, 1000, "table 1000: expected 1 to 999 (a hub table's number)"),
    ],
)
def test_a_round_is_bounded_as_the_geoplunge_record_s_and_a_table_as_the_hub_s(
    round_number: int, table: int, names: str
) -> None:
    with pytest.raises(InvalidInput, match=re.escape(names)):
        _event().seat(round_number, table, Game.JUGGLE, "Ann", "Ben")
    with pytest.raises(InvalidInput, match=re.escape(names)):
        _event().seat_at(round_number, table)


def test_rounds_are_seated_in_order() -> None:
    event = _event(_game(1, 1, "Ann", "Ben", "A"))
    with pytest.raises(IllegalAction, match=r"round 3 before round 2: .*expected round 1 to 2"):
        event.seat(3, 1, Game.JUGGLE, "Ann", "Cy")
    assert event.seat(2, 1, Game.JUGGLE, "Ann", "Cy").round == 2
    assert event.seat(1, 2, Game.CONTIG_60, "Cy", "Dee").round == 1


def test_a_tie_comes_only_from_the_time_limit_an_agreement_or_an_award() -> None:
    with pytest.raises(InvalidInput, match="a tie by three-i-ia"):
        _game(1, 1, "Ann", "Ben", None, How.THREE_STRIKES)
    with pytest.raises(InvalidInput, match="agreement ends a game as a tie"):
        _game(1, 1, "Ann", "Ben", "A", How.AGREEMENT)


def test_standings_rank_by_points_then_wins_then_fewer_i_ia() -> None:
    strikes = (Challenges(i=2), Challenges())
    event = _event(
        _game(1, 1, "Ann", "Ben", "A", challenges=strikes),
        _game(1, 2, "Cy", "Dee", "B"),
        _game(2, 1, "Ann", "Dee", None, How.TIME_LIMIT),
        _game(2, 2, "Ben", "Cy", None, How.TIME_LIMIT),
    )
    rows = [(r.rank, r.name, r.points, r.wins, r.i_ia) for r in event.standings()]
    assert rows[:4] == [
        (1, "Dee", 3, 1, 0),
        (2, "Ann", 3, 1, 2),
        (3, "Ben", 1, 0, 0),
        (3, "Cy", 1, 0, 0),
    ]


def test_each_division_is_ranked_on_its_own() -> None:
    rows = [(r.division, r.rank, r.name) for r in _event().standings()]
    assert [row for row in rows if row[0] == "IV"] == [("IV", 1, "Eve"), ("IV", 1, "Fay")]


def test_a_game_s_standings_count_that_game_only() -> None:
    event = _event(_game(1, 1, "Ann", "Ben", "A"), _game(2, 1, "Ann", "Ben", "B", game=Game.JUGGLE))
    juggle = {row.name: row.points for row in event.standings(Game.JUGGLE)}
    overall = {row.name: row.points for row in event.standings()}
    assert (juggle["Ann"], juggle["Ben"]) == (0, 2)
    assert (overall["Ann"], overall["Ben"]) == (2, 2)


def test_the_points_are_the_event_s_own() -> None:
    event = _event(
        _game(1, 1, "Ann", "Ben", None, How.TIME_LIMIT), points=PentathlonPoints(3, 1, 0)
    )
    assert {row.name: row.points for row in event.standings()}["Ann"] == 1
    win = _event(_game(1, 1, "Ann", "Ben", "A"), points=PentathlonPoints(3, 1, 0))
    assert {row.name: row.points for row in win.standings()}["Ann"] == 3
