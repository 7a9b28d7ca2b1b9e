"""Closing the tournament from the page (GET and POST /close): a director's, confirmed, after
every result is in, the champion one of the championship's two teams; refused in words
otherwise, with nothing recorded."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.changes import (
    enter_result,
    record_playoff_game,
    void_playoff,
)
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import events_topic
from rules.tournament import Entrant, PlayoffGame, Qualify, TournamentFormat, new_config
from tests.hub_helpers import WAIT_SECONDS, Broker, Peer
from tests.hub_page_helpers import (
    NOW,
    NOW_SHOWN,
    PASSWORD,
    add_staff,
    cookie_of_login,
    director_page,
    error_line,
    log_in,
    make_record,
    origin,
    problem_once_heard,
    serve,
)
from tests.test_hub_page_problems import JOURNAL, LATER, hub_and_page, reported


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


# --- closed is final until a director reopens it (R850) -------------------------------------


def _closed(record: TournamentDB) -> str:
    """Every round played, and the champion recorded by ann: the tournament closed."""
    finalists = _play_out(record)
    record.set_champion(finalists[0], now=NOW, by="ann")
    return finalists[0]


def _points(record: TournamentDB) -> list[list[tuple[int, int]]]:
    rounds = record.load().rounds
    return [
        [(e.a_points, e.b_points) for e in record.result_history(rnd.round, m.table)]
        for rnd in rounds
        for m in rnd.matches
    ]


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/result", {"round": "1", "table": "1", "a_points": "20", "b_points": "40",
                     "reason": "sheet misread"}),
        ("/pair", {}),
        ("/undo/round/3", {"confirm": "yes", "reason": "paired too soon"}),
    ],
    ids=["amend", "pair", "undo"],
)  # fmt: skip
def test_a_closed_tournament_refuses_the_pages_changes_naming_who_closed_it(
    tmp_path: Path, path: str, form: dict[str, str]
) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        champion = _closed(record)
        before = (record.export(), _points(record))

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            answer = await client.post(path, data={"csrf": csrf, **form}, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
        assert (record.export(), _points(record)) == before
    assert status == 409
    assert (
        f"the tournament is closed ({champion} recorded as champion by ann at {NOW_SHOWN}): "
        in (refused)
    )
    assert refused.endswith("a director reopens it with a reason (Reopen on the page&#x27;s "
                            "/close, or gametable tournament reopen --reason TEXT)")  # fmt: skip


def test_the_close_page_of_a_closed_tournament_offers_a_director_the_reopening(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        champion = _closed(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
            await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            return shown, await (await client.get("/")).text()

        shown, index = serve(director_page(record), scenario)
    assert f"Closed: {champion} is the champion (recorded by ann at {NOW_SHOWN})." in shown
    assert 'id="reopen-form"' in shown
    assert f"Closed by ann at {NOW_SHOWN}. The record is final" in index


def test_a_director_reopens_with_a_reason_kept_with_who_and_when(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        champion = _closed(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str, str, str]:
            csrf = await log_in(client)
            no_reason = {"csrf": csrf, "confirm": "yes", "reason": " "}
            refused = await client.post("/reopen", data=no_reason, headers=origin(client))
            before = await (await client.get("/public")).text()
            form = {**no_reason, "reason": "table 2's sheet misread"}
            done = await client.post("/reopen", data=form, headers=origin(client))
            after = await (await client.get("/public")).text()
            return await error_line(refused), before, await done.text(), after

        refused, before, done, after = serve(director_page(record), scenario)
        (reopened,) = record.reopenings()
        assert record.champion() is None
    assert refused == "reopening the tournament with an empty reason: expected why"
    assert (reopened.reopened_by, reopened.reopened_at) == ("director", NOW)
    assert reopened.reason == "table 2's sheet misread" and reopened.champion == champion
    assert f"the tournament is reopened: {champion} no longer stands as champion" in done
    assert 'id="champion-title"' in before and 'id="champion-title"' not in after


def test_a_reopen_form_left_open_reopens_no_later_closing(tmp_path: Path) -> None:
    """R856: the form names the closing it reopens; once that closing was reopened and the
    tournament closed again (by another director), the stale form reopens nothing."""
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        champion = _closed(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            (closing,) = re.findall(r'<input type="hidden" name="closing" value="(\d+)"', shown)
            # meanwhile, at the hub: reopened, and closed again
            record.reopen(now=NOW, by="ann", reason="table 2's sheet")
            record.set_champion(champion, now="2026-05-09T10:00:00+00:00", by="bob")
            form = {"csrf": csrf, "confirm": "yes", "closing": closing, "reason": "a protest"}
            answer = await client.post("/reopen", data=form, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
        assert len(record.reopenings()) == 1 and record.closing() is not None
    assert status == 409
    assert refused == (
        "reopening the tournament: the closing the page showed was reopened since, and the "
        f"tournament closed again ({champion} recorded as champion by bob at "
        "Sat 9 May 2026, 10:00 UTC): nothing reopened; look at /close again"
    )


def _close_form(shown: str) -> dict[str, str]:
    """The hidden field of /close's Close form: the latest closing it saw (R857)."""
    (closing,) = re.findall(r'<input type="hidden" name="closing" value="(\d+)"', shown)
    return {"closing": closing}


def test_a_close_form_drawn_before_a_reopening_closes_nothing(tmp_path: Path) -> None:
    """R857: the Close form names the latest closing it saw ("0": never closed); once the
    tournament was closed and reopened by another director (to amend a result, say), the
    stale form closes nothing, and /close drawn again closes it."""
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, int, str, int]:
            csrf = await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            form = {"csrf": csrf, "confirm": "yes", **_close_form(shown)}
            # meanwhile, at the hub: closed by ann, reopened by bob to amend a result
            record.set_champion(finalists[1], now=NOW, by="ann")
            record.reopen(now="2026-05-09T10:00:00+00:00", by="bob", reason="table 1's sheet")
            stale = {**form, "champion": finalists[0]}
            answer = await client.post("/close", data=stale, headers=origin(client))
            again = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            fresh = {**stale, **_close_form(again)}
            done = await client.post("/close", data=fresh, headers=origin(client))
            return form["closing"], answer.status, await error_line(answer), done.status

        seen, status, refused, done = serve(director_page(record), scenario)
        champion = record.champion()
    assert seen == "0"
    assert status == 409
    assert refused == (
        "closing the tournament: the page was drawn before the latest reopening "
        f"({finalists[1]} recorded as champion by ann at {NOW_SHOWN}, reopened by bob at "
        'Sat 9 May 2026, 10:00 UTC: "table 1\'s sheet"), so what it showed may have changed '
        "since: nothing recorded; look at /close again"
    ).replace("'", "&#x27;").replace('"', "&quot;")
    assert (done, champion) == (200, finalists[0])


def test_results_staff_may_not_reopen_the_tournament(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        _closed(record)
        password = add_staff(record, "rita", Role.RESULTS)

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client, password, "rita")
            form = {"csrf": csrf, "confirm": "yes", "reason": "why not"}
            answer = await client.post("/reopen", data=form, headers=origin(client))
            return answer.status, await answer.text()

        status, text = serve(director_page(record), scenario)
        assert record.closing() is not None
    assert status == 403
    assert "reopening the tournament needs a director&#x27;s account: rita is results staff" in (
        text
    )


def test_a_tables_result_arriving_while_closed_waits_in_the_queue(
    broker: Broker, tmp_path: Path
) -> None:
    """Through mosquitto: table 1 reports other points after the close; nothing changes in the
    record, and the director's queue holds it as a conflict that names the close."""
    path = make_record(tmp_path / "t.db")
    with TournamentDB.open(path) as record:
        _closed(record)
        before = _points(record)
    table = Peer(broker, "1")
    session = {"action": "match.start", "round": 3, "minutes": 20, "on_time_up": "abandon"}
    event = {"t": 900.0, "event": "match_result", "winner": "B", "A": 5, "B": 45}
    decision = {"journal": JOURNAL, "seq": 1, "wall": NOW, "session": session, "event": event}

    async def scenario() -> list[dict[str, Any]]:
        async with hub_and_page(broker, path) as page:
            url = f"http://127.0.0.1:{page.port}/api/problems"
            async with ClientSession() as http, asyncio.timeout(WAIT_SECONDS):
                director = await cookie_of_login(http, page.port)
                send = partial(table.publish, events_topic(1), json.dumps(decision))
                return await problem_once_heard(http, url, director, send, "conflict")

    try:
        (problem,) = asyncio.run(scenario())
    finally:
        table.close()
    with TournamentDB.open(path) as record:
        assert _points(record) == before
    assert problem["table"] == 1 and "the table reports 5-45, not applied" in problem["what"]
    assert "the tournament is closed" in problem["what"]


# --- a playoff game from the page (issue 21) --------------------------------------------------


def _needs_a_playoff(path: Path, *, table_3_reports: bool = False) -> Path:
    """Six teams, one round qualifying by wins: three winners tie for the two places.
    ``table_3_reports``: table 3's 30-0 is the table's own report through the hub."""
    teams = tuple(Entrant(name, f"School {n}", ()) for n, name in enumerate(
        ("Eagles", "Hawks", "Owls", "Ravens", "Falcons", "Herons")))  # fmt: skip
    config = new_config(TournamentFormat.COMBO4, seed=1, rounds=1, qualify=Qualify.WINS)
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        with record.transaction() as tournament:
            for table, (a, b) in enumerate(((10, 0), (20, 10), (30, 0)), start=1):
                if table < 3 or not table_3_reports:
                    record.add_result(tournament.result(1, table, a, b), now=NOW, by="director")
        if table_3_reports:
            record.upgrade_for_hub()
            apply_result(record, 3, reported(3, 1, 30, 0), now=NOW)
    store_password(path, PASSWORD)
    return path


def _next_game(record: TournamentDB) -> tuple[str, str]:
    with record.transaction() as tournament:
        playoff = tournament.qualification(record.playoff_games()).playoff
    assert playoff is not None
    game = playoff.next_game()
    assert game is not None
    return game


def test_a_director_records_a_playoff_games_winner_from_the_page(tmp_path: Path) -> None:
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        first, second = _next_game(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
            csrf = await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            form = {"csrf": csrf, "confirm": "yes", "winner": second}
            done = await client.post("/playoff", data=form, headers=origin(client))
            return shown, await done.text()

        shown, done = serve(director_page(record), scenario)
        (game,) = record.playoff_games()
        (entered,) = record.export()["playoff_games"]
    assert f"The playoff's next game: {first} v {second}" in shown
    assert 'id="playoff-form"' in shown
    assert (game.a, game.b, game.winner) == (first, second, second)
    assert (entered["entered_by"], entered["entered_at"]) == ("director", NOW)
    assert f"playoff game {first} v {second}: {second} won; next: " in done


def test_a_playoff_winner_not_in_the_next_game_is_refused_and_nothing_is_recorded(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        game = _next_game(record)
        outsider = next(e.name for e in record.load().entrants if e.name not in game)

        async def scenario(client: TestClient[Any, Any]) -> str:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "winner": outsider}
            answer = await client.post("/playoff", data=form, headers=origin(client))
            return await error_line(answer)

        refused = serve(director_page(record), scenario)
        assert record.playoff_games() == ()
    assert "is not in the next playoff" in refused


def test_results_staff_may_not_record_a_playoff_game(tmp_path: Path) -> None:
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        game = _next_game(record)
        password = add_staff(record, "rita", Role.RESULTS)

        async def scenario(client: TestClient[Any, Any]) -> int:
            csrf = await log_in(client, password, "rita")
            form = {"csrf": csrf, "confirm": "yes", "winner": game[0]}
            return (await client.post("/playoff", data=form, headers=origin(client))).status

        status = serve(director_page(record), scenario)
        assert record.playoff_games() == ()
    assert status == 403


def _played_out(path: Path) -> Path:
    with TournamentDB.open(make_record(path)) as record:
        _play_out(record)
    return path


@pytest.mark.parametrize(
    ("path", "field", "make"),
    [("/close", "champion", _played_out), ("/playoff", "winner", _needs_a_playoff)],
    ids=["close", "playoff"],
)
def test_an_unknown_winner_is_repeated_at_most_60_characters_long(
    tmp_path: Path, path: str, field: str, make: Callable[[Path], Path]
) -> None:
    """R858: a winner sent by hand 5000 characters long is cut in the error line."""
    with TournamentDB.open(make(tmp_path / "t.db")) as record:

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", field: "x" * 5000}
            answer = await client.post(path, data=form, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
        assert record.champion() is None and record.playoff_games() == ()
    assert status == 409
    assert refused.startswith(f"unknown team &#x27;{'x' * 59}…&#x27;: expected one of ")


def _closed_by_ann(path: Path) -> Path:
    with TournamentDB.open(make_record(path)) as record:
        _closed(record)
    return path


@pytest.mark.parametrize(
    ("path", "form", "make", "form_id"),
    [
        ("/close", {"champion": "Nobody"}, _played_out, "close-form"),
        ("/reopen", {"reason": " "}, _closed_by_ann, "reopen-form"),
        ("/playoff", {"winner": "Nobody"}, _needs_a_playoff, "playoff-form"),
    ],
    ids=["close", "reopen", "playoff"],
)
def test_a_change_refused_on_close_shows_close_again_with_the_refusal(
    tmp_path: Path, path: str, form: dict[str, str], make: Callable[[Path], Path], form_id: str
) -> None:
    """Finding 7 of break3: the director tries again where the form was, not from /."""
    with TournamentDB.open(make(tmp_path / "t.db")) as record:

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str, str]:
            csrf = await log_in(client)
            data = {"csrf": csrf, "confirm": "yes", **form}
            answer = await client.post(path, data=data, headers=origin(client))
            return answer.status, await answer.text(), await error_line(answer)

        status, shown, refused = serve(director_page(record), scenario)
    assert status in (400, 409) and refused
    assert "<title>Close the tournament" in shown and f'id="{form_id}"' in shown
    assert shown.count('class="error"') == 1  # a playoff to play is no error (issue 26, 7)


def _playoff_form(shown: str) -> dict[str, str]:
    """The hidden fields of /close's playoff form: the game it is for (R855)."""
    found = dict(re.findall(r'<input type="hidden" name="(game|a|b)" value="([^"]*)"', shown))
    assert set(found) == {"game", "a", "b"}, shown
    return {key: html.unescape(value) for key, value in found.items()}


def test_a_playoff_form_sent_again_records_nothing_more(tmp_path: Path) -> None:
    """R855: the form names its game; sent a second time (or from a page left open while
    another director recorded that game) it is refused, never the next game's winner."""
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        first, second = _next_game(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[dict[str, str], int, str]:
            csrf = await log_in(client)
            shown = await (await client.get("/close", headers={"Accept": "text/html"})).text()
            game = _playoff_form(shown)
            form = {"csrf": csrf, "confirm": "yes", **game, "winner": first}
            await client.post("/playoff", data=form, headers=origin(client))
            # the other director's page, shown before: the loser, who plays the next game
            stale = {**form, "winner": second}
            answer = await client.post("/playoff", data=stale, headers=origin(client))
            return game, answer.status, await error_line(answer)

        game, status, refused = serve(director_page(record), scenario)
        games = record.playoff_games()
        following = _next_game(record)
    assert game == {"game": "1", "a": first, "b": second}
    assert [(g.a, g.b, g.winner) for g in games] == [(first, second, first)]
    assert status == 409
    assert refused == (
        "the winner was chosen for playoff game 1 as the page showed it, but the next is game "
        f"2, {following[0]} v {following[1]} (the playoff changed since: recorded by someone, "
        "or the form sent twice): nothing recorded; look at /close again"
    ).replace("'", "&#x27;")


# --- a game played decides for good (issue 26, R960, R961) ------------------------------------

AMENDED = "table 3 re-reported its sheet: 5-0, not 30-0"


def _played_game_1(path: Path) -> Path:
    """The six teams' playoff (Falcons, Ravens, Eagles seeded so, for two places), game 1
    played: Ravens beat Falcons and advance."""
    with TournamentDB.open(_needs_a_playoff(path)) as record:
        assert _next_game(record) == ("Falcons", "Ravens")
        record.add_playoff_game(PlayoffGame("Falcons", "Ravens", "Ravens"), now=NOW, by="ann")
    return path


def _amend_falcons_down(record: TournamentDB) -> None:
    """Table 3's Falcons-Hawks corrected from 30-0 to 5-0, the same winner: Falcons drop from
    the first seed to the third, so game 1 would now be Ravens v Eagles."""
    enter_result(record, 1, 3, 5, 0, now=NOW, amend_reason=AMENDED)


async def _close_shown(client: TestClient[Any, Any]) -> str:
    return await (await client.get("/close", headers={"Accept": "text/html"})).text()


def test_a_result_amended_after_a_playoff_game_does_not_make_it_another_game(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:
        _amend_falcons_down(record)

        async def scenario(client: TestClient[Any, Any]) -> str:
            await log_in(client)
            return await _close_shown(client)

        shown = serve(director_page(record), scenario)
    assert "The playoff stopped: game 1 is not the game the standings\nmake now" in shown
    assert (
        "Playoff game 1 was played as Falcons v Ravens (Ravens won), but the standings as "
        "they are now make game 1 Ravens v Eagles" in shown
    )
    assert 'id="playoff-form"' not in shown and 'id="close-form"' not in shown
    assert 'id="void-form"' in shown
    recorded = shown[shown.index('<table class="bracket recorded">') :].split("</table>")[0]
    assert (
        '<tr><td data-label="game">1</td><td data-label="teams">Falcons v Ravens</td>'
        '<td data-label="winner">Ravens</td>'
        '<td data-label="the standings now make">Ravens v Eagles</td></tr>' in recorded
    )


def test_the_end_of_the_days_card_on_the_tables_page_says_the_playoff_stopped_and_links_the_void(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:
        _amend_falcons_down(record)

        async def scenario(client: TestClient[Any, Any]) -> str:
            await log_in(client)
            return await (await client.get("/", headers={"Accept": "text/html"})).text()

        index = serve(director_page(record), scenario)
    card = index[index.index('id="close-tools"') :].split("</section>")[0]
    assert "Close the tournament" not in card and 'id="close-link"' not in card
    assert "The playoff stopped: a result changed after game 1 was played" in card
    assert '<a href="/close#playoff-stopped" id="void-link">Void the playoff</a>' in card


def test_a_game_the_standings_now_read_as_deciding_otherwise_stops_the_playoff(
    tmp_path: Path,
) -> None:
    # R968: the record says game 1 Falcons v Ravens was played as one where the loser is out
    # (the standings then were others); the standings as they are now make it the same two
    # teams' game for a place. It is not read anew: Ravens are no finalist by it.
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        game = PlayoffGame("Falcons", "Ravens", "Ravens", "the loser is out")
        record.add_playoff_game(game, now=NOW, by="ann")

        async def scenario(client: TestClient[Any, Any]) -> str:
            await log_in(client)
            return await _close_shown(client)

        shown = serve(director_page(record), scenario)
    assert (
        "Playoff game 1 was played as Falcons v Ravens (Ravens won; the loser is out), but the "
        "standings as they are now make game 1 Falcons v Ravens a game where the winner "
        "advances" in shown
    )
    assert 'id="playoff-form"' not in shown and 'id="close-form"' not in shown
    recorded = shown[shown.index('<table class="bracket recorded">') :].split("</table>")[0]
    assert (
        '<td data-label="the standings now make">Falcons v Ravens, where the winner '
        "advances</td>" in recorded
    )


def test_a_director_voids_a_stopped_playoff_from_the_page_with_who_and_why(
    tmp_path: Path,
) -> None:
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:
        _amend_falcons_down(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "games": "1", "reason": AMENDED}
            done = await client.post("/playoff/void", data=form, headers=origin(client))
            return await done.text(), await _close_shown(client)

        done, shown = serve(director_page(record), scenario)
        assert record.playoff_games() == ()
        (void,) = record.export()["playoff_voids"]
    assert void == {"games": 1, "voided_by": "director", "voided_at": NOW, "reason": AMENDED}
    assert (
        "the playoff voided (1 game, kept in the record); the playoff starts again: game 1 "
        "Ravens v Eagles" in done
    )
    assert _playoff_form(shown) == {"game": "1", "a": "Ravens", "b": "Eagles"}


def test_a_void_form_left_open_voids_no_game_recorded_since(tmp_path: Path) -> None:
    """R961: the form names how many games it voids."""
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "games": "0", "reason": "wrong winner"}
            answer = await client.post("/playoff/void", data=form, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
        assert len(record.playoff_games()) == 1
    assert status == 409
    assert refused == (
        "voiding the playoff: the page showed 0 games recorded, the record holds 1 (the "
        "playoff changed since): nothing voided; look at /close again"
    )


def test_results_staff_may_not_void_the_playoff(tmp_path: Path) -> None:
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:
        password = add_staff(record, "rita", Role.RESULTS)

        async def scenario(client: TestClient[Any, Any]) -> int:
            csrf = await log_in(client, password, "rita")
            form = {"csrf": csrf, "confirm": "yes", "games": "1", "reason": "wrong winner"}
            return (await client.post("/playoff/void", data=form, headers=origin(client))).status

        status = serve(director_page(record), scenario)
        assert len(record.playoff_games()) == 1
    assert status == 403


def test_the_close_page_shows_the_bracket_played_and_to_come(tmp_path: Path) -> None:
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:

        async def scenario(client: TestClient[Any, Any]) -> str:
            await log_in(client)
            return await _close_shown(client)

        shown = serve(director_page(record), scenario)
    bracket = shown[shown.index('<table class="bracket">') :].split("</table>")[0]
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>", bracket)
    assert rows == [
        ("1", "Falcons v Ravens", "the winner advances", "Ravens"),
        ("2", "Falcons v Eagles", "the winner advances", "to play"),
    ]
    assert 'class="error"' not in shown


def test_a_playoff_an_amendment_made_needless_is_voided_and_the_tournament_closed(
    tmp_path: Path,
) -> None:
    """Table 1's Eagles win amended to a tie: no tie for the places is left, so game 1 is no
    game the standings make; voided from the page, the championship is known and closes."""
    with TournamentDB.open(_played_game_1(tmp_path / "t.db")) as record:
        enter_result(record, 1, 1, 10, 10, now=NOW, amend_reason="a tie, not a win")

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str, str]:
            csrf = await log_in(client)
            stopped = await _close_shown(client)
            void = {"csrf": csrf, "confirm": "yes", "reason": "no tie left", **_hidden(stopped)}
            voided = await (
                await client.post("/playoff/void", data=void, headers=origin(client))
            ).text()
            shown = await _close_shown(client)
            close = {"csrf": csrf, "confirm": "yes", "champion": "Ravens", **_close_form(shown)}
            await client.post("/close", data=close, headers=origin(client))
            return stopped, voided, shown

        stopped, voided, shown = serve(director_page(record), scenario)
        assert record.champion() == "Ravens"
    assert "but the standings as they are now need no such game" in stopped
    assert "need no playoff: the championship is Falcons v Ravens" in stopped
    assert "no playoff is needed now: the championship is Falcons v Ravens" in voided
    assert 'id="close-form"' in shown and 'id="bracket"' not in shown


def _closed_after_the_playoff(path: Path) -> Path:
    """The playoff played out (Ravens, then Eagles advance) and Ravens recorded champion."""
    with TournamentDB.open(_played_game_1(path)) as record:
        record.add_playoff_game(PlayoffGame("Falcons", "Eagles", "Eagles"), now=NOW, by="ann")
        record.set_champion("Ravens", now=NOW, by="ann")
    return path


def test_reopened_and_amended_the_tournament_closes_again_from_the_page(tmp_path: Path) -> None:
    """docs/hub.md step 10: close; reopen with a reason; amend (the same winner); the page
    leads on: void the playoff, play it again, close."""
    with TournamentDB.open(_closed_after_the_playoff(tmp_path / "t.db")) as record:

        async def scenario(client: TestClient[Any, Any]) -> tuple[str, str]:
            csrf = await log_in(client)
            shown = await _close_shown(client)
            reopen = {"csrf": csrf, "confirm": "yes", "reason": AMENDED, **_hidden(shown)}
            await client.post("/reopen", data=reopen, headers=origin(client))
            amend = {"csrf": csrf, "round": "1", "table": "3", "a_points": "5",
                     "b_points": "0", "reason": AMENDED}  # fmt: skip
            await client.post("/result", data=amend, headers=origin(client))
            stopped = await _close_shown(client)
            void = {"csrf": csrf, "confirm": "yes", "reason": AMENDED, **_hidden(stopped)}
            await client.post("/playoff/void", data=void, headers=origin(client))
            for winner in ("Ravens", "Falcons"):
                shown = await _close_shown(client)
                game = {"csrf": csrf, "confirm": "yes", "winner": winner, **_playoff_form(shown)}
                await client.post("/playoff", data=game, headers=origin(client))
            shown = await _close_shown(client)
            close = {"csrf": csrf, "confirm": "yes", "champion": "Falcons", **_close_form(shown)}
            done = await client.post("/close", data=close, headers=origin(client))
            return stopped, await done.text()

        stopped, done = serve(director_page(record), scenario)
        games = [(g.a, g.b, g.winner) for g in record.playoff_games()]
        assert record.champion() == "Falcons"
    assert 'id="void-form"' in stopped
    assert games == [("Ravens", "Eagles", "Ravens"), ("Eagles", "Falcons", "Falcons")]
    assert "the tournament is closed: Falcons is the champion" in done


def test_a_tables_own_correction_after_a_playoff_game_puts_the_stopped_playoff_in_the_queue(
    tmp_path: Path,
) -> None:
    """The hub amends a table's own result on its own (R173): the playoff it stops is a
    problem for the director, with the way to /close, not a silent re-seeding."""
    path = _needs_a_playoff(tmp_path / "t.db", table_3_reports=True)
    with TournamentDB.open(path) as record:
        record.add_playoff_game(PlayoffGame("Falcons", "Ravens", "Ravens"), now=NOW, by="ann")
        before = _queue_kinds(record)
        applied = apply_result(record, 3, reported(3, 2, 5, 0), now=LATER)
        after = [p for p in _queue(record) if p["kind"] == "playoff"]
    assert applied.event is not None and applied.event.outcome == "amended"
    assert "playoff" not in before
    (problem,) = after
    assert problem["what"].startswith(
        "The playoff stopped: playoff game 1 was played as Falcons v Ravens (Ravens won)"
    )
    assert problem["links"] == [{"text": "The championship page", "href": "/close"}]


def _queue(record: TournamentDB) -> list[dict[str, Any]]:
    async def scenario(client: TestClient[Any, Any]) -> list[dict[str, Any]]:
        await log_in(client)
        return list((await (await client.get("/api/problems")).json())["problems"])

    return serve(director_page(record), scenario)


def _queue_kinds(record: TournamentDB) -> list[str]:
    return [problem["kind"] for problem in _queue(record)]


def _hidden(shown: str) -> dict[str, str]:
    """The hidden guard fields of the one form on /close that has them (closing, games)."""
    found = dict(re.findall(r'<input type="hidden" name="(closing|games)" value="(\d+)"', shown))
    assert found, shown
    return found


# --- forms left open while the playoff was played again (issue 26's attack, R963-R965) ----------

VOIDED_BY_BOB = "game 1 entered wrongly"


def _form_fields(shown: str, form_id: str) -> dict[str, str]:
    """Every hidden field of the form ``form_id`` on the page (its guards), unescaped."""
    start = shown.index(f'id="{form_id}"')
    form = shown[start : shown.index("</form>", start)]
    found = re.findall(r'<input type="hidden" name="([a-z]+)" value="([^"]*)"', form)
    return {key: html.unescape(value) for key, value in found if key != "csrf"}


def _played_again_by_bob(record: TournamentDB, *winners: str) -> None:
    """Another director voids the playoff and records its games again, won by ``winners``."""
    void_playoff(record, VOIDED_BY_BOB, now=LATER, by="bob")
    for winner in winners:
        record_playoff_game(record, winner, now=LATER, by="bob")


def test_a_close_form_left_open_while_the_playoff_was_played_again_closes_nothing(
    tmp_path: Path,
) -> None:
    """R963: the Close form names the championship it showed; Falcons v Ravens shown, then
    played again as Ravens v Eagles: Ravens confirmed from the stale form would be recorded
    as the winner of a championship the director never saw."""
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        for winner in ("Falcons", "Ravens"):  # Falcons advance; Ravens beat Eagles
            record_playoff_game(record, winner, now=NOW, by="ann")

        async def scenario(client: TestClient[Any, Any]) -> tuple[dict[str, str], int, str]:
            csrf = await log_in(client)
            fields = _form_fields(await _close_shown(client), "close-form")
            _played_again_by_bob(record, "Ravens", "Eagles")  # Ravens advance; Eagles beat Falcons
            form = {"csrf": csrf, "confirm": "yes", **fields, "champion": "Ravens"}
            answer = await client.post("/close", data=form, headers=origin(client))
            return fields, answer.status, await error_line(answer)

        fields, status, refused = serve(director_page(record), scenario)
        champion = record.champion()
    assert fields == {"closing": "0", "a": "Falcons", "b": "Ravens"}
    assert (status, champion) == (409, None)
    assert refused == (
        "closing the tournament: the page showed the championship Falcons v Ravens, but it "
        "is now Ravens v Eagles (the playoff or a result changed since): nothing recorded; "
        "look at /close again"
    )


def test_a_close_form_drawn_again_closes_the_championship_played_again(tmp_path: Path) -> None:
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        for winner in ("Ravens", "Eagles"):
            record_playoff_game(record, winner, now=NOW, by="ann")

        async def scenario(client: TestClient[Any, Any]) -> int:
            csrf = await log_in(client)
            fields = _form_fields(await _close_shown(client), "close-form")
            form = {"csrf": csrf, "confirm": "yes", **fields, "champion": "Eagles"}
            return (await client.post("/close", data=form, headers=origin(client))).status

        status = serve(director_page(record), scenario)
        assert (status, record.champion()) == (200, "Eagles")


def test_a_void_form_left_open_voids_no_game_played_again_since(tmp_path: Path) -> None:
    """R964: one game shown (Falcons beat Ravens); another director voided it and recorded
    game 1 again (Ravens won): the same count, another game, which the form never showed."""
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        record_playoff_game(record, "Falcons", now=NOW, by="ann")

        async def scenario(client: TestClient[Any, Any]) -> tuple[dict[str, str], int, str]:
            csrf = await log_in(client)
            fields = _form_fields(await _close_shown(client), "void-form")
            _played_again_by_bob(record, "Ravens")
            form = {"csrf": csrf, "confirm": "yes", **fields, "reason": "Falcons' win was a typo"}
            answer = await client.post("/playoff/void", data=form, headers=origin(client))
            return fields, answer.status, await error_line(answer)

        fields, status, refused = serve(director_page(record), scenario)
        games = record.playoff_games()
    assert fields["games"] == "1"
    assert status == 409
    assert refused == (
        "voiding the playoff: the page showed 1 game recorded, but those were voided since and "
        "the record holds others played again (the playoff changed since): nothing voided; "
        "look at /close again"
    )
    assert games == (PlayoffGame("Falcons", "Ravens", "Ravens", "the winner advances"),)


def test_a_second_close_confirmed_says_who_closed_it_as_the_venue_reads_it(
    tmp_path: Path,
) -> None:
    """R965: two directors' pages confirm Close; the second is told the closing that stands,
    its time in the venue's zone, and where to look: not an amendment the page lacks."""
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        record.set_venue(time_zone="America/Chicago", now=NOW, by="director")
        finalists = _play_out(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            fields = _form_fields(await _close_shown(client), "close-form")
            form = {"csrf": csrf, "confirm": "yes", **fields, "champion": finalists[0]}
            await client.post("/close", data=form, headers=origin(client))
            answer = await client.post("/close", data=form, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
    assert status == 409
    assert refused == (
        f"closing the tournament: it was closed meanwhile ({finalists[0]} recorded as champion "
        "by director at Sat 9 May 2026, 04:00 CDT): nothing recorded; look at /close again"
    )


@pytest.mark.parametrize(
    ("path", "form_id", "doing"),
    [("/close", "close-form", "closing the tournament"),
     ("/playoff", "playoff-form", "recording a playoff game")],
    ids=["close", "playoff"],
)  # fmt: skip
def test_a_form_refused_because_the_playoff_stopped_says_nothing_was_recorded_once(
    tmp_path: Path, path: str, form_id: str, doing: str
) -> None:
    """R965: a form drawn before an amendment stopped the playoff (R960): its line says what
    was refused and what to do; the stopped card below says why, once, with the void."""
    with TournamentDB.open(_needs_a_playoff(tmp_path / "t.db")) as record:
        record_playoff_game(record, "Ravens", now=NOW, by="ann")
        if form_id == "close-form":
            record_playoff_game(record, "Eagles", now=NOW, by="ann")

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str, str]:
            csrf = await log_in(client)
            fields = _form_fields(await _close_shown(client), form_id)
            _amend_falcons_down(record)
            choice = {"champion" if path == "/close" else "winner": fields["a"]}
            form = {"csrf": csrf, "confirm": "yes", **fields, **choice}
            answer = await client.post(path, data=form, headers=origin(client))
            return answer.status, await error_line(answer), await answer.text()

        status, refused, shown = serve(director_page(record), scenario)
        games, champion = len(record.playoff_games()), record.champion()
    assert (status, games, champion) == (409, 2 if form_id == "close-form" else 1, None)
    assert refused == (
        f"{doing}: nothing recorded: the playoff stopped since the page was drawn (a result "
        "changed after playoff game 1 was played): void it below with a reason and play it "
        "again"
    )
    assert shown.count("was played as Falcons v Ravens") == 1
    assert shown.index(refused) < shown.index('id="void-form"')


def test_a_close_form_naming_one_team_of_its_championship_is_refused(tmp_path: Path) -> None:
    """R963: the two fields go together; a request with one of them is refused, not read as
    a form without them."""
    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        finalists = _play_out(record)

        async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
            csrf = await log_in(client)
            form = {"csrf": csrf, "confirm": "yes", "a": finalists[0], "champion": finalists[0]}
            answer = await client.post("/close", data=form, headers=origin(client))
            return answer.status, await error_line(answer)

        status, refused = serve(director_page(record), scenario)
        champion = record.champion()
    assert (status, champion) == (400, None)
    assert refused == (
        "closing the tournament: expected the championship&#x27;s two teams (a and b)"
    )
