"""The FuseSoC core files (CAPI2) read as the flow's one source of sources,
dependencies and configurations.

Conventions of this project's core files (hw/README.md, "Adding a core"):
  - the `default` target's filesets are the RTL, its toplevel the synthesis top;
  - the `sim` target adds the testbench filesets, its toplevel is the
    simulation top, its verilator `libs` the extra link flags;
  - `preset_<p>`, `sweep_<s>`, `lintonly_<x>` targets hold the NAME=value
    parameters of each configuration (entries without a value are left to
    the defaults: the level parameters R, D, T, which the flow sets per level);
  - `variant_<v>` targets make a core file several flow cores (the KEM shapes),
    each fixing the parameters of its target on top of the presets;
  - `syn_<name>` targets are modules synthesised on their own (the memories);
  - a dependency contributes its `default` target's filesets.
"""

from __future__ import annotations

import configparser
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from hwflow.harness import HARNESS, Harness
from hwflow.levels import LEVEL_PARAMS, level_values
from hwflow.paths import HW, rel

Params = dict[str, int]


@dataclass(frozen=True)
class SourceFile:
    path: Path
    file_type: str
    is_include: bool = False
    include_dir: Path | None = None


@dataclass(frozen=True)
class Target:
    filesets: tuple[str, ...]
    toplevel: str | None
    params: Params  # NAME=value entries, in order
    names: tuple[str, ...]  # every parameter entry's name, in order
    libs: tuple[str, ...]


@dataclass(frozen=True)
class CoreFile:
    vlnv: str
    path: Path
    filesets: dict[str, tuple[tuple[SourceFile, ...], tuple[str, ...]]]
    parameters: tuple[str, ...]
    targets: dict[str, Target]

    @property
    def name(self) -> str:
        """The N of V:L:N:V."""
        return self.vlnv.split(":")[2]

    @property
    def vln(self) -> str:
        return ":".join(self.vlnv.split(":")[:3])

    def configs(self, kind: str) -> dict[str, Params]:
        """The targets `<kind>_<name>` as name -> parameters."""
        pre = kind + "_"
        return {k[len(pre) :]: t.params for k, t in self.targets.items() if k.startswith(pre)}


def _param(entry: str) -> tuple[str, int] | None:
    if "=" not in entry:
        return None
    name, value = entry.split("=", 1)
    return name.strip(), int(value)


def _target(raw: dict[str, Any]) -> Target:
    params: Params = {}
    names: list[str] = []
    for entry in [*raw.get("parameters", []), *raw.get("parameters_append", [])]:
        kv = _param(str(entry))
        names.append(kv[0] if kv else str(entry).strip())
        if kv is not None:
            params[kv[0]] = kv[1]
    tool = raw.get("tools", {}).get("verilator", {})
    top = raw.get("toplevel")
    return Target(
        filesets=tuple([*raw.get("filesets", []), *raw.get("filesets_append", [])]),
        toplevel=str(top) if top is not None else None,
        params=params,
        names=tuple(names),
        libs=tuple(str(x) for x in tool.get("libs", [])),
    )


def parse_core(path: Path) -> CoreFile:
    """One .core file (YAML; merge keys `<<` as FuseSoC reads them)."""
    text = path.read_text()
    if not text.startswith("CAPI=2:"):
        raise ValueError(f"{path}: not a CAPI2 core file")
    raw: dict[str, Any] = yaml.safe_load(text)
    root = path.parent
    filesets = {}
    for fs_name, fs in raw.get("filesets", {}).items():
        files = []
        for entry in fs.get("files", []):
            opts: dict[str, Any] = {}
            if isinstance(entry, dict):
                ((name, opts),) = entry.items()
            else:
                name = entry
            inc = opts.get("include_path")
            files.append(
                SourceFile(
                    path=(root / name).resolve(),
                    file_type=str(opts.get("file_type", fs.get("file_type", ""))),
                    is_include=bool(opts.get("is_include_file", False)),
                    include_dir=(root / inc).resolve() if inc else None,
                )
            )
        filesets[fs_name] = (tuple(files), tuple(str(d) for d in fs.get("depend", [])))
    return CoreFile(
        vlnv=str(raw["name"]),
        path=path,
        filesets=filesets,
        parameters=tuple(raw.get("parameters", {})),
        targets={k: _target(v) for k, v in raw.get("targets", {}).items()},
    )


def library_paths(conf: Path = HW / "fusesoc.conf") -> list[Path]:
    """Every core file of the libraries fusesoc.conf names."""
    cp = configparser.ConfigParser()
    cp.read(conf)
    out: list[Path] = []
    for section in cp.sections():
        loc = (conf.parent / cp[section]["location"]).resolve()
        out += sorted(p for p in loc.rglob("*.core") if "build" not in p.relative_to(loc).parts)
    return out


@functools.cache
def library() -> dict[str, CoreFile]:
    """VLN (vendor:library:name) -> core file."""
    cores = [parse_core(p) for p in library_paths()]
    return {c.vln: c for c in cores}


def _dep(vln: str) -> CoreFile:
    lib = library()
    key = ":".join(vln.split(":")[:3])
    if key not in lib:
        raise KeyError(f"unknown core {vln}")
    return lib[key]


def closure(core: CoreFile, filesets: tuple[str, ...]) -> list[SourceFile]:
    """Files of `filesets` after those of their dependencies (each dependency's
    default target, recursively), each file once, first place kept."""
    out: list[SourceFile] = []
    seen: set[Path] = set()

    def visit(c: CoreFile, sets: tuple[str, ...]) -> None:
        for fs in sets:
            files, deps = c.filesets[fs]
            for d in deps:
                dc = _dep(d)
                visit(dc, dc.targets["default"].filesets)
            for f in files:
                if f.path not in seen:
                    seen.add(f.path)
                    out.append(f)

    visit(core, filesets)
    return out


@dataclass(frozen=True)
class FlowCore:
    """What the flow simulates, synthesises and records under one name: a core
    file, or one variant of it (a KEM shape)."""

    name: str
    core: CoreFile
    fixed: Params
    harness: Harness
    presets: dict[str, Params] = field(default_factory=dict)
    sweeps: dict[str, Params] = field(default_factory=dict)

    @property
    def sim_top(self) -> str:
        top = self.core.targets["sim"].toplevel or self.core.targets["default"].toplevel
        assert top is not None, f"{self.core.vlnv}: no toplevel for sim"
        return top

    @property
    def top(self) -> str:
        """The synthesis top (the default target's; the memories have none)."""
        return self.core.targets["default"].toplevel or self.sim_top

    @property
    def level_params(self) -> tuple[str, ...]:
        return tuple(p for p in LEVEL_PARAMS if p in self.core.parameters)

    @property
    def rtl(self) -> list[str]:
        """Synthesisable sources, dependencies first, relative to hw/."""
        return [rel(f.path) for f in self._rtl_files()]

    def _rtl_files(self) -> list[SourceFile]:
        files = closure(self.core, self.core.targets["default"].filesets)
        return [f for f in files if f.file_type.startswith("systemVerilog")]

    @property
    def vlt(self) -> list[str]:
        """Verilator configuration files (waivers) of the RTL, relative to hw/."""
        files = closure(self.core, self.core.targets["default"].filesets)
        return [rel(f.path) for f in files if f.file_type == "vlt"]

    def _all_files(self) -> list[SourceFile]:
        return closure(self.core, self.core.targets["default"].filesets) + self._dv_files()

    def _dv_files(self) -> list[SourceFile]:
        sim = self.core.targets["sim"].filesets
        dv = tuple(fs for fs in sim if fs not in self.core.targets["default"].filesets)
        rtl = {f.path for f in self._rtl_files()}
        return [f for f in closure(self.core, dv) if f.path not in rtl]

    @property
    def dv_rtl(self) -> list[str]:
        """SystemVerilog of the testbench (a wrapper top), relative to hw/."""
        return [
            rel(f.path)
            for f in self._dv_files()
            if f.file_type.startswith("systemVerilog") and not f.is_include
        ]

    @property
    def testbench(self) -> list[Path]:
        return [f.path for f in self._dv_files() if f.file_type == "cppSource" and not f.is_include]

    @property
    def c_sources(self) -> list[Path]:
        """C files of the testbench, compiled with cc (file_type user)."""
        return [f.path for f in self._dv_files() if f.file_type == "user"]

    @property
    def headers(self) -> list[Path]:
        return [f.path for f in self._all_files() if f.is_include]

    @property
    def include_dirs(self) -> list[Path]:
        """Folders of the include files of the RTL and the testbench."""
        dirs: list[Path] = []
        for f in self._all_files():
            d = f.include_dir or f.path.parent
            if f.is_include and d not in dirs:
                dirs.append(d)
        return dirs

    @property
    def link_flags(self) -> list[str]:
        """The sim target's libraries beyond libbike (-l flags)."""
        return [x for x in self.core.targets["sim"].libs if x.startswith("-l")]

    @property
    def lint_only(self) -> dict[str, Params]:
        return self.core.configs("lintonly")

    @property
    def synth_units(self) -> dict[str, tuple[str, Params]]:
        """Modules synthesised on their own: report name -> (top, parameters).
        A level parameter listed without a value takes L1's."""
        out = {}
        l1 = level_values(1, LEVEL_PARAMS)
        for k, t in self.core.targets.items():
            if k.startswith("syn_"):
                top = t.toplevel or self.top
                params = {n: t.params[n] if n in t.params else l1[n] for n in t.names}
                out[k[len("syn_") :]] = (top, params)
        return out

    @property
    def report_dir(self) -> Path:
        return self.core.path.parent / "syn" / "reports"

    @property
    def report_prefix(self) -> str:
        """Reports of a core named after its folder: <preset>_L<n>; of another
        core in the folder (keccak_serial, the KEM shapes): <rest>_<preset>_L<n>."""
        folder = self.core.path.parent.name
        if self.name == folder:
            return ""
        if self.name.startswith(folder + "_"):
            return self.name[len(folder) + 1 :] + "_"
        return self.name + "_"

    def config(self, name: str) -> Params:
        for table in (self.presets, self.sweeps, self.lint_only):
            if name in table:
                return dict(table[name])
        raise KeyError(f"{self.name}: no configuration {name}")

    def params(self, config: str, level: int) -> Params:
        """RTL parameters of a configuration at a level: the configuration's,
        then the level's, then the variant's fixed ones."""
        p = self.config(config)
        p.update(level_values(level, self.level_params))
        p.update(self.fixed)
        return p

    def record_params(self, config: str) -> dict[str, int | bool | str]:
        """The parameters a results record shows (no level parameters)."""
        p: dict[str, int | bool | str] = {**self.config(config), **self.fixed}
        if self.name == "gf2x_mul":
            # every Karatsuba level computes its three sub-products in parallel
            # (True), all share one engine (False), or the top ParallelLevels
            # levels are parallel ("mixed")
            pl, kl = p["ParallelLevels"], p["KaratsubaLevels"]
            p["ParallelSubproducts"] = True if pl == kl else (False if pl == 0 else "mixed")
        return p

    def report_name(self, config: str, level: int) -> str:
        return f"{self.report_prefix}{config}_L{level}"


def _flow_cores_of(core: CoreFile) -> list[FlowCore]:
    if "sim" not in core.targets:
        return []
    variants = core.configs("variant") or {core.name: {}}
    return [
        FlowCore(
            name=v,
            core=core,
            fixed=fixed,
            harness=HARNESS[v],
            presets=core.configs("preset"),
            sweeps=core.configs("sweep"),
        )
        for v, fixed in variants.items()
    ]


@functools.cache
def flow_cores() -> dict[str, FlowCore]:
    """Every flow core by name (core files with a sim target), in the order of
    HARNESS (which must name each)."""
    found: dict[str, FlowCore] = {}
    for core in library().values():
        for fc in _flow_cores_of(core):
            found[fc.name] = fc
    if set(found) != set(HARNESS):
        raise KeyError(f"flow cores {sorted(found)} against HARNESS {sorted(HARNESS)}")
    return {name: found[name] for name in HARNESS}
