"""The report's plots, drawn from :class:`~bikeco.report_data.ReportData` alone (PNG bytes)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

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
_COLOURS = {"keygen": "#4878a8", "encaps": "#e0a030", "decaps": "#60a060"}


def pareto_file(device: str) -> str:
    """File name of a device's Pareto plot."""
    return f"pareto_{device}.png"


def plots(data: ReportData) -> dict[str, bytes]:
    """Every plot of the report: file name -> PNG."""
    out = {FIG2_FILE: _fig2(data)}
    for res in data.devices:
        out[pareto_file(res.device.name)] = _pareto(res)
    return out


def _png(fig: Figure, dpi: int) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    plt.close(fig)
    return buf.getvalue()


def _fig2(data: ReportData) -> bytes:
    """Relative execution time per seed 000 design, stacked by primitive (seed 000 Fig. 2)."""
    designs = data.seed000
    base = next(d.plan.total_ms for d in designs if d.design == "sw_only")
    fig, ax = plt.subplots(figsize=(7, 4))
    x = list(range(len(designs)))
    bottom = [0.0] * len(designs)
    for prim in PRIMITIVES:
        vals = [d.plan.per_primitive[prim]["total_ms"] / base for d in designs]
        ax.bar(x, vals, bottom=bottom, label=PRIM_LABEL[prim], color=_COLOURS[prim])
        bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
    for xi, b in zip(x, bottom, strict=True):
        ax.text(xi, b + 0.02, f"{b:.2f}x", ha="center", fontsize=8)
    ax.set_xticks(x, [_FIG2_LABELS[d.design] for d in designs])
    ax.set_ylabel("Relative execution time")
    ax.set_ylim(0, 1.15)
    ax.set_title("Relative execution time, normalised to software (lower is better)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig, 110)


def _pareto(res: DeviceResult) -> bytes:
    """Latency against LUTs of each source's front, with the device's LUT budget."""
    fig, ax = plt.subplots(figsize=(5, 3.4))
    for src, pts in res.fronts.items():
        ax.step(
            [p.lut for p in pts], [p.total_ms for p in pts], where="post", marker="o", label=src
        )
    ax.axvline(res.device.lut, color="grey", linestyle="--", linewidth=1, label="LUT budget")
    ax.set_xlabel("LUTs")
    ax.set_ylabel("KEM latency [ms]")
    ax.set_title(f"{res.device.label} ({res.device.name})")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return _png(fig, 90)
