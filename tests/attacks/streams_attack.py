"""Hold every event stream from 8 IPv4 addresses (no code needed); an honest phone then.
PYTHONPATH=. .venv/bin/python tests/attacks/streams_attack.py [hold_seconds]"""

import asyncio
import sys


async def stream(
    address: str, accept: str = "text/event-stream"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", 18080, local_addr=(address, 0))
    writer.write(
        f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:18080\r\nAccept: {accept}\r\n\r\n".encode()
    )
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\n\n"), 5)
    return reader, writer, head


async def main() -> None:
    held = []
    for host in range(10, 18):
        for _ in range(8):
            _r, w, _head = await stream(f"127.0.0.{host}")
            held.append(w)
    print("attacker holds", len(held))
    _r, w, head = await stream("127.0.0.2")
    print("honest phone's stream:", head.decode(errors="replace")[-300:])
    _r, w, head = await stream("127.0.0.10")
    print("attacker's 9th from one address:", head.decode(errors="replace")[-200:])
    await asyncio.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 1)


if __name__ == "__main__":
    asyncio.run(main())
