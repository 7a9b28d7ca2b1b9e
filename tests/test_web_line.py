"""The line of addresses refused for a full queue (R799): a place that frees goes to the first
in line that can take it. A spot whose address cannot (its /64 holds its six places already)
holds no one back: otherwise one device's addresses in line ahead keep a free place empty and
an honest phone out (an outside attack, issue 19: 131 s instead of 60, places left empty)."""

from __future__ import annotations

from firmware_py.table.web.access import ASK_FOR, Access, AccessError, PlaceRequest

SEATS = ("A", "B", "C", "D")


def test_a_spot_whose_network_holds_its_share_holds_no_one_back() -> None:
    now = [1000.0]
    access = Access(clock=lambda: now[0])
    access.follow(1)

    def ask(address: str, place: str = "A") -> PlaceRequest | None:
        try:
            return access.ask(
                access.code, place, seats=SEATS, officials=(), address=address, token=None
            )
        except AccessError:
            return None

    for i in range(1, 9):  # a full queue of IPv4 phones, a second apart
        assert ask(f"10.0.0.{i}") is not None
        now[0] += 1
    device = [f"fd00::{i}" for i in range(1, 8)]  # seven addresses of one /64, in line
    assert [ask(address) for address in device] == [None] * 7
    honest = "192.168.1.50"
    assert ask(honest, "D") is None  # in line after them
    while (
        len(access.requests) == 8 or sum(r.address.startswith("fd00") for r in access.requests) < 6
    ):
        now[0] += 0.5
        for address in device:
            ask(address)  # the first six take the places as they free
    assert now[0] < 1000 + ASK_FOR + 8
    assert len(access.requests) == 7  # a place is free; fd00::7 cannot take it (its /64: 6)
    assert ask(honest, "D") is not None
