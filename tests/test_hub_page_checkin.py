"""Who is here, on the director's page (``/checkin``, R1040-R1043): results staff mark a team
present or absent for the next round under their name; a director withdraws a team (with a
confirmation and a reason) and hides or releases the public standings; every refusal is one
line on the page and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.staff import Role
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import (
    NOW,
    add_staff,
    director_page,
    error_line,
    log_in,
    make_record,
    origin,
    serve,
)

Client = TestClient[Any, Any]


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        yield opened


@pytest.fixture
def page(record: TournamentDB) -> DirectorPage:
    return director_page(record)


def _mark(csrf: str, team: str = "Owls", present: str = "0", number: str = "2") -> dict[str, str]:
    return {"csrf": csrf, "round": number, "team": team, "present": present}


def test_results_staff_mark_a_team_absent_for_the_next_round_under_their_name(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> str:
        csrf = await log_in(client, password, name="sam")
        answer = await client.post("/checkin", data=_mark(csrf), headers=origin(client))
        return await answer.text()

    html = serve(page, scenario)
    assert "round 2: Owls marked absent" in html
    assert record.export()["checkins"] == [
        {"round": 2, "team": "Owls", "present": False, "marked_by": "sam", "marked_at": NOW}
    ]


def test_the_checkin_page_lists_every_active_team_with_its_buttons(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> str:
        await log_in(client, password, name="sam")
        answer = await client.get("/checkin")
        return await answer.text()

    html = serve(page, scenario)
    assert "Round 2 check-in" in html
    assert html.count('action="/checkin"') == 8  # 4 teams, Present and Absent each
    assert 'action="/withdraw"' not in html and 'action="/standings/release"' not in html


def test_a_viewer_is_refused_marking_in_words_and_nothing_changes(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "vic", Role.VIEWER)

    async def scenario(client: Client) -> tuple[int, str]:
        csrf = await log_in(client, password, name="vic")
        answer = await client.post("/checkin", data=_mark(csrf), headers=origin(client))
        return answer.status, await error_line(answer)

    status, line = serve(page, scenario)
    assert status == 403 and "checking in a team needs" in line
    assert record.export()["checkins"] == []


@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"team": "Nobody"}, "unknown team &#x27;Nobody&#x27;"),
        ({"number": "1"}, "round 1 is already paired: check-in is for round 2"),
        ({"present": "maybe"}, "expected present (1) or absent (0)"),
        ({"team": ""}, "checking in a team: expected the team"),
    ],
)
def test_a_bad_mark_is_one_line_on_the_checkin_page_and_changes_nothing(
    page: DirectorPage, record: TournamentDB, form: dict[str, str], says: str
) -> None:
    async def scenario(client: Client) -> tuple[str, str]:
        csrf = await log_in(client)
        answer = await client.post("/checkin", data=_mark(csrf, **form), headers=origin(client))
        return await error_line(answer), await answer.text()

    line, html = serve(page, scenario)
    assert says in line
    assert "Round 2 check-in" in html  # shown where it was sent from, to try again
    assert record.export()["checkins"] == []


def test_a_director_withdraws_a_team_and_the_standings_say_so(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[str, str, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "team": "Hawks", "reason": "went home ill", "confirm": "yes"}
        answer = await client.post("/withdraw", data=form, headers=origin(client))
        staff_view = await (await client.get("/")).text()
        public = await (await client.get("/public")).text()
        return await answer.text(), staff_view, public

    done, staff_view, public = serve(page, scenario)
    assert "Hawks withdrawn after round 1: never paired again" in done
    assert "went home ill" in done  # the Withdrawn list: who, when, why
    assert "Hawks (withdrawn)" in staff_view and "Hawks (withdrawn)" in public
    assert [w["team"] for w in record.export()["team_withdrawals"]] == ["Hawks"]


def test_withdrawing_without_the_confirmation_is_refused(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> str:
        csrf = await log_in(client)
        form = {"csrf": csrf, "team": "Hawks", "reason": "ill"}
        return await error_line(await client.post("/withdraw", data=form, headers=origin(client)))

    assert "expected the confirmation" in serve(page, scenario)
    assert record.withdrawals() == {}


def test_hidden_standings_leave_the_public_page_and_projector_until_released(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> list[str]:
        csrf = await log_in(client)
        seen = []
        await client.post("/standings/release", data={"csrf": csrf, "public": "0"},
                          headers=origin(client))  # fmt: skip
        seen.append(await (await client.get("/public")).text())
        seen.append(await (await client.get("/projector?page=2")).text())
        seen.append(await (await client.get("/")).text())
        await client.post("/standings/release", data={"csrf": csrf, "public": "1"},
                          headers=origin(client))  # fmt: skip
        seen.append(await (await client.get("/public")).text())
        return seen

    public, projector, staff_view, released = serve(page, scenario)
    assert "hidden until the director releases them" in public
    assert 'class="standings"' not in public
    assert "hidden until the director releases them" in projector
    assert 'class="standings"' in staff_view and "standings-held" in staff_view
    assert 'class="standings"' in released
    assert [r["public"] for r in record.export()["standings_releases"]] == [False, True]


def test_results_staff_are_refused_the_release_switch(
    page: DirectorPage, record: TournamentDB
) -> None:
    password = add_staff(record, "sam", Role.RESULTS)

    async def scenario(client: Client) -> int:
        csrf = await log_in(client, password, name="sam")
        form = {"csrf": csrf, "public": "0"}
        return (await client.post("/standings/release", data=form, headers=origin(client))).status

    assert serve(page, scenario) == 403
    assert record.standings_release().public


def test_a_team_withdrawn_after_its_round_was_paired_is_in_the_problem_queue_until_settled(
    page: DirectorPage, record: TournamentDB
) -> None:
    table = next(m.table for m in record.rounds()[0].matches if "Hawks" in (m.a, m.b))

    async def scenario(client: Client) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "team": "Hawks", "reason": "went home ill", "confirm": "yes"}
        await client.post("/withdraw", data=form, headers=origin(client))
        before = (await (await client.get("/api/problems")).json())["problems"]
        result = {"csrf": csrf, "round": "1", "table": str(table), "a_points": "40",
                  "b_points": "0"}  # fmt: skip
        await client.post("/result", data=result, headers=origin(client))
        after = (await (await client.get("/api/problems")).json())["problems"]
        return before, after

    before, after = serve(page, scenario)
    (withdrawn,) = [p for p in before if p["kind"] == "withdrawn"]
    assert withdrawn["what"] == (
        f"Round 1 table {table}: Hawks withdrew after the round was paired; nobody will play "
        "this match"
    )
    assert [link["href"] for link in withdrawn["links"]][1] == "/undo/round/1"
    assert not [p for p in after if p["kind"] == "withdrawn"]


def test_the_pair_card_says_where_the_next_rounds_check_in_stands(
    page: DirectorPage, record: TournamentDB
) -> None:
    async def scenario(client: Client) -> tuple[str, str]:
        csrf = await log_in(client)
        before = await (await client.get("/")).text()
        await client.post("/checkin", data=_mark(csrf), headers=origin(client))
        return before, await (await client.get("/")).text()

    before, after = serve(page, scenario)
    assert "round 2: it pairs all 4 active teams" in before
    assert "for round 2: 1 of 4 teams marked, 0 present." in after
