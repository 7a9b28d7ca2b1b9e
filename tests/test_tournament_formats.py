"""Round kinds of the two formats, the round count and the config."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.tournament import (
    ByePolicy,
    ByeResult,
    Qualify,
    RoundKind,
    Tiebreak,
    TournamentConfig,
    TournamentFormat,
    new_config,
    parse_tiebreaks,
    round_kind,
    round_plan,
)

COMBO3, COMBO4 = TournamentFormat.COMBO3, TournamentFormat.COMBO4


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_combo3_rounds_1_to_4_are_20_minute_morning_rounds(number: int) -> None:
    plan = round_plan(COMBO3, number)
    assert (plan.kind, plan.minutes) == (RoundKind.MORNING, 20)


@pytest.mark.parametrize("number", [5, 6, 7, 8])
def test_combo3_rounds_5_to_8_are_12_minute_afternoon_rounds(number: int) -> None:
    plan = round_plan(COMBO3, number)
    assert (plan.kind, plan.minutes) == (RoundKind.AFTERNOON, 12)


def test_combo4_odd_rounds_are_all_and_even_rounds_call() -> None:
    kinds = [round_kind(COMBO4, n) for n in range(1, 7)]
    assert kinds == [RoundKind.ALL, RoundKind.CALL] * 3
    assert round_plan(COMBO4, 2).minutes == 20


def test_round_zero_is_refused() -> None:
    with pytest.raises(InvalidInput, match="round 0"):
        round_kind(COMBO4, 0)


def test_combo3_always_has_8_rounds() -> None:
    assert new_config(COMBO3, seed=1).rounds == 8
    with pytest.raises(InvalidInput, match="expected 8"):
        new_config(COMBO3, seed=1, rounds=6)


def test_combo4_round_count_is_configuration() -> None:
    assert new_config(COMBO4, seed=1).rounds == 8
    assert new_config(COMBO4, seed=1, rounds=5).rounds == 5
    with pytest.raises(InvalidInput, match="0 rounds"):
        new_config(COMBO4, seed=1, rounds=0)


def test_combo3_qualifies_by_wins_and_combo4_by_standings_by_default() -> None:
    assert new_config(COMBO3, seed=1).qualify is Qualify.WINS
    assert new_config(COMBO4, seed=1).qualify is Qualify.STANDINGS


def test_unknown_format_names_the_formats() -> None:
    with pytest.raises(InvalidInput, match="expected combo3 or combo4"):
        TournamentFormat.parse("combo5")


def test_tiebreak_order_parses_in_order() -> None:
    assert parse_tiebreaks("head-to-head, points") == (Tiebreak.HEAD_TO_HEAD, Tiebreak.POINTS)
    assert parse_tiebreaks("none") == ()


def test_unknown_tiebreak_lists_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match="unknown tiebreak 'height': expected points"):
        parse_tiebreaks("points,height")


def test_repeated_tiebreak_is_refused() -> None:
    with pytest.raises(InvalidInput, match="listed twice"):
        parse_tiebreaks("points,points")


def test_negative_bye_points_are_refused() -> None:
    with pytest.raises(InvalidInput, match="bye points -5"):
        ByePolicy(ByeResult.WIN, -5)


def test_config_round_trips_through_json() -> None:
    config = new_config(
        COMBO4, seed=9, rounds=6, tiebreaks=(Tiebreak.LOSSES,), bye=ByePolicy(ByeResult.TIE, 15)
    )
    assert TournamentConfig.from_json(config.to_json()) == config


def test_damaged_stored_config_is_one_error() -> None:
    with pytest.raises(InvalidInput, match="damaged"):
        TournamentConfig.from_json({"format": "combo4"})
