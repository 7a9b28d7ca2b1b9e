"""The hub's messages reach its loop through an inbox that keeps their order and gives the rest
of the loop (the director's page) a turn between slices of them (R726), so a broker that sends
a whole outage's queue at once cannot keep the page waiting for all of it."""

from __future__ import annotations

import asyncio
import threading

from firmware_py.director.hub.wire.inbox import Inbox


class Clock:
    """Time that passes only as the handler says: each message takes a millisecond."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_messages_are_handled_in_the_order_they_were_put() -> None:
    handled: list[int] = []

    async def scenario() -> None:
        inbox = Inbox(handled.append)
        inbox.open(asyncio.get_running_loop())
        for n in range(50):
            inbox.put(n)
        while len(inbox):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert handled == list(range(50))


def test_the_loop_serves_other_work_between_slices_of_a_long_queue() -> None:
    clock = Clock()
    handled: list[int] = []
    others_saw: list[int] = []

    def handle(n: int) -> None:
        clock.now += 0.001
        handled.append(n)

    async def scenario() -> None:
        inbox = Inbox(handle, slice_seconds=0.010, clock=clock)
        inbox.open(asyncio.get_running_loop())
        for n in range(1000):
            inbox.put(n)
        await asyncio.sleep(0)  # the page's request, ready once the first slice has begun
        others_saw.append(len(handled))
        while len(inbox):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert handled == list(range(1000))
    assert others_saw[0] <= 20  # a slice or two of 10 messages, not the thousand


def test_messages_put_from_another_thread_are_all_handled_in_order() -> None:
    handled: list[int] = []

    async def scenario() -> None:
        inbox = Inbox(handled.append, slice_seconds=0.0)  # a slice of one message each
        inbox.open(asyncio.get_running_loop())

        def put_all() -> None:
            for n in range(5000):
                inbox.put(n)

        putter = threading.Thread(target=put_all)
        putter.start()
        await asyncio.to_thread(putter.join)
        while len(inbox) or len(handled) < 5000:
            await asyncio.sleep(0)

    asyncio.run(asyncio.wait_for(scenario(), 30))
    assert handled == list(range(5000))


def test_a_handler_s_error_does_not_stop_the_messages_after_it() -> None:
    handled: list[int] = []
    errors: list[BaseException | None] = []

    def handle(n: int) -> None:
        if n == 3:
            raise ValueError("the hub's own fault")
        handled.append(n)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: errors.append(context.get("exception")))
        inbox = Inbox(handle)
        inbox.open(loop)
        for n in range(6):
            inbox.put(n)
        for _ in range(10):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert handled == [0, 1, 2, 4, 5]
    assert [type(error) for error in errors] == [ValueError]


def test_nothing_is_handled_before_the_loop_opens_it() -> None:
    handled: list[int] = []
    inbox = Inbox(handled.append)
    inbox.put(1)
    assert len(inbox) == 0 and handled == []


def test_a_message_put_after_the_inbox_emptied_is_handled_too() -> None:
    handled: list[int] = []

    async def scenario() -> None:
        inbox = Inbox(handled.append)
        inbox.open(asyncio.get_running_loop())
        inbox.put(1)
        for _ in range(5):
            await asyncio.sleep(0)
        assert handled == [1]
        inbox.put(2)
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert handled == [1, 2]
