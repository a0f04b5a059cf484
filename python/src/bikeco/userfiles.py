"""Reading the files a user hands the explorer (devices, bench JSON, hardware records).

Every way such a file can fail to read (missing, unreadable, not UTF-8, not JSON, nested too
deep for the parser, an integer too long to convert) becomes one :class:`BikecoError` (or the
caller's subclass) naming the file, so the command line prints a message, not a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

from bikeco.errors import BikecoError


def read_text(path: Path, what: str, error: type[BikecoError] = BikecoError) -> str:
    """The UTF-8 text of ``path``; ``what`` names the file in messages (``device file``)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot read {what} ({exc})") from None


def read_json(path: Path, what: str, error: type[BikecoError] = BikecoError) -> object:
    """The decoded JSON value of ``path``."""
    text = read_text(path, what, error)
    try:
        return json.loads(text)
    # ValueError: JSONDecodeError and the integer digit limit; RecursionError: deep nesting.
    except (ValueError, RecursionError) as exc:
        raise error(f"{path}: cannot read {what}: not valid JSON ({exc})") from None
