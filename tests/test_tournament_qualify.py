"""Championship qualifiers and Border-Up playoffs, three-way ties included (R99-R101)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import IllegalAction, InvalidInput
from rules.tournament import (
    BracketGame,
    Playoff,
    PlayoffChanged,
    PlayoffGame,
    Qualify,
    Standing,
    qualify,
)


def _table(*rows: tuple[str, int, int]) -> tuple[Standing, ...]:
    """(team, wins, rank) rows; everything else zero."""
    return tuple(Standing(rank, team, wins, 0, 0, 0, 0, 0, 0) for team, wins, rank in rows)


def test_clear_top_two_qualify_without_a_playoff() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 7, 2), ("C", 6, 3)), Qualify.WINS, seed=1)
    assert (found.qualified, found.playoff, found.finalists) == (("A", "B"), None, ("A", "B"))


def test_two_teams_tied_for_first_both_qualify() -> None:
    found = qualify(_table(("A", 7, 1), ("B", 7, 1), ("C", 6, 3)), Qualify.WINS, seed=1)
    assert found.playoff is None
    assert set(found.finalists or ()) == {"A", "B"}


def test_two_tied_for_second_play_one_border_up_game() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 6, 2), ("C", 6, 3)), Qualify.WINS, seed=1)
    assert found.qualified == ("A",)
    assert found.playoff is not None
    assert found.playoff.next_game() == ("B", "C")
    assert found.playoff.next_game_decides() == "the winner advances"
    assert found.with_games(["C"]).finalists == ("A", "C")


def test_wins_method_ignores_the_tiebreaks() -> None:
    # B is ranked ahead of C by the tiebreaks, but only match wins count for qualifying.
    found = qualify(_table(("A", 8, 1), ("B", 6, 2), ("C", 6, 3)), Qualify.WINS, seed=1)
    assert found.playoff is not None and found.playoff.seeds == ("B", "C")


def test_standings_method_uses_the_tiebreaks() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 6, 2), ("C", 6, 3)), Qualify.STANDINGS, seed=1)
    assert found.finalists == ("A", "B")


def test_standings_method_plays_off_an_exact_tie() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 6, 2), ("C", 6, 2)), Qualify.STANDINGS, seed=1)
    assert found.playoff is not None and set(found.playoff.seeds) == {"B", "C"}


def test_three_tied_for_first_top_seeds_meet_and_the_loser_meets_the_third() -> None:
    table = _table(("A", 6, 1), ("B", 6, 2), ("C", 6, 3), ("D", 2, 4))
    found = qualify(table, Qualify.WINS, seed=1)
    playoff = found.playoff
    assert playoff is not None and (playoff.seeds, playoff.places) == (("A", "B", "C"), 2)
    assert playoff.next_game() == ("A", "B")
    assert playoff.next_game_decides() == "the winner advances"
    playoff = playoff.record("B")
    assert playoff.advanced == ("B",) and playoff.next_game() == ("A", "C")
    playoff = playoff.record("C")
    assert playoff.done and playoff.next_game() is None
    assert found.with_games(["B", "C"]).finalists == ("B", "C")


def test_three_tied_for_second_play_a_stepladder() -> None:
    table = _table(("A", 7, 1), ("B", 5, 2), ("C", 5, 3), ("D", 5, 4))
    playoff = qualify(table, Qualify.WINS, seed=1).playoff
    assert playoff is not None and playoff.places == 1
    assert playoff.next_game() == ("C", "D")
    assert playoff.next_game_decides() == "the loser is out"
    playoff = playoff.record("D")
    assert playoff.next_game() == ("B", "D")
    playoff = playoff.record("B")
    assert playoff.done and playoff.advanced == ("B",)


def test_four_tied_for_two_places() -> None:
    playoff = Playoff(("A", "B", "C", "D"), 2)
    assert playoff.next_game() == ("C", "D")  # the loser is out
    playoff = playoff.record("C")
    assert playoff.next_game() == ("A", "B")  # the winner advances
    playoff = playoff.record("A")
    assert playoff.next_game() == ("B", "C")  # the winner takes the last place
    assert playoff.record("C").advanced == ("A", "C")


def test_exact_ties_are_seeded_by_the_seeded_draw() -> None:
    table = _table(("A", 7, 1), ("B", 5, 2), ("C", 5, 2), ("D", 5, 2))
    playoffs = [qualify(table, Qualify.WINS, seed=s).playoff for s in range(20)]
    assert len({playoff.seeds for playoff in playoffs if playoff is not None}) > 1
    assert qualify(table, Qualify.WINS, seed=3) == qualify(table, Qualify.WINS, seed=3)


def test_playoff_winner_must_be_in_the_next_game() -> None:
    with pytest.raises(InvalidInput, match="expected 'B' or 'C'"):
        Playoff(("A", "B", "C"), 1).record("A")


def test_no_game_after_the_playoff_is_over() -> None:
    with pytest.raises(IllegalAction, match="the playoff is over"):
        Playoff(("A", "B"), 1).record("A").record("B")


def test_no_playoff_games_when_none_is_needed() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 7, 2)), Qualify.WINS, seed=1)
    with pytest.raises(IllegalAction, match="no playoff is needed"):
        found.with_games(["A"])


# --- a game played decides for good (R960) ---------------------------------------------------

EIGHT = tuple(f"s{seed}" for seed in range(1, 9))  # eight tied for one place, best seed first


def test_a_recorded_game_is_replayed_with_its_two_teams() -> None:
    tied = ((team, 5, rank) for rank, team in enumerate(EIGHT, start=2))
    found = qualify(_table(("A", 9, 1), *tied), Qualify.WINS, seed=1)
    played = found.with_played([PlayoffGame("s7", "s8", "s7")])
    assert played.playoff is not None and played.playoff.next_game() == ("s6", "s7")


def test_a_recorded_game_the_seeds_no_longer_make_is_refused_not_read_as_another() -> None:
    # Game 1 was s7 v s8 (s8 out); a result changed since, and s8 is now seeded 2nd: replaying
    # only the winner would make game 1 "s6 v s7", won by s7, and bring s8 back in.
    reseeded = Playoff(("s1", "s8", "s2", "s3", "s4", "s5", "s6", "s7"), 1)
    with pytest.raises(PlayoffChanged) as refused:
        reseeded.replayed(PlayoffGame("s7", "s8", "s7"))
    assert str(refused.value).startswith(
        "playoff game 1 was played as s7 v s8 (s7 won), but the standings as they are now make "
        "game 1 s6 v s7: a result changed after the game was played"
    )


def test_a_game_recorded_when_no_playoff_is_needed_any_more_is_refused() -> None:
    found = qualify(_table(("A", 8, 1), ("B", 7, 2), ("C", 6, 3)), Qualify.WINS, seed=1)
    with pytest.raises(PlayoffChanged, match="the standings as they are now need no such game"):
        found.with_played([PlayoffGame("B", "C", "B")])


def test_the_same_two_teams_seeded_the_other_way_round_are_the_same_game() -> None:
    reseeded = Playoff(("s1", "s2", "s4", "s3"), 1)
    assert reseeded.replayed(PlayoffGame("s3", "s4", "s4")).next_game() == ("s2", "s4")


def test_a_game_recorded_keeps_what_it_decided() -> None:
    playoff = Playoff(("A", "B", "C"), 1).record("C").record("A")
    assert [game.decides for game in playoff.games] == [
        "the loser is out",
        "the winner advances",
    ]


def test_a_game_the_same_two_teams_now_make_deciding_otherwise_stops_the_playoff() -> None:
    # R968: game 1 A v C was played for a place (A won and advanced); a change ties X and Y in
    # above them, and the standings make game 1 A v C again, but one where the loser is out.
    played = Playoff(("A", "C", "B"), 2).record("A").games[0]
    with pytest.raises(PlayoffChanged) as refused:
        Playoff(("X", "Y", "A", "C"), 2).replayed(played)
    assert str(refused.value).startswith(
        "playoff game 1 was played as A v C (A won; the winner advances), but the standings as "
        "they are now make game 1 A v C a game where the loser is out: a result changed after "
        "the game was played"
    )
    assert refused.value.decides_now == "the loser is out"


def test_a_game_deciding_what_it_decided_when_played_goes_on() -> None:
    played = Playoff(("A", "C", "B"), 2).record("A").games[0]
    assert Playoff(("C", "A", "D"), 2).replayed(played).advanced == ("A",)


def test_a_game_recorded_before_decisions_were_kept_is_replayed_by_its_teams_alone() -> None:
    # a record of schema 4 or older holds no decision: it replays as it did (R968)
    assert Playoff(("X", "Y", "A", "C"), 2).replayed(PlayoffGame("A", "C", "A")).advanced == ()


def test_the_games_to_come_name_a_game_not_played_yet_by_its_number() -> None:
    playoff = Playoff(("A", "B", "C", "D"), 1).record("D")
    assert playoff.to_come() == (
        BracketGame(2, "B", "D", "the loser is out"),
        BracketGame(3, "A", "the winner of game 2", "the winner advances"),
    )


def test_the_games_to_come_of_two_places_carry_the_loser_of_an_advancing_game() -> None:
    assert [(g.a, g.b) for g in Playoff(("A", "B", "C", "D"), 2).to_come()] == [
        ("C", "D"),
        ("A", "B"),
        ("the loser of game 2", "the winner of game 1"),
    ]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12), st.integers(1, 2), st.randoms(use_true_random=False))
def test_property_playoff_every_tied_team_plays_and_it_ends_after_k_minus_1_games(
    tied: int, places: int, luck: random.Random
) -> None:
    if places >= tied:
        return
    playoff = Playoff(tuple(f"t{i}" for i in range(tied)), places)
    played: set[str] = set()
    while (game := playoff.next_game()) is not None:
        played.update(game)
        playoff = playoff.record(luck.choice(game))
    assert len(playoff.games) == tied - 1
    assert played == set(playoff.seeds)
    assert len(set(playoff.advanced)) == places


def test_the_bracket_says_what_each_played_game_decided_and_who_won() -> None:
    playoff = Playoff(("A", "B", "C"), 1).record("C")
    assert playoff.bracket() == (
        BracketGame(1, "B", "C", "the loser is out", "C"),
        BracketGame(2, "A", "C", "the winner advances"),
    )
