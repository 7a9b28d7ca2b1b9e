"""Who may act at a table (issue 19): a seat is a player's until the dealer says otherwise. Each
test tries an attack the outside audit made, or one beside it, and finds it refused in words:
the join code (on the OLED for all to see) only asks for a seat, and the dealer's COUNT gives
it; an occupied seat is taken over only by that press, shown on the OLED and on the seat's
phone; a phone holds one seat; the Round Leader's answer never comes from a phone (R760-R766)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from firmware_py.families.geoplunge.options import table_settings as geoplunge
from firmware_py.table.controller import TableSettings
from firmware_py.table.prompts import Kind
from firmware_py.table.web.access import ASK_FOR, CONFIRM_AFTER, MAX_WAITING
from tests.guesstimation_table_helpers import settings as guesstimation
from tests.states_table_helpers import EXAMPLE_DECK
from tests.web_helpers import LiveTable, Phone, serve

Client = TestClient[Any, Any]
FOUR = ("Ann", "Bo", "Cy", "Di")


def four_without_a_deck(directory: Path) -> LiveTable:
    """The audit's table: Guesstimation, four players, no deck, at its guesses."""
    settings = guesstimation(seats=("A", "B", "C", "D"), players=list(FOUR), deck=None)
    return LiveTable(directory, settings).to_guessing()


def oled_footer(table: LiveTable) -> str:
    return table.page.on_oled(table.controller.view().screen, table.t).footer


async def entry(phone: Phone, name: str, value: str) -> tuple[int, str]:
    response = await phone.post("/api/entry", {"name": name, "value": value})
    return response.status, (await response.json()).get("error", "")


# --- finding 1: any player took any seat and acted for it ---------------------------------------


def test_the_code_alone_takes_no_seat_its_phone_enters_nothing(tmp_path: Path) -> None:
    """The audit's Bo, with the code off the OLED, asks for the Round Leader's seat: he waits
    for a press the dealer never makes, and nothing he sends is taken."""
    table = four_without_a_deck(tmp_path)
    leader = "ABCD"[FOUR.index(table.controller.session.current.leader)]

    async def scenario(client: Client) -> tuple[int, dict[str, Any], tuple[int, str]]:
        async with Phone(client) as bo:
            asked = await bo.ask(table, leader)
            return asked.status, await asked.json(), await entry(bo, "guess", "20")

    status, asked, refused = serve(table, scenario)
    assert status == 202 and asked["seat"] is None
    assert refused == (
        403,
        "show this number to the dealer: this phone can play once the dealer presses COUNT "
        f"while the table's display shows {asked['number']} too",
    )
    assert [action for action in table.controller.log if "guess" in str(action)] == []
    table.close()


def test_an_occupied_seat_is_not_taken_over_without_the_dealer(tmp_path: Path) -> None:
    """Di holds D; another phone asks for D: Di keeps her seat and her guess is hers to enter."""
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[str, tuple[int, str], tuple[int, str]]:
        async with Phone(client) as di, Phone(client, address="127.0.0.2") as bo:
            await di.join(table, "D")
            await bo.ask(table, "D")
            footer = oled_footer(table)
            return footer, await entry(bo, "guess", "1"), await entry(di, "guess", "7")

    footer, bo_refused, di_took = serve(table, scenario)
    assert footer.startswith("COUNT:replace D ")  # what a press would do, said before it
    assert bo_refused[0] == 403 and di_took == (200, "")
    guesses = [g.value for g in table.controller.session.current.guesses]
    assert [str(value) for value in guesses] == ["7"]
    table.close()


def test_a_seat_s_phone_cannot_ask_for_another_seat(tmp_path: Path) -> None:
    """Bo's phone, seated at B, asks for Di's seat: refused, nothing on the OLED."""
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[int, str, str]:
        async with Phone(client) as bo:
            await bo.join(table, "B")
            asked = await bo.ask(table, "D")
            return asked.status, (await asked.json())["error"], oled_footer(table)

    status, error, footer = serve(table, scenario)
    assert (status, error) == (
        403,
        "this phone has seat B already: one phone, one place; to change, leave seat B first",
    )
    assert not footer.startswith("COUNT")
    table.close()


def test_a_phone_enters_only_for_its_own_seat(tmp_path: Path) -> None:
    """An entry names no seat: the session's seat is the one it is for; naming one is refused."""
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[int, str]:
        async with Phone(client) as bo:
            await bo.join(table, "B")
            body = {"name": "guess", "value": "1", "seat": "D"}
            response = await bo.post("/api/entry", body)
            return response.status, (await response.json())["error"]

    status, error = serve(table, scenario)
    assert status == 400 and error.startswith('expected a JSON object like {"name": "guess"')
    assert table.controller.session.current.guesses == ()
    table.close()


def test_the_round_leader_s_phone_cannot_enter_the_answer(tmp_path: Path) -> None:
    """The audit's 'the answer is 20; Bo won': without a deck the answer is the console's."""
    table = four_without_a_deck(tmp_path)
    leader = "ABCD"[FOUR.index(table.controller.session.current.leader)]

    async def scenario(client: Client) -> tuple[int, str]:
        async with Phone(client) as phone:
            await phone.join(table, leader)
            for seat, value in zip("ABCD", ("20", "1", "30", "40"), strict=True):
                if seat != leader:
                    table.enter(seat, "guess", value)
            await entry(phone, "guess", "25")
            return await entry(phone, "answer", "20")

    status, error = serve(table, scenario)
    assert (status, error) == (
        409,
        "the table takes no answer now: it shows 'All guesses in: the answer?'",
    )
    assert table.controller.session.positions == (0, 0, 0, 0)
    table.close()


def test_a_rival_cannot_type_a_knocker_s_hand_in_states(tmp_path: Path) -> None:
    settings = TableSettings(
        seats=("A", "B"), family="states", options={"players": ["Ann", "Bo"], "deck": EXAMPLE_DECK}
    )
    table = LiveTable(tmp_path, settings).pick("Ann").inputs("A.stand")  # Ann knocks

    async def scenario(client: Client) -> tuple[tuple[int, str], tuple[int, str]]:
        async with Phone(client) as ann, Phone(client, address="127.0.0.2") as bo:
            await ann.join(table, "A")
            await bo.ask(table, "A")
            return await entry(bo, "knock", "TX,OK,KS,water"), await entry(
                ann, "knock", "DE,OR,NM,water"
            )

    rival, knocker = serve(table, scenario)
    assert rival[0] == 403 and rival[1].startswith("show this number to the dealer")
    assert knocker == (200, "")
    table.close()


# --- finding 2: the displaced phone was not told ---------------------------------------------


def test_a_phone_that_lost_its_seat_to_the_dealer_s_press_is_told_so(tmp_path: Path) -> None:
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[dict[str, Any], dict[str, Any], int]:
        async with Phone(client) as old, Phone(client, address="127.0.0.2") as new:
            await old.join(table, "D")
            version = table.page.state["access"]
            me_new = await (await new.join(table, "D")).json()
            me_old = await (await old.get("/api/me")).json()
            return me_old, me_new, table.page.state["access"] - version

    me_old, me_new, changes = serve(table, scenario)
    assert me_new["seat"] == "D"
    assert me_old["seat"] is None and me_old["displaced"].startswith(
        "This phone no longer holds its seat: the dealer gave D to another phone (its number was "
    )
    assert changes > 0  # every open page is told: the displaced phone asks what it holds
    table.close()


def test_the_takeover_press_confirms_only_after_the_request_has_been_on_show(
    tmp_path: Path,
) -> None:
    """A request slipped in just before the dealer's press is not what the press grants."""
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as di, Phone(client, address="127.0.0.2") as bo:
            await di.join(table, "D")
            await bo.ask(table, "D")
            table.t -= 1.0  # LiveTable's press comes 1 s after: on show for less than a second
            table.buttons("count")
            me: dict[str, Any] = await (await di.get("/api/me")).json()
            return me

    assert serve(table, scenario)["seat"] == "D"
    table.close()


def test_a_takeover_the_dealer_never_confirms_ends_in_words_on_the_asking_phone(
    tmp_path: Path,
) -> None:
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[dict[str, Any], tuple[int, str], dict[str, Any]]:
        async with Phone(client) as di, Phone(client, address="127.0.0.2") as bo:
            await di.join(table, "D")
            asked = await (await bo.ask(table, "D")).json()
            table.t += ASK_FOR + 1.0
            me: dict[str, Any] = await (await bo.get("/api/me")).json()
            assert asked["number"] in me["refused"]
            return me, await entry(bo, "guess", "1"), await (await di.get("/api/me")).json()

    me, refused, di = serve(table, scenario)
    assert me["seat"] is None and me["refused"].startswith(
        "Not given: the dealer did not give this phone D (its number was "
    )
    assert refused[0] == 403 and refused[1].startswith("this phone has no seat: the dealer did")
    assert di["seat"] == "D" and "warning" not in di
    table.close()


# --- the press that confirms ------------------------------------------------------------------


def test_a_phone_asking_again_and_again_is_told_its_request_ran_out_a_minute_after_its_first(
    tmp_path: Path,
) -> None:
    """The audit: asking again with the same cookie started the request's minute again, so a
    bystander with the code held a place in the dealer's queue for good (R777)."""
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[list[int], dict[str, Any], list[str]]:
        async with Phone(client, address="127.0.0.2") as bystander:
            statuses = []
            for _ in range(math.ceil(ASK_FOR / 10)):  # every 10 s, for as long as a request lasts
                statuses.append((await bystander.ask(table, "D")).status)
                table.t += 10.0
            table.t += 0.5
            me: dict[str, Any] = await (await bystander.get("/api/me")).json()
            return statuses, me, [request.place for request in table.page.access.requests]

    statuses, me, waiting = serve(table, scenario)
    assert statuses == [202] * math.ceil(ASK_FOR / 10)
    assert me["seat"] is None and me["refused"].startswith(
        "Not given: the dealer did not give this phone D (its number was "
    )
    assert waiting == []
    table.close()


def test_a_count_press_that_starts_geoplunge_s_count_confirms_no_phone(tmp_path: Path) -> None:
    """R761: COUNT confirms only where it means nothing else; on a count step it counts."""
    table = LiveTable(tmp_path, geoplunge(game=2, count_cadence=0.05))
    table.pick("Team B")  # the draw: B guesses first; then the 5-count
    assert table.controller.prompt.kind is Kind.COUNT

    async def scenario(client: Client) -> tuple[dict[str, Any], dict[str, Any]]:
        async with Phone(client) as phone:
            await phone.ask(table, "A")
            table.t += CONFIRM_AFTER
            table.buttons("count")  # the dealer's count, not a confirmation
            counting: dict[str, Any] = await (await phone.get("/api/me")).json()
            table.t += 5.0
            table.recorded.advance(table.t)
            table.buttons("count")  # the count is over: COUNT means nothing on this step
            confirmed: dict[str, Any] = await (await phone.get("/api/me")).json()
            return counting, confirmed

    counting, confirmed = serve(table, scenario)
    assert counting["pending"] == "A"
    assert confirmed["seat"] == "A"
    table.close()


def test_no_more_than_max_waiting_requests_wait_at_once(tmp_path: Path) -> None:
    table = four_without_a_deck(tmp_path)

    async def scenario(client: Client) -> tuple[list[int], str]:
        phones = [Phone(client, address=f"127.0.0.{n}") for n in range(2, MAX_WAITING + 3)]
        try:
            statuses = []
            for phone in phones:
                statuses.append((await phone.ask(table, "A")).status)
            refused = await (await phones[-1].ask(table, "A")).json()
            return statuses, refused["error"]
        finally:
            for phone in phones:
                await phone.session.close()

    statuses, error = serve(table, scenario)
    assert statuses == [202] * MAX_WAITING + [403]
    assert error == (
        f"{MAX_WAITING} phones are already waiting for the dealer: try again in {ASK_FOR:.0f} s "
        "at the latest (this phone's turn is kept 15 s then)"
    )
    table.close()


def test_the_seat_confirmation_leaves_nothing_in_the_journal(tmp_path: Path) -> None:
    """R763: who holds a phone is the page's, as the monitor's confirmation is (R495); the COUNT
    press decided nothing, so it is not kept either (R476)."""
    table = four_without_a_deck(tmp_path)
    before = len(list(table.journal.entries()))

    async def scenario(client: Client) -> None:
        async with Phone(client) as phone:
            await phone.join(table, "A")

    serve(table, scenario)
    added = [entry.body for entry in list(table.journal.entries())[before:]]
    assert table.page.access.places_held == ("A",)
    assert added == []
    table.close()
