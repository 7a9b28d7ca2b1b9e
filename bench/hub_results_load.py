"""Simulated tables for the hub's results figures (bench/hub_results.py): one process publishing
the decisions of tables FIRST..LAST as a table's uplink does (QoS 1, on ``tables/<n>/events``),
each table one decision every PERIOD seconds for SECONDS, one in ``RESULT_EVERY`` of them its
match's result: ``live``, as the time passes; or ``at-once``, as fast as the broker takes them
in the same order (what the tables decided while the hub was away, for the catch-up figure).

Tables up to GEOPLUNGE_LAST play round 1 of a Combo 4 tournament (their result a
``match_result``); the others a Pentathlon game of Contig 60 (a ``game_over``). Each result
differs from the table's one before, so each after the first is an amendment: every result is a
write. The other decisions are scores, which the hub confirms and leaves out of the record. A
decision's ``wall`` is the time it was sent (``time.time()``), which the record keeps as the
decision's ``decided_at``.

Run by the bench as ``python -m bench.hub_results_load PORT FIRST LAST GEOPLUNGE_LAST PERIOD
SECONDS JOURNAL live|at-once``; prints how many decisions and how many results it handed to
the broker.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from firmware_py.table.hub_wire import Decision, events_topic

RESULT_EVERY = 40  # a table's decisions: one in 40 is its result (every 2 minutes at one in 3 s)
SLOTS = 10  # per period: every table publishes in its own slot, so the load is even
GEOPLUNGE = {"action": "match.start", "round": 1, "minutes": 20, "on_time_up": "abandon"}
PENTATHLON = {"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}
CONTIG_RESULTS = (  # two results the rules accept for a game of Contig 60
    {"winner": "A", "how": "time-limit", "scores": {"A": 25, "B": 34}},
    {"winner": "B", "how": "challenged-win", "scores": {"A": 25, "B": 34}},
)


def decision(table: int, seq: int, geoplunge_last: int, journal: str) -> Decision:
    """Table ``table``'s decision ``seq``: a score, or (one in RESULT_EVERY) its result. The
    tables report at different times, as their matches end at different times."""
    geoplunge = table <= geoplunge_last
    session = GEOPLUNGE if geoplunge else PENTATHLON
    event: dict[str, Any] = {"t": float(seq), "event": "score", "A": 5 * (seq % 9), "B": 0}
    if (seq + table) % RESULT_EVERY == 0:
        flip = (seq + table) // RESULT_EVERY % 2
        if geoplunge:
            event = {"t": float(seq), "event": "match_result", "winner": "A"}
            event.update({"A": 40 + 5 * flip, "B": 20})
        else:
            event = {"t": float(seq), "event": "game_over", **CONTIG_RESULTS[flip]}
            event["challenges"] = {"A": {"C": 1, "I": 0, "IA": 0}, "B": {"C": 0, "I": 1, "IA": 1}}
    return Decision(f"{journal}-{table}", seq, f"{time.time():.6f}", dict(session), event)


def run(
    port: int,
    tables: range,
    geoplunge_last: int,
    timing: tuple[float, float],
    journal: str,
    *,
    live: bool,
) -> tuple[int, int]:
    """(decisions, results) handed to the broker, each acknowledged by it; ``timing`` is
    (PERIOD, SECONDS)."""
    period, seconds = timing
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    sent: list[mqtt.MQTTMessageInfo] = []
    results = 0
    start = time.monotonic() + 0.1
    for tick in range(round(seconds / period)):
        for slot in range(SLOTS):
            if live:
                deadline = start + tick * period + slot * period / SLOTS
                time.sleep(max(0.0, deadline - time.monotonic()))
            for table in tables[slot::SLOTS]:
                said = decision(table, tick + 1, geoplunge_last, journal)
                results += said.name != "score"
                sent.append(client.publish(events_topic(table), said.to_bytes(), qos=1))
    for info in sent:  # every one at the broker: kept for the hub, whether it is there or not
        info.wait_for_publish(timeout=60)
    client.disconnect()
    client.loop_stop()
    return len(sent), results


if __name__ == "__main__":
    port, first, last, geoplunge_last = (int(arg) for arg in sys.argv[1:5])
    timing = float(sys.argv[5]), float(sys.argv[6])
    tables = range(first, last + 1)
    live = sys.argv[8] == "live"
    print(*run(port, tables, geoplunge_last, timing, sys.argv[7], live=live), flush=True)
