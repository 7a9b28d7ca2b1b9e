"""The Mathematics Pentathlon on the director's page (R834, R835) with aiohttp's test client:
the staff's view of the divisions, standings and seats, each table's score card, the public
standings per division, a table's page linking its cards, and a record of the event alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.page.views_pentathlon import public_name
from firmware_py.director.hub.staff import Role, StaffRecord
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.apply_pentathlon import apply_game_over
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.pentathlon import (
    Challenges,
    GameResult,
    Pentathlete,
    PentathlonPoints,
)
from tests.hub_page_helpers import (
    NOW,
    NOW_SHOWN,
    PASSWORD,
    add_staff,
    director_page,
    log_in,
    make_record,
    serve,
)

Client = TestClient[Any, Any]
PLAYERS = (
    Pentathlete("Ann Lee", "III", "Lincoln"),
    Pentathlete("Ben Okafor", "III", "Adams"),
    Pentathlete("Cy Park", "III", "Lincoln"),
    Pentathlete("Dee Novak", "III", "Adams"),
    Pentathlete("Eve <b>Ruiz</b>", "IV", "Roosevelt"),
    Pentathlete("Finn Walsh", "IV", "Roosevelt"),
)
JOURNAL = "7a1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"
VIEWER, VIEWER_PASSWORD = "val", "val's password, a viewer's"


def _with_event(record: TournamentDB) -> TournamentDB:
    """Round 1: Ann v Ben at table 11 (the table's result), Cy v Dee at table 12 (the
    director's: a tie by agreement at Queens & Guards), Eve v Finn at table 13 (none yet);
    round 2: Ann v Cy at table 11 (Juggle)."""
    event = PentathlonRecord(record)
    with record.writing():
        for round_number, table, game, a, b in (
            (1, 11, Game.CONTIG_60, "Ann Lee", "Ben Okafor"),
            (1, 12, Game.QUEENS_AND_GUARDS, "Cy Park", "Dee Novak"),
            (1, 13, Game.CONTIG_60, "Eve <b>Ruiz</b>", "Finn Walsh"),
        ):
            seat = event.event().seat(round_number, table, game, a, b)
            event.add_seat(seat, now=NOW, by="director")
    start = {"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}
    game_over = {
        "t": 1200.0, "event": "game_over", "winner": "A", "how": "time-limit",
        "detail": "time limit", "scores": {"A": 25, "B": 34},
        "challenges": {"A": {"C": 1, "I": 0, "IA": 0}, "B": {"C": 0, "I": 1, "IA": 1}},
    }  # fmt: skip
    decision = Decision(JOURNAL, 9, "2026-05-09T09:35:00+00:00", start, game_over)
    assert apply_game_over(record, 11, decision, now=NOW) is not None
    with record.writing():
        seat = event.event().seat_at(1, 12)
        event.add_result(
            GameResult(seat, None, How.AGREEMENT, (None, None), (Challenges(), Challenges())),
            now=NOW,
            by="director",
            source=DIRECTOR_SOURCE,
        )
        seat = event.event().seat(2, 11, Game.JUGGLE, "Ann Lee", "Cy Park")
        event.add_seat(seat, now=NOW, by="director")
    return record


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """A GeoPlunge tournament and a Pentathlon event in one record."""
    path = make_record(tmp_path / "t.db")
    PentathlonRecord.start(path, PentathlonPoints(), PLAYERS, now=NOW, by="director").close()
    with TournamentDB.open(path) as opened:
        yield _with_event(opened)


@pytest.fixture
def alone(tmp_path: Path) -> Iterator[TournamentDB]:
    """A record holding the Pentathlon event alone."""
    path = tmp_path / "p.db"
    made = PentathlonRecord.start(path, PentathlonPoints(), PLAYERS, now=NOW, by="director")
    store_password(path, PASSWORD)
    with made:
        yield _with_event(made)


def _get(page: DirectorPage, path: str, *, staff: bool = False) -> tuple[int, str]:
    """``path`` read by anyone, or by ``staff``: a viewer, the least of the roles (R811)."""

    async def scenario(client: Client) -> tuple[int, str]:
        if staff:
            if StaffRecord(page.record).find(VIEWER) is None:
                add_staff(page.record, VIEWER, Role.VIEWER, VIEWER_PASSWORD)
            await log_in(client, VIEWER_PASSWORD, VIEWER)
        answer = await client.get(path)
        return answer.status, await answer.text()

    return serve(page, scenario)


# --- the staff's view ----------------------------------------------------------------------------


def test_the_pentathlon_view_shows_each_division_with_its_games(record: TournamentDB) -> None:
    status, html = _get(director_page(record), "/pentathlon", staff=True)
    assert status == 200
    assert "<td>Division III</td><td>4</td><td>2</td><td>3</td><td>2</td><td>1</td>" in html
    assert "<td>Division IV</td><td>2</td><td>1</td><td>1</td><td>0</td><td>1</td>" in html


def test_the_pentathlon_view_ranks_the_players_of_each_division(record: TournamentDB) -> None:
    html = _get(director_page(record), "/pentathlon", staff=True)[1]
    division_iii = html.split('id="division-III"')[1].split("</section>")[0]
    ranked = [cells.split("</td>")[0] for cells in division_iii.split("<tr><td>")[1:]]
    assert ranked == ["1", "2", "2", "4"]  # Ann won; Cy and Dee tied (level: one rank); Ben lost
    assert (
        division_iii.index("Ann Lee")
        < division_iii.index("Cy Park")
        < division_iii.index("Ben Okafor")
    )
    assert 'id="division-IV"' in html


def test_the_pentathlon_view_links_each_seat_to_its_score_card(record: TournamentDB) -> None:
    html = _get(director_page(record), "/pentathlon", staff=True)[1]
    for card in ("/pentathlon/card/1/11", "/pentathlon/card/1/13", "/pentathlon/card/2/11"):
        assert f'href="{card}"' in html
    assert "<td>Ann Lee</td><td>Ben Okafor</td><td>A wins (time-limit)</td>" in html
    assert "tie (agreement)" in html and "not in yet" in html
    assert html.index("<h3>Round 2</h3>") < html.index("<h3>Round 1</h3>")  # latest first


def test_a_players_name_is_shown_as_text_never_as_html(record: TournamentDB) -> None:
    html = _get(director_page(record), "/pentathlon", staff=True)[1]
    assert "Eve &lt;b&gt;Ruiz&lt;/b&gt;" in html and "<b>Ruiz" not in html


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("/pentathlon", "the Pentathlon&#x27;s view"),
        ("/pentathlon/card/1/11", "a Pentathlon score card"),
    ],
)
def test_the_pentathlon_view_and_cards_are_for_staff(
    record: TournamentDB, path: str, what: str
) -> None:
    status, html = _get(director_page(record), path)
    assert status == 403
    assert f"{what} is for staff: log in first (/login)" in html
    assert "Ann Lee" not in html and "Okafor" not in html


@pytest.mark.parametrize("path", ["/pentathlon", "/pentathlon/card/1/11"])
def test_a_browser_without_a_login_is_sent_to_it_from_the_pentathlon(
    record: TournamentDB, path: str
) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        answer = await client.get(path, headers={"Accept": "text/html"}, allow_redirects=False)
        return answer.status, answer.headers["Location"]

    assert serve(director_page(record), scenario) == (303, f"/login?next={path}")


@pytest.mark.parametrize("role", [Role.VIEWER, Role.RESULTS])
def test_any_staff_member_reads_the_pentathlon_view_and_its_cards(
    record: TournamentDB, role: Role
) -> None:
    password = add_staff(record, "sam", role)

    async def scenario(client: Client) -> list[int]:
        await log_in(client, password, "sam")
        paths = ("/pentathlon", "/pentathlon/card/1/11")
        return [(await client.get(path)).status for path in paths]

    assert serve(director_page(record), scenario) == [200, 200]


# --- a table's score card ------------------------------------------------------------------------


def test_the_score_card_shows_the_game_the_players_and_their_challenges(
    record: TournamentDB,
) -> None:
    status, html = _get(director_page(record), "/pentathlon/card/1/11", staff=True)
    assert status == 200
    assert "<dt>game</dt><dd>contig-60</dd>" in html and "<dt>division</dt><dd>III</dd>" in html
    card = html.split('class="score-card"')[1].split("</table>")[0]
    assert "<td>A</td><td>Ann Lee</td><td>Lincoln</td><td>win</td><td>25</td><td>1</td>" in card
    assert "<td>0</td><td>0</td>" in card
    assert "<td>B</td><td>Ben Okafor</td><td>Adams</td><td>loss</td><td>34</td><td>0</td>" in card
    assert "<td>1</td><td>1</td>" in card


def test_the_score_card_shows_who_entered_each_version_and_what_the_table_reported(
    record: TournamentDB,
) -> None:
    html = _get(director_page(record), "/pentathlon/card/1/11", staff=True)[1]
    assert "version 1, by table 11 at " + NOW_SHOWN in html
    reports = html.split("What the table reported")[1]
    assert "<td>7a1c0e7a</td><td>9</td><td>25-34</td><td>recorded</td>" in reports


def test_a_score_card_of_a_game_not_in_yet_says_so(record: TournamentDB) -> None:
    html = _get(director_page(record), "/pentathlon/card/1/13", staff=True)[1]
    assert "<dt>result</dt><dd>not in yet</dd>" in html
    assert "no result yet" in html and "nothing reported by the table" in html


def test_a_score_card_of_a_table_not_seated_is_one_line(record: TournamentDB) -> None:
    status, html = _get(director_page(record), "/pentathlon/card/1/99", staff=True)
    assert status == 404
    assert "round 1 has no table 99 seated" in html


def test_a_record_without_a_pentathlon_event_says_so(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as plain:
        status, html = _get(director_page(plain), "/pentathlon", staff=True)
    assert status == 404 and "holds no Pentathlon event" in html


# --- the other pages -----------------------------------------------------------------------------


def test_the_public_page_shows_each_divisions_standings_by_first_names(
    record: TournamentDB,
) -> None:
    status, html = _get(director_page(record), "/public")
    assert status == 200
    section = html.split('id="pentathlon-public"')[1]
    assert "<h3>Division III</h3>" in section and "<h3>Division IV</h3>" in section
    assert "<td>1</td><td>Ann L.</td><td>2</td><td>1</td><td>0</td><td>0</td><td>1</td>" in section
    assert "<td>Lincoln</td>" in section
    for hidden in ("Ann Lee", "Okafor", "/pentathlon/card", "I/IA"):
        assert hidden not in section


def test_the_public_page_of_a_record_without_an_event_has_no_pentathlon(tmp_path: Path) -> None:
    with TournamentDB.open(make_record(tmp_path / "t.db")) as plain:
        html = _get(director_page(plain), "/public")[1]
    assert "Pentathlon" not in html


def test_a_tables_page_links_its_pentathlon_score_cards(record: TournamentDB) -> None:
    status, html = _get(director_page(record), "/tables/11", staff=True)
    assert status == 200
    assert "Pentathlon games at this table" in html
    assert 'href="/pentathlon/card/1/11"' in html and 'href="/pentathlon/card/2/11"' in html


def test_the_directors_page_links_the_pentathlon_view(record: TournamentDB) -> None:
    html = _get(director_page(record), "/", staff=True)[1]
    assert 'href="/pentathlon"' in html and "Division III" in html


def test_a_record_of_the_pentathlon_alone_is_shown_on_every_page(alone: TournamentDB) -> None:
    page = director_page(alone)
    for path in ("/", "/tables/11", "/pentathlon", "/pentathlon/card/1/12", "/problems"):
        status, html = _get(page, path, staff=True)
        assert status == 200, (path, html)
        assert "Pentathlon" in html or "Score card" in html or "Nothing needs you now" in html
    for path in ("/public", "/projector"):
        status, html = _get(page, path)
        assert status == 200, (path, html)
        assert "<h3>Division III</h3>" in html and "Ann L." in html and "Ann Lee" not in html


def test_a_record_of_the_pentathlon_alone_has_an_empty_problem_queue(
    alone: TournamentDB,
) -> None:
    status, body = _get(director_page(alone), "/api/problems", staff=True)
    assert status == 200
    found = json.loads(body)
    assert (found["problems"], found["tables"], found["round"]) == ([], {}, None)


@pytest.mark.parametrize("names", [PublicNames.TEAMS, PublicNames.PLAYERS])
def test_the_public_page_names_pentathletes_by_initials_whatever_names_are_public(
    record: TournamentDB, names: PublicNames
) -> None:
    page = director_page(record)
    page.public_names = names
    section = _get(page, "/public")[1].split('id="pentathlon-public"')[1]
    assert "Ann L." in section and "Ann Lee" not in section


@pytest.mark.parametrize("path", ["/public", "/projector"])
def test_no_pentathlete_is_named_while_no_name_is_public(
    record: TournamentDB, alone: TournamentDB, path: str
) -> None:
    for held in (record, alone):
        page = director_page(held)
        page.public_names = PublicNames.NONE
        status, html = _get(page, path)
        assert status == 200 and "does not publish names" in html
        assert "Ann" not in html and "Division" not in html


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Ann Lee", "Ann L."),
        ("Ann Lee-Park", "Ann L."),
        ("Bo", "Bo"),
        ("Mary Ann Fox", "Mary A. F."),
    ],
)
def test_the_public_page_names_a_player_by_first_name_and_initials(name: str, shown: str) -> None:
    assert public_name(name) == shown


def test_the_score_card_names_its_tables_room(record: TournamentDB) -> None:
    record.add_room("Ballroom B", [11, 12], building="", now=NOW, by="director")
    _, html = _get(director_page(record), "/pentathlon/card/1/11", staff=True)
    assert "Score card · round 1, Ballroom B, table 11" in html  # R1112
