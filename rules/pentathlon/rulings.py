"""What a ruling on one challenge record does to the play, and says it did.

C: a challenge of the opponent's declared win on a rule about the game's intended goal gives
the win to the challenger; on another rule it withdraws the declaration and play continues
(R222). Otherwise the game's CORRECT effects apply (restore, subtract, the trick, the card's
points), a pending award is checked again, and the challenger begins a turn (or gets an
additional one). I: loss of turn; a declared win is confirmed. IA: recorded, no loss of turn.
A challenger who does not hold the flag card loses their next turn (R224).
"""

from __future__ import annotations

from dataclasses import replace

from rules.pentathlon.catalogue import ChallengeRule, Effect, Ruling, find_rule
from rules.pentathlon.challenges import ChallengeRecord
from rules.pentathlon.play import GameRules, Play, declaration_result, hand_flag, restart_turn
from rules.pentathlon.players import Player, of, with_value
from rules.pentathlon.results import How, Result


def apply_ruling(play: Play, rules: GameRules, record: ChallengeRecord) -> tuple[Play, str]:
    ruling = record.ruling
    assert ruling is not None
    rule = find_rule(rules.challenge_rules, record.rule)
    if ruling is Ruling.CORRECT:
        return _correct(play, rules, record.challenger, rule)
    confirmed = record.challenger.other in play.declared
    if ruling is Ruling.INCORRECT:
        play, text = _lose_turn(play, rules, record.challenger)
    else:
        text = "recorded; no loss of turn"
    return play, f"the declared win is confirmed; {text}" if confirmed else text


def _correct(
    play: Play, rules: GameRules, challenger: Player, rule: ChallengeRule
) -> tuple[Play, str]:
    challenged = challenger.other
    texts = []
    if challenged in play.declared:
        if rule.goal:
            detail = f"{challenged}'s declared win was challenged Correct: {rule.title}"
            won = Result(challenger, How.CHALLENGED_WIN, detail)
            return replace(play, declared=(), pending=won, pending_check=None), (
                f"the win goes to {challenger}"
            )
        play = _withdraw(play, rules, challenged)
        texts.append(f"{challenged}'s declared win is withdrawn and play continues")
    board = play.board
    prior = of(play.turn_start, challenged)
    for effect in rule.on_correct:
        board, text = rules.correct(board, effect, challenger, prior)
        texts += [text] if text else []
    play = replace(play, board=board)
    if play.pending is not None and play.pending_check is not None:
        result = rules.recheck(play, play.pending_check)
        if result != play.pending:
            texts.append("so " + (result.detail if result else "the game goes on"))
        play = replace(play, pending=result, pending_check=play.pending_check if result else None)
    if play.in_turn:
        play, turn_texts = _challenger_turn(play, rules, challenger, rule)
        texts += turn_texts
    return play, "; ".join(texts) or "recorded"


def _withdraw(play: Play, rules: GameRules, player: Player) -> Play:
    declared = tuple(other for other in play.declared if other is not player)
    pending = play.pending
    if pending is not None and pending.how is How.GOAL:
        pending = declaration_result(declared, rules.title) if declared else None
    return replace(play, declared=declared, pending=pending)


def _challenger_turn(
    play: Play, rules: GameRules, challenger: Player, rule: ChallengeRule
) -> tuple[Play, list[str]]:
    texts = []
    if Effect.CHALLENGER_BEGINS_TURN in rule.on_correct:
        if play.holder is challenger:
            play = restart_turn(play, rules)
        else:
            play = hand_flag(play, rules, challenger, received=False)
        texts.append(f"{challenger} begins a turn")
    if Effect.CHALLENGER_EXTRA_TURN in rule.on_correct:
        extra = with_value(play.extra_turns, challenger, of(play.extra_turns, challenger) + 1)
        play = replace(play, extra_turns=extra)
        texts.append(f"{challenger} receives an additional turn")
    return play, texts


def _lose_turn(play: Play, rules: GameRules, challenger: Player) -> tuple[Play, str]:
    if not play.in_turn:
        return play, "loss of turn (no turn is being played)"
    if play.holder is not challenger:
        owed = with_value(play.lost_turns, challenger, of(play.lost_turns, challenger) + 1)
        return replace(play, lost_turns=owed), f"loss of turn: {challenger} loses the next turn"
    lost = with_value(play.turns_lost, challenger, of(play.turns_lost, challenger) + 1)
    play = hand_flag(replace(play, turns_lost=lost), rules, challenger.other)
    return play, f"loss of turn: the flag card passes to {challenger.other}"
