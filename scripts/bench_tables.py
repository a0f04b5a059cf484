#!/usr/bin/env python3
"""Markdown tables of docs/benchmarks.md from `bike bench --json` records.

Usage: bench_tables.py RUN.json [RUN.json ...] > tables.md

Several runs taken one after the other are combined per (level, back end,
item) by the lowest median (and the p90 of that run): on a shared machine the
lowest median is the one least disturbed by other work.
"""

import json
import sys

# The fastest public BIKE software (the AVX-512/VPCLMULQDQ path of the
# additional implementation), its published medians in microseconds. The goal
# against them is for our AVX-512 back end; the AVX2 class has its own goal,
# measured side by side (docs/benchmarks.md).
REFERENCE_US = {
    1: {"keygen": 62, "encaps": 19, "decaps": 217},
    3: {"keygen": 175, "encaps": 39, "decaps": 620},
    5: {"keygen": 430, "encaps": 73, "decaps": 1479},
}
GOAL = {"keygen": 1.5, "encaps": 1.2, "decaps": 1.5}
GOAL_BACKEND = "avx512"
PRIMITIVES = ["keygen", "encaps", "decaps"]
# The operation item (bike bench) behind each part of the breakdown.
BREAKDOWN_ITEM = {
    "prng": "sample_keygen",
    "inversion": "gf2x_inv",
    "multiplication": "gf2x_mul",
    "h_function": "function_h",
    "l_function": "function_l",
    "k_function": "function_k",
    "decoding": "decode",
}
BREAKDOWN_NAMES = {
    "prng": "PRNG (sampling h0, h1)",
    "inversion": "Inversion",
    "multiplication": "Multiplication",
    "h_function": "H function",
    "l_function": "L function",
    "k_function": "K function",
    "decoding": "Decoding",
}


Key = tuple[int, str]  # (level, back end)
Best = dict[Key, dict[str, tuple[float, float, int, int]]]
Layout = dict[str, list[str]]  # primitive -> the parts of its breakdown


def combine(paths: list[str]) -> tuple[Best, Layout]:
    """(level, backend) -> item -> (median_ns, p90_ns, median_ticks, runs),
    and the breakdown's layout (`bike bench` writes the same in every result)."""
    best: Best = {}
    layout: Layout = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        for res in record["results"]:
            key = (res["level"], res["backend"])
            items = {**res["primitives"], **res["operations"]}
            slot = best.setdefault(key, {})
            for name, t in items.items():
                old = slot.get(name)
                if old is None or t["median_ns"] < old[0]:
                    slot[name] = (
                        t["median_ns"],
                        t["p90_ns"],
                        t["median_ticks"],
                        (old[3] if old else 0) + 1,
                    )
                else:
                    slot[name] = (*old[:3], old[3] + 1)
            layout = layout or {p: list(res["breakdown"][p]) for p in PRIMITIVES}
    return best, layout


def us(ns: float) -> str:
    return f"{ns / 1000:.1f}"


def main(paths: list[str]) -> None:
    best, layout = combine(paths)
    keys = sorted(best, key=lambda k: (k[0], list(dict.fromkeys(b for _, b in best)).index(k[1])))
    print("### Medians per primitive\n")
    print(
        "Microseconds: median (90th percentile), and the median in thousands of TSC ticks;"
        " lowest median over the runs.\n"
    )
    print(
        "| level | back end | runs | keygen | encaps | decaps | keygen kticks | encaps kticks"
        " | decaps kticks |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for level, backend in keys:
        row = best[(level, backend)]
        cells = [f"{us(row[p][0])} ({us(row[p][1])})" for p in PRIMITIVES]
        ticks = [f"{row[p][2] / 1000:.0f}" for p in PRIMITIVES]
        print(f"| L{level} | {backend} | {row['keygen'][3]} | " + " | ".join(cells + ticks) + " |")

    goal_keys = [k for k in keys if k[1] == GOAL_BACKEND]
    print("\n### Beside the fastest public BIKE software's AVX-512 figures\n")
    if not goal_keys:
        # Its figures are from an AVX-512 machine; other back ends are judged
        # side by side against it instead (docs/benchmarks.md).
        print(f"No {GOAL_BACKEND} rows in these runs (the CPU does not run it).")
    else:
        print(
            "Ratio = its published median / our median (higher is better for us); goal for the"
            f" {GOAL_BACKEND} back end: {GOAL['keygen']}x for keygen and decaps,"
            f" {GOAL['encaps']}x for encaps.\n"
        )
        print(
            "| level | back end | keygen ref / ours | ratio | encaps ref / ours | ratio"
            " | decaps ref / ours | ratio |"
        )
        print("|---|---|---|---|---|---|---|---|")
    for level, backend in goal_keys:
        row = best[(level, backend)]
        cells = []
        for p in PRIMITIVES:
            ours = row[p][0] / 1000
            ref = REFERENCE_US[level][p]
            ratio = ref / ours
            verdict = " (met)" if ratio >= GOAL[p] else " (not met)"
            cells += [f"{ref} / {ours:.1f} us", f"{ratio:.2f}x{verdict}"]
        print(f"| L{level} | {backend} | " + " | ".join(cells) + " |")

    ops = [n for n in next(iter(best.values())) if n not in PRIMITIVES]
    print("\n### Operations (median, microseconds)\n")
    print("| level | back end | " + " | ".join(ops) + " |")
    print("|---|---|" + "---|" * len(ops))
    for level, backend in keys:
        row = best[(level, backend)]
        print(f"| L{level} | {backend} | " + " | ".join(us(row[o][0]) for o in ops) + " |")

    print("\n### Where the time goes (the form of seed 001, Table 2)\n")
    print(
        "Share of keygen + encaps + decaps time per operation, all from the lowest medians"
        " above (an operation is timed on its own, so shares need not add up to 100 %).\n"
    )
    cols = keys
    print("| primitive | operation | " + " | ".join(f"{b} L{lv}" for lv, b in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for p in PRIMITIVES:
        for op in layout[p]:
            cells = []
            for key in cols:
                total = sum(best[key][q][0] for q in PRIMITIVES)
                cells.append(f"{100 * best[key][BREAKDOWN_ITEM[op]][0] / total:.0f}%")
            print(f"| {p.upper()} | {BREAKDOWN_NAMES.get(op, op)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: bench_tables.py RUN.json [RUN.json ...]")
    main(sys.argv[1:])
