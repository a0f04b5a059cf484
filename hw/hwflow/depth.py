"""Logic depth per register of a core's xc7 netlist: what the synthesis
report's single `ltp` figure is made of.

The netlist is the synthesis flow's own (its `read_slang` and `synth_xilinx`
script, hwflow.synth), written out as JSON instead of being measured by
`ltp`. Its register-like cells are cut as the flow cuts them (FD*, block and
distributed RAM, DSP48E1), and every other cell (LUT, MUXF7/8, CARRY4, INV)
counts one level, as `ltp` counts them: the worst endpoint's depth equals the
report's `lut_depth`. A shift register mapped to SRL16E is not cut either,
so a path through one counts it as a level even from its data input (a
clocked one): such paths are overstated by one. synth_xilinx keeps no
register names, so an endpoint (a register's D/CE/reset, a memory's or
DSP's input, an output port) is named by the RTL line of the cell it feeds
(a register: its always_ff; a memory or DSP: its type and port too) and
the last RTL line on its worst path; that path is listed cell by cell with
each cell's RTL line where Yosys kept one, from the register or memory it
starts at. LUTs lose their RTL lines in mapping, so each cell also names
the registers and memories that feed it directly ("regs: ..."): the
signals that join the path at that level, which is how a path that leaves
a module and comes back can be followed.

    python -m hwflow depth --cores bike_decoder --presets medium   (from hw/)
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hwflow.paths import HW
from hwflow.synth import SynthJob, job_folder, summarise, yosys_in
from hwflow.tools import DEPTH_CUT, yosys_netlist_script

CUT = re.compile("|".join(fnmatch.translate(pattern) for pattern in DEPTH_CUT))


@dataclass(frozen=True)
class Endpoint:
    name: str  # what it feeds <- the last RTL line on its worst path
    depth: int
    path: list[str]  # "from <start>", then each cell: type and RTL line


def netlist(job: SynthJob) -> tuple[dict[str, Any], dict[str, Any]]:
    """The job's xc7 netlist (JSON) after synth_xilinx, from a fresh run, and
    its resource figures (as the synthesis report gives them)."""
    script = yosys_netlist_script(job.top, job.params, job.core.rtl) + "write_json netlist.json\n"
    sources = {src: (HW / src).read_bytes() for src in job.core.rtl}
    wd = job_folder("depth", f"{job.core.name}_{job.name}", sources, script)
    yosys_in(wd, "depth.log")
    data: dict[str, Any] = json.loads((wd / "netlist.json").read_text())
    return data, summarise((wd / "stat.txt").read_text(), "")


def rtl_src(cell: dict[str, Any]) -> str:
    """The RTL part of a cell's `src` attribute (file:line.col, first of
    several), or '' for cells that come from Yosys's own techmap files."""
    for part in str(cell.get("attributes", {}).get("src", "")).split("|"):
        if part.startswith("ip/"):
            return re.sub(r"\.\d+(-\d+\.\d+)?$", "", part)
    return ""


def _bits(cell: dict[str, Any], direction: str) -> list[int]:
    dirs = cell.get("port_directions", {})
    return [
        b
        for port, bits in cell["connections"].items()
        if dirs.get(port) == direction
        for b in bits
        if isinstance(b, int)
    ]


def endpoints(data: dict[str, Any], top: str) -> list[Endpoint]:
    """Every endpoint's depth and worst path, deepest first. An endpoint is
    named by the RTL line of the cell it feeds (for a register, its always_ff)
    and the last RTL line on its worst path."""
    mod = data["modules"][top]
    cells: dict[str, Any] = mod["cells"]
    driver = {b: name for name, c in cells.items() for b in _bits(c, "output")}

    def comb(name: str | None) -> bool:
        return name is not None and not CUT.match(cells[name]["type"])

    # arrival depth of each combinational cell's outputs (iterative DFS)
    depth: dict[str, int] = {}
    worst_in: dict[str, str | None] = {}
    for start in cells:
        if start in depth or not comb(start):
            continue
        stack = [start]
        while stack:
            c = stack[-1]
            if c in depth:
                stack.pop()
                continue
            ins = [driver.get(b) for b in _bits(cells[c], "input")]
            pending = [d for d in ins if comb(d) and d not in depth]
            if pending:
                stack.extend(x for x in pending if x is not None)
                continue
            best, arg = 0, None
            for d in ins:
                if comb(d) and d is not None and depth[d] > best:
                    best, arg = depth[d], d
            depth[c] = best + 1
            worst_in[c] = arg
            stack.pop()

    def feeders(c: str) -> list[str]:
        """The registers, memories and DSPs that drive cell c's inputs."""
        srcs = [driver.get(b) for b in _bits(cells[c], "input")]
        return [d for d in srcs if d is not None and not comb(d)]

    def label(c: str) -> str:
        return f"{cells[c]['type']:8s} {rtl_src(cells[c])}".rstrip()

    def chain(c: str) -> list[str]:
        """The cells of the worst path into c's output, first to last."""
        out = []
        node: str | None = c
        while node is not None:
            out.append(node)
            node = worst_in[node]
        return out[::-1]

    def path(cs: list[str]) -> list[str]:
        """A chain as the report lists it: what it starts from (a register, a
        memory or a port), then each cell with the registers feeding it."""
        starts = feeders(cs[0])
        out = [f"from {label(starts[0]) if starts else 'input port'}"]
        for c in cs:
            regs = sorted({rtl_src(cells[d]) or cells[d]["type"] for d in feeders(c)})
            out.append(label(c) + (f"  regs: {', '.join(regs)}" if regs else ""))
        return out

    found: dict[str, Endpoint] = {}

    def note(sink: str, b: int) -> None:
        d = driver.get(b)
        if not comb(d) or d is None:
            return
        cs = chain(d)
        via = next((rtl_src(cells[c]) for c in reversed(cs) if rtl_src(cells[c])), "")
        name = f"{sink} <- {via}" if via else sink
        if name not in found or depth[d] > found[name].depth:
            found[name] = Endpoint(name, depth[d], path(cs))

    for c in cells.values():
        if not CUT.match(c["type"]):
            continue
        if c["type"].startswith("FD"):
            for b in _bits(c, "input"):
                note(rtl_src(c) or c["type"], b)
            continue
        # a memory or DSP: named by its port too (a write enable's path is
        # not its address's)
        dirs = c.get("port_directions", {})
        for port, bits in c["connections"].items():
            if dirs.get(port) == "input":
                sink = f"{c['type']}.{port} {rtl_src(c)}".rstrip()
                for b in bits:
                    if isinstance(b, int):
                        note(sink, b)
    for port, info in mod["ports"].items():
        if info["direction"] == "output":
            for b in info["bits"]:
                if isinstance(b, int):
                    note(f"output {port}", b)
    return sorted(found.values(), key=lambda e: -e.depth)


def report(eps: list[Endpoint], limit: int, paths: int) -> str:
    """Endpoints deeper than `limit`, deepest first, and the worst paths of
    the first `paths` of them."""
    deep = [e for e in eps if e.depth > limit]
    lines = [f"worst depth {eps[0].depth if eps else 0}; endpoints deeper than {limit}:"]
    lines += [f"  {e.depth:3d}  {e.name}" for e in deep]
    for e in deep[:paths]:
        lines.append(f"\n{e.name}, depth {e.depth}:")
        lines.append(f"       {e.path[0]}")
        lines += [f"    {i + 1:2d} {step}" for i, step in enumerate(e.path[1:])]
    return "\n".join(lines)


def write(job: SynthJob, out: Path, limit: int, paths: int) -> str:
    """Synthesise the job's netlist, write its report to `out` and return it."""
    data, res = netlist(job)
    text = report(endpoints(data, job.top), limit, paths)
    keys = ("lut", "ff", "ramb36", "ramb18", "dsp", "carry4")
    text = " ".join(f"{k} {res[k]}" for k in keys) + "\n" + text
    out.write_text(text + "\n")
    return text
