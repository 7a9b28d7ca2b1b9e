"""How many of one table's decisions the hub reads a second (R937).

Every table's decisions wait in one inbox, read in order on the hub's loop (R726). An account
that publishes as fast as the broker takes (20 000 decisions of invented journals cost the loop
two seconds) would keep every other table's results waiting behind it. Each table has a bucket
of ``INTAKE_BURST`` decisions, filled again at ``INTAKE_PER_SECOND``: a decision that finds its
table's bucket empty is acknowledged and dropped before it is read. Nothing is lost by it: the
table keeps each decision until the hub confirms it (R195), and its next decision shows the hub
a gap, or its resend timer sends it again (R711).

A table decides a few things a second; after a day off the network its outbox comes at once,
and its link keeps at most 20 unacknowledged by the broker (R197): a burst of 5 000 and 500 a
second take such a backlog in seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

INTAKE_PER_SECOND = 500.0
INTAKE_BURST = 5000.0


class Intake:
    """Each table's bucket of decisions the hub will read now."""

    def __init__(
        self,
        *,
        per_second: float = INTAKE_PER_SECOND,
        burst: float = INTAKE_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._per_second = per_second
        self._burst = burst
        self._clock = clock
        self._buckets: dict[int, tuple[float, float]] = {}  # table -> (decisions, when)

    def allows(self, table: int) -> bool:
        """Whether the hub reads this decision of the table now (and counts it)."""
        now = self._clock()
        left, then = self._buckets.get(table, (self._burst, now))
        left = min(self._burst, left + (now - then) * self._per_second)
        allowed = left >= 1.0
        self._buckets[table] = (left - 1.0 if allowed else left, now)
        return allowed
