"""What a ruling on one challenge record does to the play, and says it did.

C: a challenge of the opponent's declared win on a rule about the game's intended goal gives
the win to the challenger; on another rule it withdraws the declaration and play continues
(R222). Otherwise the game's CORRECT effects apply (restore, subtract, the trick, the card's
points), a pending award is checked again, and the challenger begins a turn (or gets an
additional one). I: loss of turn; a declared win is confirmed, and the game ends with it at
once (R781). IA: recorded, no loss of turn; a declared win stands. A challenger who does not
hold the flag card loses their next turn (R224). Each declaration's fate is kept with it; a
ruling that ends the game says so. A game played under the rulings before issue 20
(``Play.rulings``, R796) keeps their texts and their I on Juggle's waiting declaration; a
restore of a player who has had no turn yet says so (R843) from rulings 4.
"""

from __future__ import annotations

from dataclasses import replace

from rules.pentathlon.catalogue import ChallengeRule, Effect, Ruling, find_rule
from rules.pentathlon.challenges import ChallengeRecord
from rules.pentathlon.play import (
    RULINGS,
    RULINGS_BEFORE_ISSUE_20,
    RULINGS_R746_R749,
    Fate,
    GameRules,
    Play,
    declaration_result,
    hand_flag,
    restart_turn,
)
from rules.pentathlon.players import Player, of, with_value
from rules.pentathlon.results import How, Result


def apply_ruling(play: Play, rules: GameRules, record: ChallengeRecord) -> tuple[Play, str]:
    ruling = record.ruling
    assert ruling is not None
    rule = find_rule(rules.challenge_rules, record.rule)
    ended = play.pending is not None
    if ruling is Ruling.CORRECT:
        play, text = _correct(play, rules, record, rule)
    elif ruling is Ruling.INCORRECT:
        play, text = _incorrect(play, rules, record)
    else:
        play, text = _inappropriate(play, record.challenger)
    if _before(play):
        return play, text  # the texts before issue 20 did not say so (R796)
    if not ended and play.pending is not None and play.pending.detail not in text:
        text += f"; so the game ends: {play.pending.detail}"  # at once, as the ruling says
    return play, text


def _incorrect(play: Play, rules: GameRules, record: ChallengeRecord) -> tuple[Play, str]:
    """I: loss of turn; of a declared win: "the declared win is confirmed" (R781)."""
    challenger = record.challenger
    confirmed = challenger.other in play.declared
    if confirmed:
        play = decide(play, challenger.other, Fate.CONFIRMED, record.number)
    waiting = play.pending is None and not play.counting and play.holder is not challenger
    if confirmed and waiting and not _before(play):
        # Juggle: the beginning player's win waits for the second player's turn; the I costs
        # that very turn, so the round is complete and the confirmed win ends the game now.
        lost = with_value(play.turns_lost, challenger, of(play.turns_lost, challenger) + 1)
        won = declaration_result(play.declared, rules.title)
        play = replace(play, turns_lost=lost, pending=won, pending_check=None)
        return play, (
            f"the declared win is confirmed; loss of turn: {challenger} loses the turn that "
            "would complete the round"
        )
    play, text = _lose_turn(play, rules, challenger)
    return play, f"the declared win is confirmed; {text}" if confirmed else text


def _inappropriate(play: Play, challenger: Player) -> tuple[Play, str]:
    """IA: recorded, no loss of turn; a declared win it was about stands, unjudged (R781)."""
    text = "recorded; no loss of turn"
    declarer = challenger.other
    if declarer not in play.declared or _before(play):
        return play, text
    if play.pending is None and not play.counting:
        return play, f"{declarer}'s declared win stands; {text}: {challenger} completes the round"
    return play, f"{declarer}'s declared win stands; {text}"


def _before(play: Play) -> bool:
    """The game is played under the rulings before issue 20 (R796)."""
    return play.rulings == RULINGS_BEFORE_ISSUE_20


def _no_turn_yet(play: Play, player: Player) -> bool:
    """``player`` has had no turn in this game, under rulings that say so (R843, R796)."""
    return play.rulings > RULINGS_R746_R749 and not play.has_had_turn(player)


def _nothing_to_restore(play: Play, player: Player) -> str:
    """The restore of a player who has begun no turn (R843), and why, where turns were lost
    to Incorrect rulings: theirs were turns that never began (R847)."""
    lost = of(play.turns_lost, player)
    if not lost:
        return f"{player} has had no turn yet: nothing to restore"
    turns = "turn was" if lost == 1 else f"{lost} turns were"
    return f"{player} has had no turn yet ({player}'s {turns} lost): nothing to restore"


# A declaration a later ruling may still decide: one standing, or one an Incorrect ruling
# confirmed and a later record of the same announcement (or a later announcement, before the
# monitor confirms) ruled Correct on a rule about the goal (R980).
UNDECIDED_OR_CONFIRMED = (Fate.STANDING, Fate.CONFIRMED)


def decide(play: Play, player: Player, fate: Fate, challenge: int) -> Play:
    """The fate of ``player``'s latest declaration still in play, decided by challenge
    ``challenge``: the latest ruling that acts on it is the one its fate names (R980)."""
    declarations = list(play.declarations)
    for index in reversed(range(len(declarations))):
        declaration = declarations[index]
        if declaration.player is player and declaration.fate in UNDECIDED_OR_CONFIRMED:
            declarations[index] = replace(declaration, fate=fate, challenge=challenge)
            break
    return replace(play, declarations=tuple(declarations))


def _correct(
    play: Play, rules: GameRules, record: ChallengeRecord, rule: ChallengeRule
) -> tuple[Play, str]:
    challenger = record.challenger
    challenged = challenger.other
    texts = []
    if challenged in play.declared:
        if rule.goal and _declared_by_monitor(play, challenged):
            # the Monitor's mistake, not the player's declaration: no sanction (R986)
            play = decide(play, challenged, Fate.WITHDRAWN, record.number)
            return _withdraw(play, rules, challenged), (
                f"the win the Monitor declared for {challenged} is withdrawn and play "
                f"continues ({challenged} declared nothing: no sanction)"
            )
        if rule.goal:
            detail = f"{challenged}'s declared win was challenged Correct: {rule.title}"
            won = Result(challenger, How.CHALLENGED_WIN, detail)
            play = decide(play, challenged, Fate.TO_CHALLENGER, record.number)
            return replace(play, declared=(), pending=won, pending_check=None), (
                f"the win goes to {challenger}"
            )
        play = _withdraw(decide(play, challenged, Fate.WITHDRAWN, record.number), rules, challenged)
        texts.append(f"{challenged}'s declared win is withdrawn and play continues")
    board = play.board
    prior = of(play.turn_start, challenged)
    for effect in rule.on_correct:
        board, text = rules.correct(board, effect, challenger, prior)
        if effect is Effect.RESTORE and _no_turn_yet(play, challenged):
            # nothing of theirs to take back: their part of the game is as it began (R843)
            text = _nothing_to_restore(play, challenged)
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
    if challenger in play.declared and not _before(play):  # decides nothing of it (R782)
        texts.append(f"{challenger}'s declared win stands")
    return play, "; ".join(texts) or "recorded"


def _declared_by_monitor(play: Play, player: Player) -> bool:
    """``player``'s declared win in play is one the Monitor declared for them (Queens & Guards),
    under rulings 4 (R986); earlier rulings sanctioned it as the player's own (R796)."""
    if play.rulings < RULINGS:
        return False
    # the declaration ``decide`` acts on: standing, or confirmed by an earlier record's I of
    # the same announcement (R980), which leaves it the Monitor's declaration all the same (R991)
    in_play = [
        d for d in play.declarations if d.player is player and d.fate in UNDECIDED_OR_CONFIRMED
    ]
    return bool(in_play) and in_play[-1].by_monitor


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
