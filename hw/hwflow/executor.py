"""The flow's jobs (Yosys and Verilator runs) on Dask distributed, answered
from a cache when the same inputs ran before.

A job is a module-level function with its arguments (both picklable: a
remote worker runs them), a kind, a label, and the SHA-256 of everything its
result depends on (sources, parameters, tool versions, command). `run_jobs`
looks each job up in the cache (`<HW_BUILD_DIR>/cache/<kind>/<sha>.json`),
submits the misses to the cluster and stores their results. The client
reads and writes the cache, so workers need no shared folder for it.

The cluster starts only when a job misses the cache: a Dask LocalCluster
with one single-threaded worker per core (threads, not processes: every job
is an external tool's process, and thread workers start in about a second),
or the scheduler at `--scheduler` / `$HW_SCHEDULER` (workers started with
`dask worker <address>` from a checkout of the same commit, set up by
scripts/setup.sh). The cache only saves work: the committed reports and
records are checked against their sources by `check-records`, whatever the
cache holds.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

from hwflow.paths import build_dir

Result = dict[str, Any]
# seconds between progress lines while jobs run
HEARTBEAT = 60.0


OnDone = Callable[["Job", Result], None]


class JobError(Exception):
    """A job failed; the message names it and carries its tool's output tail."""


@dataclass(frozen=True)
class Job:
    kind: str  # the cache's folder: synth, sim, ...
    key: str  # SHA-256 of the job's inputs
    label: str  # what progress lines call it
    fn: Callable[..., Result]
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Options:
    scheduler: str | None = None  # a Dask scheduler's address; None: a LocalCluster
    workers: int | None = None  # LocalCluster workers (default: $HW_WORKERS, else the cores)
    cache: bool = True  # look results up in the cache (they are stored either way)


def default_options() -> Options:
    """Options from the environment ($HW_SCHEDULER, $HW_WORKERS)."""
    workers = os.environ.get("HW_WORKERS")
    return Options(
        scheduler=os.environ.get("HW_SCHEDULER") or None,
        workers=int(workers) if workers else None,
    )


def local_workers(opts: Options) -> int:
    """Workers of a local pool: opts.workers, else the cores."""
    return opts.workers or os.cpu_count() or 1


def cache_dir() -> Path:
    return Path(os.environ.get("HW_CACHE_DIR", str(build_dir() / "cache")))


class Cache:
    """Job results as JSON files named by their inputs' hash."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, kind: str, key: str) -> Path:
        return self.root / kind / f"{key}.json"

    def get(self, kind: str, key: str) -> Result | None:
        p = self.path(kind, key)
        try:
            data = json.loads(p.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("key") == key else None

    def put(self, kind: str, key: str, result: Result) -> None:
        p = self.path(kind, key)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({**result, "key": key}))
        os.replace(tmp, p)  # a reader never sees half a file


def _call(fn: Callable[..., Result], args: tuple[Any, ...]) -> Result:
    """A job on a worker: a tool that exits the flow (sys.exit) becomes a JobError."""
    try:
        return fn(*args)
    except SystemExit as exc:
        raise JobError(str(exc.code)) from None


class Executor:
    """Runs jobs; the Dask client and its cluster start on the first cache miss
    and stop when the `with` block ends."""

    def __init__(self, opts: Options | None = None, out: Callable[[str], None] | None = None):
        self.opts = opts or default_options()
        self.cache = Cache(cache_dir())
        self._client: Any = None
        self._cluster: Any = None
        self._out = out or _print

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    @property
    def workers(self) -> int:
        return local_workers(self.opts)

    def client(self) -> Any:
        if self._client is None:
            from distributed import Client, LocalCluster

            if self.opts.scheduler:
                self._client = Client(self.opts.scheduler)  # type: ignore[no-untyped-call]
                where = f"scheduler {self.opts.scheduler}"
            else:
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=self.workers,
                    threads_per_worker=1,
                    processes=False,
                    dashboard_address=":0",  # any free port: never a clash
                )
                self._client = Client(self._cluster)  # type: ignore[no-untyped-call]
                where = f"local cluster of {self.workers} workers"
            self._out(f"dask: {where} (dashboard {self._client.dashboard_link})")
        return self._client

    def run(self, jobs: Sequence[Job], on_done: OnDone | None = None) -> list[Result]:
        """Every job's result, in order: from the cache, else from a run on the
        cluster (then cached). on_done sees each result as it comes. The first
        failure cancels the rest and raises JobError."""
        results: list[Result | None] = [None] * len(jobs)
        todo: list[int] = []
        for i, job in enumerate(jobs):
            hit = self.cache.get(job.kind, job.key) if self.opts.cache else None
            if hit is not None:
                self._out(f"{job.label}: cached result (inputs {job.key[:12]} unchanged)")
                results[i] = hit
                if on_done:
                    on_done(job, hit)
            else:
                todo.append(i)
        if todo:
            self._submit(jobs, todo, results, on_done)
        return [r for r in results if r is not None]

    def _submit(
        self,
        jobs: Sequence[Job],
        todo: list[int],
        results: list[Result | None],
        on_done: OnDone | None,
    ) -> None:
        from distributed import wait

        client = self.client()
        futures = {
            client.submit(
                _call,
                jobs[i].fn,
                jobs[i].args,
                pure=False,
                key=f"{jobs[i].kind}-{i}-{jobs[i].key[:16]}-{time.monotonic_ns()}",
            ): i
            for i in todo
        }
        t0 = time.monotonic()
        left = set(futures)
        n = len(futures)
        self._out(f"{n} job(s) submitted, {len(jobs) - n} cached")
        try:
            while left:
                try:
                    done, _ = wait(  # type: ignore[no-untyped-call]
                        list(left), timeout=HEARTBEAT, return_when="FIRST_COMPLETED"
                    )
                except TimeoutError:
                    busy = ", ".join(jobs[futures[f]].label for f in left)
                    self._out(f"  ... {time.monotonic() - t0:.0f} s, running or queued: {busy}")
                    continue
                for fut in done:
                    left.discard(fut)
                    i = futures[fut]
                    job = jobs[i]
                    if fut.status != "finished":
                        exc = fut.exception()
                        raise JobError(f"{job.label}: {exc}") from None
                    res: Result = fut.result()
                    self.cache.put(job.kind, job.key, res)
                    results[i] = res
                    self._out(
                        f"[{n - len(left)}/{n}] {job.label}: done "
                        f"({time.monotonic() - t0:.0f} s elapsed)"
                    )
                    if on_done:
                        on_done(job, res)
        finally:
            for fut in left:
                fut.cancel()


def _print(line: str) -> None:
    print(line, flush=True)


def run_jobs(jobs: Sequence[Job], opts: Options | None = None) -> list[Result]:
    """Run jobs on a cluster of their own (started only if one misses the cache)."""
    with Executor(opts) as ex:
        return ex.run(jobs)


def fail(exc: JobError) -> NoReturn:
    """Exit the flow with a job's failure."""
    sys.exit(f"FAILED: {exc}")
