"""Leading-edge debounce: the first edge counts, with its own timestamp; chatter is ignored.

gpiozero's ``bounce_time`` differs per pin factory (lgpio stamps the edge at *last bounce +
debounce*; MockPin ignores it), so the daemon debounces itself: keep the first edge's time,
ignore every transition for ``window`` seconds, never move the timestamp. When the window ends
the real level is checked once, so a press shorter than the window is not lost as a stuck level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

HISTORY = 16  # edges kept per input: enough to look back past a late callback


@dataclass(frozen=True, slots=True)
class Edge:
    name: str
    ticks: float  # the edge's own time (pin factory ticks, CLOCK_MONOTONIC seconds)
    active: bool


@dataclass(slots=True)
class LeadingEdgeDebouncer:
    window: float  # seconds
    _level: dict[str, bool] = field(default_factory=dict)
    _quiet_until: dict[str, float] = field(default_factory=dict)
    _history: dict[str, list[tuple[float, bool]]] = field(default_factory=dict)

    def level(self, name: str) -> bool:
        return self._level.get(name, False)

    def known(self, name: str) -> bool:
        return name in self._level

    def prime(self, name: str, active: bool) -> None:
        """The level read when the input was opened (no edge)."""
        self._level[name] = active
        self._history[name] = [(float("-inf"), active)]

    def level_at(self, name: str, ticks: float) -> bool:
        """The debounced level at an instant, from the edges' own times (late callbacks too)."""
        level = False
        for edge_ticks, active in self._history.get(name, ()):
            if edge_ticks > ticks:
                break
            level = active
        return level

    def _record(self, name: str, ticks: float, active: bool) -> Edge:
        self._level[name] = active
        history = self._history.setdefault(name, [])
        history.append((ticks, active))
        history.sort()
        del history[:-HISTORY]
        return Edge(name, ticks, active)

    def edge(self, name: str, ticks: float, active: bool) -> Edge | None:
        """An electrical edge; the debounced edge it makes, or None for chatter."""
        if ticks < self._quiet_until.get(name, float("-inf")):
            return None
        if active == self._level.get(name, False):
            return None
        self._quiet_until[name] = ticks + self.window
        return self._record(name, ticks, active)

    def settle_deadlines(self) -> dict[str, float]:
        """When each input's quiet window ends: the daemon re-reads the level then."""
        return dict(self._quiet_until)

    def settle(self, name: str, now: float, actual: bool) -> Edge | None:
        """At the end of the quiet window: an edge if the real level moved meanwhile."""
        self._quiet_until.pop(name, None)
        if actual == self._level.get(name, False):
            return None
        self._quiet_until[name] = now + self.window
        return self._record(name, now, actual)
