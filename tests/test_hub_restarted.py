"""A table's match left unfinished by its new journal (issue 25 F3; docs/hub.md "The control
room", R908): after ``gametable run --new-journal`` the director's tile and queue say the table
began its match again, until the match has a result or the director marks it seen."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_py.director.hub.page.problems import find_problems, hall_json, read_hall
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.wire.refusals import RESTARTED
from firmware_py.director.hub.wire.service import Hub
from firmware_py.director.record.venue import Venue
from firmware_py.table.hub_wire import Decision
from tests.test_hub_delivery import RESULT_SESSION, _hub, _record

OLD = "o" * 32  # the journal the power cut killed
NEW = "n" * 32  # the one --new-journal began


class Journal:
    """One journal of table 1, sending its decisions chained."""

    def __init__(self, hub: Hub, journal: str) -> None:
        self.hub, self.journal, self.seq = hub, journal, 0

    def send(self, event: dict[str, object], session: dict[str, object] = RESULT_SESSION) -> None:
        wall = datetime.now(UTC).isoformat(timespec="milliseconds")
        decision = Decision(self.journal, self.seq + 1, wall, session, event, self.seq)
        self.hub._decision(1, decision.to_bytes())
        self.seq += 1

    def games(self, played: list[tuple[int, int]]) -> None:
        """Each game's result and the match's score after it, as the table sends them."""
        a = b = 0
        for game_a, game_b in played:
            a, b = a + game_a, b + game_b
            self.send({"event": "game_result", "game": len(played)})
            self.send({"event": "score", "A": a, "B": b})

    def result(self, a: int, b: int) -> None:
        self.send({"event": "match_result", "winner": "A" if a > b else "B", "A": a, "B": b})


def _hall(hub: Hub) -> dict[str, Any]:
    hall = read_hall(hub.record)
    problems = find_problems(hall, [], hub.refusals.pending(), time.time())
    return hall_json(hall, problems, time.time(), rounds=1, role=Role.DIRECTOR, venue=Venue())


def _restarted(hub: Hub) -> list[dict[str, Any]]:
    return [p for p in _hall(hub)["problems"] if p["kind"] == RESTARTED]


def _killed_after_eight_games(hub: Hub) -> Journal:
    """The match of the dealer walk (F3): 8 games, B leading 80-20, then the power cut."""
    old = Journal(hub, OLD)
    old.games([(10, 0), (0, 10), (0, 20), (10, 0), (0, 20), (0, 10), (0, 10), (0, 10)])
    return old


def test_a_new_journal_while_the_old_one_s_match_is_unfinished_says_so_on_the_tile(
    tmp_path: Path,
) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    _killed_after_eight_games(hub)
    Journal(hub, NEW).send({"event": "plunge"})
    shown = _hall(hub)
    assert shown["tables"]["1"]["problems"] == [RESTARTED]
    (problem,) = _restarted(hub)
    when = time.strftime("%H:%M UTC", time.gmtime(problem["since"]))
    assert problem["what"] == (
        f"Table 1 began a new journal at {when} while its match of round 1 was unfinished "
        "(8 games, 20-80 so far)"
    )
    assert problem["todo"].startswith("Check the match's sheet, and enter the result by hand")
    assert problem["links"][0]["href"] == "/?round=1&table=1#result-form"
    assert problem["label"] == "Match restarted"


def test_a_new_journal_after_the_old_one_s_match_has_its_result_is_no_problem(
    tmp_path: Path,
) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    old = _killed_after_eight_games(hub)
    old.result(20, 80)
    Journal(hub, NEW).send({"event": "plunge"})
    assert _restarted(hub) == []


def test_one_journal_s_match_going_on_is_no_problem(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    _killed_after_eight_games(hub).send({"event": "plunge"})
    assert _restarted(hub) == []


def test_the_restarted_match_leaves_the_queue_once_it_has_a_result(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    _killed_after_eight_games(hub)
    new = Journal(hub, NEW)
    new.games([(10, 0)])
    assert len(_restarted(hub)) == 1
    new.result(60, 40)
    assert _restarted(hub) == []
    assert _hall(hub)["tables"]["1"]["problems"] == []


def test_the_old_journal_s_decisions_arriving_after_the_new_one_s_are_counted(
    tmp_path: Path,
) -> None:
    """A decision the old journal had not delivered comes after the new journal's first (the
    table carries it): the problem says the match as far as it went."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    old = Journal(hub, OLD)
    old.games([(10, 0)])
    Journal(hub, NEW).send({"event": "plunge"})
    old.games([(0, 10), (0, 10)])
    (problem,) = _restarted(hub)
    assert problem["what"].endswith("(3 games, 0-20 so far)")


def test_a_restarted_match_marked_seen_stays_gone(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    old = _killed_after_eight_games(hub)
    new = Journal(hub, NEW)
    new.send({"event": "plunge"})
    (problem,) = _restarted(hub)
    assert hub.refusals.mark_seen(problem["seen_key"]) is not None
    new.games([(10, 0)])
    old.games([(0, 10)])
    assert _restarted(hub) == []


def test_a_match_with_no_game_over_begun_again_on_a_new_journal_is_no_problem(
    tmp_path: Path,
) -> None:
    """R908: before its first game is over, beginning a match again loses nothing."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    Journal(hub, OLD).send({"event": "plunge"})
    Journal(hub, NEW).send({"event": "plunge"})
    assert _restarted(hub) == []
