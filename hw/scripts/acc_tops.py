#!/usr/bin/env python3
"""Device tops of the accelerator shell: one table (DEVICES) of every core
behind hw/ip/acc_shell, and from it each device's top module
hw/ip/acc_shell/rtl/<device>.sv, generated and committed.

Every device top is the same wiring: the flat AXI4-Lite and AXI4-Stream
ports (s_axil_*, s_axis_*, m_axis_*, irq_o: the names Vivado infers bus
interfaces from and the driver's co-simulation drives), acc_shell with the
device's identifier and PARAM, and the core's `<core>_stream` module on the
operation-core interface, with the device's parameters passed through
unchanged. Only the table differs between devices, so it is the one place a
device is declared.

`acc_tops.py` writes the tops; `acc_tops.py --check` fails if a committed top
differs from what the table gives (make -C hw regs / regs-check run both).
"""

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

RTL = Path(__file__).resolve().parent.parent / "ip" / "acc_shell" / "rtl"


@dataclass(frozen=True)
class Device:
    name: str  # the top module and file: <core>_acc
    core_id: str  # member of acc_shell_core_e (data/acc_shell.rdl): ID.CORE
    stream: str  # the core on the operation-core interface (rtl/<stream>.sv)
    params: tuple[tuple[str, int], ...]  # (name, default): the stream's parameters
    summary: str  # what the device computes, one line (the top's header)
    core_param: str = "R"  # the parameter that PARAM reads


_MUL_PARAMS = (("KaratsubaLevels", 2), ("ParallelLevels", 1))

DEVICES: tuple[Device, ...] = (
    Device(
        name="gf2x_mul_acc",
        core_id="GF2X_MUL",
        stream="gf2x_mul_stream",
        params=(("R", 12323), *_MUL_PARAMS),
        summary="the dense product in GF(2)[x]/(x^R - 1)",
    ),
    Device(
        name="gf2x_inv_acc",
        core_id="GF2X_INV",
        stream="gf2x_inv_stream",
        params=(("R", 12323), ("E", 16), *_MUL_PARAMS),
        summary="the inversion in GF(2)[x]/(x^R - 1)",
    ),
    Device(
        name="sparse_mul_acc",
        core_id="SPARSE_MUL",
        stream="sparse_mul_stream",
        params=(("R", 12323), ("D", 71), ("P", 8)),
        summary="the sparse-dense product in GF(2)[x]/(x^R - 1)",
    ),
    Device(
        name="bike_decoder_acc",
        core_id="BIKE_DECODER",
        stream="bike_decoder_stream",
        params=(("R", 12323), ("D", 71), ("P", 8)),
        summary="Black-Gray-Flip decoding",
    ),
    Device(
        name="keccak_sampler_acc",
        core_id="KECCAK_SAMPLER",
        stream="keccak_sampler_stream",
        params=(("R", 12323), ("D", 71), ("T", 134), ("RoundsPerCycle", 2)),
        summary="BIKE's sampling and hashing (KEYGEN, H, L, K)",
    ),
    # its stream module and core file live with the KEM (ip/bike_kem)
    Device(
        name="bike_kem_acc",
        core_id="BIKE_KEM",
        stream="bike_kem_stream",
        params=(
            ("R", 12323),
            ("D", 71),
            ("T", 134),
            ("Keygen", 1),
            ("Encaps", 1),
            ("Decaps", 1),
            ("RoundsPerCycle", 1),
            ("KeccakSerial", 0),
            ("InvE", 16),
            ("InvKaratsubaLevels", 2),
            ("InvParallelLevels", 1),
            ("SparseP", 8),
            ("DecoderP", 8),
            ("DecoderPrefetch", 1),
            ("DecoderTile", 0),
        ),
        summary="BIKE KeyGen, Encaps and Decaps of one KEM shape",
    ),
    Device(
        name="ntt_acc",
        core_id="NTT",
        stream="ntt_stream",
        params=(
            ("N", 256),
            ("Q", 3329),
            ("P", 1),
            ("Zeta", 17),
            ("B", 4),
            ("Red", 1),
            ("MontBits", 16),
            ("UseDsp", 1),
        ),
        summary="NTT and inverse NTT vectors, sums of base products mod Q (ML-KEM)",
        core_param="Q",
    ),
)

# the device's ports: (direction, width, name); the shell's of the same name
PORTS: tuple[tuple[str, int, str], ...] = (
    ("input", 12, "s_axil_awaddr"),
    ("input", 3, "s_axil_awprot"),
    ("input", 1, "s_axil_awvalid"),
    ("output", 1, "s_axil_awready"),
    ("input", 32, "s_axil_wdata"),
    ("input", 4, "s_axil_wstrb"),
    ("input", 1, "s_axil_wvalid"),
    ("output", 1, "s_axil_wready"),
    ("output", 2, "s_axil_bresp"),
    ("output", 1, "s_axil_bvalid"),
    ("input", 1, "s_axil_bready"),
    ("input", 12, "s_axil_araddr"),
    ("input", 3, "s_axil_arprot"),
    ("input", 1, "s_axil_arvalid"),
    ("output", 1, "s_axil_arready"),
    ("output", 32, "s_axil_rdata"),
    ("output", 2, "s_axil_rresp"),
    ("output", 1, "s_axil_rvalid"),
    ("input", 1, "s_axil_rready"),
    ("input", 64, "s_axis_tdata"),
    ("input", 1, "s_axis_tvalid"),
    ("output", 1, "s_axis_tready"),
    ("input", 1, "s_axis_tlast"),
    ("output", 64, "m_axis_tdata"),
    ("output", 1, "m_axis_tvalid"),
    ("input", 1, "m_axis_tready"),
    ("output", 1, "m_axis_tlast"),
    ("output", 1, "irq_o"),
)

# the operation-core interface: (stream module's port, shell's port, wire, width)
CORE_IF: tuple[tuple[str, str, str, int], ...] = (
    ("start_i", "core_start_o", "core_start", 1),
    ("op_i", "core_op_o", "core_op", 8),
    ("op_ok_o", "core_op_ok_i", "core_op_ok", 1),
    ("in_words_o", "core_in_words_i", "core_in_words", 16),
    ("out_words_o", "core_out_words_i", "core_out_words", 16),
    ("done_o", "core_done_i", "core_done", 1),
    ("err_o", "core_err_i", "core_err", 1),
    ("in_valid_i", "core_in_valid_o", "core_in_valid", 1),
    ("in_ready_o", "core_in_ready_i", "core_in_ready", 1),
    ("in_data_i", "core_in_data_o", "core_in_data", 64),
    ("out_valid_o", "core_out_valid_i", "core_out_valid", 1),
    ("out_ready_i", "core_out_ready_o", "core_out_ready", 1),
    ("out_data_o", "core_out_data_i", "core_out_data", 64),
)


def _width(w: int) -> str:
    return f"[{w - 1}:0]" if w > 1 else ""


def _connections(pairs: list[tuple[str, str]]) -> list[str]:
    pad = max(len(a) for a, _ in pairs)
    lines = [f"    .{a:<{pad}} ({b})" for a, b in pairs]
    return [line + "," for line in lines[:-1]] + [lines[-1]]


def render(d: Device) -> str:
    """The device top of d."""
    pad = max(len(n) for n, _ in d.params)
    out = [
        f"// {d.name}: {d.summary} as a bus device:",
        f"// {d.stream} behind acc_shell (doc/acc_shell.md). ID.CORE = {d.core_id},",
        f"// PARAM = {d.core_param}.",
        "// Generated by hw/scripts/acc_tops.py from its DEVICES table: do not edit.",
        f"module {d.name}",
        "  import acc_shell_reg_pkg::*;",
        "#(",
    ]
    params = [f"  parameter int unsigned {n:<{pad}} = {v}" for n, v in d.params]
    out += [p + "," for p in params[:-1]] + [params[-1], ") ("]
    ports = [
        ("input", 1, "clk_i"),
        ("input", 1, "rst_ni"),
        *PORTS,
    ]
    decl = [f"  {dr:<6} logic {_width(w):<6} {n}" for dr, w, n in ports]
    out += [line + "," for line in decl[:-1]] + [decl[-1], ");", ""]
    out += [f"  logic {_width(w):<6} {wire};" for _, _, wire, w in CORE_IF]
    out += [
        "",
        "  acc_shell #(",
        f"    .CoreId    (16'(acc_shell_core_e__{d.core_id})),",
        f"    .CoreParam (32'({d.core_param}))",
        "  ) u_shell (",
    ]
    shell = [(n, n) for _, _, n in ports] + [(s, wire) for _, s, wire, _ in CORE_IF]
    out += _connections(shell)
    out += ["  );", "", f"  {d.stream} #("]
    out += _connections([(n, n) for n, _ in d.params])
    out += ["  ) u_core ("]
    core = [("clk_i", "clk_i"), ("rst_ni", "rst_ni")] + [(c, wire) for c, _, wire, _ in CORE_IF]
    out += _connections(core)
    out += ["  );", "", "endmodule"]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    a = ap.parse_args()
    bad = []
    for d in DEVICES:
        path = RTL / f"{d.name}.sv"
        text = render(d)
        if not a.check:
            path.write_text(text)
            print(f"acc_tops: wrote ip/acc_shell/rtl/{d.name}.sv")
        elif not path.exists() or path.read_text() != text:
            bad.append(f"ip/acc_shell/rtl/{d.name}.sv")
    if bad:
        sys.exit(
            "acc_tops: device tops differ from the DEVICES table (run "
            "'.venv/bin/python hw/scripts/acc_tops.py' and commit): " + " ".join(bad)
        )
    if a.check:
        print(f"acc_tops: the {len(DEVICES)} committed device tops match the DEVICES table")


if __name__ == "__main__":
    main()
