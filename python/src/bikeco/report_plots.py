"""The report's plots, drawn from :class:`~bikeco.report_data.ReportData` alone (PNG bytes)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from bikeco.designfile import Design
from bikeco.profiles import PRIMITIVES
from bikeco.report_data import DeviceResult, ReportData

FIG2_FILE = "fig2_relative_time.png"
PRIM_LABEL = {"keygen": "KeyGen", "encaps": "Encaps", "decaps": "Decaps"}
_FIG2_LABELS = {
    "sw_only": "SW",
    "z7010": "HW/SW\nZ-7010",
    "z7015": "HW/SW\nZ-7015",
    "z7020": "HW/SW\nZ-7020",
    "all_hw": "HW",
}
_FIG2_OURS: dict[str, str] = {
    "xc7z010": "bikeco\nZ-7010",
    "xc7z015": "bikeco\nZ-7015",
    "xc7z020": "bikeco\nZ-7020",
}
"""Our designs (``bikeco design``, level 1) drawn beside seed 000's."""
_COLOURS = {"keygen": "#4878a8", "encaps": "#e0a030", "decaps": "#60a060"}


def pareto_file(device: str) -> str:
    """File name of a device's Pareto plot."""
    return f"pareto_{device}.png"


def plots(data: ReportData) -> dict[str, bytes]:
    """Every plot of the report: file name -> PNG."""
    out = {FIG2_FILE: _fig2(data)}
    l1 = {r.design.device: r.design for r in data.designs.rows if r.design.level == 1}
    for res in data.devices:
        out[pareto_file(res.device.name)] = _pareto(res, l1.get(res.device.name))
    return out


def _png(fig: Figure, dpi: int) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    return buf.getvalue()


def _fig2(data: ReportData) -> bytes:
    """Relative execution time per seed 000 design, stacked by primitive (seed 000 Fig. 2),
    with our L1 designs for the same Zynq parts beside them."""
    designs = data.seed000
    base = next(d.plan.total_ms for d in designs if d.design == "sw_only")
    ours = [
        r.design for r in data.designs.rows if r.design.level == 1 and r.design.device in _FIG2_OURS
    ]
    per_prim = [{p: d.plan.per_primitive[p]["total_ms"] for p in PRIMITIVES} for d in designs] + [
        {p: getattr(d.latency_ms, p) for p in PRIMITIVES} for d in ours
    ]
    labels = [_FIG2_LABELS[d.design] for d in designs] + [_FIG2_OURS[d.device] for d in ours]
    fig, ax = plt.subplots(figsize=(8.5, 4))
    x = list(range(len(per_prim)))
    bottom = [0.0] * len(per_prim)
    for prim in PRIMITIVES:
        vals = [t[prim] / base for t in per_prim]
        ax.bar(x, vals, bottom=bottom, label=PRIM_LABEL[prim], color=_COLOURS[prim])
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    for xi, b in zip(x, bottom, strict=True):
        ax.text(xi, b + 0.02, f"{b:.2f}x" if b >= 0.01 else f"{b:.4f}x", ha="center", fontsize=7)
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylabel("Relative execution time")
    ax.set_ylim(0, 1.15)
    ax.set_title("Relative execution time, normalised to software (lower is better)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig, 110)


def _pareto(res: DeviceResult, design: Design | None) -> bytes:
    """Latency (logarithmic axis) against LUTs of each source's front, the L1 design of
    ``bikeco design`` and the device's LUT budget."""
    fig, ax = plt.subplots(figsize=(5, 3.4))
    for src, pts in res.fronts.items():
        ax.step(
            [p.lut for p in pts], [p.total_ms for p in pts], where="post", marker="o", label=src
        )
    if design is not None:
        ax.plot(
            [design.predicted.lut],
            [design.latency_ms.total],
            marker="*",
            markersize=12,
            linestyle="none",
            color="#c03030",
            label="bikeco design (predicted)",
        )
    ax.axvline(res.device.lut, color="grey", linestyle="--", linewidth=1, label="LUT budget")
    ax.set_yscale("log")
    ax.set_xlabel("LUTs")
    ax.set_ylabel("KEM latency [ms], log scale")
    ax.set_title(f"{res.device.label} ({res.device.name})")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return _png(fig, 90)
