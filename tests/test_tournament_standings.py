"""Standings: match wins, then the configured tiebreak order; exact ties share a rank."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament import ByePolicy, ByeResult, MatchResult, Standing, Tiebreak, standings
from tests.soak import sized

TEAMS = ("Ants", "Bees", "Cats", "Dogs")


def _r(a: str, b: str, a_points: int, b_points: int, number: int = 1) -> MatchResult:
    return MatchResult(number, 1, a, b, a_points, b_points)


def _ranks(table: tuple[Standing, ...]) -> dict[str, int]:
    return {row.team: row.rank for row in table}


def test_more_match_wins_rank_higher_whatever_the_points() -> None:
    table = standings(("Ants", "Bees"), [_r("Ants", "Bees", 10, 5), _r("Ants", "Bees", 0, 90, 2)])
    assert _ranks(table) == {"Ants": 1, "Bees": 1}  # a win each; no tiebreak configured
    table = standings(("Ants", "Bees"), [_r("Ants", "Bees", 10, 5)], tiebreaks=[Tiebreak.POINTS])
    assert [row.team for row in table] == ["Ants", "Bees"]


def test_equal_points_is_a_tie_not_a_win() -> None:
    (ants, bees) = standings(("Ants", "Bees"), [_r("Ants", "Bees", 20, 20)])
    assert (ants.wins, ants.ties, bees.ties, ants.rank, bees.rank) == (0, 1, 1, 1, 1)


def test_exact_ties_share_a_rank_and_the_next_rank_skips() -> None:
    results = [_r("Ants", "Bees", 30, 10), _r("Cats", "Dogs", 30, 10)]
    table = standings(TEAMS, results, tiebreaks=[Tiebreak.POINTS])
    assert [(row.rank, row.team) for row in table] == [
        (1, "Ants"),
        (1, "Cats"),
        (3, "Bees"),
        (3, "Dogs"),
    ]


def test_tiebreak_order_is_configuration() -> None:
    # Ants scored more; Cats beat stronger opponents. The order decides who is first.
    results = [
        _r("Ants", "Bees", 60, 0),
        _r("Cats", "Dogs", 20, 10),
        _r("Dogs", "Bees", 20, 10, 2),
        _r("Ants", "Cats", 10, 10, 2),
    ]
    by_points = standings(TEAMS, results, tiebreaks=[Tiebreak.POINTS, Tiebreak.OPPONENTS_WINS])
    by_opponents = standings(TEAMS, results, tiebreaks=[Tiebreak.OPPONENTS_WINS, Tiebreak.POINTS])
    assert by_points[0].team == "Ants"
    assert by_opponents[0].team == "Cats"


def test_head_to_head_puts_the_winner_of_the_tied_teams_meeting_first() -> None:
    results = [
        _r("Bees", "Ants", 20, 10),
        _r("Ants", "Cats", 90, 0, 2),
        _r("Bees", "Dogs", 0, 10, 2),  # Dogs beat Bees ...
        _r("Ants", "Dogs", 0, 10, 3),
        _r("Bees", "Cats", 10, 0, 3),  # ... and Bees have more points: 2 wins each
    ]
    table = standings(TEAMS, results, tiebreaks=[Tiebreak.HEAD_TO_HEAD, Tiebreak.POINTS])
    assert [row.team for row in table[:2]] == ["Dogs", "Bees"]
    assert _ranks(table)["Ants"] == 3


def test_head_to_head_counts_only_wins_over_the_other_tied_teams() -> None:
    results = [
        _r("Ants", "Bees", 10, 0),
        _r("Bees", "Dogs", 10, 0, 2),  # a win over Dogs, who are not in the tie
        _r("Cats", "Dogs", 10, 0, 3),
    ]
    table = standings(TEAMS, results, tiebreaks=[Tiebreak.HEAD_TO_HEAD])
    assert _ranks(table) == {"Ants": 1, "Bees": 2, "Cats": 2, "Dogs": 4}


def test_fewer_losses_breaks_a_tie_between_a_tie_and_a_loss() -> None:
    results = [_r("Ants", "Bees", 10, 10), _r("Cats", "Dogs", 0, 10)]
    table = standings(("Ants", "Cats"), [], tiebreaks=[Tiebreak.LOSSES])
    assert table[0].rank == table[1].rank
    table = standings(TEAMS, results, tiebreaks=[Tiebreak.LOSSES])
    assert _ranks(table)["Ants"] < _ranks(table)["Cats"]


def test_bye_scores_a_win_with_no_points_by_default() -> None:
    (row,) = [r for r in standings(TEAMS, [], byes=["Ants"]) if r.team == "Ants"]
    assert (row.wins, row.byes, row.played, row.points, row.points_against) == (1, 1, 0, 0, 0)


def test_bye_policy_is_configuration() -> None:
    table = standings(TEAMS, [], byes=["Ants"], bye=ByePolicy(ByeResult.TIE, 15))
    (row,) = [r for r in table if r.team == "Ants"]
    assert (row.wins, row.ties, row.points) == (0, 1, 15)


def test_a_bye_is_not_an_opponent() -> None:
    results = [_r("Bees", "Cats", 10, 0)]
    (bees,) = [r for r in standings(TEAMS, results, byes=["Bees"]) if r.team == "Bees"]
    assert bees.opponents_wins == 0 and bees.wins == 2


@st.composite
def _seasons(draw: st.DrawFn) -> tuple[list[str], list[MatchResult]]:
    teams = [f"t{i}" for i in range(draw(st.integers(2, 10)))]
    pair = st.lists(st.sampled_from(teams), min_size=2, max_size=2, unique=True)
    points = st.sampled_from([0, 5, 10, 20, 30])
    matches = draw(st.lists(st.tuples(pair, points, points), max_size=25))
    return teams, [_r(a, b, pa, pb, n) for n, ((a, b), pa, pb) in enumerate(matches, start=1)]


KEYS = (Tiebreak.POINTS, Tiebreak.OPPONENTS_WINS, Tiebreak.LOSSES, Tiebreak.POINT_DIFFERENCE)


def _key(row: Standing) -> tuple[int, ...]:
    return (row.wins, row.points, row.opponents_wins, -row.losses, row.point_difference)


@settings(max_examples=sized(ci=50, soak=200), deadline=None)
@given(_seasons())
def test_property_ranks_are_shared_exactly_by_exact_ties(
    season: tuple[list[str], list[MatchResult]],
) -> None:
    teams, results = season
    table = standings(teams, results, tiebreaks=KEYS)
    assert sorted(row.team for row in table) == sorted(teams)
    for position, row in enumerate(table):
        ahead = sum(_key(other) > _key(row) for other in table)
        assert row.rank == ahead + 1  # competition ranking: 1, 2, 2, 4
        assert table[row.rank - 1].rank == row.rank
        if position:
            assert _key(table[position - 1]) >= _key(row)
    for row in table:
        for other in table:
            assert (row.rank == other.rank) == (_key(row) == _key(other))


@settings(max_examples=sized(ci=50, soak=200), deadline=None)
@given(_seasons())
def test_property_head_to_head_ranks_are_a_competition_ranking(
    season: tuple[list[str], list[MatchResult]],
) -> None:
    teams, results = season
    table = standings(teams, results, tiebreaks=[Tiebreak.HEAD_TO_HEAD, Tiebreak.POINTS])
    ranks = [row.rank for row in table]
    assert ranks == sorted(ranks)
    assert all(rank == ranks.index(rank) + 1 for rank in ranks)
    wins = [row.wins for row in table]
    assert wins == sorted(wins, reverse=True)
