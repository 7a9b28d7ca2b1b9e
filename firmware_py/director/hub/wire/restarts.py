"""A table's match left unfinished by a new journal (docs/hub.md, "The control room", R908).

A table restarted with ``gametable run --new-journal`` after a power cut begins its match from
0-0 again; the killed match's games stay under the old journal, and nothing in the record tells
a restarted match from a slow one. The hub follows, in its memory, each of a table's journals'
latest tournament match (its round, games and score) as the decisions are taken: when a journal
heard later than another is heard from while the other's match is begun and unfinished, the
director's queue says so (a ``restarted`` problem, kept with the hub's others), until that
match has a result in the record or the director marks it seen.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from firmware_py.director.hub.wire.apply import MATCH_RESULT, MATCH_STARTS
from firmware_py.director.hub.wire.refusals import RESTARTED, HubRefusal, HubRefusals
from firmware_py.table.hub_wire import Decision

# The journals of one table followed at once: a table starts one a match at most, so a few
# cover a day; one account inventing journals only pushes out its own table's oldest (R908).
MAX_JOURNALS_FOLLOWED = 8
GAME_RESULT = "game_result"  # one game of the match over
SCORE = "score"  # the match's points after it


@dataclass(slots=True)
class Underway:
    """A journal's latest tournament match, as far as its decisions told."""

    round: int
    games: int = 0
    points: tuple[int, int] | None = None
    over: bool = False
    said: bool = False  # the queue was told it was left unfinished

    @property
    def begun(self) -> bool:
        """A game of it over (or a score): before that, beginning again loses nothing (R908)."""
        return self.games > 0 or self.points is not None


@dataclass(slots=True)
class MatchesUnderway:
    """Each table's journals, in the order first heard from, and each one's latest match."""

    refusals: HubRefusals
    _journals: dict[int, OrderedDict[str, Underway | None]] = field(default_factory=dict)

    def note(self, table: int, decision: Decision, *, now: float | None = None) -> None:
        """A decision the hub took from ``table``: its match followed, and a match of an older
        journal left unfinished by a newer one said (again, with what is now known, while the
        director has not marked it seen)."""
        journals = self._journals.setdefault(table, OrderedDict())
        journal = decision.journal
        if journal not in journals:
            journals[journal] = None
            while len(journals) > MAX_JOURNALS_FOLLOWED:
                journals.popitem(last=False)
        journals[journal] = _followed(journals[journal], decision)
        at = time.time() if now is None else now
        for older in list(journals)[:-1]:  # every journal but the one heard from last
            self._say(table, older, journals[older], at)

    def _say(self, table: int, journal: str, underway: Underway | None, at: float) -> None:
        if underway is None or underway.over or not underway.begun:
            return
        key = HubRefusal(table, journal, None, "", at, RESTARTED).key
        if underway.said and not self.refusals.holds(key):
            return  # the director marked it seen
        kept_at = self.refusals.at_of(key)
        # in UTC, as the page gives every problem's "since"
        when = time.strftime("%H:%M UTC", time.gmtime(at if kept_at is None else kept_at))
        self.refusals.add(
            table,
            journal,
            None,
            f"Table {table} began a new journal at {when} while its match of round "
            f"{underway.round} was unfinished ({_so_far(underway)})",
            at if kept_at is None else kept_at,
            kind=RESTARTED,
            round_number=underway.round,
        )
        underway.said = True


def _followed(underway: Underway | None, decision: Decision) -> Underway | None:
    """The journal's latest match after ``decision``: a decision of another session leaves it
    as it was; one of a tournament match of another round begins that one."""
    number = decision.session.get("round")
    if decision.session.get("action") not in MATCH_STARTS or type(number) is not int:
        return underway
    if underway is None or underway.round != number:
        underway = Underway(number)
    name = decision.event.get("event")
    if name == GAME_RESULT:
        underway.games += 1
    elif name in (SCORE, MATCH_RESULT):
        a, b = decision.event.get("A"), decision.event.get("B")
        if type(a) is int and type(b) is int:
            underway.points = (a, b)
    if name == MATCH_RESULT:
        underway.over = True
    return underway


def _so_far(underway: Underway) -> str:
    games = f"{underway.games} game{'' if underway.games == 1 else 's'}"
    if underway.points is None:
        return f"{games}, no score yet"
    return f"{games}, {underway.points[0]}-{underway.points[1]} so far"
