"""A real PostgreSQL server for the tests: Debian's binaries, started by the tests themselves.

``PostgresServer`` makes a data folder with ``initdb`` (trust authentication, loopback only,
fsync on, as a real server runs), starts ``postgres`` on a free loopback port and stops it at
the end. PostgreSQL refuses to run as root, so when the tests run as root (CI does) the server
runs as the ``postgres`` user that Debian's package makes, and owns its folder.

Each test takes a database of its own (:meth:`PostgresServer.new_database`), so one server per
test session is enough. Without the binaries the tests fail, never skip: ``.ci/install`` puts
``postgresql`` in.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from conftest import free_port

SUPERUSER = "dealer"  # initdb's superuser: the name the tests connect as


def postgres_bin() -> Path:
    """The folder of ``initdb``, ``postgres`` and ``pg_isready``: Debian's
    ``/usr/lib/postgresql/N/bin`` (the newest N), else where ``initdb`` on the PATH leads."""
    def version(folder: str) -> int:
        name = Path(folder).parent.name
        return int(name) if name.isdigit() else 0

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if (Path(folder) / "postgres").exists():
            return Path(folder)
    found = shutil.which("initdb")
    if found and (Path(found).resolve().parent / "pg_isready").exists():
        return Path(found).resolve().parent
    raise AssertionError("PostgreSQL is not installed (Debian: apt-get install postgresql; "
                         ".ci/install does it): the PostgreSQL tests need a real server.")


class PostgresServer:
    """``postgres`` on a free loopback port, with its data in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.bin = postgres_bin()
        self.folder = folder
        self.log = folder / "postgres.log"
        # the server's own folder (data and socket), outside pytest's 0700 folders that the
        # postgres user could not enter; removed by stop()
        self.home = Path(tempfile.mkdtemp(prefix="dealer-assist-pg-"))
        self.data = self.home / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:  # postgres will not run as root
            self.user = "postgres"
            try:
                pwd.getpwnam(self.user)
            except KeyError:
                raise AssertionError("the tests run as root, and PostgreSQL needs a user of its "
                                     "own: Debian's postgresql package makes 'postgres'.") from None
        folder.mkdir(parents=True, exist_ok=True)
        self._own(self.home)
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                   "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"])
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-h", "127.0.0.1", "-k", str(self.home), "-c", "max_connections=400",
                 "-c", "shared_buffers=32MB"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, user=self.user)
        self._wait()

    def _own(self, path: Path) -> None:
        if self.user is not None:
            shutil.chown(path, self.user, self.user)
            os.chmod(path, 0o700)

    def _run(self, args: list[str]) -> None:
        done = subprocess.run(args, capture_output=True, text=True, user=self.user,
                              stdin=subprocess.DEVNULL, cwd=self.home, timeout=120)
        if done.returncode != 0:
            raise AssertionError(f"{args[0]} failed:\n{done.stdout}\n{done.stderr}")

    def _wait(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"postgres stopped at start:\n{self.output()}")
            ready = subprocess.run(
                [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port),
                 "-U", SUPERUSER, "-d", "postgres"], capture_output=True)
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"postgres did not answer within {timeout}s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def url(self, database: str = "postgres") -> str:
        """The address ``--db`` takes for ``database`` on this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` with psql; its output (tuples only, unaligned)."""
        done = subprocess.run(
            [str(self.bin / "psql"), "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1",
             "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", database,
             "-c", sql], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"psql failed on {sql!r}:\n{done.stderr}")
        return done.stdout.strip()

    def new_database(self, prefix: str = "t") -> str:
        """A new empty database; its address (:meth:`url`)."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: postgres's smart shutdown
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.home, ignore_errors=True)
