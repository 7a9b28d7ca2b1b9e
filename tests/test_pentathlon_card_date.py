"""The score card's date of play and its Game Monitor (issue 20: the card names the "event,
date, division, round, table, game, both players' names ... signature lines for the player and
the monitor"). The date is the table's local date of the decision that confirmed the result,
from its journal entry's wall time, so that a card printed again (later, after a restart) shows
the same date; a clock that was never set (before 2024) leaves a blank line to write on (R819).
The monitor's name is the table's config's ``[pentathlon] monitor``."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from firmware_py.table.family import play_date
from firmware_py.table.journal import wall_text
from firmware_py.table.web.page import TablePage, listen
from tests.cli_helpers import run
from tests.pentathlon_card_helpers import write_log
from tests.pentathlon_table_helpers import PTable, begin

BLANK_DATE = '<span class="label">Date</span><span class="blank"></span></td>'
CHICAGO = "CST6CDT,M3.2.0,M11.1.0"  # the US Central zone's rule, as TZ (no zone files needed)


class Wall:
    """The table's wall clock, set by the test: the journal stamps each entry with it."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> str:
        return wall_text(self.at)


@pytest.fixture
def central_time() -> Iterator[None]:
    """The table's local time zone is US Central (the Pi's TZ), for the test's length."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = CHICAGO
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def _date_cell(day: str) -> str:
    return f'<span class="label">Date</span>{day}</td>'


def _tie(journal: Path, wall: Wall, *, confirm_at: datetime | None = None) -> PTable:
    """Queens & Guards at a journaled table, tied by agreement and the result confirmed (at
    ``confirm_at`` on the table's clock, when given)."""
    table = PTable(journal=journal, wall=wall, game="queens-guards")
    begin(table, "A").buttons("yes").choose("Tie: agreed")
    if confirm_at is not None:
        wall.at = confirm_at
    table.buttons("yes")
    assert table.game.phase == "over"
    return table


def _card(table: PTable, *, monitor: str = "") -> str:
    """The card ``GET /card`` serves, published as the daemon publishes the table."""
    page = TablePage(listen("127.0.0.1", 0), monitor=monitor)
    try:
        recorded = table.virtual.recorded
        decided_at = None if recorded is None else recorded.decided_at
        page.publish(table.controller, table.controller.view(), saved=True, decided_at=decided_at)
        assert page.card is not None
        return page.card
    finally:
        page.sock.close()


def test_the_card_prints_the_local_date_the_result_was_confirmed(
    tmp_path: Path, central_time: None
) -> None:
    """Rulebook: the score card is "THE ONLY Official Record": it names the date of play.
    Played on the evening of 18 April in Chicago, after midnight in UTC: the local date."""
    wall = Wall(datetime(2026, 4, 18, 23, 0, tzinfo=UTC))  # 18:00 in Chicago
    confirmed = datetime(2026, 4, 19, 2, 30, tzinfo=UTC)  # 21:30 on the 18th in Chicago
    table = _tie(tmp_path / "journal.db", wall, confirm_at=confirmed)
    card = _card(table)
    assert card.count(_date_cell("2026-04-18")) == 2  # each Pentathlete's card
    assert "2026-04-19" not in card
    table.close()


def test_the_date_is_the_confirmation_s_not_the_game_s_start(tmp_path: Path) -> None:
    """A game begun one day and confirmed the next (a game adjourned overnight) is dated by
    the decision that made the card the official record (R819)."""
    wall = Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC))
    table = _tie(tmp_path / "journal.db", wall, confirm_at=datetime(2026, 4, 20, 12, 0, tzinfo=UTC))
    card = _card(table)
    assert _date_cell("2026-04-20") in card and "2026-04-18" not in card
    table.close()


def test_a_card_printed_again_after_a_restart_shows_the_same_date(tmp_path: Path) -> None:
    """The date comes from the journal, not from the clock at printing: the table restarted a
    week later (its clock moved on) serves the same card."""
    path = tmp_path / "journal.db"
    wall = Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC))
    table = _tie(path, wall)
    before = _card(table, monitor="Mo Reyes")
    table.close()
    later = Wall(datetime(2026, 4, 25, 12, 0, tzinfo=UTC))
    again = PTable(journal=path, wall=later, game="queens-guards")
    after = _card(again, monitor="Mo Reyes")
    assert _date_cell("2026-04-18") in after
    assert after == before
    again.close()


def test_a_clock_never_set_leaves_the_date_blank_to_write_on(tmp_path: Path) -> None:
    """A Pi without a real-time clock that has not reached a time server thinks it is 1970:
    the card prints no false date, but a line to write the date on (R819)."""
    wall = Wall(datetime(1970, 1, 1, 0, 5, tzinfo=UTC))
    table = _tie(tmp_path / "journal.db", wall)
    card = _card(table)
    assert card.count(BLANK_DATE) == 2 and "1970" not in card
    table.close()


def test_a_table_without_a_journal_leaves_the_date_blank(tmp_path: Path) -> None:
    table = PTable(game="queens-guards")
    begin(table, "A").buttons("yes").choose("Tie: agreed").buttons("yes")
    assert BLANK_DATE in _card(table)


@pytest.mark.parametrize(
    ("wall", "day"),
    [
        ("2024-01-01T00:00:00.000+00:00", date(2024, 1, 1)),
        ("2023-12-31T23:59:59.999+00:00", None),
        ("2026-04-19T02:30:00.000+00:00", date(2026, 4, 18)),  # in UTC-6
        ("not a time", None),
        (None, None),
    ],
)
def test_the_date_of_play_from_a_journal_wall_time(wall: str | None, day: date | None) -> None:
    zone = timezone(timedelta(hours=-6)) if wall and wall.startswith("2026") else UTC
    assert play_date(wall, zone) == day


def test_the_card_names_the_configured_game_monitor_on_the_signature_line(
    tmp_path: Path,
) -> None:
    """Rulebook: "signature lines for the player and the monitor": the monitor's is named."""
    table = _tie(tmp_path / "journal.db", Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC)))
    card = _card(table, monitor="Mo O'Reyes")
    assert card.count("<div>Game Monitor's signature: <bdi>Mo O&#x27;Reyes</bdi></div>") == 2
    table.close()


def test_without_a_configured_monitor_the_signature_line_is_unnamed(tmp_path: Path) -> None:
    table = _tie(tmp_path / "journal.db", Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC)))
    assert _card(table).count("<div>Game Monitor's signature</div>") == 2
    table.close()


# --- `gametable pentathlon card` from a journal (R842) -----------------------------------------


def _cli_card(capsys: pytest.CaptureFixture[str], journal: Path, *extra: str) -> str:
    code, out, err = run(capsys, "pentathlon", "card", str(journal), *extra)
    assert (code, err) == (0, "")
    return out


def test_the_command_dates_a_journal_s_card_by_its_confirmation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, central_time: None
) -> None:
    """Rulebook: the score card is "THE ONLY Official Record": the card the command prints from
    a journal is the table's, dated by the journal entry of the monitor's confirmation in the
    table's local time, not blank (R819, R842)."""
    wall = Wall(datetime(2026, 4, 17, 23, 0, tzinfo=UTC))  # the game begins the day before
    confirmed = datetime(2026, 4, 19, 2, 30, tzinfo=UTC)  # 21:30 on the 18th in Chicago
    table = _tie(tmp_path / "journal.db", wall, confirm_at=confirmed)
    served = _card(table)
    table.close()
    out = _cli_card(capsys, tmp_path / "journal.db")
    assert out.count(_date_cell("2026-04-18")) == 2
    assert "2026-04-17" not in out and "2026-04-19" not in out
    assert _date_cell("2026-04-18") in served  # the same date as the table's card


def test_the_command_s_date_overrides_the_journal_s(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--date`` is what the director says the day was (a table whose clock was wrong)."""
    wall = Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC))
    _tie(tmp_path / "journal.db", wall).close()
    out = _cli_card(capsys, tmp_path / "journal.db", "--date", "2026-05-02")
    assert out.count(_date_cell("2026-05-02")) == 2 and "2026-04-18" not in out


def test_the_command_dates_each_session_by_its_own_confirmation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two games in one journal: ``--session 1`` is the first game's day, not the last's."""
    wall = Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC))
    table = _tie(tmp_path / "journal.db", wall)
    wall.at = datetime(2026, 4, 20, 12, 0, tzinfo=UTC)
    table.buttons("next")  # the next game at this table
    begin(table, "A").buttons("yes").choose("Tie: agreed").buttons("yes")
    table.close()
    first = _cli_card(capsys, tmp_path / "journal.db", "--session", "1")
    last = _cli_card(capsys, tmp_path / "journal.db")
    assert _date_cell("2026-04-18") in first and _date_cell("2026-04-20") in last


def test_the_command_leaves_an_unconfirmed_game_s_date_blank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No confirmation, no date of play: a line to write on (R819)."""
    table = PTable(
        journal=tmp_path / "journal.db",
        wall=Wall(datetime(2026, 4, 18, 12, 0, tzinfo=UTC)),
        game="queens-guards",
    )
    begin(table, "A").buttons("yes").choose("Tie: agreed")
    table.close()
    assert _cli_card(capsys, tmp_path / "journal.db").count(BLANK_DATE) == 2


def test_the_command_leaves_a_log_s_date_blank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A game's log keeps no wall time: the date is ``--date`` or a line to write on."""
    log = write_log(tmp_path / "game.jsonl")
    assert _cli_card(capsys, log).count(BLANK_DATE) == 2
