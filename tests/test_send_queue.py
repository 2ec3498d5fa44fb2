"""The per-phone send queue on a deque (issue 32): what Engine.IO's writer relies on (a get
that waits and wakes, a timeout, join after task_done) and the drop-to-the-newest guarantee of
issue 14, for any order of puts and reads."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from engineio import packet
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.services.send_queue import NewestStateQueue


def state(seq: int) -> packet.Packet:
    return packet.Packet(packet.MESSAGE, f'2["state_patch",{{"seq":{seq}}}]')


def other(n: int) -> packet.Packet:
    return packet.Packet(packet.MESSAGE, f'3{n}[{{"status":200}}]')  # an ack


def test_a_waiting_writer_wakes_on_a_put_and_a_get_times_out() -> None:
    q = NewestStateQueue(limit=4)
    got: list[packet.Packet] = []
    writer = threading.Thread(target=lambda: got.append(q.get(timeout=10)))
    writer.start()
    time.sleep(0.05)
    q.put(state(1))
    writer.join(5)
    assert [p.data for p in got] == ['2["state_patch",{"seq":1}]']
    began = time.monotonic()
    with pytest.raises(queue.Empty):
        q.get(timeout=0.05)
    assert time.monotonic() - began >= 0.05
    with pytest.raises(queue.Empty):
        q.get_nowait()


def test_join_returns_once_every_packet_taken_is_done() -> None:
    q = NewestStateQueue(limit=4)
    for seq in range(3):
        q.put(state(seq))
    q.put(None)  # Engine.IO's close: the writer's last packet
    assert q.unfinished_tasks == 4
    joined = threading.Event()
    waiter = threading.Thread(target=lambda: (q.join(), joined.set()))
    waiter.start()
    while q.get() is not None:
        assert not joined.wait(0.02)  # taken but not done: join still waits
        q.task_done()
    assert not joined.wait(0.02)
    q.task_done()
    assert joined.wait(5)
    with pytest.raises(ValueError):
        q.task_done()


OPS = st.lists(st.one_of(st.just("state"), st.just("other"), st.integers(1, 20)),
               max_size=400)


@settings(max_examples=150, deadline=None)
@given(ops=OPS, limit=st.integers(1, 8))
def test_a_slow_reader_drops_old_states_and_ends_on_the_newest(ops: list[object],
                                                                limit: int) -> None:
    """Any mix of puts and reads (a number: that many packets read): never more than
    ``4 * limit`` waiting, states read in seq order, the other packets in order and only
    dropped beyond ``4 * limit``, and the last state put is the last one read."""
    q = NewestStateQueue(limit=limit)
    seq, n = 0, 0
    read: list[str] = []
    others_put: list[str] = []
    for op in ops:
        if op == "state":
            seq += 1
            q.put(state(seq))
        elif op == "other":
            n += 1
            put_before = q.qsize()
            q.put(other(n))
            if put_before < 4 * limit:
                others_put.append(other(n).data)
        else:
            assert isinstance(op, int)
            for _ in range(min(op, q.qsize())):
                read.append(q.get_nowait().data)
                q.task_done()
        assert q.qsize() <= 4 * limit + 1
    while q.qsize():
        read.append(q.get_nowait().data)
        q.task_done()
    assert q.unfinished_tasks == 0
    seqs = [int(d.split(":")[1].rstrip("}]")) for d in read if d.startswith('2["state')]
    assert seqs == sorted(set(seqs))
    if seq:
        assert seqs[-1] == seq  # the newest state always reaches the reader
    assert [d for d in read if d.startswith("3")] == others_put
    assert q.dropped == (seq - len(seqs)) + (n - len(others_put))
