"""The record of a game as plain JSON data: what a score card, a journal or a screen shows.

Per player: the result (win, tie or loss) and how, the I/IA count and warning, forfeited and
lost turns, and the challenges made; for the game: the final scores and every challenge record
with each ruling (who ruled, who asked for the opinion) and what the ruling in force did.
A result the monitor has not confirmed yet is shown with ``"confirmed": false``.
"""

from __future__ import annotations

from typing import Any

from rules.actions import Action, encode
from rules.pentathlon import FAMILY
from rules.pentathlon.catalogue import Ruling, find_rule
from rules.pentathlon.challenges import ChallengeRecord
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.monitor_actions import (
    Begins,
    ChipInHand,
    DieToss,
    Infraction,
    StarCard,
    StripDraw,
)
from rules.pentathlon.play import RULINGS, Declaration, Fate
from rules.pentathlon.players import Player, of
from rules.pentathlon.results import How, Result
from rules.pentathlon.strips import lower_strip


def record(state: PentathlonGame) -> dict[str, Any]:
    rules = state.rules
    play = state.play
    result = state.result or (play.pending if play else None)
    settings = state.settings
    return {
        "family": FAMILY,
        "game": settings.game.value,
        "title": rules.title,
        "minutes": settings.minutes,
        "options": {
            "chips": settings.chips,
            "partitions": list(settings.partitions) if settings.partitions else None,
        },
        "phase": state.phase,
        "beginner": play.beginner.value if play else None,
        "on_turn": state.on_turn.value if state.on_turn else None,
        "round": play.round if play else None,
        "time_called": bool(play and play.time_called),
        "result": None
        if result is None
        else {
            "winner": result.winner.value if result.winner else None,
            "how": result.how.value,
            "detail": result.detail,
            "confirmed": state.result is not None,
        },
        "scores": rules.final(play) if play else None,
        "players": {player.value: _player(state, player) for player in Player},
        "challenges": [_challenge(state, record) for record in state.challenges],
        "declarations": [_declaration(state, d, result) for d in play.declarations] if play else [],
        "start": [start_text(state, action) for action in state.start_entries],
        "events": [
            {"turn": turn, "kind": action.kind, **_event(action)} for turn, action in state.notes
        ],
    }


def final_scores(state: PentathlonGame) -> dict[str, int] | None:
    """Each player's final score as one number, for the tournament record: the running score
    (Contig 60, Stars & Bars), the empty spaces counted (Juggle), the games won (Fab-a-Diffy:
    with the game the time limit decided on tricks, as the result counted it: R982); None where
    the game keeps none (Queens & Guards, Juggle before its count). The same scores the card
    prints. A game under rulings 1 to 3 (a journal of an earlier flow, R796) keeps the games
    won its table reported: the finished games only."""
    play = state.play
    if play is None:
        return None
    rules = state.rules
    scores = rules.final(play) if state.rulings >= RULINGS else rules.scores(play.board)
    if "running_score" in scores:
        return dict(scores["running_score"])
    if scores.get("empty_spaces"):
        return dict(scores["empty_spaces"])
    if "games" in scores:
        return {player.value: scores["games"].count(player.value) for player in Player}
    return None


def challenge_counts(state: PentathlonGame) -> dict[str, dict[str, int]]:
    """Each player's challenges by the ruling in force: ``{"A": {"C": 0, "I": 1, "IA": 0}}``."""
    return {
        player.value: {
            ruling.value: sum(
                r.challenger is player and r.in_force and r.ruling is ruling
                for r in state.challenges
            )
            for ruling in Ruling
        }
        for player in Player
    }


def _player(state: PentathlonGame, player: Player) -> dict[str, Any]:
    play = state.play
    result = state.result or (play.pending if play else None)
    made = [record for record in state.challenges if record.challenger is player]
    return {
        "result": result.outcome(player) if result else None,
        "how": result.how.value if result else None,
        "i_ia": state.strikes(player),
        "zero_points": state.zero_points(player),
        "warning": state.warning(player),
        "forfeited_turns": of(play.forfeited, player) if play else 0,
        "lost_turns": of(play.turns_lost, player) if play else 0,
        # C, I and IA as the hub counts them (``challenge_counts``): the rulings in force; a
        # challenge ruled after a third I/IA had ended the game is made but counts for nothing
        # (R988)
        "challenges": {
            "made": [record.number for record in made],
            **{
                ruling.value: sum(r.ruling is ruling and r.in_force for r in made)
                for ruling in Ruling
            },
            "not_in_force": sum(r.ruling is not None and not r.in_force for r in made),
        },
        "opinions_asked": [
            {"challenge": record.number, "of": entry.by.value}
            for record in state.challenges
            for entry in record.rulings
            if entry.asked_by is player
        ],
    }


def _challenge(state: PentathlonGame, record: ChallengeRecord) -> dict[str, Any]:
    rule = find_rule(state.rules.challenge_rules, record.rule)
    return {
        "number": record.number,
        "announcement": record.announcement,
        "challenger": record.challenger.value,
        "rule": record.rule,
        "rule_title": rule.title,
        "of_declared_win": record.of_declared_win,
        "goal_rule": rule.goal,  # a rule about the game's goal (R222, R986)
        "ruling": record.ruling.value if record.ruling else None,
        "rulings": [
            {
                "ruling": entry.ruling.value,
                "by": entry.by.value,
                "asked_by": entry.asked_by.value if entry.asked_by else None,
            }
            for entry in record.rulings
        ],
        "effect": record.effect,
        "final": record.final or state.result is not None,
        "in_force": record.in_force,
    }


def settled_fate(declaration: Declaration, result: Result | None) -> Fate:
    """A declaration's fate as the result tells it (R981): the one the rulings gave it where
    the result rests on it (a win it stood or was confirmed for, a win its Correct challenge
    gave the challenger) or where play went on without it (withdrawn); else set aside: the
    game ended otherwise (a third I/IA, the Director's result, the challenger's own win, ...)."""
    fate = declaration.fate
    if result is None or fate is Fate.WITHDRAWN:
        return fate
    if fate in (Fate.STANDING, Fate.CONFIRMED):
        made = result.how is How.GOAL and result.winner in (None, declaration.player)
    else:
        made = result.how is How.CHALLENGED_WIN and result.winner is declaration.player.other
    return fate if made else Fate.SET_ASIDE


def _declaration(
    state: PentathlonGame, declaration: Declaration, result: Result | None
) -> dict[str, Any]:
    """A declared win as declared, what the record said against it, and its fate (R780) as
    the result tells it (R981)."""
    fate = settled_fate(declaration, result)
    return {
        "player": declaration.player.value,
        "goal": declaration.goal,
        "goal_title": state.rules.goals.get(declaration.goal, declaration.goal),
        "turn": declaration.turn,
        "by_monitor": declaration.by_monitor,
        "record_says": declaration.record_says,
        "fate": fate.value,
        "challenge": None if fate is Fate.SET_ASIDE else declaration.challenge,
    }


def start_text(state: PentathlonGame, action: Action) -> str:
    """One entry of the start in words (R788)."""
    if isinstance(action, DieToss):
        if action.a == action.b:
            return f"Die toss: A {action.a}, B {action.b}: equal, tossed again"
        lower = Player.A if action.a < action.b else Player.B
        return f"Die toss: A {action.a}, B {action.b}: {lower} has the lower toss and begins"
    if isinstance(action, StripDraw):
        # from the draw itself: the game now played may have another beginner (players take
        # turns to begin each game), and the card names who began the match (R997)
        drawn_lower = (
            lower_strip(action.a, action.b, state.settings.partitions)
            if state.settings.partitions is not None
            else None
        )
        if drawn_lower is not None:
            begins = (Player.A, Player.B)[drawn_lower]
            return f"Strips drawn: A {action.a}, B {action.b}: {begins} has the lower and begins"
        return f"Strips drawn: A {action.a}, B {action.b}: equal, drawn again"
    if isinstance(action, ChipInHand):
        picker = action.named_by.other
        held = "held" if action.picked_starting else "did not hold"
        begins = picker if action.picked_starting else action.named_by
        return (
            f"Chip in hand: {action.named_by} named the starting colour, {picker} picked a hand "
            f"that {held} it: {begins} begins"
        )
    if isinstance(action, StarCard):
        begins = action.first if action.draw % 2 else action.first.other
        return (
            f"Cards drawn: {action.first} drew first; the first card with stars came on draw "
            f"{action.draw}: {begins} begins"
        )
    if isinstance(action, Begins):
        return f"{action.player} begins (the Monitor's word)"
    return action.kind


def _event(action: Action) -> dict[str, Any]:
    """An event recorded beside the play (R789-R791), with its words."""
    fields = {
        name: value.value if hasattr(value, "value") else value
        for name, value in encode(action).items()
        if name != "action"
    }
    if isinstance(action, Infraction):
        decided = [
            *(["0 points"] if action.zero_points else []),
            *(["required to leave the tournament site"] if action.removal else []),
        ]
        said = " and ".join(decided) or "recorded (no penalty)"
        text = (
            f"Code of Conduct infraction by {action.player}, handled by the Tournament "
            f"Director: {said}"
        )
    elif action.kind == "pentathlon.qg.trap_penalty":
        text = (
            f"{fields['player']} moved a piece into a trap (or backwards, or a guard onto the "
            "Throne or centre): the opponent placed it on the outermost band (not a challenge)"
        )
    elif action.kind == "pentathlon.sb.stack_count":
        text = f"{fields['asked_by']} asked the number of cards in a stack: {fields['cards']}"
    else:
        text = action.kind
    return {**fields, "text": text}
