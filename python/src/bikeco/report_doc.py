"""The report's text: :func:`document` lays :class:`~bikeco.report_data.ReportData` out as
blocks (headings, paragraphs, lists, named tables, images); :func:`markdown`, :func:`html`
and :func:`csv_tables` write those blocks in each format. All of them only read the data.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass

from bikeco.designfile import DesignCore
from bikeco.devices import RESOURCES
from bikeco.explore import Plan
from bikeco.hwcycles import SHAPES
from bikeco.hwmodels import RECORD_OP_TARGETS
from bikeco.profiles import PRIMITIVES
from bikeco.report_data import DesignRow, Measured, ReportData
from bikeco.report_plots import FIG2_FILE, PRIM_LABEL, pareto_file
from bikeco.tables import Cell, csv_table, html_table, markdown_table

TITLE = "bikeco co-design report"


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it from the text (lower case, punctuation dropped,
    spaces to hyphens), so report.md's links work there and in index.html alike."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str = ""
    """The anchor to link to; empty: :func:`slug` of the text."""

    @property
    def id(self) -> str:
        return self.anchor or slug(self.text)


@dataclass(frozen=True)
class Contents:
    """The table of contents: the sections (level 2) with their subsections (level 3)."""

    sections: list[tuple[Heading, list[Heading]]]


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Items:
    lines: list[str]


@dataclass(frozen=True)
class Table:
    """A table; ``name`` is its CSV file under ``tables/``."""

    name: str
    header: list[str]
    rows: list[list[Cell]]


@dataclass(frozen=True)
class Image:
    file: str
    alt: str


Block = Heading | Contents | Paragraph | Items | Table | Image


def document(data: ReportData) -> list[Block]:
    """The report's blocks: title, contents, then section after section."""
    body: list[Block] = [
        *_seed000(data),
        *_device_plans(data),
        *_roles(data),
        *_designs(data),
        *_per_device(data),
        *_software(data),
        *_hardware(data),
        *_seed004(data),
        *_mlkem(data),
        *_model(data),
    ]
    return [
        Heading(1, TITLE),
        Paragraph(
            f"bikeco {data.version}. Which BIKE primitives or operations to run in hardware, "
            "per device, for least latency within the device's resources."
        ),
        _contents(body),
        *body,
    ]


def _contents(body: list[Block]) -> Contents:
    sections: list[tuple[Heading, list[Heading]]] = []
    for b in body:
        if isinstance(b, Heading) and b.level == 2:
            sections.append((b, []))
        elif isinstance(b, Heading) and b.level == 3 and sections:
            sections[-1][1].append(b)
    return Contents(sections)


def device_anchor(name: str) -> str:
    """The anchor of a device's section, e.g. ``device-xc7z020``."""
    return f"device-{name}"


# ------------------------------------------------------------------------------ sections


def _fmt(x: float, nd: int = 2) -> str:
    return f"{x:.{nd}f}"


def _hw_list(plan: Plan) -> str:
    text = plan.hw_summary()
    return "none (software only)" if text == "none" else text


def _seed000(data: ReportData) -> list[Block]:
    rows: list[list[Cell]] = []
    for d in data.seed000:
        pub, plan = d.published, d.plan
        pub_hw = " + ".join(p for p in PRIMITIVES if pub[f"{p}_in"] == "hw") or "none"
        row: list[Cell] = [d.design, pub_hw, " + ".join(plan.hw_items()) or "none"]
        for k in RESOURCES:
            row += [pub[k], f"{plan.used[k]:g}"]
        for prim in PRIMITIVES:
            row += [pub[f"{prim}_ms"], _fmt(plan.per_primitive[prim]["total_ms"])]
        row += [pub["total_ms"], _fmt(plan.total_ms), "yes" if d.matches else "NO"]
        rows.append(row)
    header = ["design", "HW (pub.)", "HW (expl.)"]
    for col in (*(k.upper() for k in RESOURCES), *(f"{PRIM_LABEL[p]} ms" for p in PRIMITIVES)):
        header += [f"{col} (pub.)", f"{col} (expl.)"]
    header += ["total ms (pub.)", "total ms (expl.)", "match"]
    return [
        Heading(2, "Seed 000 Table II reproduced from its own inputs"),
        Paragraph(
            "Inputs: seed 000 Table I 'Final HLS (Perf+Area)' modules, the Cortex-A9 'Baseline "
            "SW' times of the same table, the Zynq-7000 budgets, no transfer cost (the seed's "
            "own accounting), primitive grain, 100 % utilisation allowed. The explorer (MILP, "
            "HiGHS) chooses the split; the published split is beside it."
        ),
        Table("seed000_table2", header, rows),
        Paragraph("Relative execution time per design, stacked by primitive (as seed 000 Fig. 2):"),
        Image(FIG2_FILE, "relative execution time"),
    ]


def _device_plans(data: ReportData) -> list[Block]:
    n_ours = len(data.hardware.units)
    records_note = (
        f"{n_ours} level-1 record(s) of our cores were found."
        if n_ours
        else "No usable records of our cores: only the seed 000 source is planned."
    )
    rows: list[list[Cell]] = []
    for res in data.devices:
        for src, plan in res.plans.items():
            note = "nothing fits" if any(n.startswith("nothing fits") for n in plan.notes) else ""
            rows.append(
                [
                    res.device.name,
                    res.device.label,
                    src,
                    _hw_list(plan),
                    *(f"{plan.used[k]:g}" for k in RESOURCES),
                    f"{plan.left['lut']:g}",
                    _fmt(plan.total_ms),
                    _fmt(plan.speedup),
                    note,
                ]
            )
    header = ["device", "label", "source", "in hardware", "LUT", "FF", "DSP", "BRAM36"]
    header += ["LUT left", "total ms", "speed-up", "note"]
    tr = data.transfer
    return [
        Heading(2, "Plans per device (BIKE level 1, whole KEM)"),
        Paragraph(
            f"Software profile: {data.profile.description}; for Artix-7 parts, which have no "
            "hard CPU, the same Cortex-A9 is assumed as the host. Interconnect: bare-metal DMA "
            f"model calibrated on seed 004 Table 5 ({tr.fixed_us:.2f} us per call + "
            f"{tr.bandwidth_mb_s:.0f} MB/s). Utilisation cap 100 %. Sources: 'seed000' = the "
            "HLS modules of seed 000 (primitive grain); 'bikeco' = our cores' records only "
            "(operation grain); 'bikeco+seed000' = our cores where available and seed 000 "
            "modules as a labelled fallback. " + records_note
        ),
        Table("plans", header, rows),
    ]


def _roles(data: ReportData) -> list[Block]:
    rows: list[list[Cell]] = [
        [
            r.device.label,
            r.role,
            _hw_list(r.plan),
            f"{r.plan.used['lut']:g}",
            _fmt(r.plan.total_ms),
            _fmt(r.plan.sw_only_ms),
            _fmt(r.plan.speedup),
        ]
        for r in data.roles
    ]
    return [
        Heading(3, "Client and server roles on the Zynq-7000 parts (seed 000 modules)"),
        Paragraph(
            "Client = KeyGen + Decaps, server = Encaps; same inputs as the table above "
            "(bare-metal transfers)."
        ),
        Table(
            "roles", ["device", "role", "in hardware", "LUT", "total ms", "sw ms", "speed-up"], rows
        ),
    ]


_SHORT = {
    "RoundsPerCycle": "K",
    "InvE": "E",
    "InvKaratsubaLevels": "KL",
    "InvParallelLevels": "PL",
    "SparseP": "SP",
    "DecoderP": "P",
    "DecoderPrefetch": "pf",
    "DecoderTile": "tile",
    "P": "P",
    "E": "E",
    "KaratsubaLevels": "KL",
    "ParallelLevels": "PL",
}


_UNUSED: dict[tuple[int, int], tuple[str, ...]] = {
    (0, 0): ("InvE", "InvKaratsubaLevels", "InvParallelLevels", "DecoderP", "DecoderPrefetch"),
    (0, 1): ("InvE", "InvKaratsubaLevels", "InvParallelLevels", "SparseP"),
    (1, 0): ("DecoderP", "DecoderPrefetch"),
    (1, 1): ("SparseP",),
}
"""(Keygen, Decaps) of a KEM shape -> the parameters of units it does not hold."""


def core_text(c: DesignCore) -> str:
    """A placed core and the parameters of its units, short: ``full (K=1 E=32 KL=3 ...)``."""
    shape = c.core.removeprefix("bike_kem_")
    unused: tuple[str, ...] = ()
    if shape in SHAPES:
        kg, _, de = SHAPES[shape]
        unused = _UNUSED[kg, de] + (() if de else ("DecoderTile",))
    params = " ".join(
        f"{_SHORT[k]}={v}" for k, v in c.params.items() if k in _SHORT and k not in unused
    )
    return f"{c.core.removeprefix('bike_kem_')} ({params})"


def _pct(pred: float, meas: float) -> str:
    return f"{100 * (pred - meas) / meas:+.1f}" if meas else "-"


def _design_row(r: DesignRow) -> list[Cell]:
    d, m = r.design, r.measured
    hw = sum(d.predicted.cycles.values())
    row: list[Cell] = [
        d.device,
        r.label,
        d.level,
        "; ".join(core_text(c) for c in d.cores) or "none (software only)",
        f"{hw:,}" if hw else "-",
        f"{d.latency_ms.total:.3f}",
        f"{d.predicted.lut:,}",
        f"{100 * d.predicted.lut / d.constraints.device_lut:.0f}",
        f"{d.predicted.bram36:g}",
    ]
    if m is None:
        row += ["-", "-", "-", "-", "-"]
    else:
        meas = sum(m.cycles.values())
        row += [
            f"{meas:,}",
            f"{m.lut:,.0f}",
            f"{m.latency_ms:.3f}",
            _pct(hw, meas),
            _pct(d.predicted.lut, m.lut),
        ]
    return [*row, r.note]


CYCLES_GOAL_PCT = 5.0
LUT_GOAL_PCT = 10.0
"""The model's goal: within 5 % of the simulated cycles and 10 % of the synthesised LUTs."""


def _err(pred: float, meas: float) -> float:
    return 100 * (pred - meas) / meas


def _zynq_checks(rows: tuple[DesignRow, ...]) -> list[Block]:
    """Predicted against measured for every Zynq-7000 part at L1, from the committed verify
    records, and where the model misses its goal."""
    zynq = [r for r in rows if r.design.device.startswith("xc7z") and r.design.level == 1]
    table: list[list[Cell]] = []
    lines: list[str] = []
    for r in zynq:
        d, m = r.design, r.measured
        name = f"{r.label} ({d.device})"
        if m is None:
            dash: list[Cell] = ["-"] * 10
            table.append([name, "; ".join(core_text(c) for c in d.cores), *dash])
            lines.append(f"{name}: {r.note}: no measured figures to check the model against.")
            continue
        hw, meas = sum(d.predicted.cycles.values()), sum(m.cycles.values())
        bus_pred = sum(t.predicted_pl_cycles for t in m.bus)
        bus_meas = sum(t.run_pl_cycles for t in m.bus)
        errs = {
            "cycles (core testbenches)": _err(hw, meas),
            "cycles seen by the driver": _err(bus_pred, bus_meas),
            "LUT": _err(d.predicted.lut, m.lut),
        }
        table.append(
            [
                name,
                "; ".join(core_text(c) for c in d.cores),
                f"{hw:,}",
                f"{meas:,}",
                f"{errs['cycles (core testbenches)']:+.1f}",
                f"{bus_pred:,}",
                f"{bus_meas:,}",
                f"{errs['cycles seen by the driver']:+.1f}",
                f"{d.predicted.lut:,}",
                f"{m.lut:,.0f}",
                f"{errs['LUT']:+.1f}",
                m.bus_checked,
            ]
        )
        refit = r.note.partition("; refitted: ")[2]
        lines.append(f"{name}: " + _goal_text(errs, m) + (f" Refitted: {refit}." if refit else ""))
    header = ["part", "design", "cycles pred.", "cycles meas.", "cycles err %"]
    header += ["driver pred.", "driver meas.", "driver err %", "LUT pred.", "LUT meas."]
    header += ["LUT err %"]
    header += ["through the bus, bit-exact"]
    return [
        Heading(3, "Zynq-7000 parts at L1: the model against the runs"),
        Paragraph(
            "For each Zynq part, the level-1 design beside what `bikeco verify` measured of it "
            "(committed records; the report does not run the flow): the whole KEM's hardware "
            "cycles predicted by the formulas and simulated by the cores' testbenches; the "
            "cycles the C driver saw when libbike's KEM ran with keygen, encaps and decaps on "
            "the design's co-simulated bus device (bike-cosim: CYCLES, the streams, DMA set-up, "
            "register accesses and the interrupt, per call, summed over the three), beside the "
            "predicted core cycles plus the driver's transfer model (its register accesses, "
            "DMA set-up and interrupt per call, and the device's stream cycles); and the LUTs "
            "with bus "
            f"ports. The model's goal: within {CYCLES_GOAL_PCT:g} % of the simulated cycles and "
            f"{LUT_GOAL_PCT:g} % of the synthesised LUTs."
        ),
        Table("zynq_designs", header, table),
        Items(lines),
    ]


def _goal_text(errs: dict[str, float], m: Measured) -> str:
    """Whether the model met its goal on a verified design, and where and why not."""
    misses = []
    for what, e in errs.items():
        limit = LUT_GOAL_PCT if what == "LUT" else CYCLES_GOAL_PCT
        if abs(e) > limit:
            why = {
                "cycles (core testbenches)": "the cycle formulas do not describe this core",
                "cycles seen by the driver": (
                    "the driver's transfer model differs from its co-simulated timing "
                    "(register accesses, DMA set-up, streams, interrupt)"
                ),
                "LUT": "the area fit misses these parameters by more than its routing margin",
            }[what]
            misses.append(f"{what} {e:+.1f} % (goal {limit:g} %): {why}")
    state = "bit-exact" if m.bit_exact else "NOT bit-exact"
    head = f"{state}, {'fits' if m.fits else 'does NOT fit'}, {m.latency_ms:.3f} ms measured"
    if not misses:
        return (
            f"{head}; the model meets its goal ("
            + ", ".join(f"{w} {e:+.1f} %" for w, e in errs.items())
            + ")."
        )
    return f"{head}; the model's goal is NOT met: " + "; ".join(misses) + "."


def _designs(data: ReportData) -> list[Block]:
    ds_ = data.designs
    blocks: list[Block] = [Heading(2, "Designs per part (bikeco design)")]
    if ds_.error:
        return [*blocks, Paragraph(f"No designs: {ds_.error}.")]
    first = ds_.rows[0].design
    c = first.constraints
    blocks.append(
        Paragraph(
            "For every part at levels 1, 3 and 5, `bikeco design` chooses the KEM core shape "
            "and every unit parameter (or bus devices for what stays in software) of least "
            "whole-KEM latency, by a 0-1 MILP over the cycle formulas and the fitted areas: "
            f"{first.clock_mhz:g} MHz assumed, utilisation cap {c.cap:.0%}, routing margin "
            f"{c.routing_margin:.0%} (above L1 the level's largest LUT under-prediction of its "
            f"synthesised KEM cores when larger), one bus port of {c.bus_lut:,.0f} LUT and "
            f"{c.bus_ff:,.0f} FF per "
            "accelerator (included in the LUT column), the C driver's transfers. Software: seed "
            "000's Cortex-A9 at L1, seed 001's at L3; at L5, which no published profile "
            "covers, seed 001's L3 times x (r5/r3)^2 (extrapolated). Cycles are the formulas "
            "at each level; areas the L1 fits scaled by a line in N fitted on the KEM cores "
            "synthesised at L3 and L5 (the model's quality below). Measured columns come "
            "from `bikeco verify` records (hw/results/designs/<name>/verify.json) whose first "
            "build has the design's parameters; the row then shows the design the record ended "
            "with (a refit when the first build exceeded the budget, said in its status). A "
            "design without such a record says so: each verification builds, simulates and "
            "synthesises its cores (one to three KEM syntheses of 15-25 minutes each on one "
            "core), so records are committed for the designs the project's goals name, the "
            "Zynq parts at level 1 (`make verify-designs`), and for some Artix-7 parts at level "
            "1; any other design is verified by `bikeco design` and `bikeco verify` on "
            "request. Errors are (predicted - "
            "measured) / measured."
        )
    )
    header = ["device", "label", "level", "accelerators", "hw cycles", "latency ms", "LUT"]
    header += ["LUT %", "BRAM36", "cycles (meas.)", "LUT (meas.)", "latency ms (meas.)"]
    header += ["cycles err %", "LUT err %", "status"]
    blocks.append(Table("designs", header, [_design_row(r) for r in ds_.rows]))
    blocks.append(Paragraph(f"Zynq-7010 goal (whole KEM under 288,000 cycles at L1): {ds_.goal}."))
    blocks += _zynq_checks(ds_.rows)
    fit_rows: list[list[Cell]] = [
        [
            q.what,
            q.resource.upper(),
            q.samples,
            f"{q.r2:.4f}" if q.samples > 2 else "-",
            f"{100 * q.max_rel_error:.1f}",
            f"{100 * q.max_under:.1f}",
        ]
        for q in ds_.fit
    ]
    blocks += [
        Heading(3, "Cost model quality"),
        Paragraph(
            "Cycles: every unit's and KEM core's documented formulas (bikeco.hwcycles) give "
            "every committed simulation record's cycles exactly (python/tests/test_hwcycles.py). "
            "Areas: weighted least-squares fits on the committed synthesis reports "
            "(bikeco.hwarea): in-sample figures, and for the KEM cores' LUTs also the error "
            "on each core when it is left out of the fit, whose largest under-prediction (a "
            "core larger than predicted) the designs' routing margin covers; above L1, the "
            "scaled model against every KEM core synthesised at that "
            "level (R^2 only for three samples or more)."
        ),
        Table(
            "model_fit",
            ["fit", "resource", "samples", "R^2", "max error %", "max under %"],
            fit_rows,
        ),
        Items(list(ds_.levels)),
    ]
    return blocks


def _per_device(data: ReportData) -> list[Block]:
    blocks: list[Block] = [
        Heading(2, "Per device: plans and Pareto fronts of latency against LUTs"),
        Paragraph(
            "Each device's plan per hardware source (as in the table above), then its Pareto "
            "front. Each front is exact: the MILP is re-solved with a LUT limit just below the "
            "previous optimum until nothing is left in hardware. Other resources stay within "
            "the device."
        ),
    ]
    rows: list[list[Cell]] = []
    for res in data.devices:
        dev = res.device
        blocks.append(Heading(3, f"{dev.label} ({dev.name})", device_anchor(dev.name)))
        blocks.append(
            Items(
                [
                    f"{src}: {_hw_list(plan)}; {_fmt(plan.total_ms)} ms, speed-up "
                    f"{_fmt(plan.speedup)}, {plan.used['lut']:g} of {dev.lut} LUTs"
                    for src, plan in res.plans.items()
                ]
            )
        )
        blocks.append(Image(pareto_file(dev.name), f"Pareto front {dev.name}"))
        for src, pts in res.fronts.items():
            rows += [[dev.name, src, f"{p.lut:g}", _fmt(p.total_ms), p.summary] for p in pts]
    blocks.append(Heading(3, "Every Pareto point"))
    blocks.append(Table("pareto", ["device", "source", "LUT", "total ms", "in hardware"], rows))
    return blocks


def _software(data: ReportData) -> list[Block]:
    sw = data.software
    header = [f"{n} L{lvl} (pub.)" for n, lvl in sw.published]
    header += [f"{m.name} L{m.level}" for m in sw.measured]
    times: list[list[Cell]] = [
        [
            PRIM_LABEL.get(r.key, "Overall KEM"),
            *r.published,
            *(f"{ms:.4f}" for ms in r.measured),
        ]
        for r in sw.times
    ]
    shares: list[list[Cell]] = [
        [
            PRIM_LABEL[r.primitive],
            r.operation,
            *("-" if v is None else v for v in r.published),
            *("-" if v is None else f"{v:.1f}" for v in r.measured),
        ]
        for r in sw.shares
    ]
    return [
        Heading(2, "Software: seed 001 Tables 1 and 2 beside this machine"),
        Paragraph(f"This machine: {sw.how}."),
        Heading(3, "Table 1: execution time [ms]"),
        Table("seed001_table1", ["primitive", *header], times),
        Heading(3, "Table 2: share of the whole KEM's time per operation [%]"),
        Paragraph(
            "Published shares are of the overall KEM time, rounded to whole percent; for "
            "planning, a published 0 % is taken as 0.25 % (the middle of [0, 0.5) %), so that "
            "no operation costs 0 ms. Measured shares are libbike's breakdown over the "
            "measured KEM total; 'other' is what the named operations leave of each primitive."
        ),
        Table("seed001_table2", ["primitive", "operation", *header], shares),
    ]


def _hardware(data: ReportData) -> list[Block]:
    hw = data.hardware
    blocks: list[Block] = [Heading(2, "Our hardware cores (hw/results records)")]
    if hw.error:
        return [
            *blocks,
            Paragraph(
                f"The records could not be used: {hw.error}. Plans with our cores are omitted."
            ),
        ]
    if not hw.records:
        return [
            *blocks,
            Paragraph(
                "No hardware results records exist yet (hw/results/*.json). Every operation "
                "stays with the seed 000 modules or in software; no figure is invented for our "
                "cores."
            ),
        ]
    rows: list[list[Cell]] = [
        [
            r.file,
            r.core,
            r.preset,
            r.level,
            " ".join(f"{k}={v:g}" for k, v in r.cycles.items()),
            *(f"{r.unit.resources[k]:g}" for k in RESOURCES),
            f"{r.unit.clock_mhz:g}",
            "yes" if r.verified else "no",
        ]
        for r in hw.records
    ]
    header = ["record", "core", "preset", "level", "cycles", "LUT", "FF", "DSP", "BRAM36"]
    header += ["MHz", "verified"]
    coverage: list[list[Cell]] = [
        [cls, ", ".join(n) if n else "not yet: stays in software (or seed 000 module)"]
        for cls, n in hw.coverage.items()
    ]
    return [
        *blocks,
        Table("hw_records", header, rows),
        Heading(3, "Coverage of operation classes by our cores at level 1"),
        Table("hw_coverage", ["operation class", "bikeco units"], coverage),
        Paragraph(
            "Record operations and the targets they serve: "
            + "; ".join(f"{op} -> {', '.join(t)}" for op, t in RECORD_OP_TARGETS.items())
        ),
    ]


def _seed004(data: ReportData) -> list[Block]:
    sec = data.seed004
    tables: list[Block] = [Table(t.name, t.header, list(t.rows)) for t in sec.tables]
    return [
        Heading(2, "Seed 004: NTT accelerator and ML-KEM co-design (Tables 3 to 6)"),
        *tables,
        Items(list(sec.notes)),
    ]


def _mlkem(data: ReportData) -> list[Block]:
    sec = data.mlkem
    return [
        Heading(2, "ML-KEM placement per Zynq part"),
        Table("mlkem_placement", sec.header, list(sec.rows)),
        Items(list(sec.notes)),
    ]


def _model(data: ReportData) -> list[Block]:
    rows: list[list[Cell]] = [
        [m.name, f"{m.fixed_us:.3f}", f"{m.bandwidth_mb_s:.0f}", f"{m.rms_error_us:.3f}"]
        for m in data.interconnects
    ]
    return [
        Heading(2, "Model and assumptions"),
        Table("interconnect", ["model", "fixed us per call", "MB/s", "fit rms error us"], rows),
        Items(
            [
                "Accelerator time = cycles / clock; seed 000 modules run at their 100 MHz, our "
                "cores at the record's clock_mhz_assumed (100 MHz when absent).",
                "Transfer time = calls x fixed cost + bytes / bandwidth, fitted by non-negative "
                "least squares on seed 004 Table 5; bytes are the operands each target reads and "
                "writes (BIKE polynomials of r bits, 32-byte seeds and keys).",
                "A placed unit's resources count once, whatever number of targets it serves "
                "(sharing); at most one configuration of each core is placed.",
                "Execution is sequential: latency is the sum of software, accelerator and "
                "transfer times of the role's primitives.",
                "Software operation times at operation grain come from seed 001 Table 2 shares "
                "(published profiles; a 0 % share taken as 0.25 %) or libbike's measured "
                "breakdown.",
            ]
        ),
    ]


# ------------------------------------------------------------------------------- formats


def markdown(data: ReportData) -> str:
    """``report.md``."""
    parts = []
    for b in document(data):
        if isinstance(b, Heading):
            # GitHub makes the slug anchor itself; other anchors need an explicit target.
            target = "" if b.id == slug(b.text) else f'<a id="{b.id}"></a>\n'
            parts.append(target + "#" * b.level + " " + b.text)
        elif isinstance(b, Contents):
            lines = ["Contents:", ""]
            for h2, subs in b.sections:
                lines.append(f"- [{h2.text}](#{h2.id})")
                lines += [f"  - [{h3.text}](#{h3.id})" for h3 in subs]
            parts.append("\n".join(lines))
        elif isinstance(b, Paragraph):
            parts.append(b.text)
        elif isinstance(b, Items):
            parts.append("\n".join(f"- {x}" for x in b.lines))
        elif isinstance(b, Table):
            parts.append(markdown_table(b.header, b.rows))
        else:
            parts.append(f"![{b.alt}]({b.file})")
    return "\n\n".join(parts) + "\n"


def html(data: ReportData) -> str:
    """``index.html``."""
    esc = html_lib.escape
    parts = []
    for b in document(data):
        if isinstance(b, Heading):
            parts.append(f'<h{b.level} id="{esc(b.id)}">{esc(b.text)}</h{b.level}>')
        elif isinstance(b, Contents):
            items = []
            for h2, subs in b.sections:
                sub = "".join(f'<li><a href="#{esc(h.id)}">{esc(h.text)}</a></li>' for h in subs)
                items.append(
                    f'<li><a href="#{esc(h2.id)}">{esc(h2.text)}</a>'
                    + (f"<ul>{sub}</ul>" if sub else "")
                    + "</li>"
                )
            parts.append('<nav id="contents"><b>Contents</b><ul>' + "".join(items) + "</ul></nav>")
        elif isinstance(b, Paragraph):
            parts.append(f"<p>{esc(b.text)}</p>")
        elif isinstance(b, Items):
            parts.append("<ul>" + "".join(f"<li>{esc(x)}</li>" for x in b.lines) + "</ul>")
        elif isinstance(b, Table):
            # Wide tables scroll sideways instead of running past the page.
            table = html_table(b.header, b.rows, f"table-{b.name}")
            parts.append(f'<div class="wide">{table}</div>')
        else:
            parts.append(f'<p><img src="{esc(b.file)}" alt="{esc(b.alt)}"></p>')
    style = (
        "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}"
        "th{background:#eee}td:first-child{text-align:left}img{max-width:100%}"
        "nav{background:#f6f6f6;border:1px solid #ddd;padding:.5em 1em}"
        "nav ul ul li{display:inline-block;margin-right:1.2em}"
        "h2,h3{scroll-margin-top:.5em}.wide{overflow-x:auto}"
    )
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{esc(TITLE)}"
        f"</title><style>{style}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n"
    )


def csv_tables(data: ReportData) -> dict[str, str]:
    """Every table as CSV: ``tables/<name>.csv`` -> text."""
    return {b.name: csv_table(b.header, b.rows) for b in document(data) if isinstance(b, Table)}
