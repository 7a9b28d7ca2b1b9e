"""What a table has sent to the hub and what the hub holds, journal by journal (R710-R713).

The table's decisions wait in its journal: its own outbox, and those carried over from the
journals moved aside before it. Each journal is a stream the hub confirms on its own: "my record
holds every decision of journal J up to seq N". A stream is sent in journal order, each decision
naming the one before it, and only once every stream before it is confirmed whole, so the hub
applies the tables' results in the order they were decided.

Sending again is always from the last confirmation: on a new connection, when the hub comes
online, when the hub reports a gap, and when confirmations stand still (``HubLink``'s timer).
No paho here: the link hands what this says to the broker.

A confirmation that covers decisions the table never sent (R927: the hub's ledger moved past
them, by another client on the table's account) takes out only what the table did send: the
rest stays in the outbox and is sent, and the table says so (``unsent_confirmed``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware_py.table.hub_wire import Confirmation
from firmware_py.table.journal import Journal, JournalCorrupt, Outgoing

GAP_RESEND_SECONDS = 1.0  # a burst of gap reports starts one resend, not one per report


@dataclass(slots=True)
class _Stream:
    journal: str
    sent_through: int = 0  # the last seq handed to the broker since the last (re)send began
    confirmed_through: int = 0  # the hub's record holds every decision up to this seq
    gap_resent_at: float | None = None
    sent_most: int = 0  # the highest seq ever handed to the broker by this link


@dataclass(frozen=True, slots=True)
class Taken:
    """What a confirmation did: whether it took anything out of the journal, and the journals
    the hub reported a gap in, to send again from their confirmation."""

    progressed: bool
    gaps: tuple[str, ...]
    # the journals whose confirmation covered decisions never sent, with what it claimed
    unsent: tuple[tuple[str, int], ...] = ()


class Deliveries:
    """The table's side of the delivery protocol over one journal (and what it carries)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._streams: list[_Stream] = []
        self.refresh()

    def refresh(self) -> None:
        """Read the journal's streams again (at start; after a carried one is delivered)."""
        known = {stream.journal: stream for stream in self._streams}
        self._streams = [
            known.get(name) or self._new_stream(name) for name in self.journal.streams()
        ]

    def _new_stream(self, name: str) -> _Stream:
        """A stream as this link finds it: its own journal's decisions so far may all have been
        sent by the link before it (the table restarted); a carried one's are checked by what
        it still holds (R927)."""
        sent = self.journal.last_seq if name == self.journal.identity() else 0
        return _Stream(name, sent_most=sent)

    @property
    def journals(self) -> tuple[str, ...]:
        return tuple(stream.journal for stream in self._streams)

    def next_batch(self, room: int) -> list[Outgoing]:
        """Up to ``room`` decisions not sent yet, from the first journal not confirmed whole;
        they count as sent."""
        stream = self._sending()
        if stream is None or room <= 0:
            return []
        try:
            batch = self.journal.outgoing(
                after=stream.sent_through, limit=room, journal=stream.journal
            )
        except JournalCorrupt:  # what precedes the damaged row still goes (R905)
            batch = self._before_the_damage(stream, room)
        if batch:
            stream.sent_through = batch[-1].seq
            stream.sent_most = max(stream.sent_most, stream.sent_through)
        return batch

    def _before_the_damage(self, stream: _Stream, room: int) -> list[Outgoing]:
        """The decisions a batch held before its damaged row, read one at a time; the damaged
        row's own error when it is the first (sending stops there: R905)."""
        batch: list[Outgoing] = []
        after = stream.sent_through
        while len(batch) < room:
            try:
                found = self.journal.outgoing(after=after, limit=1, journal=stream.journal)
            except JournalCorrupt:
                if batch:
                    return batch
                raise
            if not found:
                break
            batch += found
            after = found[-1].seq
        return batch

    def _sending(self) -> _Stream | None:
        """The first stream with a decision the hub has not confirmed; a carried one found
        empty is dropped (the hub holds all of it)."""
        while self._streams:
            stream = self._streams[0]
            own = len(self._streams) == 1
            if own or self.journal.outgoing(
                after=stream.confirmed_through, limit=1, journal=stream.journal
            ):
                return stream
            self._streams.pop(0)
        return None

    def rewind(self, journals: Iterable[str] | None = None) -> None:
        """Send again from the last confirmation (every journal, or those named)."""
        named = None if journals is None else set(journals)
        for stream in self._streams:
            if named is None or stream.journal in named:
                stream.sent_through = stream.confirmed_through

    def outstanding(self) -> bool:
        """Whether anything sent is not confirmed yet."""
        return any(stream.sent_through > stream.confirmed_through for stream in self._streams)

    def all_sent(self) -> bool:
        """Whether every waiting decision has been handed over (confirmed or not)."""
        return not any(
            self.journal.outgoing(after=stream.sent_through, limit=1, journal=stream.journal)
            for stream in self._streams
        )

    def progress(self) -> int:
        """A number that grows with every confirmation (for the resend timer)."""
        return sum(stream.confirmed_through for stream in self._streams)

    def take(self, confirmations: Iterable[Confirmation], *, now: float) -> Taken:
        """Take out of the journal what the hub's record holds; the journals whose gap calls
        for sending again (at most once a ``GAP_RESEND_SECONDS`` each)."""
        by_journal = {stream.journal: stream for stream in self._streams}
        progressed, gaps, unsent = False, [], []
        for confirmation in confirmations:
            stream = by_journal.get(confirmation.journal)
            if stream is None:
                continue
            through = confirmation.seq
            if through > stream.confirmed_through and not self._was_sent(stream, through):
                unsent.append((stream.journal, through))
                through = stream.sent_most  # what it did send, and not one decision more
            if through > stream.confirmed_through:
                self.journal.confirmed(through=through, journal=stream.journal)
                progressed = True
                stream.confirmed_through = through
                stream.sent_through = max(stream.sent_through, through)
            if confirmation.gap and self._gap_is_new(stream, now):
                gaps.append(stream.journal)
        self.rewind(gaps)
        return Taken(progressed, tuple(gaps), tuple(unsent))

    def _was_sent(self, stream: _Stream, through: int) -> bool:
        """Whether a confirmation up to ``through`` covers only decisions the table sent
        (R927): this link (or the one before it) sent that far, or a carried journal still
        holds a decision at or past it (a hub confirms only what it was sent)."""
        if through <= stream.sent_most:
            return True
        own = stream.journal == self.journal.identity()
        return not own and bool(
            self.journal.outgoing(after=through - 1, limit=1, journal=stream.journal)
        )

    @staticmethod
    def _gap_is_new(stream: _Stream, now: float) -> bool:
        if stream.sent_through <= stream.confirmed_through:
            return False  # nothing sent past it: the next send starts there anyway
        if stream.gap_resent_at is not None and now - stream.gap_resent_at < GAP_RESEND_SECONDS:
            return False
        stream.gap_resent_at = now
        return True
