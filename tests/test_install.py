"""Installing and starting anywhere: every runtime dependency has a wheel (or is pure Python)
for each platform and Python the app supports; the README's install-and-start line works from
a fresh clone in a new virtual environment; no link in the README or docs/ leaves the
repository."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

def _manylinux(arch: str) -> list[str]:
    """Every manylinux tag a glibc 2.28 system takes (Debian 10 or newer, Raspberry Pi OS):
    pip's --platform matches the tags given and no older ones."""
    return [f"manylinux_2_{v}_{arch}" for v in range(28, 4, -1)] + [
        f"manylinux2014_{arch}", f"manylinux2010_{arch}", f"manylinux1_{arch}"]


#: pip's --platform tags for each platform.
PLATFORMS = {
    "linux x86_64": _manylinux("x86_64"),
    "linux aarch64 (Raspberry Pi)": _manylinux("aarch64"),
    "macOS arm64": [f"macosx_{v}_0_{arch}" for v in range(14, 10, -1)
                    for arch in ("arm64", "universal2")],
    "Windows amd64": ["win_amd64"],
}
PYTHONS = ("3.11", "3.12", "3.13", "3.14")


def readme_command(heading: str) -> str:
    """The one shell command in the ```sh block under ``## heading`` of the README."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"## {heading}\n", 1)[1]
    found = re.search(r"```sh\n(.+?)\n```", section, re.S)
    assert found, heading
    (command,) = found.group(1).strip().splitlines()
    return command


def test_ci_runs_exactly_the_readme_test_command() -> None:
    command = readme_command("Run every test")
    assert command == "bash .ci/install && .venv/bin/python -m pytest"
    run = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert run[-1] == command


def test_the_readme_install_command_uses_a_virtual_environment() -> None:
    command = readme_command("Install and start")
    assert command.startswith("python3 -m venv .venv && .venv/bin/pip install . && ")
    assert command.endswith(".venv/bin/dealer-assist")


def test_no_link_in_the_readme_or_docs_leaves_the_repository() -> None:
    checked = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
            if re.match(r"[a-z]+://|#|mailto:", target):
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(ROOT), f"{doc.name}: {target} leaves the repository"
            assert path.exists(), f"{doc.name}: {target} does not exist"
            checked += 1
    assert checked > 10


def _resolve(platforms: list[str], python: str, requirements: list[str],
             dest: Path) -> str | None:
    """Why ``requirements`` do not resolve to wheels for the pair (pip's error), or None."""
    tags = [arg for tag in platforms for arg in ("--platform", tag)]
    run = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
         "--only-binary=:all:", *tags, "--python-version", python,
         "--implementation", "cp", "-d", str(dest), *requirements],
        capture_output=True, text=True, timeout=600, check=False,
    )
    if run.returncode == 0:
        return None
    errors = [line for line in run.stderr.splitlines() if line.startswith("ERROR")]
    return "; ".join(errors) or run.stderr[-500:]


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_runtime_dependency_has_a_wheel_for_every_platform_and_python(
    tmp_path: Path,
) -> None:
    """pip resolves the dependencies (with theirs) to wheels only, for each of the 16 pairs."""
    requirements = PYPROJECT["project"]["dependencies"]
    assert not any("eval7" in r for r in requirements)  # an extra, never required
    pairs = [(name, tags, py) for name, tags in PLATFORMS.items() for py in PYTHONS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        problems = list(pool.map(
            lambda pair: _resolve(pair[1], pair[2], requirements,
                                  tmp_path / f"{pair[1][0]}-{pair[2]}"), pairs))
    failed = {f"{name}, Python {py}": why
              for (name, _tag, py), why in zip(pairs, problems, strict=True) if why}
    assert not failed, failed


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_readme_install_and_start_works_from_a_fresh_clone(tmp_path: Path) -> None:
    """``git clone``, then the README's line as it is written, in a new virtual environment
    made by Debian's own python3 when there is one (whose system pip refuses installs)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "dealer-assist"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True,
                   timeout=120)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True, timeout=120)
    bin_dirs = [d for d in ("/usr/bin", "/bin") if Path(d, "python3").exists()]
    path = os.pathsep.join([*bin_dirs, os.environ.get("PATH", "")])
    home = tmp_path / "home"
    env = {"PATH": path, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1",
           # no multicast to the real network from a test; the server still listens on 5000
           "DEALER_ASSIST_NO_MDNS": "1"}
    for key in ("PIP_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE"):
        if key in os.environ:
            env[key] = os.environ[key]
    try:
        requests.get("http://127.0.0.1:5000/", timeout=1)
        pytest.skip("port 5000 is taken here")
    except requests.ConnectionError:
        pass
    log = tmp_path / "start.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(["bash", "-c", readme_command("Install and start")], cwd=clone,
                                env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"the command stopped:\n{log.read_text()[-4000:]}")
            if "Stop with Ctrl+C." in log.read_text(errors="replace"):
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"no banner in time:\n{log.read_text()[-4000:]}")
        assert requests.get("http://127.0.0.1:5000/api/tables", timeout=10).json() == []
        text = log.read_text(errors="replace")
        assert f"Database: {home / 'data' / 'dealer-assist' / 'dealer-assist.db'}" in text
        assert "development server" not in text
        # the package came from the clone into its own venv, not from this checkout
        venv_python = clone / ".venv" / "bin" / "python"
        where = subprocess.run([str(venv_python), "-c",
                                "import dealer_assist; print(dealer_assist.__file__)"],
                               capture_output=True, text=True, check=True, cwd=tmp_path)
        assert where.stdout.startswith(str(clone / ".venv")), where.stdout
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have stopped by itself
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
