"""The report (``bikeco report``): a folder with index.html, report.md, tables/*.csv and PNGs.

Reporting is its own layer: it asks the other layers for inputs, runs the explorer, and turns
the answers into tables and plots. Every table is also written as CSV under ``tables/``; those
files are what the golden tests compare.
"""

from __future__ import annotations

import html
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from bikeco import __version__
from bikeco.bench import BenchOptions, run_bench
from bikeco.data_files import read_table
from bikeco.devices import RESOURCES, Device, DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.explore import Plan, Problem, explore, pareto_front
from bikeco.hwmodels import (
    LEAF_TARGETS,
    RECORD_OP_TARGETS,
    HwUnit,
    coverage,
    load_records,
    seed000_units,
    unit_from_record,
)
from bikeco.interconnect import calibrate
from bikeco.profiles import (
    OP_CLASS,
    PRIMITIVES,
    PUBLISHED,
    SoftwareProfile,
    load_bench_file,
    seed000_profile,
)
from bikeco.tables import Cell, csv_table, html_table, markdown_table

PRIM_LABEL = {"keygen": "KeyGen", "encaps": "Encaps", "decaps": "Decaps"}
SEED000_DEVICES = ("xc7z010", "xc7z015", "xc7z020")
N_STEPS = 7


@dataclass(frozen=True)
class ReportOptions:
    """What the report reads and where it writes."""

    out: Path
    bike_bin: Path
    bench_json: Path | None = None
    run_bench: bool = True
    runs: int | None = 11
    hw_results: Path = Path("hw/results")
    progress: bool = True


@dataclass
class _Doc:
    """Blocks rendered to both Markdown and HTML; tables are also saved as CSV."""

    out: Path
    blocks: list[tuple[str, Any]] = field(default_factory=list)

    def h(self, level: int, text: str) -> None:
        self.blocks.append(("h", (level, text)))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def items(self, lines: Sequence[str]) -> None:
        self.blocks.append(("ul", list(lines)))

    def table(self, name: str, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
        (self.out / "tables").mkdir(parents=True, exist_ok=True)
        (self.out / "tables" / f"{name}.csv").write_text(csv_table(header, rows), encoding="utf-8")
        self.blocks.append(("table", (list(header), [list(r) for r in rows])))

    def img(self, file: str, alt: str) -> None:
        self.blocks.append(("img", (file, alt)))

    def markdown(self) -> str:
        parts = []
        for kind, val in self.blocks:
            if kind == "h":
                parts.append("#" * val[0] + " " + val[1])
            elif kind == "p":
                parts.append(val)
            elif kind == "ul":
                parts.append("\n".join(f"- {x}" for x in val))
            elif kind == "table":
                parts.append(markdown_table(*val))
            else:
                parts.append(f"![{val[1]}]({val[0]})")
        return "\n\n".join(parts) + "\n"

    def html(self, title: str) -> str:
        parts = []
        for kind, val in self.blocks:
            if kind == "h":
                parts.append(f"<h{val[0]}>{html.escape(val[1])}</h{val[0]}>")
            elif kind == "p":
                parts.append(f"<p>{html.escape(val)}</p>")
            elif kind == "ul":
                parts.append("<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in val) + "</ul>")
            elif kind == "table":
                parts.append(html_table(*val))
            else:
                parts.append(
                    f'<p><img src="{html.escape(val[0])}" alt="{html.escape(val[1])}"></p>'
                )
        style = (
            "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
            "table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}"
            "th{background:#eee}td:first-child{text-align:left}img{max-width:100%}"
        )
        return (
            f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{style}</style></head><body>\n"
            + "\n".join(parts)
            + "\n</body></html>\n"
        )


class _Progress:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.n = 0
        self.t0 = time.monotonic()

    def step(self, text: str) -> None:
        self.n += 1
        if self.enabled:
            dt = time.monotonic() - self.t0
            print(f"[{self.n}/{N_STEPS}] {text} ({dt:.1f} s)", file=sys.stderr, flush=True)


def _fmt(x: float, nd: int = 2) -> str:
    return f"{x:.{nd}f}"


def _hw_list(plan: Plan) -> str:
    text = plan.hw_summary()
    return "none (software only)" if text == "none" else text


def _unbounded() -> Device:
    big = 10**9
    return Device("unbounded", "none", big, big, big, float(big), "", "no budget")


# ---------------------------------------------------------------------------------- sections


def _measure(opts: ReportOptions) -> tuple[list[SoftwareProfile], str]:
    """Measured profiles and a sentence saying where they come from (or why there are none)."""
    if opts.bench_json is not None:
        return load_bench_file(
            opts.bench_json
        ), f"read from the saved benchmark {opts.bench_json.name}"
    if not opts.run_bench:
        return [], "not measured: the benchmark was switched off (--no-bench)"
    if not opts.bike_bin.exists():
        return [], (
            f"not measured: libbike's benchmark tool was not found at {opts.bike_bin} "
            "(build the C library and tool first; 'make report' does)"
        )
    try:
        _, profiles = run_bench(BenchOptions(opts.bike_bin, runs=opts.runs))
    except BikecoError as exc:
        return [], f"not measured: {exc}"
    return (
        profiles,
        f"measured on this machine by '{opts.bike_bin.name} bench --json --runs {opts.runs}'",
    )


def _hw(opts: ReportOptions) -> tuple[list[tuple[str, dict[str, Any]]], str | None]:
    """The hardware results records (file name, record), or an error text."""
    if not opts.hw_results.is_dir():
        return [], None
    try:
        recs = load_records(opts.hw_results)
    except BikecoError as exc:
        return [], str(exc)
    return [(p.name, r) for p, r in recs], None


def _section_seed000(doc: _Doc, cat: DeviceCatalog) -> dict[str, Plan]:
    doc.h(2, "Seed 000 Table II reproduced from its own inputs")
    doc.p(
        "Inputs: seed 000 Table I 'Final HLS (Perf+Area)' modules, the Cortex-A9 'Baseline SW' "
        "times of the same table, the Zynq-7000 budgets, no transfer cost (the seed's own "
        "accounting), primitive grain, 100 % utilisation allowed. The explorer (MILP, HiGHS) "
        "chooses the split; the published split is beside it."
    )
    prof = seed000_profile(1)
    units = tuple(seed000_units())
    none = calibrate("none")
    published = {r["design"]: r for r in read_table("codesign_000_table2.csv")}
    plans: dict[str, Plan] = {}
    plans["sw_only"] = explore(Problem(_unbounded(), 1, "kem", prof, (), none, hw_source="seed000"))
    for name in SEED000_DEVICES:
        dev = cat.get(name)
        plans[dev.label.lower().replace("-", "")] = explore(
            Problem(dev, 1, "kem", prof, units, none, hw_source="seed000")
        )
    plans["all_hw"] = explore(
        Problem(_unbounded(), 1, "kem", prof, units, none, hw_source="seed000")
    )
    rows: list[list[Cell]] = []
    for design, plan in plans.items():
        pub = published[design]
        pub_hw = " + ".join(p for p in PRIMITIVES if pub[f"{p}_in"] == "hw") or "none"
        our_hw = " + ".join(plan.hw_items()) or "none"
        row: list[Cell] = [design, pub_hw, our_hw]
        same = pub_hw == our_hw
        for k in RESOURCES:
            row += [pub[k], f"{plan.used[k]:g}"]
            same = same and math.isclose(float(pub[k]), plan.used[k])
        for prim in PRIMITIVES:
            ms = plan.per_primitive[prim]["total_ms"]
            row += [pub[f"{prim}_ms"], _fmt(ms)]
            same = same and math.isclose(float(pub[f"{prim}_ms"]), ms, abs_tol=0.005)
        row += [pub["total_ms"], _fmt(plan.total_ms)]
        same = same and math.isclose(float(pub["total_ms"]), plan.total_ms, abs_tol=0.005)
        rows.append([*row, "yes" if same else "NO"])
    header = ["design", "HW (pub.)", "HW (expl.)"]
    for col in (*(k.upper() for k in RESOURCES), *(f"{PRIM_LABEL[p]} ms" for p in PRIMITIVES)):
        header += [f"{col} (pub.)", f"{col} (expl.)"]
    header += ["total ms (pub.)", "total ms (expl.)", "match"]
    doc.table("seed000_table2", header, rows)
    return plans


def _fig2(doc: _Doc, plans: dict[str, Plan]) -> None:
    labels = {
        "sw_only": "SW",
        "z7010": "HW/SW\nZ-7010",
        "z7015": "HW/SW\nZ-7015",
        "z7020": "HW/SW\nZ-7020",
        "all_hw": "HW",
    }
    base = plans["sw_only"].total_ms
    fig, ax = plt.subplots(figsize=(7, 4))
    x = list(range(len(plans)))
    bottom = [0.0] * len(plans)
    colours = {"keygen": "#4878a8", "encaps": "#e0a030", "decaps": "#60a060"}
    for prim in PRIMITIVES:
        vals = [plans[k].per_primitive[prim]["total_ms"] / base for k in plans]
        ax.bar(x, vals, bottom=bottom, label=PRIM_LABEL[prim], color=colours[prim])
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    for xi, b in zip(x, bottom, strict=True):
        ax.text(xi, b + 0.02, f"{b:.2f}x", ha="center", fontsize=8)
    ax.set_xticks(x, [labels[k] for k in plans])
    ax.set_ylabel("Relative execution time")
    ax.set_ylim(0, 1.15)
    ax.set_title("Relative execution time, normalised to software (lower is better)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(doc.out / "fig2_relative_time.png", dpi=110)
    plt.close(fig)
    doc.p("Relative execution time per design, stacked by primitive (as seed 000 Fig. 2):")
    doc.img("fig2_relative_time.png", "relative execution time")


def _device_plans(
    doc: _Doc,
    cat: DeviceCatalog,
    our_units: list[HwUnit],
    records_note: str,
) -> dict[str, dict[str, Plan]]:
    doc.h(2, "Plans per device (BIKE level 1, whole KEM)")
    transfer = calibrate("baremetal")
    prof = seed000_profile(1)
    doc.p(
        f"Software profile: {prof.description}; for Artix-7 parts, which have no hard CPU, the "
        "same Cortex-A9 is assumed as the host. Interconnect: bare-metal DMA model calibrated on "
        f"seed 004 Table 5 ({transfer.fixed_us:.2f} us per call + {transfer.bandwidth_mb_s:.0f} "
        "MB/s). Utilisation cap 100 %. Sources: 'seed000' = the HLS modules of seed 000 "
        "(primitive grain); 'bikeco' = our cores' records only (operation grain); 'bikeco+seed000' "
        "= our cores where available and seed 000 modules as a labelled fallback. " + records_note
    )
    s000 = seed000_units()
    sources: list[tuple[str, list[HwUnit], str]] = [("seed000", s000, "primitive")]
    if our_units:
        sources += [
            ("bikeco", our_units, "operation"),
            ("bikeco+seed000", our_units + s000, "operation"),
        ]
    out: dict[str, dict[str, Plan]] = {}
    rows: list[list[Cell]] = []
    for dev in cat.all():
        out[dev.name] = {}
        for src, units, grain in sources:
            problem = Problem(
                dev, 1, "kem", prof, tuple(units), transfer, grain=grain, hw_source=src
            )
            plan = explore(problem, require_fit=False)
            out[dev.name][src] = plan
            note = "nothing fits" if any(n.startswith("nothing fits") for n in plan.notes) else ""
            rows.append(
                [
                    dev.name,
                    dev.label,
                    src,
                    _hw_list(plan),
                    *(f"{plan.used[k]:g}" for k in RESOURCES),
                    f"{plan.left['lut']:g}",
                    _fmt(plan.total_ms),
                    _fmt(plan.speedup),
                    note,
                ]
            )
    doc.table(
        "plans",
        [
            "device",
            "label",
            "source",
            "in hardware",
            "LUT",
            "FF",
            "DSP",
            "BRAM36",
            "LUT left",
            "total ms",
            "speed-up",
            "note",
        ],
        rows,
    )
    return out


def _roles(doc: _Doc, cat: DeviceCatalog) -> None:
    doc.h(3, "Client and server roles on the Zynq-7000 parts (seed 000 modules)")
    doc.p(
        "Client = KeyGen + Decaps, server = Encaps; same inputs as the table above "
        "(bare-metal transfers)."
    )
    transfer = calibrate("baremetal")
    prof = seed000_profile(1)
    units = tuple(seed000_units())
    rows: list[list[Cell]] = []
    for name in SEED000_DEVICES:
        dev = cat.get(name)
        for role in ("client", "server"):
            problem = Problem(dev, 1, role, prof, units, transfer, hw_source="seed000")
            plan = explore(problem, require_fit=False)
            rows.append(
                [
                    dev.label,
                    role,
                    _hw_list(plan),
                    f"{plan.used['lut']:g}",
                    _fmt(plan.total_ms),
                    _fmt(plan.sw_only_ms),
                    _fmt(plan.speedup),
                ]
            )
    doc.table(
        "roles", ["device", "role", "in hardware", "LUT", "total ms", "sw ms", "speed-up"], rows
    )


def _pareto(doc: _Doc, cat: DeviceCatalog, our_units: list[HwUnit]) -> None:
    doc.h(2, "Pareto fronts: latency against LUTs")
    doc.p(
        "Each front is exact: the MILP is re-solved with a LUT limit just below the previous "
        "optimum until nothing is left in hardware. Other resources stay within the device."
    )
    transfer = calibrate("baremetal")
    prof = seed000_profile(1)
    sources: list[tuple[str, list[HwUnit], str]] = [("seed000", seed000_units(), "primitive")]
    if our_units:
        sources.append(("bikeco+seed000", our_units + seed000_units(), "operation"))
    rows: list[list[Cell]] = []
    for dev in cat.all():
        fig, ax = plt.subplots(figsize=(5, 3.4))
        for src, units, grain in sources:
            pts = pareto_front(Problem(dev, 1, "kem", prof, tuple(units), transfer, grain=grain))
            for p in pts:
                rows.append([dev.name, src, f"{p.lut:g}", _fmt(p.total_ms), p.summary])
            ax.step(
                [p.lut for p in pts], [p.total_ms for p in pts], where="post", marker="o", label=src
            )
        ax.axvline(dev.lut, color="grey", linestyle="--", linewidth=1, label="LUT budget")
        ax.set_xlabel("LUTs")
        ax.set_ylabel("KEM latency [ms]")
        ax.set_title(f"{dev.label} ({dev.name})")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fname = f"pareto_{dev.name}.png"
        fig.savefig(doc.out / fname, dpi=90)
        plt.close(fig)
        doc.img(fname, f"Pareto front {dev.name}")
    doc.table("pareto", ["device", "source", "LUT", "total ms", "in hardware"], rows)


def _sw_tables(doc: _Doc, measured: list[SoftwareProfile], how: str) -> None:
    doc.h(2, "Software: seed 001 Tables 1 and 2 beside this machine")
    doc.p(f"This machine: {how}.")
    pub_cols = [(n, lvl) for n in PUBLISHED for lvl in (1, 3)]
    meas = sorted(measured, key=lambda p: (p.name, p.level))
    times = read_table("sw_times_001_table1.csv")
    header = [f"{n} L{lvl} (pub.)" for n, lvl in pub_cols] + [f"{m.name} L{m.level}" for m in meas]
    rows: list[list[Cell]] = []
    for key in (*PRIMITIVES, "total"):
        row: list[Cell] = [PRIM_LABEL.get(key, "Overall KEM")]
        for n, lvl in pub_cols:
            platform, impl, _, _ = PUBLISHED[n]
            r = next(
                t
                for t in times
                if t["platform"] == platform
                and t["implementation"] == impl
                and int(t["level"]) == lvl
            )
            row.append(r[f"{key}_ms"])
        for m in meas:
            row.append(f"{(m.total_ms() if key == 'total' else m.primitives[key]):.4f}")
        rows.append(row)
    doc.h(3, "Table 1: execution time [ms]")
    doc.table("seed001_table1", ["primitive", *header], rows)

    doc.h(3, "Table 2: share of the whole KEM's time per operation [%]")
    doc.p(
        "Published shares are of the overall KEM time, rounded to whole percent. Measured "
        "shares are libbike's breakdown over the measured KEM total; 'other' is what the named "
        "operations leave of each primitive."
    )
    bd = read_table("sw_breakdown_001_table2.csv")
    pub_keys = [f"{PUBLISHED[n][2]}_sl{lvl}" for n, lvl in pub_cols]
    ops: list[tuple[str, str]] = [(r["primitive"], r["operation"]) for r in bd]
    for m in meas:
        for prim in PRIMITIVES:
            for op in m.breakdown[prim]:
                if op != "other" and (prim, op) not in ops:
                    ops.append((prim, op))
    rows = []
    for prim, op in sorted(ops, key=lambda t: PRIMITIVES.index(t[0])):
        pub = next((r for r in bd if r["primitive"] == prim and r["operation"] == op), None)
        row = [PRIM_LABEL[prim], op, *((pub[k] if pub else "-") for k in pub_keys)]
        for m in meas:
            ms = m.breakdown[prim].get(op)
            row.append("-" if ms is None else f"{100 * ms / m.total_ms():.1f}")
        rows.append(row)
    doc.table("seed001_table2", ["primitive", "operation", *header], rows)


def _hw_section(
    doc: _Doc, recs: list[tuple[str, dict[str, Any]]], error: str | None, hw_dir: Path
) -> list[HwUnit]:
    doc.h(2, "Our hardware cores (hw/results records)")
    if error:
        doc.p(f"The records could not be used: {error}. Plans with our cores are omitted.")
        return []
    if not recs:
        doc.p(
            "No hardware results records exist yet (hw/results/*.json). Every operation stays "
            "with the seed 000 modules or in software; no figure is invented for our cores."
        )
        return []
    units = [unit_from_record(r, name, None) for name, r in recs]
    rows: list[list[Cell]] = []
    for (name, r), u in zip(recs, units, strict=True):
        rows.append(
            [
                name,
                r["core"],
                r["preset"],
                r["level"],
                " ".join(f"{k}={v:g}" for k, v in r["cycles"].items()),
                *(f"{u.resources[k]:g}" for k in RESOURCES),
                f"{u.clock_mhz:g}",
                "yes" if r.get("verified") else "no",
            ]
        )
    doc.table(
        "hw_records",
        [
            "record",
            "core",
            "preset",
            "level",
            "cycles",
            "LUT",
            "FF",
            "DSP",
            "BRAM36",
            "MHz",
            "verified",
        ],
        rows,
    )
    l1 = [u for u, (_, r) in zip(units, recs, strict=True) if r["level"] == 1]
    cov = coverage(l1, list(LEAF_TARGETS))
    classes: dict[str, list[str]] = {c: [] for c in OP_CLASS.values() if c != "other"}
    for t, names in cov.items():
        cls = OP_CLASS[t.split(".")[1]]
        classes[cls] += [n for n in names if n not in classes[cls]]
    rows = [
        [cls, ", ".join(n) if n else "not yet: stays in software (or seed 000 module)"]
        for cls, n in classes.items()
    ]
    doc.h(3, "Coverage of operation classes by our cores at level 1")
    doc.table("hw_coverage", ["operation class", "bikeco units"], rows)
    doc.p(
        "Record operations and the targets they serve: "
        + "; ".join(f"{op} -> {', '.join(t)}" for op, t in RECORD_OP_TARGETS.items())
    )
    return l1


def _model_section(doc: _Doc) -> None:
    doc.h(2, "Model and assumptions")
    rows: list[list[Cell]] = []
    for kind in ("baremetal", "sdsoc"):
        m = calibrate(kind)
        rows.append([kind, f"{m.fixed_us:.3f}", f"{m.bandwidth_mb_s:.0f}", f"{m.rms_error_us:.3f}"])
    doc.table("interconnect", ["model", "fixed us per call", "MB/s", "fit rms error us"], rows)
    doc.items(
        [
            "Accelerator time = cycles / clock; seed 000 modules run at their 100 MHz, our cores "
            "at the record's clock_mhz_assumed (100 MHz when absent).",
            "Transfer time = calls x fixed cost + bytes / bandwidth, fitted by non-negative "
            "least squares on seed 004 Table 5; bytes are the operands each target reads and "
            "writes (BIKE polynomials of r bits, 32-byte seeds and keys).",
            "A placed unit's resources count once, whatever number of targets it serves "
            "(sharing); at most one configuration of each core is placed.",
            "Execution is sequential: latency is the sum of software, accelerator and transfer "
            "times of the role's primitives.",
            "Software operation times at operation grain come from seed 001 Table 2 shares "
            "(published profiles) or libbike's measured breakdown.",
        ]
    )


def write_report(opts: ReportOptions) -> int:
    """Write the report; return the exit code (2 when hardware records are malformed)."""
    prog = _Progress(opts.progress)
    out = opts.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BikecoError(f"cannot create the report folder {out}: {exc}") from None
    doc = _Doc(out)
    cat = DeviceCatalog()
    doc.h(1, "bikeco co-design report")
    doc.p(
        f"bikeco {__version__}. Which BIKE primitives or operations to run in hardware, per "
        "device, for least latency within the device's resources."
    )

    prog.step("measuring this machine's software profile (bike bench)")
    measured, how = _measure(opts)
    prog.step("reading hardware results records")
    recs, hw_error = _hw(opts)
    our_units = _hw_section(doc, recs, hw_error, opts.hw_results)
    # Put the hardware section after the plans in the document order.
    hw_blocks = doc.blocks[2:]
    doc.blocks = doc.blocks[:2]

    prog.step("reproducing seed 000 Table II")
    plans = _section_seed000(doc, cat)
    _fig2(doc, plans)
    prog.step("planning every Zynq-7000 and Artix-7 device")
    note = (
        f"{len(our_units)} level-1 record(s) of our cores were found."
        if our_units
        else "No usable records of our cores: only the seed 000 source is planned."
    )
    _device_plans(doc, cat, our_units, note)
    _roles(doc, cat)
    prog.step("tracing Pareto fronts")
    _pareto(doc, cat, our_units)
    prog.step("software tables")
    _sw_tables(doc, measured, how)
    doc.blocks += hw_blocks
    _model_section(doc)
    prog.step("writing report.md and index.html")
    (out / "report.md").write_text(doc.markdown(), encoding="utf-8")
    (out / "index.html").write_text(doc.html("bikeco co-design report"), encoding="utf-8")
    if opts.progress:
        print(f"report written to {out}/index.html and {out}/report.md", file=sys.stderr)
    if hw_error:
        print(f"bikeco: error: hardware results records: {hw_error}", file=sys.stderr)
        return 2
    return 0
