"""A tournament as plain data: the order of rounds, results, and the championship."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules.errors import IllegalAction, InvalidInput
from rules.tournament import (
    Entrant,
    MatchResult,
    PlayoffGame,
    RoundKind,
    Tournament,
    TournamentFormat,
    meetings,
    new_config,
)


def _tournament(count: int = 6, fmt: TournamentFormat = TournamentFormat.COMBO3) -> Tournament:
    entrants = tuple(Entrant(f"Team {i}", f"School {i % 3}") for i in range(count))
    return Tournament(new_config(fmt, seed=42), entrants)


def _play(tournament: Tournament, luck: random.Random) -> Tournament:
    """Pair the next round and enter a result for each of its matches."""
    rnd = tournament.pair(tournament.next_round)
    played = replace(tournament, rounds=(*tournament.rounds, rnd))
    points = (0, 10, 20)
    results = [
        played.result(rnd.round, m.table, luck.choice(points), luck.choice(points))
        for m in rnd.matches
    ]
    return replace(played, results=(*tournament.results, *results))


def test_rounds_are_paired_in_order() -> None:
    with pytest.raises(IllegalAction, match="round 2 cannot be paired before round 1"):
        _tournament().pair(2)


def test_round_beyond_the_last_is_refused() -> None:
    with pytest.raises(InvalidInput, match="round 9: expected a round from 1 to 8"):
        _tournament().pair(9)


def test_round_is_not_paired_twice() -> None:
    played = _play(_tournament(), random.Random(1))
    with pytest.raises(IllegalAction, match="round 1 is already paired"):
        played.pair(1)


def test_next_round_waits_for_every_result() -> None:
    tournament = _tournament()
    rnd = tournament.pair(1)
    paired = replace(tournament, rounds=(rnd,))
    with pytest.raises(IllegalAction, match="no result for round 1 table 1, round 1 table 2"):
        paired.pair(2)


def test_result_for_a_table_that_does_not_exist_is_refused() -> None:
    played = _play(_tournament(), random.Random(1))
    with pytest.raises(InvalidInput, match="round 1 has no table 4: expected a table from 1 to 3"):
        played.result(1, 4, 10, 0)
    with pytest.raises(InvalidInput, match="round 2 is not paired yet"):
        played.result(2, 1, 10, 0)


def test_negative_points_are_refused() -> None:
    played = _play(_tournament(), random.Random(1))
    with pytest.raises(InvalidInput, match="team B points -10: expected 0 to 10000"):
        played.result(1, 1, 10, -10)


def test_winner_is_by_points_and_equal_points_is_a_tie() -> None:
    assert MatchResult(1, 1, "x", "y", 30, 40).winner == "y"
    assert MatchResult(1, 1, "x", "y", 30, 30).winner is None


def test_round_plans_follow_the_format() -> None:
    combo3 = _tournament()
    assert [combo3.plan(n).kind for n in (4, 5)] == [RoundKind.MORNING, RoundKind.AFTERNOON]
    combo4 = _tournament(fmt=TournamentFormat.COMBO4)
    assert [combo4.plan(n).kind for n in (1, 2)] == [RoundKind.ALL, RoundKind.CALL]


def test_championship_waits_for_the_last_round() -> None:
    played = _play(_tournament(), random.Random(1))
    with pytest.raises(IllegalAction, match="the championship comes after round 8"):
        played.qualification()


def test_full_combo3_tournament_has_no_rematch_and_two_finalists() -> None:
    tournament = _tournament(9)
    luck = random.Random(3)
    for _ in range(8):
        tournament = _play(tournament, luck)
    assert tournament.complete
    assert max(meetings(tournament.rounds).values()) == 1
    assert sorted(rnd.bye for rnd in tournament.rounds if rnd.bye) == sorted(
        {rnd.bye for rnd in tournament.rounds if rnd.bye}
    )
    found = tournament.qualification()
    while found.finalists is None:
        assert found.playoff is not None
        game = found.playoff.next_game()
        assert game is not None
        found = replace(found, playoff=found.playoff.record(game[0]))
    assert len(set(found.finalists)) == 2


def test_championship_playoff_is_replayed_from_the_recorded_winners() -> None:
    tournament = _tournament(4, TournamentFormat.COMBO4)
    tournament = replace(tournament, config=replace(tournament.config, rounds=1))
    rnd = tournament.pair(1)
    tournament = replace(tournament, rounds=(rnd,))
    a, b = rnd.matches
    tournament = replace(
        tournament,
        results=(tournament.result(1, 1, 10, 0), tournament.result(1, 2, 10, 10)),
    )
    found = tournament.qualification()
    # a.a won; b's teams tied with each other, a.b lost: tie for second between b.a and b.b.
    assert found.qualified == (a.a,)
    assert found.playoff is not None and set(found.playoff.seeds) == {b.a, b.b}
    game = found.playoff.next_game()
    assert game is not None
    assert tournament.qualification([PlayoffGame(*game, b.b)]).finalists == (a.a, b.b)
