"""The table's loop lag under a flood of pipelined GET /api/state (no code): the dealer
socket's round trip (same loop) while N clients hammer. PYTHONPATH=. .venv/bin/python
tests/attacks/lag_attack.py N (table on 0.0.0.0; raise this shell's ulimit -n first)"""

import asyncio
import sys
import time


async def hammer(i: int, until: float) -> None:
    while time.monotonic() < until:
        try:
            address = (f"127.0.2.{1 + i % 250}", 0)
            _, writer = await asyncio.open_connection("127.0.0.1", 18080, local_addr=address)
            writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 50)
            await writer.drain()
            await asyncio.sleep(0.5)
            writer.close()
        except OSError:
            await asyncio.sleep(0.1)


async def probe(until: float) -> float:
    worst = 0.0
    while time.monotonic() < until:
        start = time.monotonic()
        reader, writer = await asyncio.open_unix_connection("/tmp/i19b/dealer.sock")
        writer.write(b"phase\n")
        await writer.drain()
        await reader.readline()
        writer.close()
        worst = max(worst, time.monotonic() - start)
        await asyncio.sleep(0.2)
    return worst


async def main(clients: int) -> None:
    until = time.monotonic() + 15
    tasks = [asyncio.create_task(hammer(i, until)) for i in range(clients)]
    print("worst dealer round trip (s):", await probe(until))
    await asyncio.gather(*tasks)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
