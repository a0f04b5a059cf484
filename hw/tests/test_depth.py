"""The per-endpoint logic depth of a netlist (hwflow.depth) on small hand-made netlists."""

from __future__ import annotations

from typing import Any

from hwflow.depth import endpoints, report

LUT_PORTS = {"I0": "input", "I1": "input", "O": "output"}
FF_PORTS = {"C": "input", "D": "input", "Q": "output"}


def cell(kind: str, src: str, **conn: list[int | str]) -> dict[str, Any]:
    ports = FF_PORTS if kind.startswith("FD") else LUT_PORTS
    if kind == "CARRY4":
        ports = {"S": "input", "CI": "input", "CO": "output"}
    return {
        "type": kind,
        "attributes": {"src": f"{src}|/share/xilinx/lut_map.v:1.1-2.2"},
        "port_directions": ports,
        "connections": conn,
    }


def netlist() -> dict[str, Any]:
    """r1 -> lut a -> carry b -> carry c -> r2; r1 -> lut d -> r3; r1 -> lut e -> out.
    The clock is bit 2; nets: r1.Q 10, a 11, b 12, c 13, d 14, e 15."""
    cells = {
        "r1": cell("FDCE", "ip/x/rtl/x.sv:10.3", C=[2], D=[3], Q=[10]),
        "a": cell("LUT2", "ip/x/rtl/x.sv:20.5-20.9", I0=[10], I1=[10], O=[11]),
        "b": cell("CARRY4", "ip/x/rtl/x.sv:21.5-21.9", S=[11], CI=["0"], CO=[12]),
        "c": cell("CARRY4", "ip/x/rtl/x.sv:21.5-21.9", S=[11], CI=[12], CO=[13]),
        "r2": cell("FDCE", "ip/x/rtl/x.sv:30.3", C=[2], D=[13], Q=[16]),
        "d": cell("LUT2", "ip/x/rtl/x.sv:40.1-40.2", I0=[10], I1=[3], O=[14]),
        "r3": cell("FDRE", "ip/x/rtl/x.sv:31.3", C=[2], D=[14], Q=[17]),
        "e": cell("LUT2", "/share/xilinx/lut_map.v:47.26-48.41", I0=[16], I1=[17], O=[15]),
    }
    ports = {
        "clk": {"direction": "input", "bits": [2]},
        "in": {"direction": "input", "bits": [3]},
        "out": {"direction": "output", "bits": [15]},
    }
    return {"modules": {"top": {"cells": cells, "ports": ports, "netnames": {}}}}


def test_depth_per_endpoint_counts_every_cell_and_cuts_registers() -> None:
    eps = endpoints(netlist(), "top")
    by_name = {e.name: e for e in eps}
    assert [e.depth for e in eps] == [3, 1, 1]
    worst = by_name["ip/x/rtl/x.sv:30 <- ip/x/rtl/x.sv:21"]
    assert worst.depth == 3
    # each cell names the registers that feed it directly (its side inputs)
    assert worst.path == [
        "from FDCE     ip/x/rtl/x.sv:10",
        "LUT2     ip/x/rtl/x.sv:20  regs: ip/x/rtl/x.sv:10",
        "CARRY4   ip/x/rtl/x.sv:21",
        "CARRY4   ip/x/rtl/x.sv:21",
    ]
    assert by_name["ip/x/rtl/x.sv:31 <- ip/x/rtl/x.sv:40"].depth == 1
    # a path from a register through a cell without an RTL line, into a
    # port; the cell is fed by two registers
    assert by_name["output out"].path == [
        "from FDCE     ip/x/rtl/x.sv:30",
        "LUT2  regs: ip/x/rtl/x.sv:30, ip/x/rtl/x.sv:31",
    ]


def test_report_lists_only_endpoints_over_the_limit() -> None:
    text = report(endpoints(netlist(), "top"), limit=2, paths=1)
    assert text.splitlines()[0] == "worst depth 3; endpoints deeper than 2:"
    assert "x.sv:30 <- ip/x/rtl/x.sv:21" in text
    assert "x.sv:31" not in text


def test_a_memory_endpoint_is_named_by_its_port() -> None:
    """r1 -> lut a -> the memory's write enable; r1 -> the memory's address directly."""
    ram = {
        "type": "RAM32M",
        "attributes": {"src": "ip/x/rtl/x.sv:50.3"},
        "port_directions": {"WE": "input", "ADDRD": "input", "WCLK": "input", "DOA": "output"},
        "connections": {"WE": [11], "ADDRD": [10], "WCLK": [2], "DOA": [12]},
    }
    cells = {
        "r1": cell("FDCE", "ip/x/rtl/x.sv:10.3", C=[2], D=[3], Q=[10]),
        "a": cell("LUT2", "ip/x/rtl/x.sv:20.5-20.9", I0=[10], I1=[10], O=[11]),
        "m": ram,
    }
    data = {"modules": {"top": {"cells": cells, "ports": {}, "netnames": {}}}}
    eps = endpoints(data, "top")
    assert [(e.name, e.depth) for e in eps] == [
        ("RAM32M.WE ip/x/rtl/x.sv:50 <- ip/x/rtl/x.sv:20", 1)
    ]
