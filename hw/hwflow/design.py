"""A design file of `bikeco design` (docs/design-json.md) as flow cores: each core it places
becomes its flow core with one configuration, `design`, holding the design's parameters, and
its synthesis reports go to build/design/<name>/ (never among the committed ones). lint, test
and synth take `--design FILE`; `design-params FILE` prints what the flow gives the RTL.

Through the bus, each core is its shell device (bike_kem_full -> bike_kem_full_acc) with the
same parameters, as the configuration `design-<hash of the parameters>` (its Verilated model's
folder); `placement --design FILE` runs libbike's KEM with the targets each core serves on
those devices (bike-cosim)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path

from bikeco.designfile import Design, DesignError, load_design
from bikeco.placement import device_of
from hwflow.cores import FlowCore, flow_cores
from hwflow.paths import build_dir
from hwflow.sim import SimConfig
from hwflow.synth import SynthJob

CONFIG = "design"


def read(path: Path) -> Design:
    try:
        return load_design(path)
    except DesignError as exc:
        sys.exit(f"hwflow: {exc}")


def cores(d: Design) -> list[FlowCore]:
    """The design's cores as flow cores with the configuration `design`."""
    known = flow_cores()
    out = []
    for dc in d.cores:
        if dc.core not in known:
            sys.exit(f"hwflow: design {d.name}: unknown flow core {dc.core}")
        fc = known[dc.core]
        declared = set(fc.core.parameters)
        bad = sorted(set(dc.params) - declared)
        fixed = sorted(set(dc.params) & (set(fc.fixed) | {"R", "D", "T"}))
        if bad or fixed:
            sys.exit(
                f"hwflow: design {d.name}: {dc.core} has no parameters {bad}"
                if bad
                else f"hwflow: design {d.name}: {dc.core}'s {fixed} are set by its shape or level"
            )
        out.append(
            dataclasses.replace(
                fc,
                presets={CONFIG: dict(dc.params)},
                sweeps={},
            )
        )
    return out


def params_text(d: Design) -> str:
    """Each core's flow core, level and every RTL parameter (level ones included)."""
    lines = [f"design {d.name}: {d.device}, level {d.level}, role {d.role}"]
    for fc in cores(d):
        p = fc.params(CONFIG, d.level)
        lines.append(f"{fc.name} ({fc.core.vlnv}): " + " ".join(f"{k}={v}" for k, v in p.items()))
    return "\n".join(lines) + "\n"


def report_dir(d: Design, core: FlowCore) -> Path:
    """Where a design core's synthesis report goes: build/design/<name>/<core>/."""
    return build_dir() / "design" / d.name / core.name


def sim_configs(d: Design) -> list[SimConfig]:
    """One simulation per core of the design, at its level."""
    return [SimConfig(c, CONFIG, d.level) for c in cores(d)]


def synth_jobs(d: Design) -> list[SynthJob]:
    """One synthesis run per core of the design (report `design_L<level>.json` under
    :func:`report_dir`)."""
    return [
        SynthJob(
            c, f"{CONFIG}_L{d.level}", c.top, c.params(CONFIG, d.level), d.level, report_dir(d, c)
        )
        for c in cores(d)
    ]


def device_config(params: dict[str, int]) -> str:
    """The configuration name of a design core's parameters on its bus device."""
    digest = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()
    return f"{CONFIG}-{digest[:8]}"  # the driver reads up to 15 characters


def bus_devices(d: Design) -> list[tuple[FlowCore, str, list[str]]]:
    """Each core of the design as its shell device (a flow core simulated through the bus)
    with the design's parameters: (device, configuration, the targets it serves)."""
    known = flow_cores()
    out = []
    for fc, dc in zip(cores(d), d.cores, strict=True):
        name = fc.name if fc.sim_top.endswith("_acc") else device_of(fc.name)
        dev = known.get(name)
        if dev is None or not dev.sim_top.endswith("_acc"):
            sys.exit(f"hwflow: design {d.name}: {fc.name} has no bus device the flow builds")
        bad = sorted(set(dc.params) - set(dev.core.parameters))
        if bad:
            sys.exit(f"hwflow: design {d.name}: {name} has no parameters {bad}")
        config = device_config(dict(dc.params))
        dev = dataclasses.replace(dev, presets={config: dict(dc.params)}, sweeps={})
        out.append((dev, config, list(dc.serves)))
    return out


def placement_lines(d: Design) -> list[tuple[str, str, str]]:
    """(target, device, configuration) of every target the design's cores serve."""
    return [(t, dev.name, config) for dev, config, serves in bus_devices(d) for t in serves]
