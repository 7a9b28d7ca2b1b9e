"""The tables' decisions the hub could not apply at all (docs/hub.md, "The control room").

A result the record refuses by its rules is kept in the record (``table_events``, outcome
``refused``); a decision the hub cannot even read or apply (not a decision as the wire defines
it, a record without a tournament, ...) is confirmed past so the table does not send it forever
(R196), and so far only logged. Here it is also kept, in the hub's memory, with when it came,
for the director's problem queue, until the director marks it seen (R804).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

MAX_REFUSALS = 200  # the newest kept: a table sending nonsense cannot fill the hub's memory
MAX_ERROR = 300  # characters of the error kept (the log has it whole)


@dataclass(frozen=True, slots=True)
class HubRefusal:
    table: int
    journal: str | None  # None: the decision was not readable enough to name its journal
    seq: int | None
    error: str
    at: float  # when it arrived: seconds since the epoch

    @property
    def key(self) -> str:
        journal = "?" if self.journal is None else self.journal[:8]
        seq = "?" if self.seq is None else str(self.seq)
        return f"{self.table}-{journal}-{seq}"


class HubRefusals:
    """The decisions refused, oldest first, at most ``limit`` of them."""

    def __init__(self, limit: int = MAX_REFUSALS) -> None:
        self._limit = limit
        self._kept: OrderedDict[str, HubRefusal] = OrderedDict()

    def add(
        self, table: int, journal: str | None, seq: int | None, error: str, at: float
    ) -> HubRefusal:
        refusal = HubRefusal(table, journal, seq, error[:MAX_ERROR], at)
        self._kept.pop(refusal.key, None)
        self._kept[refusal.key] = refusal
        while len(self._kept) > self._limit:
            self._kept.popitem(last=False)
        return refusal

    def pending(self) -> list[HubRefusal]:
        return list(self._kept.values())

    def mark_seen(self, key: str) -> HubRefusal | None:
        """The refusal the director has seen, gone from the queue; None if there is none."""
        return self._kept.pop(key, None)
