#!/usr/bin/env python3
"""Instruction counts of libbike's primitives under callgrind.

Times on a shared machine move by tens of percent from run to run; the
number of instructions a primitive executes does not. This script counts
them (valgrind --tool=callgrind, collection toggled on one primitive while
`bike kat --count 1` runs record 0 of the KAT), so a change can be judged by
counts when its timings are too noisy.

    callgrind_counts.py measure [--bike build/bin/bike] [--out counts.csv]
    callgrind_counts.py compare OLD.csv NEW.csv
    callgrind_counts.py markdown COUNTS.csv
    callgrind_counts.py check-doc COUNTS.csv DOC.md

`measure` covers the back ends valgrind can execute (it has no VPCLMULQDQ or
AVX-512 decoder) that this CPU runs; the others are listed as not counted.
`check-doc` fails if the table between the markers of DOC.md is not
`markdown COUNTS.csv`, so the committed table has one source.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

LEVELS = (1, 3, 5)
# valgrind 3.19 executes AVX2 and PCLMULQDQ, not VPCLMULQDQ or AVX-512.
BACKENDS = ("portable", "avx2")
PRIMITIVES = {
    "keygen": "bike_keypair_derand",
    "encaps": "bike_encaps_derand",
    "decaps": "bike_decaps",
}
FIELDS = ("level", "backend", "primitive", "instructions")
BEGIN = "<!-- callgrind-counts: begin (scripts/callgrind_counts.py markdown) -->"
END = "<!-- callgrind-counts: end -->"
SKIPPED = 77  # the bike tool's status when this CPU cannot run the back end


def count(bike: str, level: int, backend: str, function: str) -> int | None:
    """Instructions executed inside `function` (inclusive) for KAT record 0;
    None if this CPU cannot run the back end."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            f"--toggle-collect={function}",
            bike,
            "kat",
            "--level",
            str(level),
            "--count",
            "1",
        ]
        env = dict(os.environ, BIKE_BACKEND=backend)
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if run.returncode == SKIPPED:
            return None
        if run.returncode != 0:
            sys.exit(
                f"callgrind_counts: {' '.join(cmd)} failed ({run.returncode}):\n"
                f"{run.stderr[-2000:]}"
            )
        for line in out.read_text().splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1])
    sys.exit(f"callgrind_counts: no summary line in the callgrind output of {function}")


def measure(bike: str) -> list[dict[str, str]]:
    rows = []
    for level in LEVELS:
        for backend in BACKENDS:
            for primitive, function in PRIMITIVES.items():
                n = count(bike, level, backend, function)
                if n is None:
                    print(
                        f"L{level} {backend}: this CPU cannot run it, not counted", file=sys.stderr
                    )
                    break
                print(f"L{level} {backend:8} {primitive}: {n:,}", file=sys.stderr)
                rows.append(
                    {
                        "level": str(level),
                        "backend": backend,
                        "primitive": primitive,
                        "instructions": str(n),
                    }
                )
    return rows


def write_csv(f: TextIO, rows: list[dict[str, str]]) -> None:
    w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)


def load(path: str) -> dict[tuple[int, str, str], int]:
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"callgrind_counts: cannot read {path}: {e.strerror}")
    table = {}
    for i, row in enumerate(rows, start=2):
        try:
            key = (int(row["level"]), row["backend"], row["primitive"])
            table[key] = int(row["instructions"])
        except (KeyError, TypeError, ValueError):
            sys.exit(f"callgrind_counts: {path}:{i}: expected the columns {', '.join(FIELDS)}")
    if not table:
        sys.exit(f"callgrind_counts: {path} has no rows")
    return table


def markdown(table: dict[tuple[int, str, str], int]) -> str:
    lines = [
        "| level | back end | keygen | encaps | decaps |",
        "|---|---|---:|---:|---:|",
    ]
    for level in LEVELS:
        for backend in BACKENDS:
            if (level, backend, "keygen") not in table:
                continue
            cells = [f"{table[(level, backend, p)]:,}" for p in PRIMITIVES]
            lines.append(f"| L{level} | {backend} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def compare(old: dict[tuple[int, str, str], int], new: dict[tuple[int, str, str], int]) -> int:
    print("| level | back end | primitive | old | new | new/old |")
    print("|---|---|---|---:|---:|---:|")
    common = [k for k in old if k in new]
    for key in common:
        level, backend, primitive = key
        print(
            f"| L{level} | {backend} | {primitive} | {old[key]:,} | {new[key]:,} | "
            f"{new[key] / old[key]:.3f} |"
        )
    missing = sorted(set(old) ^ set(new))
    for key in missing:
        print(f"only in {'old' if key in old else 'new'}: L{key[0]} {key[1]} {key[2]}")
    return 0 if common else 1


def check_doc(table: dict[tuple[int, str, str], int], doc: str) -> int:
    text = Path(doc).read_text()
    if BEGIN not in text or END not in text:
        print(f"{doc}: the callgrind-counts markers are missing", file=sys.stderr)
        return 1
    body = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"
    if body != markdown(table):
        print(
            f"{doc}: the callgrind table differs from its CSV; regenerate it with "
            f"scripts/callgrind_counts.py markdown",
            file=sys.stderr,
        )
        return 1
    print(f"{doc}: callgrind table matches its CSV ({len(table)} counts)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--bike", default="build/bin/bike")
    m.add_argument("--out", default="-")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    k = sub.add_parser("markdown")
    k.add_argument("counts")
    d = sub.add_parser("check-doc")
    d.add_argument("counts")
    d.add_argument("doc")
    a = ap.parse_args()
    if a.cmd == "measure":
        rows = measure(a.bike)
        if a.out == "-":
            write_csv(sys.stdout, rows)
        else:
            with open(a.out, "w", newline="") as f:
                write_csv(f, rows)
        return 0
    if a.cmd == "compare":
        return compare(load(a.old), load(a.new))
    if a.cmd == "markdown":
        sys.stdout.write(markdown(load(a.counts)))
        return 0
    return check_doc(load(a.counts), a.doc)


if __name__ == "__main__":
    sys.exit(main())
