"""The fair line for a full queue (R799) against addresses that cannot take the place they are
in line for: the real ``Access`` on a simulated clock. One device on an IPv6 /64 gets 30 of its
addresses into the line (refused while the queue is full of eight IPv4 holders), then fills
its /64's six places as they free; an honest IPv4 phone asks every second for seat D.

    PYTHONPATH=. .venv/bin/python tests/attacks/line_attack.py"""

from firmware_py.table.web.access import Access, AccessError

SEATS = ("A", "B", "C", "D")


def main() -> None:
    now = [1000.0]
    access = Access(clock=lambda: now[0])
    access.follow(1)

    def ask(address: str, place: str = "A") -> tuple[bool, str]:
        try:
            access.ask(access.code, place, seats=SEATS, officials=(), address=address, token=None)
        except AccessError as error:
            return False, str(error)
        return True, ""

    holders = [f"10.0.0.{i}" for i in range(1, 9)]
    for address in holders:  # eight IPv4 holders, 1 s apart
        ask(address)
        now[0] += 1
    device = [f"fd00::{i}" for i in range(1, 31)]
    for address in device:  # refused: the queue is full; each takes a spot in the line
        ask(address)
    now[0] += 1
    honest_first = ask("192.168.1.50", "D")
    print("honest phone's first ask:", honest_first[1][:150])
    free_seconds = 0.0
    got = None
    while now[0] < 1000 + 300 and got is None:
        for address in device:  # the device keeps its spots and takes places as they free
            ask(address)
        ok, _why = ask("192.168.1.50", "D")
        if ok:
            got = now[0]
            break
        free = 8 - len(access.requests)
        free_seconds += free * 0.5
        now[0] += 0.5
    waiting = access.requests
    print(f"honest phone got a place after {got - 1009 if got else 'never (300 s)'} s")
    print(f"place-seconds left empty while it was refused: {free_seconds:.0f}")
    print(
        f"waiting now: {len(waiting)}, from the device's /64: "
        f"{sum(r.address.startswith('fd00') for r in waiting)}"
    )


if __name__ == "__main__":
    main()
