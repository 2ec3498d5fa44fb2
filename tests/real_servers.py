"""Real servers the tests start themselves, on free loopback ports in folders of their own,
and stop at the end: Debian's ``redis-server`` (the message queue) and ``nginx`` (the proxy in
front of several app processes). A missing binary fails the test with the package to install
(``.ci/install`` puts both in); nothing here skips."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis
import requests
from conftest import free_port

CHANNEL = "flask-socketio"  # Flask-SocketIO's default channel, which the app keeps


# --------------------------------------------------------------------------- a real Redis
class RedisServer:
    """``redis-server`` on a free loopback port, in its own folder, saving nothing."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (Debian: apt-get install redis-server; "
                        ".ci/install does it): the multi-process tests need a real Redis.")
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.log = folder / "redis.log"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder),
                 "--save", "", "--appendonly", "no", "--daemonize", "no"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
        self.url = f"redis://127.0.0.1:{self.port}"
        self.client = redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"redis-server stopped at start:\n{self.log.read_text()}")
            try:
                if self.client.ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        self.stop()
        pytest.fail(f"redis-server did not answer within 20 s:\n{self.log.read_text()}")

    def subscribers(self) -> int:
        return int(dict(self.client.pubsub_numsub(CHANNEL)).get(CHANNEL.encode(), 0))

    def wait_for_subscribers(self, count: int, timeout: float = 20.0) -> None:
        """Each server subscribes to the queue in a thread of its own once it starts: wait
        until ``count`` of them listen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.subscribers() >= count:
                return
            time.sleep(0.05)
        raise AssertionError(f"only {self.subscribers()} of {count} servers listen to the queue")

    def stop(self) -> None:
        self.client.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


# --------------------------------------------------------------------------- a real nginx
NGINX = "/usr/sbin/nginx"


class NginxServer:
    """``nginx`` in the foreground (``daemon off``) with its own prefix folder: a main
    configuration written here (pid, logs and temporary files in the folder) that includes
    ``site``, a site configuration such as docs/nginx-several.conf with its ports already
    written in. The access log gives, per request, the upstream that answered and the table
    it was routed by (``$table_key``, which the site defines)."""

    LOG_FORMAT = '$upstream_addr|$table_key|$request_method $request_uri|$status'

    def __init__(self, folder: Path, site: str) -> None:
        if not Path(NGINX).exists():
            pytest.fail(f"{NGINX} is not installed (Debian: apt-get install nginx-light or "
                        "nginx; .ci/install does it): the routing test needs a real nginx.")
        folder.mkdir(parents=True, exist_ok=True)
        temps = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        for temp in temps:
            (folder / "temp" / temp).mkdir(parents=True, exist_ok=True)
        (folder / "site.conf").write_text(site)
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the folder
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {folder}/nginx.pid;\n"
            f"error_log {folder}/error.log info;\n"
            "events { worker_connections 512; }\n"
            "http {\n"
            f"    log_format routed '{self.LOG_FORMAT}';\n"
            f"    access_log {folder}/access.log routed;\n"
            + "".join(f"    {temp}_temp_path {folder}/temp/{temp};\n" for temp in temps)
            + f"    include {folder}/site.conf;\n"
            "}\n")
        listen = re.search(r"listen 127\.0\.0\.1:(\d+);", site)
        assert listen, "the site must listen on a loopback port"
        self.port = int(listen.group(1))
        self.folder = folder
        self.log = folder / "error.log"
        self.access_log = folder / "access.log"
        test = subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf"),
                               "-g", "daemon off;"], capture_output=True, text=True, timeout=20)
        assert test.returncode == 0, test.stderr
        self.proc = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"nginx stopped at start:\n{self.log.read_text()}")
            try:
                requests.get(self.url + "/", timeout=1)
                return
            except requests.RequestException:
                time.sleep(0.05)
        self.stop()
        pytest.fail(f"nginx did not answer within 20 s:\n{self.log.read_text()}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def routed(self) -> list[tuple[str, str, str, int]]:
        """(upstream, table key, method and path, status) of every request logged so far (a
        websocket is logged when it closes)."""
        rows = []
        for line in self.access_log.read_text().splitlines():
            upstream, key, request, status = line.split("|")
            rows.append((upstream, key, request, int(status)))
        return rows

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
