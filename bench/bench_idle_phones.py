"""How many idle phones one ``dealer-assist serve`` holds, and what each costs (issue 25).

    python bench/bench_idle_phones.py [--phones 10100] [--files 10300] [--tables 100]

One real server whose open-file limit is ``--files`` (soft and hard: its total cap of
connections is that less 200, of which 32 are kept for dealers' tablets), ``--tables``
tables, a tablet joined from the server's own machine with its dealer token (127.0.0.1: a
dealer's address). Then idle phones (bench/raw_phones.py: a websocket each, with Chromium's
headers, joined to a table with ``"patches": true``, then only answering pings) from
127.0.0.2, in steps of ``--step``; after each step the server's RSS, descriptors and the
phones it refused. At the end: a new tablet (a websocket that joins with the token and
acts) and a new phone from 127.0.0.3. Prints one JSON line.

RSS per phone = (RSS with the phones - RSS before them) / phones held; the tables are
loaded and the evaluator warmed before the first step, so that neither counts as a phone's.
"""

from __future__ import annotations

import argparse
import gc
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from guest_attacks import Tablet, rss_mib, server

HERE = Path(__file__).resolve().parent


def descriptors(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def new_guest(port: int) -> str:
    """What a new phone from another guest address (127.0.0.3) hears: the status line."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.3", 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        try:
            sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n")
            return sock.recv(4096).split(b"\r\n", 1)[0].decode()
        except OSError as err:
            return f"closed ({err})"


def hold(folder: Path, phones: int = 10_100, files: int = 10_300, tables: int = 100,
         step: int = 2_000) -> dict[str, Any]:
    import requests

    with server(folder, files=files) as running:
        made = [running.table() for _ in range(tables)]
        for table in made:  # loaded and cached before the baseline: a table is not a phone
            requests.get(f"{running.url}/api/tables/{table['id']}", timeout=10)
        tablet = Tablet(running.url, made[0])  # the dealer's address has shown its token
        tablet.act()
        time.sleep(3)  # the evaluator's warm-up is done
        gc.collect()
        before = rss_mib(running.pid)
        steps = []
        phones_proc = subprocess.Popen(
            [sys.executable, str(HERE / "raw_phones.py"), "idle", "--port", str(running.port),
             "--count", str(phones), "--step", str(step), "--source", "127.0.0.2",
             *(f"--table={table['id']}" for table in made)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        try:
            assert phones_proc.stdout is not None and phones_proc.stdin is not None
            while True:
                line = phones_proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"the phones stopped: {phones_proc.stderr.read()}")
                done = json.loads(line)
                time.sleep(1)  # the joined states are sent
                steps.append({**done, "rss_mib": round(rss_mib(running.pid), 1),
                              "descriptors": descriptors(running.pid)})
                if done["tried"] >= phones:
                    break
            held = steps[-1]["held"]
            per_phone_kib = (steps[-1]["rss_mib"] - before) * 1024 / held
            # with every guest's place taken: a new tablet gets in and acts; a new phone not
            new_tablet = Tablet(running.url, made[1])
            new_tablet_ack = new_tablet.act()["status"]
            new_tablet.client.disconnect()
            refused_phone = new_guest(running.port)
            phones_proc.stdin.write("stop\n")
            phones_proc.stdin.flush()
            phones_proc.wait(120)
        finally:
            if phones_proc.poll() is None:
                phones_proc.kill()
            tablet.client.disconnect()
    return {"files": files, "tables": tables, "rss_before_mib": round(before, 1),
            "steps": steps, "tried": phones, "held": held,
            "refused": steps[-1]["refused"], "kib_per_phone": round(per_phone_kib, 1),
            "new_tablet_ack": new_tablet_ack, "new_guest_phone_status": refused_phone}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=10_100)
    parser.add_argument("--files", type=int, default=10_300)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--step", type=int, default=2_000)
    args = parser.parse_args()
    from _common import machine

    print(machine(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(hold(Path(folder), args.phones, args.files, args.tables, args.step)),
              flush=True)


if __name__ == "__main__":
    main()
