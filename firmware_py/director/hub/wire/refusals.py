"""The tables' decisions the hub could not apply at all, and what one table's account did that
the director must see (docs/hub.md, "The control room", "What a table's account can and cannot
do").

A result the record refuses by its rules is kept in the record (``table_events``, outcome
``refused``); a decision the hub cannot even read or apply (not a decision as the wire defines
it, a record without a tournament, ...) is confirmed past so the table does not send it forever
(R196), and so far only logged. Here it is also kept, in the hub's memory, with when it came,
for the director's problem queue, until the director marks it seen (R804). So are a journal
entry that came twice with different content (R921), a journal the hub forgot to make room for
a table's new one (R923), a table whose clock is far from the hub's (R925), and a match a
table's new journal left unfinished (restarts.py, R908).

What is kept is bounded per table (R924) and per kind of problem (R930): one table's account
sending nonsense replaces only its own oldest problems of that kind, never another table's, and
never one of another kind (a flood of unreadable decisions cannot push out a Two versions).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

# the newest kept of each kind of each table: one table cannot push out another's (R924), nor
# one kind another (R930)
MAX_PER_TABLE = 20
MAX_ERROR = 300  # characters of the error kept (the log has it whole)

NOT_APPLIED = "not_applied"  # a decision the hub could not read or apply (R804)
TWO_VERSIONS = "two_versions"  # a journal entry that came twice, differently (R921)
JOURNAL_LIMIT = "journal_limit"  # a journal forgotten to make room for a new one (R923)
CLOCK = "clock"  # a table's clock far from the hub's (R925)
RESTARTED = "restarted"  # a match left unfinished by the table's new journal (R908)


@dataclass(frozen=True, slots=True)
class HubRefusal:
    table: int
    journal: str | None  # None: the decision was not readable enough to name its journal
    seq: int | None
    error: str
    at: float  # when it arrived: seconds since the epoch
    kind: str = NOT_APPLIED
    round: int | None = None  # RESTARTED: the round of the match left unfinished

    @property
    def key(self) -> str:
        if self.kind == CLOCK:
            return f"clock-{self.table}"  # one per table: the latest says how far off it is
        journal = "?" if self.journal is None else self.journal[:8]
        seq = "?" if self.seq is None else str(self.seq)
        kept = f"{self.table}-{journal}-{seq}"
        return kept if self.kind == NOT_APPLIED else f"{self.kind}-{kept}"


class HubRefusals:
    """The problems kept, oldest first, at most ``limit`` of each kind of each table."""

    def __init__(self, limit: int = MAX_PER_TABLE) -> None:
        self._limit = limit
        self._kept: dict[int, OrderedDict[str, HubRefusal]] = {}

    def add(
        self,
        table: int,
        journal: str | None,
        seq: int | None,
        error: str,
        at: float,
        *,
        kind: str = NOT_APPLIED,
        round_number: int | None = None,
    ) -> HubRefusal:
        refusal = HubRefusal(table, journal, seq, error[:MAX_ERROR], at, kind, round_number)
        kept = self._kept.setdefault(table, OrderedDict())
        kept.pop(refusal.key, None)
        kept[refusal.key] = refusal
        same_kind = [key for key, held in kept.items() if held.kind == kind]
        for oldest in same_kind[: max(0, len(same_kind) - self._limit)]:
            del kept[oldest]
        return refusal

    def pending(self) -> list[HubRefusal]:
        return sorted(
            (refusal for kept in self._kept.values() for refusal in kept.values()),
            key=lambda refusal: refusal.at,
        )

    def mark_seen(self, key: str) -> HubRefusal | None:
        """The refusal the director has seen, gone from the queue; None if there is none."""
        for kept in self._kept.values():
            if key in kept:
                return kept.pop(key)
        return None

    def holds(self, key: str) -> bool:
        """Whether the problem is kept still: not marked seen, not pushed out."""
        return self.at_of(key) is not None

    def at_of(self, key: str) -> float | None:
        """When the kept problem first came (None: not kept)."""
        for kept in self._kept.values():
            if key in kept:
                return kept[key].at
        return None

    def forget_error(self, table: int, error: str) -> None:
        """The table's problems that say ``error`` gone: what they said is put right (a table
        given an event, R1120)."""
        kept = self._kept.get(table, OrderedDict())
        for key in [key for key, held in kept.items() if held.error == error]:
            del kept[key]

    def clock_of(self, table: int) -> HubRefusal | None:
        """The warning that the table's clock is off, if it is (R925)."""
        return self._kept.get(table, OrderedDict()).get(f"clock-{table}")

    def clock_right(self, table: int, journal: str) -> None:
        """A decision of ``journal`` whose clock agrees with the hub's: the warning goes if
        that journal raised it (R925), not if another did (R933: a client on the table's
        account cannot hide the table's clock with a right one of its own journal)."""
        kept = self._kept.get(table, OrderedDict())
        warning = kept.get(f"clock-{table}")
        if warning is not None and warning.journal == journal:
            del kept[f"clock-{table}"]
