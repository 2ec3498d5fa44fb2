"""The code stays clean: ruff over the repository and mypy over the package."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing_in_the_package() -> None:
    result = run("mypy", "dealer_assist", "--ignore-missing-imports")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_runs_strict_and_the_package_says_it_is_typed() -> None:
    """The run above is ``mypy --strict``: the setting is pyproject's, so an editor's mypy
    and CI's agree; ``py.typed`` (PEP 561) ships in the wheel for code that imports ours."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["mypy"]["strict"] is True
    assert (ROOT / "dealer_assist" / "py.typed").is_file()
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["dealer_assist"]
