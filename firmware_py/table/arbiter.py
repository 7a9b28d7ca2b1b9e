"""First to shout: presses ordered by their edge timestamps, never by callback order.

A window opens (the dealer's GO, or a question being read). Presses inside it are kept with
their edge times. The decision waits until ``tie_window + settle`` past the earliest edge, so a
callback delivered late (thread scheduling, a busy loop) still counts by its own timestamp.
Presses within ``tie_window`` of the first are simultaneous: a tie. Once every seat that can
press has pressed, nothing can change the order: the decision is made at once, so the winner's
light comes on without the wait. A buzzer already held when the window opens is stuck: flagged,
ignored, and it can never win until it is released. A window with a time limit (Chummy's 15
seconds) takes presses whose edge is at or before the limit, whenever their callback arrives; a
later edge does not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ShoutDecision:
    first: str
    shouters: frozenset[str]  # the first and everybody within the tie window
    margin_ms: float | None  # how far ahead of the second press the first was; None if alone
    decided_at: float

    @property
    def result(self) -> str:
        return "tie" if len(self.shouters) > 1 else self.first


@dataclass(slots=True)
class ShoutArbiter:
    tie_window: float  # seconds
    settle: float  # seconds
    seats: frozenset[str] = frozenset()  # every seat; empty: unknown, always wait
    is_open: bool = False
    stuck: set[str] = field(default_factory=set)
    _presses: dict[str, float] = field(default_factory=dict)
    _closes_at_us: int | None = None  # the time limit, in whole microseconds

    def open(self, held: set[str]) -> set[str]:
        """Open the window; returns the seats newly flagged stuck (held at opening)."""
        self.is_open = True
        self._presses.clear()
        self._closes_at_us = None
        newly = held - self.stuck
        self.stuck |= held
        return newly

    def close(self) -> None:
        self.is_open = False
        self._presses.clear()
        self._closes_at_us = None

    def close_at(self, limit: float) -> None:
        """Give the open window a time limit: an edge after ``limit`` does not count."""
        self._closes_at_us = _microseconds(limit)

    def press(self, seat: str, ticks: float) -> bool:
        """A debounced press; False when it cannot count (closed, stuck, already pressed,
        or its edge is after the window's time limit)."""
        if not self.is_open or seat in self.stuck or seat in self._presses:
            return False
        if self._closes_at_us is not None and _microseconds(ticks) > self._closes_at_us:
            return False
        self._presses[seat] = ticks
        return True

    def release(self, seat: str) -> bool:
        """A release; True when it clears a stuck flag."""
        if seat in self.stuck:
            self.stuck.discard(seat)
            return True
        return False

    @property
    def deadline(self) -> float | None:
        if not self.is_open or not self._presses:
            return None
        if self.seats and self.seats - self.stuck <= set(self._presses):
            return max(self._presses.values())  # every seat that can press has: decide now
        return min(self._presses.values()) + self.tie_window + self.settle

    def decide(self, now: float) -> ShoutDecision | None:
        deadline = self.deadline
        if deadline is None or now < deadline:
            return None
        ordered = sorted(self._presses.items(), key=lambda item: (item[1], item[0]))
        first, first_ticks = ordered[0]
        # compared in whole microseconds: 5.015 - 5.0 must not come out as 14.999... ms
        window_us = _microseconds(self.tie_window)
        shouters = frozenset(
            seat for seat, t in ordered if _microseconds(t - first_ticks) < window_us
        )
        margin = (ordered[1][1] - first_ticks) * 1000 if len(ordered) > 1 else None
        self.close()
        return ShoutDecision(first, shouters, margin, now)


def _microseconds(seconds: float) -> int:
    """Edge times compared in whole microseconds (the kernel's resolution), so float sums such
    as ``20.1 + 15.0`` do not put an edge on the wrong side of a limit."""
    return round(seconds * 1e6)
