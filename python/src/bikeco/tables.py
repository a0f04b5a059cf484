"""Plain-text, Markdown, HTML and CSV renderings of small tables."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence

Cell = str | int | float


def _cells(rows: Sequence[Sequence[Cell]]) -> list[list[str]]:
    return [[str(c) for c in r] for r in rows]


def format_table(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """Aligned plain-text table for the terminal."""
    body = _cells(rows)
    widths = [len(h) for h in header]
    for r in body:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body]
    return "\n".join(lines)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """GitHub-flavoured Markdown table."""

    def esc(s: str) -> str:
        return s.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in _cells(rows)]
    return "\n".join(lines)


def html_table(header: Sequence[str], rows: Sequence[Sequence[Cell]], table_id: str = "") -> str:
    """HTML table (with ``id`` ``table_id`` when given)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in _cells(rows)
    )
    attr = f' id="{html.escape(table_id)}"' if table_id else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def csv_table(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """CSV text with a header line (``\\n`` line ends)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(_cells(rows))
    return buf.getvalue()
