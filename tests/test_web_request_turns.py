"""The OLED's turns among the waiting requests (R764, R797): each in turn, one a cycle. A
request that leaves its turn early (its phone asks again, the dealer confirms or turns it down,
it runs out) passes the turn to the one after it, never back to the first: otherwise a device
re-asking its own request while on show keeps sending the turns back, and an honest request
behind its several never reaches the OLED in its minute (an outside attack, issue 19)."""

from __future__ import annotations

from firmware_py.table.web.access import (
    ASK_FOR,
    CODE_EVERY,
    LATE_PRESS,
    MAX_WAITING,
    REQUEST_SHOWN,
    Access,
    PlaceRequest,
)

SEATS = ("A", "B", "C", "D")


class Table:
    def __init__(self) -> None:
        self.now = 1000.0  # the start of a cycle (1000 = 125 * 8)
        self.access = Access(clock=lambda: self.now)
        self.access.follow(1)

    def ask(self, address: str, place: str = "A", token: str | None = None) -> PlaceRequest:
        return self.access.ask(
            self.access.code, place, seats=SEATS, officials=(), address=address, token=token
        )

    def on_show(self) -> PlaceRequest | None:
        return self.access.footer(self.now)


def test_a_request_asked_again_on_show_passes_the_turn_to_the_next_not_the_first() -> None:
    table = Table()
    _first, _second, third = (table.ask(f"10.0.0.{i}") for i in (1, 2, 3))
    honest = table.ask("10.9.9.9", "D")
    for _turn in ("the second's", "the third's"):  # the OLED drawn at each
        table.now += CODE_EVERY
        table.on_show()
    assert table.on_show() == third
    table.ask("10.0.0.3", token=third.token)  # asked again while on show: a new number
    assert table.on_show() == honest  # not the first again


def test_the_request_after_one_that_left_early_keeps_the_whole_next_turn() -> None:
    table = Table()
    first = table.ask("10.0.0.1")
    honest = table.ask("10.9.9.9", "D")
    table.now += REQUEST_SHOWN - 0.1  # the last moment of the first's turn
    table.ask("10.0.0.1", token=first.token)
    assert table.on_show() == honest
    table.now += 0.1 + (CODE_EVERY - REQUEST_SHOWN) + REQUEST_SHOWN / 2  # into the next turn
    assert table.on_show() == honest


def test_a_new_request_s_first_turn_comes_before_any_request_s_second() -> None:
    table = Table()
    held = [table.ask(f"10.0.0.{i}") for i in range(1, 8)]
    for _ in held:  # a whole round of turns
        table.on_show()
        table.now += CODE_EVERY
    honest = table.ask("10.9.9.9", "D")
    assert table.on_show() == honest  # the next turn: before the first's second


def test_a_press_just_after_the_code_replaced_a_request_is_for_that_request() -> None:
    """R759: a dealer who reads the number and presses a moment late, as the join code takes
    the footer, confirms the request read, not nothing (and not the next request after it)."""
    table = Table()
    asked = table.ask("10.0.0.1")
    assert table.on_show() == asked
    table.now += REQUEST_SHOWN  # the code's part of the footer begins
    assert table.on_show() is None
    confirmed = table.access.confirm(table.now + LATE_PRESS / 2)
    assert confirmed is not None and confirmed.seat == asked.place


def test_a_press_anywhere_in_the_code_s_part_is_for_the_request_read_before_it() -> None:
    """R942 (issue 25, finding 6): pressed 1-3 s late, COUNT was ignored without a sign, and
    the dealer's next press gave the seat to whichever number showed then."""
    table = Table()
    asked = table.ask("10.0.0.1")
    table.ask("10.0.0.2", "B")  # the next number, after the code
    assert table.on_show() == asked
    table.now += REQUEST_SHOWN
    assert table.on_show() is None  # the join code's 3 s
    confirmed = table.access.confirm(table.now + 2.0)  # 2 s into the code's 3 s
    assert confirmed is not None and confirmed.seat == asked.place


def test_a_press_once_the_next_number_shows_is_judged_by_that_number() -> None:
    table = Table()
    table.ask("10.0.0.1")
    table.on_show()
    table.now += REQUEST_SHOWN
    table.on_show()
    table.now += CODE_EVERY - REQUEST_SHOWN  # the next cycle: the number on show anew
    assert table.on_show() is not None
    assert table.access.confirm(table.now + 0.5) is None  # on show half a second: too soon


def test_every_request_of_a_full_queue_is_on_show_before_it_runs_out() -> None:
    """R745: eight waiting, one a cycle: the last asked has its turn within its wait."""
    table = Table()
    asked = [table.ask(f"10.0.0.{i}", SEATS[i % len(SEATS)]) for i in range(1, MAX_WAITING + 1)]
    shown: set[str] = set()
    ends = table.now + ASK_FOR
    while table.now < ends - REQUEST_SHOWN:
        request = table.on_show()
        if request is not None:
            shown.add(request.number)
        table.now += 1.0
    assert shown == {request.number for request in asked}
