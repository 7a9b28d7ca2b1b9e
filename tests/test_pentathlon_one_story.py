"""One card, one story (issue 26, findings 4 and 5): every figure on a Pentathlete's score card
is the one result the rules decided, and the hub is sent the same.

Seed 002: "The Score Card is THE ONLY Official Record of a Pentathlete's score ...
Pentathletes are to verify the information on their score card": a card that contradicts its
own result cannot be verified.
"""

from __future__ import annotations

import re
from html import unescape

from firmware_py.families.pentathlon.card import card_html
from firmware_py.families.pentathlon.view import report
from rules.actions import Action
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.fab_a_diffy import DeckOut, FabBoard, ShowStrip, TakeTrick
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.monitor_actions import (
    Challenge,
    Confirm,
    DeclareWin,
    DieToss,
    PassFlag,
    Rule,
    StripDraw,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_R746_R749
from rules.pentathlon.players import Player
from rules.pentathlon.record import final_scores, record
from rules.pentathlon.results import How
from tests.pentathlon_helpers import CORRECT, INCORRECT, MINUTES, A, B, new_game, play, ruled


def _cards(state: PentathlonGame) -> list[str]:
    """Each Pentathlete's card's words, A's then B's."""
    html = card_html(record(state))
    parts = re.split(r'<section class="card[^"]*">', html)[1:]
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))) for part in parts]


def _game_over(before: PentathlonGame, after: PentathlonGame) -> dict[str, object]:
    """The ``game_over`` the table sends the hub when the monitor confirms."""
    over = [fields for name, fields in report(before, after).events if name == "game_over"]
    assert len(over) == 1
    return over[0]


# -- finding 4: the Fab-a-Diffy game decided at the time limit -------------------------------


def _fab(rulings: int | None = None) -> PentathlonGame:
    begun = start_action(Game.FAB_A_DIFFY, MINUTES)
    state = start(begun) if rulings is None else start(begun, rulings=rulings)
    return play(state, StripDraw("1/12", "1/2"))  # A begins


def _shown_out(state: PentathlonGame) -> PentathlonGame:
    """Turns of a strip shown and no trick until the deck cannot give a strip to show."""
    board = state.play.board if state.play else None
    while isinstance(board, FabBoard) and board.deck_left >= board.show_needs:
        assert state.on_turn is not None
        state = play(state, ShowStrip(), PassFlag(state.on_turn))
        board = state.play.board if state.play else None
    return state


def _a_wins_game_1_b_leads_game_2_at_time(rulings: int | None = None) -> list[PentathlonGame]:
    """A wins game 1 at Deck out; in game 2 (B begins) B takes a trick, time is called during
    A's turn, A completes the round: B leads on tricks 1 to 0. The states before and after the
    monitor confirms."""
    state = play(_fab(rulings), ShowStrip(), TakeTrick(), PassFlag(A), ShowStrip(), PassFlag(B))
    state = apply(_shown_out(state), DeckOut())
    state = play(state, ShowStrip(), TakeTrick(), PassFlag(B), TimeCalled())
    state = play(state, ShowStrip(), PassFlag(A))
    return [state, apply(state, Confirm())]


def test_the_game_the_time_limit_decides_counts_in_each_player_s_games_won() -> None:
    """R212: at the time limit the unfinished game goes to the player with more tricks; the
    result says "games won A 1, B 1", so the final scores say it too (R982)."""
    _, over = _a_wins_game_1_b_leads_game_2_at_time()
    assert over.result is not None
    assert (over.result.winner, over.result.how) == (None, How.TIME_LIMIT)
    assert "games won: A 1, B 1; tied 1" in over.result.detail
    assert final_scores(over) == {"A": 1, "B": 1}


def test_the_card_s_final_scores_show_the_games_won_with_the_tricks_that_decided_game_2() -> None:
    _, over = _a_wins_game_1_b_leads_game_2_at_time()
    for card in _cards(over):
        assert "TIE" in card
        assert (  # game 3, not played, is tied as the result counts it (R993)
            "Player A: games won 1, tied 1 (of 3; game 2 decided at the time limit on tricks "
            "A 0, B 1; game 3 not played, counted as tied); Player B: games won 1, tied 1 (of "
            "3; game 2 decided at the time limit on tricks A 0, B 1; game 3 not played, counted "
            "as tied)"
        ) in card


def test_the_hub_is_sent_the_games_won_the_result_counted() -> None:
    before, over = _a_wins_game_1_b_leads_game_2_at_time()
    assert _game_over(before, over)["scores"] == {"A": 1, "B": 1}


def test_a_game_finished_by_deck_out_after_time_is_counted_once() -> None:
    """Deck out after time was called ends the game by its tricks: it is among the finished
    games, not counted again as the game in progress."""
    extra_turn = [*ruled(B, "show-box", CORRECT), ShowStrip(), PassFlag(B)]
    state = _shown_out(play(_fab(), ShowStrip(), TakeTrick(), PassFlag(A), *extra_turn))
    assert state.on_turn is B  # the second player: both players complete a turn (R231)
    state = play(state, TimeCalled(), DeckOut())
    assert state.play is not None and state.play.pending is not None
    assert "games won: A 1, B 0; tied 2" in state.play.pending.detail
    assert final_scores(state) == {"A": 1, "B": 0}
    assert "decided_at_time_limit" not in record(state)["scores"]


def test_a_journal_under_earlier_rulings_keeps_the_games_won_its_table_reported() -> None:
    """R796: a game under rulings 1 to 3 replays to the decisions its journal recorded."""
    before, over = _a_wins_game_1_b_leads_game_2_at_time(RULINGS_R746_R749)
    assert _game_over(before, over)["scores"] == {"A": 1, "B": 0}


# -- finding 9: Fab-a-Diffy's third I/IA, "a loss for up to 3 games" (R996) ------------------


def _b_s_third_ia(state: PentathlonGame) -> list[PentathlonGame]:
    """From ``state``, B's three Inappropriate challenges end the match as a loss for B. The
    states before and after the monitor confirms."""
    for _ in range(3):
        state = play(state, Challenge(B, ("other",)), Rule(Ruling.INAPPROPRIATE))
    return [state, apply(state, Confirm())]


def _b_wins_game_1(rulings: int | None = None) -> PentathlonGame:
    """A begins game 1 and shows a strip; B takes a trick; the deck runs out."""
    state = play(_fab(rulings), ShowStrip(), PassFlag(A), ShowStrip(), TakeTrick(), PassFlag(B))
    state = apply(_shown_out(state), DeckOut())
    assert state.play is not None and isinstance(state.play.board, FabBoard)
    assert state.play.board.games == (B,)
    return state


def test_a_third_ia_gives_the_opponent_the_games_the_match_still_plays() -> None:
    """Seed 002: "Any combination of 3 "I"s and/or "IA"s results in a loss for up to 3 games
    that are allowed to be played in this event": B won game 1, B's third IA in game 2 loses B
    games 2 and 3: games won A 2, B 1, as A's win says (R996)."""
    before, over = _b_s_third_ia(_b_wins_game_1())
    assert over.result is not None
    assert (over.result.winner, over.result.how) == (A, How.THREE_STRIKES)
    assert final_scores(over) == {"A": 2, "B": 1}
    assert _game_over(before, over)["scores"] == {"A": 2, "B": 1}


def test_the_card_names_the_games_the_third_ia_lost() -> None:
    _, over = _b_s_third_ia(_b_wins_game_1())
    for card in _cards(over):
        assert (
            "Player A: games won 2, tied 0 (of 3; games 2 and 3 lost by B at the third I/IA); "
            "Player B: games won 1, tied 0 (of 3; games 2 and 3 lost by B at the third I/IA)"
        ) in card


def test_a_third_ia_in_game_1_loses_the_two_games_that_decide_the_match() -> None:
    """Best 2 of 3: after games 1 and 2 go to A, game 3 is not allowed to be played (R211), so
    the third IA loses B two games, not three (R996)."""
    before, over = _b_s_third_ia(_fab())
    assert final_scores(over) == {"A": 2, "B": 0}
    assert _game_over(before, over)["scores"] == {"A": 2, "B": 0}
    assert "games 1 and 2 lost by B at the third I/IA" in _cards(over)[1]


def test_a_third_ia_after_a_won_and_a_tied_game_loses_the_tied_game_too() -> None:
    """B won game 1 and tied game 2; game 3 alone would leave games won A 1, B 1 beside A's
    win: the tied game is a loss for B too (R996)."""
    tied = apply(_shown_out(_b_wins_game_1()), DeckOut())  # game 2: no trick, a tie
    _, over = _b_s_third_ia(tied)
    assert record(over)["scores"]["games"] == ["B", "A", "A"]
    assert final_scores(over) == {"A": 2, "B": 1}
    assert "games 2 and 3 lost by B at the third I/IA" in _cards(over)[0]


def test_a_third_ia_at_the_result_of_a_match_b_won_is_in_its_last_game() -> None:
    """B won games 1 and 2; before the monitor confirms, B's third IA: it came in game 2, the
    last game played, which goes to A with game 3 (R996)."""
    state = _b_wins_game_1()
    state = play(state, ShowStrip(), TakeTrick(), PassFlag(B))  # game 2: B begins, takes one
    state = apply(_shown_out(state), DeckOut())
    assert state.phase == "result"
    _, over = _b_s_third_ia(state)
    assert final_scores(over) == {"A": 2, "B": 1}
    assert "games 2 and 3 lost by B at the third I/IA" in _cards(over)[1]


def test_a_third_ia_under_earlier_rulings_keeps_the_games_won_its_table_reported() -> None:
    """R796: a journal of rulings 1 to 3 replays to the scores it recorded: the finished games."""
    before, over = _b_s_third_ia(_b_wins_game_1(RULINGS_R746_R749))
    assert _game_over(before, over)["scores"] == {"A": 0, "B": 1}


# -- finding 5: one fate per declaration, the one that made the result -----------------------


def _contig(*actions: Action) -> PentathlonGame:
    return play(new_game(Game.CONTIG_60), DieToss(1, 2), *actions)


def _juggle(*actions: Action) -> PentathlonGame:
    return play(new_game(Game.JUGGLE), DieToss(2, 5), *actions)  # A begins


def _fates(state: PentathlonGame) -> list[tuple[str, str, int | None]]:
    return [(d["player"], d["fate"], d["challenge"]) for d in record(state)["declarations"]]


def test_a_later_rule_of_one_challenge_ruled_correct_decides_the_declaration_s_fate() -> None:
    """Seed 002: "each challenged rule is treated as a separate challenge ... ruled on in the
    order announced": scoring ruled I confirms A's declared win, then five-in-a-row ruled C
    gives it to B. The fate is the one that made the result (R980)."""
    state = _contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    state = play(state, Challenge(B, ("scoring", "five-in-a-row")), Rule(INCORRECT), Rule(CORRECT))
    state = apply(state, Confirm())
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (B, How.CHALLENGED_WIN)
    assert _fates(state) == [("A", "to-challenger", 2)]
    for card in _cards(state):
        assert "confirmed: the challenge was ruled Incorrect" not in card
        assert "the win went to the challenger: the challenge was ruled Correct (challenge 2)" in (
            card
        )


def test_a_confirmed_win_a_later_correct_challenge_gives_away_is_not_said_confirmed() -> None:
    """The same in two announcements, before the monitor confirms: I, then C on the goal."""
    state = _contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    state = play(state, *ruled(B, "scoring", INCORRECT), *ruled(B, "five-in-a-row", CORRECT))
    assert _fates(state) == [("A", "to-challenger", 2)]


def _both_declare_and_both_challenge() -> PentathlonGame:
    """Juggle: A and B both declare in round 1 (a tie); A's Correct challenge of B's declaration
    gives A the win; then B's Correct challenge of A's declaration; the monitor confirms."""
    state = _juggle(DeclareWin(A, "board-covered"), PassFlag(A), DeclareWin(B, "board-covered"))
    state = play(state, *ruled(A, "board-covered", CORRECT), *ruled(B, "board-covered", CORRECT))
    return apply(state, Confirm())


def test_a_declaration_the_result_does_not_rest_on_is_set_aside_not_said_to_have_stood() -> None:
    """A won by challenging B's declaration, not by A's own: A's declaration did not make the
    result, so no card says it stood (R981)."""
    state = _both_declare_and_both_challenge()
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (A, How.CHALLENGED_WIN)
    assert _fates(state) == [("A", "set-aside", None), ("B", "to-challenger", 1)]
    for card in _cards(state):
        assert "stood" not in card
        assert (
            "declared by Player A in turn 1: set aside: the game was decided otherwise (B's "
            "declared win was challenged Correct"
        ) in card


def test_every_declaration_a_result_rests_on_keeps_the_fate_its_ruling_gave() -> None:
    state = _contig(ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    state = play(state, *ruled(B, "five-in-a-row", INCORRECT), Confirm())
    assert _fates(state) == [("A", "confirmed", 1)]
    assert Player.A.value in _cards(state)[0]


# -- who began: the strips drawn, whatever game is played now -------------------------------


def test_the_card_names_who_drew_the_lower_strip_after_the_beginner_changed_for_game_2() -> None:
    """Rulebook: "Both players draw a strip from the deck. Lower value begins". Game 2 is begun
    by the other player, yet the card's start is the draw's: A drew 1/12 and began (R997)."""
    before, _ = _a_wins_game_1_b_leads_game_2_at_time()
    assert before.play is not None and before.play.beginner is B  # game 2's
    assert record(before)["start"] == ["Strips drawn: A 1/12, B 1/2: A has the lower and begins"]
