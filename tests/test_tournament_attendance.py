"""Who is paired: check-in per round, withdrawal, a late team's missed rounds (R1040-R1042)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.tournament import Entrant, Tournament, TournamentFormat, new_config
from rules.tournament.attendance import (
    Attendance,
    CheckIn,
    missed_before_joining,
    require_markable,
)
from rules.tournament.records import Match, RoundPairing


def _tournament(count: int = 6, attendance: Attendance = Attendance()) -> Tournament:  # noqa: B008
    entrants = tuple(Entrant(f"Team {i}", f"School {i}") for i in range(count))
    return Tournament(new_config(TournamentFormat.COMBO3, seed=7), entrants, attendance=attendance)


def _play(tournament: Tournament, luck: random.Random) -> Tournament:
    rnd = tournament.pair(tournament.next_round)
    played = replace(tournament, rounds=(*tournament.rounds, rnd))
    results = [
        played.result(rnd.round, m.table, luck.choice((0, 10, 20)), luck.choice((0, 10, 20)))
        for m in rnd.matches
    ]
    return replace(played, results=(*tournament.results, *results))


def _paired(rnd: RoundPairing) -> list[str]:
    teams = [team for m in rnd.matches for team in (m.a, m.b)]
    return teams + ([rnd.bye] if rnd.bye is not None else [])


def _marks(number: int, present: dict[str, bool]) -> tuple[CheckIn, ...]:
    return tuple(CheckIn(number, team, here) for team, here in present.items())


def test_a_round_without_check_in_pairs_every_active_team() -> None:
    assert sorted(_paired(_tournament().pair(1))) == [f"Team {i}" for i in range(6)]


def test_a_withdrawn_team_is_not_paired() -> None:
    rnd = _tournament(attendance=Attendance(withdrawn=frozenset({"Team 2"}))).pair(1)
    assert "Team 2" not in _paired(rnd)
    assert len(_paired(rnd)) == 5


def test_check_in_pairs_only_the_teams_marked_present() -> None:
    marks = {f"Team {i}": i not in (1, 4) for i in range(6)}
    rnd = _tournament(attendance=Attendance(checkins=_marks(1, marks))).pair(1)
    assert sorted(_paired(rnd)) == ["Team 0", "Team 2", "Team 3", "Team 5"]


def test_check_in_in_use_refuses_pairing_while_a_team_is_unmarked() -> None:
    marks = {f"Team {i}": True for i in range(5)}  # Team 5 not marked
    tournament = _tournament(attendance=Attendance(checkins=_marks(1, marks)))
    with pytest.raises(IllegalAction, match=r"1 team\(s\) are not marked \(Team 5\)"):
        tournament.pair(1)


def test_check_in_of_another_round_does_not_count() -> None:
    marks = {f"Team {i}": False for i in range(6)}
    rnd = _tournament(attendance=Attendance(checkins=_marks(2, marks))).pair(1)
    assert len(_paired(rnd)) == 6


def test_fewer_than_two_present_is_refused_in_words() -> None:
    marks = {f"Team {i}": i == 0 for i in range(6)}
    tournament = _tournament(attendance=Attendance(checkins=_marks(1, marks)))
    with pytest.raises(IllegalAction, match=r"1 team\(s\) checked in, expected at least 2"):
        tournament.pair(1)


def test_an_absence_leaves_an_odd_field_with_the_bye() -> None:
    marks = {f"Team {i}": i != 3 for i in range(6)}
    rnd = _tournament(attendance=Attendance(checkins=_marks(1, marks))).pair(1)
    assert rnd.bye is not None and rnd.bye != "Team 3"
    assert len(rnd.matches) == 2


def test_a_mark_is_only_for_the_next_round_before_it_is_paired() -> None:
    with pytest.raises(IllegalAction, match="round 2 is already paired: check-in is for round 3"):
        require_markable(2, "Team 0", 2, frozenset())
    with pytest.raises(IllegalAction, match="round 5 is not next: check-in is for round 3"):
        require_markable(5, "Team 0", 2, frozenset())


def test_a_withdrawn_team_cannot_be_checked_in() -> None:
    with pytest.raises(IllegalAction, match="Team 0 has withdrawn"):
        require_markable(1, "Team 0", 0, frozenset({"Team 0"}))


def test_a_late_team_is_credited_a_bye_for_each_round_before_it_joined() -> None:
    rounds = (
        RoundPairing(1, (Match(1, "A", "B"),), None),
        RoundPairing(2, (Match(1, "A", "B"),), None),
        RoundPairing(3, (Match(1, "A", "C"),), "B"),
    )
    assert missed_before_joining(["A", "B", "C"], rounds) == ["C", "C"]


def test_a_team_that_has_not_joined_is_credited_nothing() -> None:
    rounds = (RoundPairing(1, (Match(1, "A", "B"),), None),)
    assert missed_before_joining(["A", "B", "C"], rounds) == []


def test_a_late_team_scores_its_missed_rounds_by_the_events_bye_rule() -> None:
    absent = _marks(1, {f"Team {i}": i != 5 for i in range(6)})
    tournament = _play(_tournament(attendance=Attendance(checkins=absent)), random.Random(3))
    late = _play(tournament, random.Random(4))  # round 2: everyone, Team 5 joins
    row = next(row for row in late.standings() if row.team == "Team 5")
    assert row.byes == 1 + (late.rounds[0].bye == "Team 5")
    assert row.wins + row.ties + row.losses == 2


def test_an_absence_after_joining_scores_nothing() -> None:
    tournament = _play(_tournament(), random.Random(3))
    absent = _marks(2, {f"Team {i}": i != 5 for i in range(6)})
    later = _play(replace(tournament, attendance=Attendance(checkins=absent)), random.Random(4))
    row = next(row for row in later.standings() if row.team == "Team 5")
    assert row.wins + row.ties + row.losses == 1


def test_a_withdrawn_teams_games_count_for_its_opponents() -> None:
    played = _play(_tournament(), random.Random(5))
    before = {row.team: row.opponents_wins for row in played.standings()}
    gone = replace(played, attendance=Attendance(withdrawn=frozenset({"Team 0"})))
    assert {row.team: row.opponents_wins for row in gone.standings()} == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=4, max_value=11),
    seed=st.integers(min_value=0, max_value=10_000),
    data=st.data(),
)
def test_every_round_pairs_each_active_present_team_once_and_never_a_withdrawn_one(
    count: int, seed: int, data: st.DataObject
) -> None:
    luck = random.Random(seed)
    tournament = _tournament(count)
    names = list(tournament.names)
    withdrawn: set[str] = set()
    for number in range(1, 5):
        still = [team for team in names if team not in withdrawn]
        if len(still) > 3 and data.draw(st.booleans()):
            withdrawn.add(data.draw(st.sampled_from(still)))
        active = [team for team in names if team not in withdrawn]
        absent = set(data.draw(st.lists(st.sampled_from(active), max_size=len(active) - 2)))
        marks = _marks(number, {team: team not in absent for team in active})
        attendance = Attendance(frozenset(withdrawn), marks if absent else ())
        tournament = replace(tournament, attendance=attendance)
        tournament = _play(tournament, luck)
        paired = _paired(tournament.rounds[-1])
        assert sorted(paired) == sorted(team for team in active if team not in absent)
        assert len(paired) == len(set(paired))
        assert not withdrawn & set(paired)


def test_a_withdrawn_team_does_not_qualify_for_the_championship_and_the_next_team_does() -> None:
    tournament = _tournament(4)
    luck = random.Random(8)
    for _ in range(tournament.config.rounds):
        tournament = _play(tournament, luck)
    qualified = tournament.qualification()
    leader = tournament.standings()[0].team
    gone = replace(tournament, attendance=Attendance(withdrawn=frozenset({leader})))
    found = gone.qualification()
    assert leader not in found.qualified
    assert found.playoff is None or leader not in found.playoff.seeds
    assert leader in qualified.qualified or (
        qualified.playoff is not None and leader in qualified.playoff.seeds
    )


def test_withdrawals_leaving_one_team_refuse_pairing_in_words() -> None:
    gone = frozenset({"Team 0", "Team 1", "Team 2"})
    tournament = _tournament(4, attendance=Attendance(withdrawn=gone))
    with pytest.raises(IllegalAction, match=r"1 team\(s\) active, the other 3 withdrawn"):
        tournament.pair(1)
