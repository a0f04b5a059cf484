"""Fuzzing the explorer's file inputs with atheris (libFuzzer for Python).

Every file the command line reads from the user: a hardware results record and a synthesis
report (:mod:`bikeco.hwrecord`), a folder of records (``--hw-results``), a device file in CSV
and in JSON (``--devices-file``), a saved bench JSON (``--profile FILE.json``,
``report --bench-json``) and a design file (:mod:`bikeco.designfile`), plus ``bikeco devices
--devices-file`` and ``bikeco plan --profile`` run whole. The property: each either loads or
raises :class:`~bikeco.errors.BikecoError` with a message naming the file, and the command
line exits with a message, never a traceback.

Input: a selector byte (the input kind, modulo :data:`KINDS`), then the file's bytes.

    python tests/fuzz_inputs.py [libFuzzer options] CORPUS_DIR

``BIKEFUZZ_SEEDS=DIR`` writes the seeds (the committed records, reports, devices table and
bench fixture, one per kind that reads them) into DIR first. ``make -C python fuzz`` runs it
for a bounded time; ``tests/test_fuzz_inputs.py`` replays ``tests/fuzz_cases/`` (inputs that
once failed) and the seeds through :func:`check_one`.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from bikeco.errors import BikecoError

ROOT = Path(__file__).resolve().parents[2]


# The readers import bikeco's modules when first called, so that main() can import them
# under atheris's instrumentation.


def _record(path: Path) -> object:
    from bikeco import hwrecord

    return hwrecord.load_record(path)


def _report(path: Path) -> object:
    from bikeco import hwrecord

    return hwrecord.load_report(path)


def _records_dir(path: Path) -> object:
    from bikeco import hwmodels

    return hwmodels.bikeco_units(path.parent, level=1)


def _devices(path: Path) -> object:
    from bikeco import devices

    return devices.load_user_devices(path)


def _bench(path: Path) -> object:
    from bikeco import profiles

    return profiles.load_bench_file(path)


def _design(path: Path) -> object:
    from bikeco import designfile

    return designfile.load_design(path)


def _cli(argv: list[str]) -> object:
    from bikeco import cli

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    if code != 0 and not err.getvalue().startswith("bikeco: error: "):
        raise AssertionError(f"exit {code} without an error message: {err.getvalue()!r}")
    return code


def _cli_devices(path: Path) -> object:
    return _cli(["devices", "--devices-file", str(path)])


def _cli_plan(path: Path) -> object:
    return _cli(["plan", "--device", "xc7z020", "--profile", str(path)])


KINDS: tuple[tuple[str, str, Callable[[Path], object]], ...] = (
    ("record", "rec.json", _record),
    ("report", "rep.json", _report),
    ("records-dir", "dir/rec.json", _records_dir),
    ("devices-csv", "dev.csv", _devices),
    ("devices-json", "dev.json", _devices),
    ("bench", "bench.json", _bench),
    ("cli-devices", "cli.csv", _cli_devices),
    ("cli-plan", "plan.json", _cli_plan),
    ("design", "design.json", _design),
)
"""Each input kind: its name, the file name it is written to, what reads it. Append only:
the selector bytes of tests/fuzz_cases/ index this."""


def check_one(data: bytes, workdir: Path) -> None:
    """Write the input's file into ``workdir`` and read it as its kind says; anything but a
    load, a :class:`BikecoError` naming the file or a clean exit propagates (a finding)."""
    if not data:
        return
    kind, name, read = KINDS[data[0] % len(KINDS)]
    path = workdir / kind / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data[1:])
    try:
        read(path)
    except BikecoError as exc:
        if str(path.parent) not in str(exc):
            raise AssertionError(f"error does not name the file: {exc}") from exc


def seeds() -> Iterator[tuple[str, bytes]]:
    """Seed inputs: committed files of each kind, with their selector byte."""
    by_kind = {
        "record": sorted((ROOT / "hw" / "results").glob("*.json"))[:4],
        "report": sorted((ROOT / "hw" / "ip").glob("*/syn/reports/*.json"))[:4],
        "records-dir": sorted((ROOT / "hw" / "results").glob("*.json"))[:2],
        "devices-csv": [ROOT / "python" / "src" / "bikeco" / "data" / "devices.csv"],
        "bench": [ROOT / "python" / "tests" / "fixtures" / "bench_l1.json"],
        "cli-devices": [ROOT / "python" / "src" / "bikeco" / "data" / "devices.csv"],
        "cli-plan": [ROOT / "python" / "tests" / "fixtures" / "bench_l1.json"],
    }
    for i, (kind, _, _) in enumerate(KINDS):
        for path in by_kind.get(kind, []):
            yield f"{kind}-{path.name}", bytes([i]) + path.read_bytes()
    from bikeco import data_files

    rows = data_files.read_table("devices.csv")
    kinds = [k for k, _, _ in KINDS]
    yield "devices-json", bytes([kinds.index("devices-json")]) + json.dumps(rows[:3]).encode()
    doc = (ROOT / "docs" / "design-json.md").read_text(encoding="utf-8")
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    yield "design-example", bytes([kinds.index("design")]) + example.encode()


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["bikeco"]):
        import bikeco.cli
        import bikeco.explore
        import bikeco.hwmodels  # noqa: F401
    seed_dir = os.environ.get("BIKEFUZZ_SEEDS")
    if seed_dir:
        for name, data in seeds():
            (Path(seed_dir) / name).write_bytes(data)
    workdir = Path(tempfile.mkdtemp(prefix="bikeco-fuzz-"))

    def one(data: bytes) -> None:
        check_one(data, workdir)

    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
