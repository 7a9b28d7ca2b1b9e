"""Can a flood of connections close an honest phone's? The honest phone (127.0.0.4) keeps its
live page (an event stream) and a kept-alive connection it reads /api/state on every 5 s; the
attacker fills the page's 512 connections from 40 addresses (16 each, more than the total),
each a whole valid request and then idle, reopened the moment it is closed.

    PYTHONPATH=. .venv/bin/python tests/attacks/evict_attack.py SECONDS   (the table on 0.0.0.0)"""

import asyncio
import sys
import time

HOST = b"Host: 127.0.0.1:18080\r\n"


async def attacker(address: str, until: float, opened: list[int]) -> None:
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", 18080, local_addr=(address, 0)
            )
            opened[0] += 1
            writer.write(b"GET /api/state HTTP/1.1\r\n" + HOST + b"\r\n")
            await asyncio.wait_for(reader.read(), until - time.monotonic())
        except (OSError, TimeoutError):
            await asyncio.sleep(0.05)


async def response(reader: asyncio.StreamReader) -> bytes:
    status = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    return status


async def main(seconds: float) -> None:
    until = time.monotonic() + seconds
    stream_reader, _stream = await asyncio.open_connection(
        "127.0.0.1", 18080, local_addr=("127.0.0.4", 0)
    )
    _stream.write(b"GET /api/events HTTP/1.1\r\n" + HOST + b"Accept: text/event-stream\r\n\r\n")
    kept_reader, kept = await asyncio.open_connection(
        "127.0.0.1", 18080, local_addr=("127.0.0.4", 0)
    )
    opened = [0]
    tasks = [
        asyncio.create_task(attacker(f"127.0.4.{host}", until, opened))
        for host in range(1, 41)
        for _ in range(16)
    ]
    answers: dict[str, int] = {}
    while time.monotonic() < until:
        try:
            kept.write(b"GET /api/state HTTP/1.1\r\n" + HOST + b"\r\n")
            status = (await asyncio.wait_for(response(kept_reader), 3)).decode()[9:12]
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            status = type(error).__name__
            kept_reader, kept = await asyncio.open_connection(
                "127.0.0.1", 18080, local_addr=("127.0.0.4", 0)
            )
        answers[status] = answers.get(status, 0) + 1
        await asyncio.sleep(5)
    await asyncio.gather(*tasks)
    stream_open = not stream_reader.at_eof()
    data = await asyncio.wait_for(stream_reader.read(65536), 1)
    print(f"attacker's connections opened: {opened[0]} (640 at a time)")
    print(f"honest kept-alive connection, /api/state every 5 s: {answers}")
    print(f"honest live page still open: {stream_open and bool(data)}")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1])))
