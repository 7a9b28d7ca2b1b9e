"""Simulated tables for the hub's load figure (bench/hub_page.py): one process publishing the
state of tables FIRST..LAST, each RATE times a second for SECONDS, as a table does (retained,
QoS 0, on ``tables/<n>/state``), with the time it was sent in the state's ``game``.

Run by the bench as ``python -m bench.hub_load PORT FIRST LAST SECONDS RATE``; prints how many
states it handed to the broker. Each second is cut into ``SLOTS`` slots and every table
publishes in its own slot, so the load is even rather than one burst per tick.
"""

from __future__ import annotations

import json
import sys
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from firmware_py.table.hub_wire import state_topic

SLOTS = 10  # per period of 1/RATE


def state(table: int, seq: int) -> bytes:
    """A table's state (firmware_py/table/uplink.table_state's shape) stamped with its sending."""
    return json.dumps(
        {
            "table": table,
            "family": "geoplunge",
            "session": {"action": "match.start", "round": 1, "minutes": 20},
            "game": f"bench {seq} {time.time():.6f}",
            "in_game": True,
            "screen": {"title": "G1", "big": "0:0", "lines": [], "footer": "", "alert": None},
            "scores": {"A": seq % 50 * 5, "B": 0},
            "clock": f"{seq // 600:02}:{seq // 10 % 60:02}",
            "lights": {"A": "off", "B": "off"},
            "saved": True,
        },
        separators=(",", ":"),
    ).encode()


def sent_time(game: str) -> float | None:
    """When a bench state was sent, from its ``game``; None for any other state."""
    parts = game.split()
    return float(parts[2]) if len(parts) == 3 and parts[0] == "bench" else None


def run(port: int, first: int, last: int, seconds: float, rate: float) -> int:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    tables = range(first, last + 1)
    period = 1.0 / rate
    ticks = round(seconds * rate)
    sent = 0
    start = time.monotonic() + 0.1
    for tick in range(ticks):
        for slot in range(SLOTS):
            deadline = start + tick * period + slot * period / SLOTS
            time.sleep(max(0.0, deadline - time.monotonic()))
            for table in tables[slot::SLOTS]:
                client.publish(state_topic(table), state(table, tick), qos=0, retain=True)
                sent += 1
    time.sleep(0.5)  # paho's thread writes what is queued
    client.disconnect()
    client.loop_stop()
    return sent


if __name__ == "__main__":
    port, first, last = (int(arg) for arg in sys.argv[1:4])
    print(run(port, first, last, float(sys.argv[4]), float(sys.argv[5])), flush=True)
