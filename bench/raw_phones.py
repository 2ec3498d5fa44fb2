"""Phones as cheap as they come, so that one process holds ten thousand of them: Engine.IO 4
and Socket.IO 5 over a websocket, written out on asyncio and the standard library only (the
tests use it too, and they run without the bench extras).

A phone connects, joins its table (with ``"patches": true``, as the phone page does), then
answers the server's pings and notes the ``seq`` of every ``state`` or ``state_patch`` it
gets and when (``time.perf_counter``: CLOCK_MONOTONIC, one clock for every process).

    python bench/raw_phones.py idle --port P --table ID [--table ID ...] --count N
        [--source 127.0.0.2] [--step 500]
    python bench/raw_phones.py listen --target HOST:PORT:TABLE [--target ...] --count N

``idle`` opens ``count`` phones, ``step`` at a time, printing one JSON line after each step
(``{"tried", "held", "refused", "seconds"}``); it keeps them until a line on stdin, then
closes them. ``listen`` opens ``count`` phones per target, prints ``ready``, and when a line
comes on stdin prints ``{"HOST:PORT:TABLE": {"seq": [receipt times]}}`` and closes them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import struct
import sys
import time
from typing import Any

SEQ = re.compile(rb'"seq":\s*(\d+)')
USER_AGENT = ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
              "Gecko) Chrome/126.0.0.0 Mobile Safari/537.36")
EVENTS = (b'42["state",', b'42["state_patch",')


class Refused(Exception):
    """The server answered the upgrade with something else than 101 (e.g. its 503)."""


class Phone:
    """One raw websocket phone (module docstring)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.receipts: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, host: str, port: int, table: str, *, source: str | None = None,
                   token: str | None = None, timeout: float = 30.0) -> Phone:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            host, port, local_addr=(source, 0) if source else None, limit=2**22), timeout)
        phone = cls(reader, writer)
        try:
            await asyncio.wait_for(phone._handshake(host, port, table, token), timeout)
        except BaseException:
            writer.close()
            raise
        phone.task = asyncio.create_task(phone._listen())
        return phone

    async def _handshake(self, host: str, port: int, table: str, token: str | None) -> None:
        key = base64.b64encode(os.urandom(16)).decode()
        # the headers Chromium sends with a phone page's websocket, so that the server keeps
        # what it keeps for a real phone
        self.writer.write((
            f"GET /socket.io/?EIO=4&transport=websocket&table={table} HTTP/1.1\r\n"
            f"Host: {host}:{port}\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
            "Cache-Control: no-cache\r\nUser-Agent: " + USER_AGENT + "\r\n"
            f"Upgrade: websocket\r\nOrigin: http://{host}:{port}\r\n"
            "Sec-WebSocket-Version: 13\r\nAccept-Encoding: gzip, deflate\r\n"
            f"Accept-Language: en-GB,en;q=0.9\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
            "\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise Refused(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        opened = await self.frame()
        assert opened.startswith(b"0{"), opened
        self.send(b"40")
        connected = await self.frame()
        assert connected.startswith(b"40"), connected
        join: dict[str, Any] = {"table": table, "patches": True}
        if token:
            join = {"table": table, "token": token}
        self.send(b'42["join",' + json.dumps(join).encode() + b"]")
        while True:  # the joined state
            data = await self.frame()
            if data.startswith(EVENTS):
                self.note(data)
                return
            if data.startswith(b'42["error"'):
                raise Refused(data.decode(errors="replace"))

    def send(self, data: bytes) -> None:
        """One masked text frame, as a client must send it."""
        mask = os.urandom(4)
        size = len(data)
        if size < 126:
            head = struct.pack("!BB", 0x81, 0x80 | size)
        elif size < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.writer.write(head + mask + body)

    async def frame(self) -> bytes:
        """The next text frame's data (answering Engine.IO's pings on the way)."""
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
            data = await self.reader.readexactly(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("closed by the server")
            if opcode != 0x1:
                continue
            if data == b"2":  # Engine.IO's ping
                self.send(b"3")
                continue
            return data

    def note(self, data: bytes) -> None:
        found = SEQ.search(data)
        if found:
            self.receipts.setdefault(int(found.group(1)), time.perf_counter())

    async def _listen(self) -> None:
        try:
            while True:
                data = await self.frame()
                if data.startswith(EVENTS):
                    self.note(data)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


async def open_many(host: str, port: int, tables: list[str], count: int, start: int = 0, *,
                    source: str | None = None, at_once: int = 200
                    ) -> tuple[list[Phone], int]:
    """``count`` phones (the i-th on ``tables[i % len(tables)]``), ``at_once`` connecting at
    a time; returns the phones held and how many were refused."""
    held: list[Phone] = []
    refused = 0
    gate = asyncio.Semaphore(at_once)

    async def one(i: int) -> None:
        nonlocal refused
        async with gate:
            try:
                held.append(await Phone.open(host, port, tables[i % len(tables)],
                                             source=source))
            except (TimeoutError, Refused, ConnectionError, OSError, asyncio.IncompleteReadError):
                refused += 1

    await asyncio.gather(*(one(start + i) for i in range(count)))
    return held, refused


async def wait_for_line() -> None:
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def raise_limit() -> None:
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def idle(args: argparse.Namespace) -> None:
    phones: list[Phone] = []
    tried = refused = 0
    while tried < args.count:
        step = min(args.step, args.count - tried)
        began = time.perf_counter()
        held, no = await open_many(args.host, args.port, args.table, step, tried,
                                   source=args.source)
        phones += held
        tried += step
        refused += no
        print(json.dumps({"tried": tried, "held": len(phones), "refused": refused,
                          "seconds": round(time.perf_counter() - began, 2)}), flush=True)
    await wait_for_line()
    for phone in phones:
        phone.close()


async def listen(args: argparse.Namespace) -> None:
    targets = []
    for target in args.target:
        host, port, table = target.rsplit(":", 2)
        held, refused = await open_many(host, int(port), [table], args.count,
                                        source=args.source)
        if refused:
            raise SystemExit(f"{refused} phones of {target} were refused")
        targets.append((target, held))
    print("ready", flush=True)
    await wait_for_line()
    out = {target: {} for target, _ in targets}
    for target, held in targets:
        receipts: dict[int, list[float]] = {}
        for phone in held:
            for seq, when in phone.receipts.items():
                receipts.setdefault(seq, []).append(when)
            phone.close()
        out[target] = {str(seq): times for seq, times in receipts.items()}
    print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    idle_ = commands.add_parser("idle")
    idle_.add_argument("--host", default="127.0.0.1")
    idle_.add_argument("--port", type=int, required=True)
    idle_.add_argument("--table", action="append", required=True)
    idle_.add_argument("--count", type=int, required=True)
    idle_.add_argument("--step", type=int, default=500)
    idle_.add_argument("--source", default=None)
    listen_ = commands.add_parser("listen")
    listen_.add_argument("--target", action="append", required=True, help="HOST:PORT:TABLE")
    listen_.add_argument("--count", type=int, required=True)
    listen_.add_argument("--source", default=None)
    args = parser.parse_args(argv)
    raise_limit()
    asyncio.run(idle(args) if args.command == "idle" else listen(args))


if __name__ == "__main__":
    main()
