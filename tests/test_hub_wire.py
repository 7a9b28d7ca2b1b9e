"""What tables and hub say on the broker (hub_wire), what a table publishes of itself
(``table_state``) and where it shows its next pairing (``with_next_pairing``)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from drivers.oled import fits_small
from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.headless import VirtualTable, parse_script
from firmware_py.table.hub_wire import (
    Confirmation,
    Decision,
    HubStatus,
    NextMatch,
    RoundPairings,
    TableMatch,
    WireError,
    applied_topic,
    confirmations_payload,
    confirmed_table_of,
    events_topic,
    next_match,
    pairings_topic,
    parse_confirmation,
    parse_confirmations,
    parse_decision,
    parse_hub_status,
    parse_pairings,
    round_of,
    state_topic,
    status_topic,
    table_of,
)
from firmware_py.table.uplink import table_state, with_next_pairing
from tests.journal_helpers import SCRIPTS

ROUND_1 = RoundPairings(
    1, "all", 20, (TableMatch(1, "Eagles", "Owls"), TableMatch(2, "Hawks", "Ravens")), "Doves"
)
NEXT = NextMatch("Round 1  Table 1", "Eagles v Owls")


# --- topics --------------------------------------------------------------------------------------


def test_each_table_has_its_topics_under_its_number() -> None:
    assert (status_topic(7), state_topic(7), events_topic(7)) == (
        "tables/7/status",
        "tables/7/state",
        "tables/7/events",
    )
    assert pairings_topic(3) == "tournament/rounds/3/pairings"


@pytest.mark.parametrize(
    ("topic", "table"),
    [
        ("tables/7/events", 7),
        ("tables/999/events", 999),
        ("tables/07/events", None),
        ("tables/0/events", None),
        ("tables/1000/events", None),
        ("tables/hub/events", None),
        ("tables/7/status", None),
        ("tables/7/x/events", None),
        ("tables/\u0667/events", None),  # ARABIC-INDIC DIGIT SEVEN: a digit, not ASCII
    ],
)
def test_a_topic_names_a_table_only_by_its_plain_number(topic: str, table: int | None) -> None:
    assert table_of(topic, "events") == table


def test_a_pairings_topic_names_its_round() -> None:
    assert round_of("tournament/rounds/12/pairings") == 12
    assert round_of("tournament/rounds/x/pairings") is None
    assert round_of("tournament/rounds/1") is None


# --- decisions -----------------------------------------------------------------------------------


def test_a_decision_arrives_as_it_was_sent() -> None:
    sent = Decision("5f1c0e7a", 41, "2026-05-09T09:35:00.000+00:00",
                    {"action": "match.start", "round": 2},
                    {"event": "match_result", "A": 40, "B": 20})  # fmt: skip
    assert parse_decision(sent.to_bytes()) == sent


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        (b"\xff", "a decision: not JSON"),
        (b"[1]", "a decision: expected a JSON object"),
        (b'{"journal": "j", "seq": 0}', "a decision without its journal id"),
        (b'{"journal": "j", "seq": 1.0}', "a decision without its journal id"),
        (b'{"seq": 1}', "a decision without its journal id"),
        (b'{"journal": "", "seq": 1}', "a decision without its journal id"),
        (b'{"journal": "j", "seq": 3, "wall": 5, "session": {}}', "decision 3: expected its wall"),
        (
            b'{"journal": "j", "seq": 3, "wall": "w", "session": {"action": "a"}, "event": {}}',
            "decision 3: expected an event with a name",
        ),
        (
            b'{"journal": "j", "seq": 3, "wall": "w", "session": {}, "event": {"event": "x"}}',
            "decision 3: its session has no start action",
        ),
        (b'{"seq": NaN}', "a decision: not JSON"),
    ],
)
def test_a_decision_that_is_not_one_is_refused_in_one_line(payload: bytes, error: str) -> None:
    with pytest.raises(WireError) as refused:
        parse_decision(payload)
    assert str(refused.value).startswith(error)
    assert "\n" not in str(refused.value)


def _decision_with(seq: int = 3, round_number: object = 2, **event: object) -> bytes:
    return json.dumps(
        {"journal": "j", "seq": seq, "wall": "w",
         "session": {"action": "match.start", "round": round_number},
         "event": {"event": "match_result", **event}}
    ).encode()  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        (
            _decision_with(seq=2**70),
            "a decision without its journal id: expected journal (its id) "
            "and seq, a number from 1 to 2**53, got a number of 22 digits",
        ),
        (
            _decision_with(A=10**40, B=0),
            "decision 3: event.A a number of 41 digits: expected a number from -2**53 to 2**53",
        ),
        (
            _decision_with(round_number=10**30),
            "decision 3: session round a number of 31 digits: expected 1 to 99",
        ),
        (_decision_with(round_number=100), "decision 3: session round 100: expected 1 to 99"),
        (_decision_with(A=[1, 2**60]), "decision 3: event.A[1] a number of 19 digits"),
        (_decision_with(B=1.5).replace(b"1.5", b"1e400"), "decision 3: event.B inf: expected"),
    ],
)
def test_a_decision_bounds_every_number_it_carries(payload: bytes, error: str) -> None:
    with pytest.raises(WireError) as refused:
        parse_decision(payload)
    assert str(refused.value).startswith(error)


# --- pairings ------------------------------------------------------------------------------------


def test_the_hubs_confirmation_of_a_table_is_under_its_number() -> None:
    assert applied_topic(7) == "tournament/applied/7"
    assert confirmed_table_of("tournament/applied/7") == 7
    assert confirmed_table_of("tournament/applied/07") is None
    assert confirmed_table_of("tournament/rounds/7/pairings") is None


def test_a_confirmation_arrives_as_it_was_sent() -> None:
    sent = Confirmation("a" * 32, "b" * 32, 565)
    assert parse_confirmation(sent.to_bytes()) == sent


def test_a_table_s_confirmations_name_each_of_its_journals_with_its_gap() -> None:
    """R712: one retained message per table names every journal the hub holds of it."""
    sent = (Confirmation("r" * 32, "new", 12, gap=True), Confirmation("r" * 32, "old", 0))
    assert parse_confirmations(confirmations_payload("r" * 32, sent)) == sent


def test_an_older_hub_s_one_journal_confirmation_is_read() -> None:
    payload = b'{"record":"r","journal":"j","seq":565}'
    assert parse_confirmations(payload) == (Confirmation("r", "j", 565),)


@pytest.mark.parametrize(
    "payload",
    [
        b'{"record":"r","journal":"j","seq":0}',
        b'{"record":"r","journal":"","seq":3}',
        b'{"journal":"j","seq":3}',
        b'{"record":"r","journal":"j","seq":true}',
        b'{"record":"r","journals":[{"journal":"j","seq":-1}]}',
        b'{"record":"r","journals":[{"journal":"j","seq":1,"gap":"yes"}]}',
        b'{"record":"r","journals":{"j":1}}',
    ],
)
def test_a_confirmation_without_its_record_journal_and_seq_is_refused(payload: bytes) -> None:
    with pytest.raises(WireError, match=r"^a confirmation: expected "):
        parse_confirmations(payload)


def test_a_decision_names_the_decision_before_it() -> None:
    """R710: the hub sees a gap by ``prev``."""
    sent = Decision("j1", 9, "w", {"action": "match.start"}, {"event": "x"}, 7, first_held=True)
    assert parse_decision(sent.to_bytes()) == sent


@pytest.mark.parametrize("prev", [9, 10, -1, "7", 1.5])
def test_a_decision_whose_prev_is_not_before_it_is_refused(prev: object) -> None:
    decision = {"journal": "j1", "seq": 9, "wall": "w", "session": {"action": "a"}}
    payload = json.dumps({**decision, "event": {"event": "x"}, "prev": prev}).encode()
    with pytest.raises(WireError, match=r"^decision 9: prev .*expected the seq of the decision"):
        parse_decision(payload)


def test_the_hubs_status_arrives_as_it_was_sent() -> None:
    for online in (True, False):
        assert parse_hub_status(HubStatus(online, "r").to_bytes()) == HubStatus(online, "r")


def test_a_hub_status_without_its_record_is_refused() -> None:
    with pytest.raises(WireError, match=r"^the hub's status: expected status"):
        parse_hub_status(b'{"status":"online"}')


def test_pairings_arrive_as_they_were_sent() -> None:
    assert parse_pairings(ROUND_1.to_bytes()) == ROUND_1


def test_pairings_with_a_match_that_is_not_one_are_refused() -> None:
    data = json.loads(ROUND_1.to_bytes())
    data["pairings"][0]["table"] = "1"
    with pytest.raises(WireError, match="expected each as a table, A and B"):
        parse_pairings(json.dumps(data).encode())


def test_a_table_shows_its_match_in_the_latest_round() -> None:
    round_2 = replace(ROUND_1, round=2, matches=(TableMatch(1, "Hawks", "Eagles"),))
    assert next_match({1: ROUND_1, 2: round_2}, 1) == NextMatch(
        "Round 2  Table 1", "Hawks v Eagles"
    )


def test_a_table_not_in_the_round_says_so() -> None:
    assert next_match({1: ROUND_1}, 3) == NextMatch("Round 1  Table 3", "no match this round")


def test_the_round_and_table_fit_the_title_row_at_their_largest() -> None:
    round_99 = replace(ROUND_1, round=99, matches=(TableMatch(999, "Owls", "Hawks"),))
    shown = next_match({99: round_99}, 999)
    assert shown is not None and shown.title == "Round 99  Table 999"
    assert fits_small(shown.title)


def test_full_names_are_shown_when_both_fit_the_row() -> None:
    match = TableMatch(12, "Lincoln High", "Adams", "LincolnH", "Adams")
    shown = next_match({1: replace(ROUND_1, matches=(match,))}, 12)
    assert shown is not None and shown.teams == "Lincoln High v Adams"


@pytest.mark.parametrize(
    ("a", "b", "a_short", "b_short", "teams"),
    [
        ("Lincoln High School", "Lincoln Middle", "LincolnHS", "LincolnM", "LincolnHS v LincolnM"),
        ("Lincoln High School", "Lincoln Middle School", "LHS", "LMS", "LHS v LMS"),
        ("Thunderbirds of Lincoln", "Adams Owls", "Thunder", "Adams", "Thunder v Adams"),
    ],
)  # fmt: skip
def test_long_names_are_shown_by_the_short_names_the_hub_sent(
    a: str, b: str, a_short: str, b_short: str, teams: str
) -> None:
    match = TableMatch(12, a, b, a_short, b_short)
    shown = next_match({1: replace(ROUND_1, matches=(match,))}, 12)
    assert shown is not None and shown.teams == teams
    assert fits_small(shown.teams)


@pytest.mark.parametrize(
    ("a", "b", "teams"),
    [
        ("Lincoln High School", "Lincoln Middle School", "LincolnHS v LincolnMS"),
        ("Lincoln High School Blue", "Lincoln High School Bears", "LincolHS1 v LincolHS2"),
        ("Thunderbirds of Lincoln", "Adams Owls", "ThunderbL v AdamsOwls"),
    ],
)
def test_long_names_from_a_hub_that_sends_no_short_names_are_told_apart(
    a: str, b: str, teams: str
) -> None:
    """A hub from before R833 sends no short names: the table derives them as the record would."""
    shown = next_match({1: replace(ROUND_1, matches=(TableMatch(12, a, b),))}, 12)
    assert shown is not None and shown.teams == teams
    assert fits_small(shown.teams)


def test_pairings_with_short_names_arrive_as_they_were_sent() -> None:
    sent = replace(
        ROUND_1, matches=(TableMatch(1, "Lincoln High", "Lincoln Middle", "LHS", "LMS"),)
    )
    assert parse_pairings(sent.to_bytes()) == sent


def test_pairings_without_short_names_are_sent_as_before() -> None:
    """A table from before R833 reads the same fields as ever."""
    assert json.loads(ROUND_1.to_bytes())["pairings"][0] == {"table": 1, "A": "Eagles", "B": "Owls"}


@pytest.mark.parametrize("short", ["LongerThanNine", "Lyc\u00e9e", 7])
def test_pairings_with_a_short_name_no_oled_can_show_are_refused(short: object) -> None:
    data = json.loads(ROUND_1.to_bytes())
    data["pairings"][0].update({"A_short": short, "B_short": "B"})
    with pytest.raises(WireError, match=r"^round 1 table 1: expected short names of at most 9"):
        parse_pairings(json.dumps(data).encode())


def test_no_pairings_yet_show_nothing() -> None:
    assert next_match({}, 1) is None


# --- what the table publishes and shows ----------------------------------------------------------


def _controller(settings: TableSettings | None = None) -> TableController:
    return TableController(
        settings=settings or TableSettings(), emit=lambda event: None, now=0.0, read_pin=bool
    )


def test_the_state_is_what_the_table_shows_and_what_it_plays() -> None:
    controller = _controller()
    state = table_state(7, controller, controller.view(), saved=True)
    assert state["session"] == {
        "action": "match.start",
        "round": 1,
        "minutes": 20,
        "on_time_up": "abandon",
    }
    assert (state["family"], state["game"], state["in_game"]) == ("geoplunge", "MATCH A0 B0", False)
    assert state["screen"]["title"] == "MATCH A0 B0"
    assert (state["scores"], state["clock"]) == ({"A": 0, "B": 0}, None)
    assert state["lights"] == {"A": "off", "B": "off"}
    json.dumps(state)  # plain JSON


def test_the_next_match_takes_the_title_row_and_the_row_under_it_before_the_match() -> None:
    controller = _controller()
    shown = with_next_pairing(controller.view(), controller, NEXT)
    assert (shown.screen.title, shown.screen.subtitle) == ("Round 1  Table 1", "Eagles v Owls")


def test_an_alert_keeps_the_title_row() -> None:
    controller = _controller()
    view = controller.view()
    alerted = replace(view, screen=replace(view.screen, alert="STUCK A.shout"))
    assert with_next_pairing(alerted, controller, NEXT) == alerted


def test_a_game_in_play_keeps_the_title_row() -> None:
    controller = _controller(TableSettings(options={"game": 1}))
    view = controller.view()
    assert with_next_pairing(view, controller, NEXT) == view


def test_the_match_clock_between_games_keeps_the_title_row() -> None:
    lines = (SCRIPTS / "combo4-match.jsonl").read_text().splitlines()
    settings, steps = parse_script(lines, TableSettings())
    table = VirtualTable(settings, lambda event: None)
    controller = table.controller
    try:
        for index in range(len(steps)):
            table.play(steps[: index + 1], first=index)
            between_games = not controller.game.in_play(controller.session)
            if between_games and controller.clock_deadline is not None:
                break
        else:
            pytest.fail("the script never stops between games with the clock running")
        view = controller.view()
        assert with_next_pairing(view, controller, NEXT) == view
    finally:
        table.close()


def test_a_decision_refused_for_nan_is_still_named_by_its_seq() -> None:
    """R196: its confirmation moves past it, as past any other bad decision."""
    from firmware_py.table.hub_wire import readable_id

    payload = (
        b'{"journal":"j1","seq":9,"wall":"w","session":{"action":"match.start","round":1},'
        b'"event":{"t":NaN,"event":"match_result","A":Infinity,"B":-Infinity}}'
    )
    chain = readable_id(payload)
    assert chain is not None and (chain.journal, chain.seq) == ("j1", 9)
