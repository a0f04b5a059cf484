#!/usr/bin/env python3
"""Soak of a TLS server with the provider: nginx (Debian's) on 127.0.0.1 under
sustained handshakes, one in ten with a malformed key share.

    soak.py --handshakes N --bench-client PATH [--groups G1,G2,...] [--clients K]

Valid handshakes come from the project's bench client (bikeprov_tls_bench
client: libssl in a loop, TLS 1.3, full handshakes only, each checked to
negotiate its group), K client processes per group at a time, in jobs of at
most CHUNK handshakes. Alongside them, one in ten of the N handshakes is a
forged ClientHello (provider/tests/malformed_shares.py's builder) whose key
share for one of the groups is truncated, empty or one byte long: each must be
answered with an alert record. The run has two phases, the first 10 % of N
and the rest; nginx's worker RSS is read after each.

Passes when every valid handshake completed, every malformed one ended in an
alert, the same nginx worker is alive at the end (a crashed worker would be
respawned by the master, so its PID is compared) and still completes a
handshake, and its RSS at the end is within RSS_LIMIT (5 %) of that after the
first phase. Prints the figures and writes them as JSON with --json.

Environment: BIKEPROV_MODULE (bikeprovider.so, required); NGINX (default:
nginx on PATH or /usr/sbin/nginx). nginx runs under `timeout`, is stopped by
its PID; every socket wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import malformed_shares as ms  # the forged-ClientHello builder

RSS_LIMIT = 0.05
CHUNK = 500
# Share lengths of the groups the forged hellos may name: the provider's, and X25519.
SHARE = {name: (cp, cl + pk) for name, (cp, cl, pk, _ct, _f) in ms.GROUPS.items()}
SHARE["X25519"] = (0x001D, 32)


def fail(msg: str) -> None:
    print(f"FAIL: {msg}", file=sys.stderr)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def worker_pid(master: int) -> int:
    """The nginx worker: the master's only child (worker_processes 1)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        raise RuntimeError(f"nginx master {master} has children {children}")
    return int(children[0])


def start_nginx(work: Path, conf: Path) -> tuple[subprocess.Popen[bytes], int]:
    nginx = os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).is_file():
        raise RuntimeError("nginx not installed (apt-get install nginx)")
    (work / "logs").mkdir()
    (work / "tmp").mkdir()
    port = ms.free_port()
    (work / "nginx.conf").write_text(
        f"""daemon off;
error_log {work}/logs/error.log notice;
pid {work}/logs/nginx.pid;
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {work}/tmp; proxy_temp_path {work}/tmp; fastcgi_temp_path {work}/tmp;
    uwsgi_temp_path {work}/tmp; scgi_temp_path {work}/tmp;
    ssl_session_cache off;
    ssl_session_tickets off;
    server {{
        listen 127.0.0.1:{port} ssl backlog=1024;
        ssl_certificate     {work}/cert.pem;
        ssl_certificate_key {work}/key.pem;
        ssl_protocols       TLSv1.3;
        location / {{ return 200 "ok\\n"; }}
    }}
}}
"""
    )
    # Under `timeout` so that nginx ends even if this script is killed; its
    # master is then timeout's child, found below by the pid file.
    proc = subprocess.Popen(
        ["timeout", "7200", nginx, "-p", str(work), "-c", str(work / "nginx.conf")],
        env=ms.openssl_env(conf),
        stdout=(work / "logs" / "stdout").open("wb"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    log = work / "logs" / "error.log"
    while not (log.exists() and b"start worker process" in log.read_bytes()):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("nginx did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.05)
    return proc, port


def valid_job(bench: str, module: str, group: str, port: int, count: int, ca: Path) -> str | None:
    """count handshakes of one bench client; None, or what went wrong."""
    args = [bench, "client", "--module", module, "--group", group, "--port", str(port)]
    args += ["--count", str(count), "--warmup", "0", "--cafile", str(ca)]
    try:
        out = subprocess.run(args, capture_output=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        return f"{group}: bench client timed out"
    if out.returncode != 0 or f"n={count} ".encode() not in out.stdout:
        return f"{group}: bench client exit {out.returncode}: {out.stderr.decode(errors='replace')}"
    return None


def malformed_one(port: int, group: str, rng: random.Random, alerts: dict[str, int]) -> str | None:
    """One forged ClientHello with a wrong-length share; None if it ended in an alert."""
    cp, n = SHARE[group]
    length = rng.choice([0, 1, rng.randrange(2, n), n - 1, n + 1])
    share = ms.rand_bytes(length)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=ms.TIMEOUT) as s:
            s.sendall(ms.client_hello(cp, share))
            rec = ms.read_record(s)
    except OSError as exc:
        return f"{group} share of {length} bytes: {exc}"
    if rec is None:
        return f"{group} share of {length} bytes: closed without an alert"
    if rec[0] != 0x15:
        return f"{group} share of {length} bytes: record type {rec[0]}, not an alert"
    key = f"alert {rec[1][1]}"
    alerts[key] = alerts.get(key, 0) + 1
    return None


def phase(
    a: argparse.Namespace, port: int, n: int, rng: random.Random, alerts: dict[str, int]
) -> tuple[list[str], int, int]:
    """n handshakes, one in ten malformed, all concurrent; the failures and the counts."""
    bad = n // 10
    good = n - bad
    groups = a.groups.split(",")
    jobs: list[tuple[str, int]] = []
    for i, g in enumerate(groups):
        left = good // len(groups) + (1 if i < good % len(groups) else 0)
        while left > 0:
            jobs.append((g, min(CHUNK, left)))
            left -= jobs[-1][1]
    rng.shuffle(jobs)
    failures: list[str] = []
    lock = threading.Lock()

    def forge() -> None:
        for i in range(bad):
            err = malformed_one(port, groups[i % len(groups)], rng, alerts)
            if err:
                with lock:
                    failures.append(err)

    with ThreadPoolExecutor(max_workers=a.clients * len(groups) + 1) as pool:
        forged = pool.submit(forge)
        results = [
            pool.submit(valid_job, a.bench_client, a.module, g, port, c, a.work / "cert.pem")
            for g, c in jobs
        ]
        forged.result()
        failures += [r for r in (f.result() for f in results) if r is not None]
    return failures, good, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--handshakes", type=int, default=2000)
    ap.add_argument("--bench-client", required=True, help="bikeprov_tls_bench")
    ap.add_argument("--groups", default="bikel1,x25519_bikel1,X25519")
    ap.add_argument("--clients", type=int, default=2, help="client processes per group")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    a = ap.parse_args()
    a.module = ms.MODULE
    if not a.module or not Path(a.module).is_file():
        fail("set BIKEPROV_MODULE to the path of bikeprovider.so")
        return 1
    a.work = Path(tempfile.mkdtemp(prefix="bikeprov-soak."))
    rng = random.Random(20261126)
    nginx: subprocess.Popen[bytes] | None = None
    try:
        key, cert = str(a.work / "key.pem"), str(a.work / "cert.pem")
        req = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        req += ["-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "1"]
        subprocess.run(req, check=True, capture_output=True)
        conf = a.work / "server.cnf"
        ms.write_conf(conf, ":".join(a.groups.split(",")))
        nginx, port = start_nginx(a.work, conf)
        master = int((a.work / "logs" / "nginx.pid").read_text())
        worker = worker_pid(master)
        alerts: dict[str, int] = {}
        first = max(10, a.handshakes // 10)
        start = time.monotonic()
        f1, g1, b1 = phase(a, port, first, rng, alerts)
        rss_first = rss_kib(worker)
        f2, g2, b2 = phase(a, port, a.handshakes - first, rng, alerts)
        seconds = time.monotonic() - start
        rss_last = rss_kib(worker)
        failures = f1 + f2
        after = valid_job(a.bench_client, a.module, "bikel1", port, 1, a.work / "cert.pem")
        if after:
            failures.append(f"after the soak: {after}")
        if worker_pid(master) != worker:
            failures.append("the nginx worker was replaced (it crashed)")
        crashes = [
            line
            for line in (a.work / "logs" / "error.log").read_text(errors="replace").splitlines()
            if "exited on signal" in line or "[alert]" in line or "[emerg]" in line
        ]
        failures += [f"nginx error.log: {line}" for line in crashes]
        growth = (rss_last - rss_first) / rss_first
        figures = {
            "handshakes": g1 + g2 + b1 + b2,
            "valid": g1 + g2,
            "malformed": b1 + b2,
            "groups": a.groups,
            "clients_per_group": a.clients,
            "seconds": round(seconds, 1),
            "handshakes_per_s": round((g1 + g2 + b1 + b2) / seconds, 1),
            "failures": len(failures),
            "malformed_alerts": alerts,
            "rss_kib_after_first_10pct": rss_first,
            "rss_kib_at_end": rss_last,
            "rss_growth_pct": round(100 * growth, 2),
        }
        print(json.dumps(figures))
        if a.json:
            a.json.write_text(json.dumps(figures, indent=2) + "\n")
        for f in failures[:20]:
            fail(f)
        if abs(growth) > RSS_LIMIT:
            fail(f"nginx worker RSS {rss_first} -> {rss_last} KiB ({100 * growth:+.1f} %)")
            return 1
        return 1 if failures else 0
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        fail(str(exc))
        return 1
    finally:
        if nginx is not None:
            ms.stop(nginx)
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
