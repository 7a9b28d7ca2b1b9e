"""The score card attacked (issue 26, FINDINGS-i26-card-break.md): what the card says against
what the result and the hub say."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path

from firmware_py.director.hub.wire.apply_pentathlon import _reported, _zero_points
from firmware_py.families.pentathlon.card import Layout, card_html
from firmware_py.families.pentathlon.view import report
from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.fab_a_diffy import ShowStrip, TakeTrick
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.monitor_actions import (
    Begins,
    Challenge,
    Confirm,
    DeclareWin,
    DieToss,
    Opinion,
    PassFlag,
    Rule,
    StripDraw,
    TimeCalled,
)
from rules.pentathlon.queens_guards import MovePiece, TrapPenalty
from rules.pentathlon.record import record
from rules.tournament.pentathlon import GameResult, Seat
from rules.tournament.pentathlon_check import check_result
from tests.pentathlon_card_helpers import LONG_NAMES
from tests.pentathlon_helpers import CORRECT, INCORRECT, A, B, new_game, play
from tests.test_pentathlon_card_web import LONG_HEADING, _printed


def _cards(state: PentathlonGame) -> list[str]:
    """Each Pentathlete's card's words, A's then B's."""
    html = card_html(record(state))
    parts = re.split(r'<section class="card[^"]*">', html)[1:]
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))) for part in parts]


# -- finding 1: a challenge ruled after a third I/IA ended the game --------------------------


def _third_i_by_an_opinion() -> tuple[PentathlonGame, PentathlonGame]:
    """B has two I; B's next announcement names two rules, both ruled C by the Monitor; A asks
    the Game Leader's opinion of the first, ruled I: B's third I/IA ends the game, and the
    second rule's C is not in force. The game before and after the monitor confirms."""
    state = play(new_game(Game.CONTIG_60), DieToss(1, 2))
    for _ in range(2):
        state = play(state, ContigPlay(1), Challenge(B, ("recording",)), Rule(INCORRECT))
        assert state.on_turn is not None
        state = play(state, PassFlag(state.on_turn))
    state = play(
        state,
        ContigPlay(1),
        Challenge(B, ("recording", "announcing")),
        Rule(CORRECT),
        Rule(CORRECT),
        Opinion(3, A, INCORRECT),
    )
    return state, play(state, Confirm())


def test_the_card_counts_the_c_i_and_ia_in_force_as_the_hub_records_them() -> None:
    """R988: the hub records B's challenges as C 0, I 3, IA 0 (the C ruled after B's third I
    is not in force); B's card says the same and names the challenge that counts for nothing."""
    before, after = _third_i_by_an_opinion()
    over = [fields for name, fields in report(before, after).events if name == "game_over"]
    assert over[0]["challenges"]["B"] == {"C": 0, "I": 3, "IA": 0}
    assert (
        "Player B's challenges: 4 (C 0, I 3, IA 0; 1 not in force: ruled after the game had "
        "ended at a third I/IA); I/IA in force 3 of 3."
    ) in _cards(after)[1]


def test_a_card_without_challenges_out_of_force_says_only_its_counts() -> None:
    _, after = _third_i_by_an_opinion()
    assert "Player A's challenges: 0 (C 0, I 0, IA 0); I/IA in force 0 of 3." in _cards(after)[0]


# -- finding 2: a card of many declared wins ---------------------------------------------------


def _withdrawn_declarations(count: int) -> PentathlonGame:
    """A Contig 60 game of ``count`` turns, each player in turn declaring five in a row and
    the opponent's Correct challenge on the chip's placing withdrawing it (play continues);
    then time called, the turns completed and the result confirmed."""
    state = play(new_game(Game.CONTIG_60), DieToss(1, 2))
    for _ in range(count):
        holder = state.on_turn
        assert holder is not None
        state = play(
            state,
            ContigPlay(1),
            DeclareWin(holder, "five-in-a-row"),
            Challenge(holder.other, ("placing",)),
            Rule(CORRECT),
        )
    state = play(state, TimeCalled())
    while state.play is not None and state.play.pending is None:
        assert state.on_turn is not None
        state = play(state, PassFlag(state.on_turn))
    return play(state, Confirm())


def test_every_card_of_up_to_26_withdrawn_declared_wins_stays_on_its_page(
    tmp_path: Path,
) -> None:
    """R989 (R841): each declared win is reckoned by its line as printed (the goal, who, the
    fate, the challenge, what the record said), so a card of 22 or 26 declared wins, each
    withdrawn by a Correct challenge, is set tightly enough to stay on one page, A4 and Letter,
    with names, event, division and monitor of 60 characters."""
    jobs = []
    for count in (1, 6, 22, 26):
        source = tmp_path / f"card-{count}.html"
        game = record(_withdrawn_declarations(count))
        source.write_text(card_html(game, names=LONG_NAMES, heading=LONG_HEADING), encoding="utf-8")
        jobs += [(source, "A4"), (source, "Letter")]
    printed = asyncio.run(_printed(jobs))
    for (source, size), (pages, fits) in zip(jobs, printed, strict=True):
        assert (pages, fits) == (2, True), f"{source.name} on {size}"


def test_halves_of_many_declared_wins_print_a_card_a_page(tmp_path: Path) -> None:
    """R989: both cards of 7 withdrawn declared wins do not fit half a page each: each prints
    on a page of its own; 3 still share one page."""
    jobs = []
    for count in (3, 7):
        source = tmp_path / f"halves-{count}.html"
        game = record(_withdrawn_declarations(count))
        html = card_html(game, names=LONG_NAMES, heading=LONG_HEADING, layout=Layout.HALVES)
        source.write_text(html, encoding="utf-8")
        jobs += [(source, "A4"), (source, "Letter")]
    assert [pages for pages, _ in asyncio.run(_printed(jobs))] == [1, 1, 2, 2]


# -- finding 5: Juggle's tie by goal, refused by the hub ----------------------------------------


def test_the_hub_takes_juggle_s_tie_when_both_players_cover_the_board_in_one_round() -> None:
    """R992: A, the beginning player, declares the board covered; B completes the round and
    declares it too: a tie by goal, which both cards print, and the hub reads and checks the
    same ``game_over`` as a tie (it refused it: "a tie by goal")."""
    before = play(
        new_game(Game.JUGGLE),
        Begins(A),
        DeclareWin(A, "board-covered"),
        PassFlag(A),
        DeclareWin(B, "board-covered"),
    )
    after = play(before, Confirm())
    over = [fields for name, fields in report(before, after).events if name == "game_over"]
    seat = Seat(1, 1, Game.JUGGLE, "Ann", "Ben")
    stored = GameResult(seat, *_reported(over[0]), _zero_points(over[0]))
    check_result(stored)
    assert (stored.winner, stored.outcome("A"), stored.outcome("B")) == (None, "tie", "tie")
    for card in _cards(after):
        assert " TIE " in card


# -- finding 6: the games the time limit counts as tied ----------------------------------------


def test_the_card_s_ties_are_the_result_s_when_time_leaves_games_unplayed() -> None:
    """R993 (R212): A takes a trick in game 1 and time is called; the time limit gives game 1
    to A and counts games 2 and 3, not played, as tied: "games won: A 1, B 0; tied 2". Each
    card's final scores say tied 2 of 3, and which games, not "tied 0 (of 1)"."""
    state = play(new_game(Game.FAB_A_DIFFY), StripDraw("1/12", "1/2"))  # A begins
    state = play(state, ShowStrip(), TakeTrick(), PassFlag(A), TimeCalled())
    state = play(state, ShowStrip(), PassFlag(B), Confirm())
    assert state.result is not None and "games won: A 1, B 0; tied 2" in state.result.detail
    for card in _cards(state):
        assert (
            "Player A: games won 1, tied 2 (of 3; game 1 decided at the time limit on tricks "
            "A 1, B 0; games 2 and 3 not played, counted as tied); Player B: games won 0, "
            "tied 2 (of 3;"
        ) in card


# -- finding 7: the Monitor's win withdrawn on the goal, said "on another rule" ----------------


def test_the_monitor_s_win_withdrawn_on_the_goal_s_rule_is_not_said_to_be_on_another_rule() -> None:
    """R994 (R986): B's Correct challenge of the Queen surrounded withdraws the win the Monitor
    declared for A; the card's declared win says so, not "a Correct challenge on another rule"
    beside a challenge line naming the goal's rule."""
    state = play(
        new_game(Game.QUEENS_AND_GUARDS),
        Begins(A),
        MovePiece(),
        DeclareWin(A, "queen-surrounded", by_monitor=True),
        Challenge(B, ("queen-surrounded",)),
        Rule(CORRECT),
    )
    for card in _cards(state):
        assert "on another rule" not in card
        assert (
            "the Monitor declared for Player A in turn 1: withdrawn and play continued: the win "
            "the Monitor declared was challenged Correct on the goal's rule (no sanction) "
            "(challenge 1)."
        ) in card


def test_a_declared_win_withdrawn_on_another_rule_still_says_so() -> None:
    state = play(
        new_game(Game.QUEENS_AND_GUARDS),
        Begins(A),
        MovePiece(),
        DeclareWin(A, "queen-surrounded", by_monitor=True),
        Challenge(B, ("move",)),
        Rule(CORRECT),
    )
    assert (
        "withdrawn and play continued: a Correct challenge on another rule (challenge 1)"
        in (_cards(state)[0])
    )


# -- finding 8: a card of many events (Queens & Guards' trap penalties) ------------------------


def _trap_penalties(count: int) -> PentathlonGame:
    """A Queens & Guards game of ``count`` turns, each ending with the mover's piece in a trap
    and the opponent's trap penalty (R790); then time called and the result confirmed."""
    state = play(new_game(Game.QUEENS_AND_GUARDS), Begins(A))
    for _ in range(count):
        holder = state.on_turn
        assert holder is not None
        state = play(state, MovePiece(), PassFlag(holder), TrapPenalty(holder))
    state = play(state, TimeCalled())
    while state.play is not None and state.play.pending is None:
        assert state.on_turn is not None
        state = play(state, MovePiece(), PassFlag(state.on_turn))
    return play(state, Confirm())


def _printed_pages(tmp_path: Path, game: PentathlonGame, layout: Layout) -> list[int]:
    source = tmp_path / f"card-{layout.value}.html"
    html = card_html(record(game), names=LONG_NAMES, heading=LONG_HEADING, layout=layout)
    source.write_text(html, encoding="utf-8")
    return [pages for pages, _ in asyncio.run(_printed([(source, "A4"), (source, "Letter")]))]


def test_halves_of_15_trap_penalties_share_one_page(tmp_path: Path) -> None:
    """R995: each event is reckoned by its text as a half page prints it, so both cards of 15
    trap penalties are set small enough to share one page on A4 and Letter (Letter ran onto a
    second page)."""
    assert _printed_pages(tmp_path, _trap_penalties(15), Layout.HALVES) == [1, 1]


def test_a_card_reckoned_longer_than_the_tiniest_setting_holds_is_set_tiniest(
    tmp_path: Path,
) -> None:
    """R995: 80 trap penalties are reckoned past what the tiniest type holds; set in it they
    still stay on a page each, where the denser fallback printed each card on two pages."""
    assert _printed_pages(tmp_path, _trap_penalties(80), Layout.PAGES) == [2, 2]
