"""Fixtures for the server tests: an app on a temporary SQLite file, its test clients, a dealer
helper that drives a table through the API, and real server processes on free ports."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from flask_socketio import SocketIO
from listeners import Listener

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _ports import free_port

from dealer_assist.core import evaluator
from dealer_assist.core.hands import use_evaluator
from dealer_assist.web.app import create_app, get_socketio


@pytest.fixture(scope="module", params=[b.value for b in evaluator.available()])
def every_evaluator(request: pytest.FixtureRequest) -> Iterator[str]:
    """A module that uses this (``pytestmark = pytest.mark.usefixtures("every_evaluator")``)
    runs each of its tests once with each evaluator backend installed (pure always, eval7 when
    it imports), its id naming it; the environment's choice comes back after."""
    use_evaluator(request.param)
    yield request.param
    use_evaluator(None)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "dealer.db"


ENGINES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test of a ``both_engines`` module (``pytestmark``) that uses ``database`` runs once
    per engine, its id naming it (``test_x[postgresql]``); ``sqlite_only`` keeps it to one."""
    definition = metafunc.definition
    if ("database" in metafunc.fixturenames and definition.get_closest_marker("both_engines")
            and not definition.get_closest_marker("sqlite_only")):
        metafunc.parametrize("database", ENGINES, indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where the test's tables are kept: the SQLite file ``db_path``, or (the
    ``postgresql`` arm of a ``both_engines`` test) a fresh database on the session's real
    PostgreSQL server."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return str(request.getfixturevalue("postgres").new_database())
    return str(db_path)


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith("postgresql://")


@pytest.fixture
def app(database: str) -> Iterator[Flask]:
    made = create_app(db_path=database, testing=True)
    yield made
    made.extensions["dealer_assist.pool"].close()  # a PostgreSQL server's connections back


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def socketio(app: Flask) -> SocketIO:
    return get_socketio(app)


def host_headers(app: Flask) -> dict[str, str]:
    """The header that makes a request the host's from anywhere (web/host.py)."""
    return {"Authorization": f"Bearer {app.extensions['dealer_assist.host_key']}"}


class Dealer:
    """One table driven through the HTTP API, as the tablet page does."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.id: str = created["id"]
        self.token: str = created["dealer_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def act(self, body: Any, status: int = 200) -> dict[str, Any]:
        """Post an action; assert the status; return the answer's JSON."""
        response = self.client.post(f"/api/tables/{self.id}/actions", json=body,
                                    headers=self.headers)
        assert response.status_code == status, (body, response.get_json())
        return response.get_json()

    def run(self, *bodies: dict[str, Any]) -> dict[str, Any]:
        """Post several actions that must all be accepted; return the last state."""
        answer: dict[str, Any] = {}
        for body in bodies:
            answer = self.act(body)
        return answer["state"]

    def refuse(self, body: Any, sentence: str) -> dict[str, Any]:
        """Post an action that must be refused with ``sentence`` (a part of it) and leave the
        table exactly as it was, for the dealer and for everyone."""
        before = (self.state(), self.state(dealer=True))
        answer = self.act(body, status=400)
        assert set(answer) == {"error"}
        assert sentence in answer["error"], answer["error"]
        assert answer["error"].endswith((".", "?", "!")), answer["error"]
        assert (self.state(), self.state(dealer=True)) == before
        return answer

    def state(self, *, dealer: bool = False) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{self.id}",
                                   headers=self.headers if dealer else {})
        assert response.status_code == 200
        return response.get_json()

    def player(self, name: str, *, dealer: bool = False) -> dict[str, Any]:
        return next(p for p in self.state(dealer=dealer)["players"] if p["name"] == name)

    def stacks(self) -> dict[str, int]:
        return {p["name"]: p["stack"] for p in self.state()["players"]}


D = TypeVar("D", bound=Dealer)


def new_table(client: FlaskClient, variant: str, players: list[Any],
              rules: dict[str, Any] | None = None, name: str = "Friday",
              kind: type[D] = Dealer) -> D:  # type: ignore[assignment]
    """A table made through the API, driven by a ``kind`` (a Dealer, or a subclass)."""
    body: dict[str, Any] = {"name": name, "variant": variant, "players": players}
    if rules is not None:
        body["rules"] = rules
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.get_json()
    return kind(client, response.get_json())


@pytest.fixture
def make_table(client: FlaskClient):  # type: ignore[no-untyped-def]
    def make(variant: str, players: list[Any], rules: dict[str, Any] | None = None,
             name: str = "Friday") -> Dealer:
        return new_table(client, variant, players, rules, name)

    return make


# --------------------------------------------------------------------------- real servers
def command(prefer_script: bool = False) -> list[str]:
    """How to start the app: the ``dealer-assist`` script if asked for and installed, else
    ``python -m dealer_assist`` with this interpreter."""
    if prefer_script:
        script = Path(sys.executable).parent / "dealer-assist"
        found = str(script) if script.exists() else shutil.which("dealer-assist")
        if found:
            return [found]
    return [sys.executable, "-m", "dealer_assist"]


class Server:
    """``dealer-assist serve`` as a child process, its output in a file."""

    def __init__(self, db: Path | str, log: Path, *, port: int | None = None,
                 args: list[str] | None = None, prefer_script: bool = False,
                 env: dict[str, str] | None = None, cwd: Path | None = None,
                 launcher: list[str] | None = None) -> None:
        """``cwd``: the process's working folder (this one's if None); ``launcher``: the
        command that takes ``args`` instead of ``dealer-assist`` (e.g. a script that patches
        the app first)."""
        self.db = db
        self.log = log
        self.port = port or free_port()
        self.args = args if args is not None else [
            "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", str(db)]
        self.prefer_script = prefer_script
        self.env = env
        self.cwd = cwd
        self.launcher = launcher
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(self.env or {})}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                (self.launcher or command(self.prefer_script)) + self.args, stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, env=env, start_new_session=True, cwd=self.cwd,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped at start:\n{self.output()}")
            try:
                if requests.get(self.url + "/api/tables", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not answer within {timeout}s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def api(self, method: str, path: str, body: Any = None,
            token: str | None = None) -> tuple[int, Any]:
        """One JSON request: its status and its JSON answer (None for an empty one)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.request(method, self.url + path, json=body, headers=headers,
                                    timeout=10)
        return response.status_code, response.json() if response.content else None

    def create_table(self, variant: str, players: list[Any], name: str = "",
                     rules: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new table's 201 answer (its id, token and URLs)."""
        status, body = self.api("POST", "/api/tables", {
            "name": name, "variant": variant, "players": players, "rules": rules or {}})
        assert status == 201, body
        return body

    def kill(self) -> None:
        """kill -9: no clean-up, no flush, as a crash or a pulled plug of the process."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Every server a test starts (append it here) is stopped when the test ends."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def start_server(request: pytest.FixtureRequest, tmp_path: Path,
                 servers: list[Server]):  # type: ignore[no-untyped-def]
    """Start a server on ``db``; by default on ``live.db``, or, in the ``postgresql`` arm of
    a ``both_engines`` test, on the test's PostgreSQL database (all its servers on one)."""
    callspec = getattr(request.node, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("database") == "postgresql"

    def start(db: Path | str | None = None, **kwargs: Any) -> Server:
        if db is None:
            db = request.getfixturevalue("database") if on_postgres else tmp_path / "live.db"
        server = Server(db, tmp_path / f"server-{len(servers)}.log", **kwargs)
        servers.append(server)
        return server.start()

    return start


@pytest.fixture
def listeners() -> Iterator[list[Listener]]:
    """Every socket client (tests/listeners.py) a test makes, closed at the end, side by
    side: a websocket client waits up to 3 s for the closing handshake."""
    made: list[Listener] = []
    yield made
    closing = [threading.Thread(target=listener.close) for listener in made]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join(10)


# --------------------------------------------------------------------------- a real PostgreSQL
@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One real PostgreSQL server for the whole run (tests/postgres_server.py); each test
    takes a database of its own with ``postgres.new_database()``."""
    from postgres_server import PostgresServer

    server = PostgresServer(tmp_path_factory.mktemp("postgres"))
    try:
        yield server
    finally:
        server.stop()
