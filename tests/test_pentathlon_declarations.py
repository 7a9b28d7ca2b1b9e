"""Declared wins as the rulebook runs them (issue 20, findings 1-3): recorded as declared,
judged by the challenge or by its absence, the game's end following the ruling at once.

"CHALLENGING A DECLARED WIN ... If CORRECT, a win is granted to the challenger. If INCORRECT,
the declared win is confirmed." (the highlight sheets' common rules)
"""

from __future__ import annotations

from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.monitor_actions import Confirm, DeclareWin, DieToss, PassFlag
from rules.pentathlon.record import record
from rules.pentathlon.results import How, Result
from tests.pentathlon_helpers import CORRECT, INAPPROPRIATE, INCORRECT, A, B, new_game, play, ruled

COVERED = "board-covered"


def contig(*actions: object) -> PentathlonGame:
    return play(new_game(Game.CONTIG_60), DieToss(1, 2), *actions)  # type: ignore[arg-type]


def juggle(*actions: object) -> PentathlonGame:
    return play(new_game(Game.JUGGLE), DieToss(2, 5), *actions)  # type: ignore[arg-type]


def pending(state: PentathlonGame) -> Result:
    assert state.play is not None and state.play.pending is not None
    return state.play.pending


def fates(state: PentathlonGame) -> list[tuple[str, str, int | None]]:
    return [(d["player"], d["fate"], d["challenge"]) for d in record(state)["declarations"]]


# -- finding 1: a wrong declaration is recorded, and the challenge decides -----------------


def test_a_wrong_five_in_a_row_is_recorded_as_declared_challenging_a_declared_win() -> None:
    """Rulebook: "CHALLENGING A DECLARED WIN ... If CORRECT, a win is granted to the
    challenger": the monitor records what the player declared (2 chips placed), and the
    challenge decides."""
    state = contig(ContigPlay(1), PassFlag(A), PassFlag(B), ContigPlay(1))
    state = play(state, DeclareWin(A, "five-in-a-row"))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)
    assert record(state)["declarations"][0]["record_says"] == (
        "A has placed 2 chips: 5 in a row needs 5"
    )
    state = play(state, *ruled(B, "five-in-a-row", CORRECT), Confirm())
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (B, How.CHALLENGED_WIN)
    assert fates(state) == [("A", "to-challenger", 1)]


def test_a_wrong_win_by_0_or_less_is_recorded_and_a_correct_challenge_wins_it() -> None:
    """Rulebook: "If CORRECT, a win is granted to the challenger": A declares "0 or less" at
    A 0, B 2."""
    state = contig(PassFlag(A), ContigPlay(58), PassFlag(B), ContigPlay(60))
    state = play(state, DeclareWin(A, "score-zero-or-less"))
    assert record(state)["declarations"][0]["record_says"] == (
        "A's running score is 0 against 2: a win by score needs 0 or less and 3 or more below "
        "the opponent"
    )
    state = play(state, *ruled(B, "score-zero-or-less", CORRECT))
    assert (pending(state).winner, pending(state).how) == (B, How.CHALLENGED_WIN)


def test_a_declared_win_nobody_challenges_stands_as_the_result() -> None:
    """Rulebook: "END OF GAME when a player declares a win": unchallenged, the declaration
    stands."""
    state = contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"), Confirm())
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (A, How.GOAL)
    assert fates(state) == [("A", "standing", None)]


def test_an_incorrect_challenge_of_a_wrong_declaration_confirms_it() -> None:
    """Rulebook: "If INCORRECT, the declared win is confirmed", whatever the record said."""
    state = contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    state = play(state, *ruled(B, "five-in-a-row", INCORRECT), Confirm())
    assert state.result is not None and state.result.winner is A
    assert fates(state) == [("A", "confirmed", 1)]


# -- finding 2: Juggle, "If INCORRECT, the declared win is confirmed" ----------------------


def test_juggle_an_incorrect_challenge_of_the_beginners_declared_win_ends_the_game_at_once() -> (
    None
):
    """Rulebook: "If INCORRECT, the declared win is confirmed": B challenges A's declared win
    while A holds the flag; the I costs B the turn that would complete the round, so A has won
    now."""
    state = juggle(DeclareWin(A, COVERED), *ruled(B, "board-covered", INCORRECT))
    assert state.phase == "result"
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)
    assert state.challenges[0].effect.startswith(
        "the declared win is confirmed; loss of turn: B loses the turn that would complete the "
        "round; so the game ends: A reached the goal of Juggle"
    )
    assert fates(state) == [("A", "confirmed", 1)]
    assert record(state)["players"]["B"]["lost_turns"] == 1


def test_juggle_an_inappropriate_challenge_leaves_the_declared_win_standing_for_the_round() -> None:
    """IA "DOES NOT result in loss of turn": the second player still completes the round, and
    the ruling says the declared win stands (it is not "confirmed" by an IA)."""
    state = juggle(DeclareWin(A, COVERED), *ruled(B, "board-covered", INAPPROPRIATE))
    assert state.phase == "play"
    assert state.challenges[0].effect.startswith(
        "A's declared win stands; recorded; no loss of turn: B completes the round"
    )
    state = play(state, PassFlag(A), PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_a_ruling_that_completes_the_round_says_the_game_ends() -> None:
    """The game's end follows the ruling at once, and the ruling's text says so."""
    state = juggle(DeclareWin(A, COVERED), PassFlag(A), *ruled(B, "placement", INCORRECT))
    assert state.phase == "result"
    assert "so the game ends: A reached the goal of Juggle" in state.challenges[0].effect


# -- finding 3: the declarer's own challenge -------------------------------------------------


def test_the_declarers_own_correct_challenge_leaves_the_declaration_standing_and_says_so() -> None:
    """Rulebook: "If CORRECT ... the challenger begins a turn": a declarer's own (mistimed)
    challenge ruled Correct decides nothing of the declaration, and the ruling says it
    stands."""
    state = juggle(DeclareWin(A, COVERED), *ruled(A, "other", CORRECT))
    assert state.challenges[0].effect == (
        "B has had no turn yet: nothing to restore; A begins a turn; A's declared win stands"
    )
    assert fates(state) == [("A", "standing", None)]
    state = play(state, PassFlag(A), PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_the_declarers_own_correct_challenge_that_completes_the_round_ends_the_game() -> None:
    """A declared, passed the flag, then challenged Correct: "A begins a turn" would complete
    the round, so the game ends with A's declared win, and the ruling says so."""
    state = juggle(DeclareWin(A, COVERED), PassFlag(A), *ruled(A, "other", CORRECT))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)
    assert state.challenges[0].effect.endswith("so the game ends: A reached the goal of Juggle")


def test_a_correct_challenge_on_another_rule_withdraws_the_declaration_on_the_record() -> None:
    """The Contig 60 NON EXAMPLE: the declaration is withdrawn and play continues."""
    state = contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"), *ruled(B, "announcing", CORRECT))
    assert state.phase == "play"
    assert fates(state) == [("A", "withdrawn", 1)]
