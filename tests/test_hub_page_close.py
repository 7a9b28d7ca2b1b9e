"""Closing the tournament from the page (GET and POST /close): a director's, confirmed, after
every result is in, the champion one of the championship's two teams; refused in words
otherwise, with nothing recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from firmware_py.director.hub.staff import Role
from firmware_py.director.tournament_db import TournamentDB
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


def _play_out(record: TournamentDB) -> tuple[str, ...]:
    """Every round of the four-team record played (A wins each match); the finalists."""
    for number in range(1, record.load().config.rounds + 1):
        with record.transaction() as tournament:
            if number > 1:
                record.add_round(tournament.pair(number), tournament.plan(number), now=NOW, by="d")
        with record.transaction() as tournament:
            for match in tournament.rounds[number - 1].matches:
                entry = tournament.result(number, match.table, 40, 20)
                record.add_result(entry, now=NOW, by="director")
    with record.transaction() as tournament:
        finalists = tournament.qualification().finalists
    assert finalists is not None
    return finalists


def test_closing_before_every_result_is_in_says_what_is_missing(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
        csrf = await log_in(client)
        shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
        form = {"csrf": csrf, "confirm": "yes", "champion": "Eagles"}
        answer = await client.post("/close", data=form, headers=origin(client))
        return shown, await error_line(answer)

    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        shown, refused = serve(director_page(record), scenario)
        assert record.champion() is None
    said = "the championship comes after round 3: round 2 is not paired yet"
    assert said in shown and 'id="close-form"' not in shown
    assert refused == said


def test_the_director_closes_the_tournament_with_a_finalist_as_champion(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str, str]:
            csrf = await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            unconfirmed = {"csrf": csrf, "champion": finalists[1]}
            refused = await client.post("/close", data=unconfirmed, headers=origin(client))
            form = {**unconfirmed, "confirm": "yes"}
            done = await client.post("/close", data=form, headers=origin(client))
            return shown, await error_line(refused), await done.text()

        shown, refused, done = serve(director_page(record), scenario)
        assert record.champion() == finalists[1]
    assert f"The championship: {finalists[0]} v\n{finalists[1]}" in shown
    assert refused == "closing the tournament: expected the confirmation (the Confirm button)"
    assert f"the tournament is closed: {finalists[1]} is the champion" in done
    assert f"Closed: {finalists[1]} is the champion" in done


def test_a_team_outside_the_championship_is_refused_and_nothing_is_recorded(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)
        outsider = next(e.name for e in record.load().entrants if e.name not in finalists)

        async def scenario(client: TestClient[Any, Any]) -> str:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "champion": outsider}
            return await error_line(await client.post("/close", data=form, headers=origin(client)))

        refused = serve(director_page(record), scenario)
        assert record.champion() is None
    assert refused.startswith(f"&#x27;{outsider}&#x27; is not in the championship: expected")


def test_results_staff_may_not_close_the_tournament(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)
        password = add_staff(record, "rita", Role.RESULTS)

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, int]:
            csrf = await log_in(client, password, "rita")
            shown = await client.get("/close", headers={"Accept": "text/html"})
            form = {"csrf": csrf, "confirm": "yes", "champion": finalists[0]}
            answer = await client.post("/close", data=form, headers=origin(client))
            return shown.status, answer.status

        statuses = serve(director_page(record), scenario)
        assert record.champion() is None
    assert statuses == (403, 403)


def test_the_public_page_names_the_champion_first_once_the_tournament_is_closed(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
            before = await (await client.get("/public")).text()
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "champion": finalists[0]}
            await client.post("/close", data=form, headers=origin(client))
            return before, await (await client.get("/public")).text()

        before, after = serve(director_page(record), scenario)
    assert 'id="champion-title"' not in before
    champion = after.index(f'<p class="champion-name">{finalists[0]}</p>')
    assert champion < after.index('id="search-title"')


def test_the_projector_shows_the_champion_first_once_the_tournament_is_closed(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)
        record.set_champion(finalists[1], now=NOW, by="director")

        async def scenario(client: TestClient[Any, Any]) -> str:
            return await (await client.get("/projector?page=1")).text()

        shown = serve(director_page(record), scenario)
    assert f'<p class="projector-champion">{finalists[1]}</p>' in shown
