"""Shared fixtures; ``--update-golden`` (or BIKECO_UPDATE_GOLDEN=1) rewrites golden files."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say whether the libbike binding tests ran, and against which library."""
    from bikeco.libbike import Libbike, LibbikeNotFoundError

    try:
        line = f"libbike binding tests: ran against {Libbike().path}"
    except LibbikeNotFoundError as exc:
        line = f"libbike binding tests: SKIPPED ({exc})"
    terminalreporter.write_line(line)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/* from the current output instead of comparing",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden")) or (
        os.environ.get("BIKECO_UPDATE_GOLDEN") == "1"
    )


@pytest.fixture
def golden(update_golden: bool) -> Callable[[str, str], None]:
    """``golden(name, text)``: assert ``text`` equals ``tests/golden/<name>``, or rewrite that
    file when updating."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if update_golden:
            path.write_text(text, encoding="utf-8")
            return
        assert path.is_file(), f"tests/golden/{name} is missing (make -C python golden)"
        assert text == path.read_text(encoding="utf-8"), (
            f"{name} differs from tests/golden/{name} (if the change is intended: "
            "make -C python golden, then review the diff)"
        )

    return check


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def fake_bike(tmp_path: Path) -> Path:
    """An executable stand-in for `bike` (a shell wrapper so it runs from any interpreter)."""
    import sys

    wrapper = tmp_path / "bike"
    wrapper.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "fake_bike.py"}" "$@"\n', encoding="utf-8"
    )
    wrapper.chmod(0o755)
    return wrapper
