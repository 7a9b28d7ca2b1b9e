"""Play the Ranks 1 and 2 (Game 4, Level 3): two Power cards turned for the bases, 8 tricks.

Level 3 has none of Level 4's set-up: no Cards/Call teams, no Up the BUR, no BUR cards, no
Pull the Power, no GeoStar. Phases: statehood draw (only when the match names no lead) ->
``power_cards`` (the two Power cards turned face-up, in the order turned) -> ``plunge`` ->
``tricks`` -> ``over``. The tricks are Level 4's (``game4.trick``, ``game4.trick_result``),
judged by ``rules.geoplunge.games.tricks`` with no BUR: a lead card is protected from the other
team's Power card only by a lead Power card. A team that wins 6 tricks wins at once, as at Level
4 (R68; ``ptr_early_end`` false plays all 8); after 8 tricks a team that did not play both of its
Power cards loses (rulings R66-R70).
"""

from __future__ import annotations

from dataclasses import replace

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    StatehoodDraw,
    check_plunge,
    not_this_game,
    require_phase,
)
from rules.geoplunge.games.play_the_ranks import (
    AnnounceRole,
    BurDealt,
    DealBur,
    DeclarePull,
    KeepBases,
    PlayRanksTrick,
    PlayTheRanksRules,
    PlayTheRanksState,
    RanksPhase,
    SetGeoStar,
    TrickResult,
    TurnPowerCards,
    UpTheBur,
)
from rules.geoplunge.power import check_base
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

TRICKS_PER_GAME = 8
WINNING_TRICKS = 5
BONUS_TRICKS = 6
TURNED_POWER_CARDS = 2
LEVEL_4_ONLY = (AnnounceRole, UpTheBur, KeepBases, DealBur, BurDealt, DeclarePull, SetGeoStar)


class PlayTheRanksLevel3(PlayTheRanksRules):
    """Level 4's Play the Ranks machine, with Level 3's set-up and end."""

    def apply(self, state: PlayTheRanksState, action: Action) -> PlayTheRanksState:
        if state.result is not None:
            raise GameOver("the game is over: it accepts no more actions")
        match action:
            case StatehoodDraw() | DrawWinner():
                return super().apply(state, action)
            case TurnPowerCards():
                return _turn_power_cards(state, action)
            case DeclarePlunge():
                require_phase(state, RanksPhase.PLUNGE)
                plunging = check_plunge(action.plunging)
                return replace(state, plunging=plunging, phase=RanksPhase.TRICKS)
            case PlayRanksTrick() | TrickResult():
                return _level3_end(super().apply(state, action))
            case _ if isinstance(action, LEVEL_4_ONLY):
                raise IllegalAction(
                    f"{action.kind!r} is a Level 4 step: Level 3 Play the Ranks has no "
                    "Cards/Call teams, BUR cards, Pull the Power or GeoStar"
                )
            case _:
                raise not_this_game(self.title, action)


def _turn_power_cards(state: PlayTheRanksState, turn: TurnPowerCards) -> PlayTheRanksState:
    """The two Power cards turned face-up give the bases; equal numbers give one base."""
    require_phase(state, RanksPhase.POWER_CARDS)
    for base in turn.bases:
        check_base(base)
    if len(turn.bases) != TURNED_POWER_CARDS:
        raise InvalidInput(
            f"{len(turn.bases)} Power cards: expected the left-corner numbers of the two "
            "cards turned face-up (Level 3)"
        )
    return replace(state, turned_bases=turn.bases, bases=turn.bases, phase=RanksPhase.PLUNGE)


def _level3_end(state: PlayTheRanksState) -> PlayTheRanksState:
    """Level 4's machine ends the game at 6 tricks, Level 3 by default too (R68); with the
    other reading (``early_end`` False) all 8 tricks are played, then judged."""
    result = level3_early_result(state) or level3_result(state)
    phase = RanksPhase.TRICKS if result is None else RanksPhase.OVER
    return replace(state, result=result, phase=phase)


def level3_early_result(state: PlayTheRanksState) -> GameResult | None:
    """6 tricks won before the 8th: the game ends at once, with the bonus (R68)."""
    if not state.early_end or len(state.tricks) >= TRICKS_PER_GAME:
        return None
    for team in Team:
        if state.tricks_won[team] >= BONUS_TRICKS:
            return GameResult(
                team, bonus=True, reason=f"team {team} won 6 tricks: the game ends early"
            )
    return None


def level3_result(state: PlayTheRanksState) -> GameResult | None:
    """After the 8th trick: the Power card duty first, then at least 5 tricks, then 4-4.

    Both teams failing the duty is a tie (R35); a winner with 6 or more tricks has the bonus.
    """
    if len(state.tricks) < TRICKS_PER_GAME:
        return None
    failed = [team for team in Team if state.power_cards_left(team) > 0]
    if len(failed) == 2:
        return GameResult(
            None, reason="neither team played both of its Power cards: both lose, a tie"
        )
    if failed:
        winner = failed[0].other
        return GameResult(
            winner,
            bonus=state.tricks_won[winner] >= BONUS_TRICKS,
            reason=f"team {failed[0]} did not play both of its Power cards: it loses automatically",
        )
    for team in Team:
        won = state.tricks_won[team]
        if won >= WINNING_TRICKS:
            return GameResult(
                team, bonus=won >= BONUS_TRICKS, reason=f"team {team} won {won} of 8 tricks"
            )
    last = state.tricks[-1].winner
    return GameResult(last, reason=f"4 tricks each: team {last} won the last trick")
