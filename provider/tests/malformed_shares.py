#!/usr/bin/env python3
"""Malformed key shares against the system openssl with the provider.

Server side: a hand-built TLS 1.3 ClientHello whose key share for one of the
provider's groups is the wrong length or the right length but random is sent to
`openssl s_server`. The server must answer with an alert (or, when the random
bytes happen to form a usable key, a ServerHello), never crash, and then
still complete a real handshake.

Client side: a fake server answers `openssl s_client` with a ServerHello whose
key share (the ciphertext) is the wrong length or random, then a bogus
encrypted record. The client must stop with an alert and an ordinary error
exit: a wrong length or invalid classical point is refused at once, a random
BIKE or ML-KEM ciphertext decapsulates to the implicit-rejection secret, so the
client cannot decrypt what follows (the equivalent of a Finished mismatch).

Environment: BIKEPROV_MODULE (required), BIKEPROV_PRELOAD (ASan runtime for
the openssl processes). Servers bind 127.0.0.1, are killed by PID; every wait
is bounded.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

# name: (code point, classical share bytes, PQ public key bytes, PQ ciphertext bytes,
#        PQ part first in the share)
GROUPS = {
    "bikel1": (0xFE10, 0, 1541, 1573, False),
    "p256_bikel1": (0xFE11, 65, 1541, 1573, False),
    "x25519_bikel1": (0xFE12, 32, 1541, 1573, False),
    "bikel3": (0xFE13, 0, 3083, 3115, False),
    "p384_bikel3": (0xFE14, 97, 3083, 3115, False),
    "x448_bikel3": (0xFE15, 56, 3083, 3115, False),
    "bikel5": (0xFE16, 0, 5122, 5154, False),
    "p521_bikel5": (0xFE17, 133, 5122, 5154, False),
    "mlkem768": (0x0201, 0, 1184, 1088, False),
    "X25519MLKEM768": (0x11EC, 32, 1184, 1088, True),
    "SecP256r1MLKEM768": (0x11EB, 65, 1184, 1088, False),
}
TIMEOUT = 10.0
RNG = random.Random(20261122)  # reproducible "random" shares

MODULE = os.environ.get("BIKEPROV_MODULE", "")
PRELOAD = os.environ.get("BIKEPROV_PRELOAD", "")


def fail(msg: str) -> NoReturn:
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def u16(n: int) -> bytes:
    return struct.pack(">H", n)


def u24(n: int) -> bytes:
    return struct.pack(">I", n)[1:]


def ext(kind: int, body: bytes) -> bytes:
    return u16(kind) + u16(len(body)) + body


def rand_bytes(n: int) -> bytes:
    return bytes(RNG.getrandbits(8) for _ in range(n))


def client_hello(group: int, share: bytes) -> bytes:
    sigalgs = b"".join(u16(s) for s in (0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806))
    exts = (
        ext(0x002B, b"\x02\x03\x04")  # supported_versions: TLS 1.3
        + ext(0x000A, u16(2) + u16(group))  # supported_groups
        + ext(0x000D, u16(len(sigalgs)) + sigalgs)  # signature_algorithms
        + ext(0x0033, u16(4 + len(share)) + u16(group) + u16(len(share)) + share)  # key_share
    )
    suites = b"\x13\x01\x13\x02\x13\x03"
    body = (
        b"\x03\x03"
        + os.urandom(32)
        + b"\x20"
        + os.urandom(32)
        + u16(len(suites))
        + suites
        + b"\x01\x00"
        + u16(len(exts))
        + exts
    )
    hs = b"\x01" + u24(len(body)) + body
    return b"\x16\x03\x01" + u16(len(hs)) + hs


def recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def read_record(sock: socket.socket) -> tuple[int, bytes] | None:
    hdr = recv_exact(sock, 5)
    if len(hdr) < 5:
        return None
    body = recv_exact(sock, struct.unpack(">H", hdr[3:5])[0])
    return hdr[0], body


def openssl_env(conf: Path) -> dict[str, str]:
    env = dict(os.environ, OPENSSL_CONF=str(conf))
    env.pop("LD_PRELOAD", None)
    if PRELOAD:
        env["LD_PRELOAD"] = PRELOAD
    return env


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stops a process started as `timeout N openssl ...` by its PID. SIGTERM,
    not SIGKILL: timeout passes SIGTERM on to openssl (a SIGKILL would leave
    openssl running without its time limit)."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_conf(path: Path, groups: str) -> None:
    path.write_text(
        "openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
        "ssl_conf = ssl_sect\n[provider_sect]\ndefault = default_sect\nbike = bike_sect\n"
        f"[default_sect]\nactivate = 1\n[bike_sect]\nmodule = {MODULE}\nactivate = 1\n"
        f"[ssl_sect]\nsystem_default = sys_sect\n[sys_sect]\nGroups = {groups}\n"
    )


def attack_server(work: Path, conf: Path) -> None:
    """Malformed ClientHello key shares against s_server."""
    port = free_port()
    log = (work / "server.log").open("wb")  # closed in the finally clause
    server = subprocess.Popen(
        [
            "timeout",
            "120",
            "openssl",
            "s_server",
            "-accept",
            f"127.0.0.1:{port}",
            "-cert",
            str(work / "cert.pem"),
            "-key",
            str(work / "key.pem"),
            "-tls1_3",
            "-www",
        ],
        env=openssl_env(conf),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 5
        while b"ACCEPT" not in (work / "server.log").read_bytes():
            if server.poll() is not None or time.monotonic() > deadline:
                fail("s_server did not start")
            time.sleep(0.05)
        outcomes: dict[str, int] = {}
        for name, (cp, cl, pk, _ct, pq_first) in GROUPS.items():
            n = cl + pk
            cases = {
                "empty": b"",
                "one byte": b"\x04",
                "short by one": rand_bytes(n - 1),
                "long by one": rand_bytes(n + 1),
                "random": rand_bytes(n),
            }
            valid_looking = bytearray(rand_bytes(n))
            pq_at = 0 if pq_first else cl
            if "MLKEM" not in name.upper():
                valid_looking[pq_at + pk - 1] &= 0x03  # no bits above r in the BIKE key
            else:  # ML-KEM: every 12-bit coefficient of ByteEncode12(t) below q = 3329
                for i in range(pq_at + 1, pq_at + pk - 32, 3):
                    valid_looking[i] &= 0x77
                    valid_looking[i + 1] &= 0x7F
            if cl:
                valid_looking[pk if pq_first else 0] = 0x04
            cases["random, top bits clear"] = bytes(valid_looking)
            for case, share in cases.items():
                with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
                    s.sendall(client_hello(cp, share))
                    rec = read_record(s)
                if rec is None:
                    fail(f"{name} / {case}: server closed without an alert")
                kind, body = rec
                if kind == 0x15:
                    result = f"alert {body[1]}"
                elif kind == 0x16 and body[:1] == b"\x02":
                    if case not in ("random", "random, top bits clear"):
                        fail(f"{name} / {case}: server accepted a malformed share")
                    result = "ServerHello (share usable)"
                else:
                    fail(f"{name} / {case}: unexpected record type {kind}")
                if "MLKEM" in name.upper():
                    # FIPS 203 7.2: a random ek has coefficients >= q and is
                    # refused; one with all below q (and a usable classical
                    # part: X25519, not a random P-256 x) is taken.
                    if case == "random" and kind != 0x15:
                        fail(f"{name} / {case}: encapsulation key with coefficients >= q taken")
                    usable = case == "random, top bits clear" and name != "SecP256r1MLKEM768"
                    if usable and kind != 0x16:
                        fail(f"{name} / {case}: a valid encapsulation key refused")
                outcomes[result] = outcomes.get(result, 0) + 1
                if server.poll() is not None:
                    fail(f"{name} / {case}: s_server died (exit {server.returncode})")
        print(f"ok server side: {sum(outcomes.values())} malformed ClientHellos -> {outcomes}")
        # The server still works.
        client = subprocess.run(
            [
                "timeout",
                "20",
                "openssl",
                "s_client",
                "-connect",
                f"127.0.0.1:{port}",
                "-groups",
                "bikel1",
                "-CAfile",
                str(work / "cert.pem"),
            ],
            check=False,
            input=b"",
            env=openssl_env(conf),
            capture_output=True,
        )
        if client.returncode != 0:
            fail(
                "s_server no longer completes handshakes:\n"
                + client.stdout.decode(errors="replace")
            )
        print("ok s_server still completes a bikel1 handshake")
    finally:
        stop(server)
        log.close()


def attack_client(work: Path, conf: Path) -> None:
    """Malformed ServerHello key shares (ciphertexts) against s_client."""
    summary: dict[str, int] = {}
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        listener.settimeout(TIMEOUT)
        port = listener.getsockname()[1]
        for name, (cp, cl, _pk, ct, pq_first) in GROUPS.items():
            n = cl + ct
            cases: dict[str, bytes | None] = {
                "short by one": rand_bytes(n - 1),
                "long by one": rand_bytes(n + 1),
                "random": rand_bytes(n),
            }
            if cl:  # valid-looking classical part (a real point), random PQ part
                cases["random PQ part"] = None
            for case, share in cases.items():
                client = subprocess.Popen(
                    [
                        "timeout",
                        "20",
                        "openssl",
                        "s_client",
                        "-connect",
                        f"127.0.0.1:{port}",
                        "-groups",
                        name,
                        "-tls1_3",
                    ],
                    env=openssl_env(conf),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                )
                try:
                    conn, _ = listener.accept()
                    conn.settimeout(TIMEOUT)
                    with conn:
                        rec = read_record(conn)
                        if rec is None or rec[0] != 0x16 or rec[1][:1] != b"\x01":
                            fail(f"{name}: no ClientHello")
                        hello = rec[1]
                        sid_len = hello[4 + 34]
                        sid = hello[4 + 35 : 4 + 35 + sid_len]
                        if share is None:
                            # the client's own classical share: a valid point, so that
                            # only the random PQ ciphertext is wrong
                            own = client_key_share(hello, cp)
                            if pq_first:
                                share = rand_bytes(ct) + own[-cl:]
                            else:
                                share = own[:cl] + rand_bytes(ct)
                        exts = ext(0x002B, b"\x03\x04") + ext(
                            0x0033, u16(cp) + u16(len(share)) + share
                        )
                        body = (
                            b"\x03\x03"
                            + os.urandom(32)
                            + bytes([sid_len])
                            + sid
                            + b"\x13\x01\x00"
                            + u16(len(exts))
                            + exts
                        )
                        hs = b"\x02" + u24(len(body)) + body
                        conn.sendall(b"\x16\x03\x03" + u16(len(hs)) + hs)
                        conn.sendall(b"\x14\x03\x03\x00\x01\x01")  # ChangeCipherSpec
                        fake = os.urandom(80)  # "EncryptedExtensions" under a key we do not have
                        conn.sendall(b"\x17\x03\x03" + u16(len(fake)) + fake)
                        reply = read_record(conn)
                    out, _ = client.communicate(timeout=TIMEOUT)
                except BaseException:  # also SystemExit from fail()
                    stop(client)
                    raise
                rc = client.returncode
                text = out.decode(errors="replace")
                if rc != 1:
                    fail(f"{name} / {case}: s_client exit {rc} (want 1, an ordinary error)\n{text}")
                if reply is None or reply[0] not in (0x15, 0x17):
                    fail(f"{name} / {case}: s_client sent no alert")
                key = f"alert {reply[1][1]}" if reply[0] == 0x15 else "encrypted alert"
                if "bad record mac" in text:
                    key += " (bad record mac: secret mismatch)"
                summary[key] = summary.get(key, 0) + 1
    print(f"ok client side: {sum(summary.values())} malformed ServerHellos -> {summary}")


def client_key_share(hello: bytes, cp: int) -> bytes:
    """The key share the client sent for group cp, parsed from a ClientHello
    handshake message."""
    i = 4 + 2 + 32  # header, legacy_version, random
    i += 1 + hello[i]  # session id
    i += 2 + struct.unpack(">H", hello[i : i + 2])[0]  # cipher suites
    i += 1 + hello[i]  # compression methods
    end = i + 2 + struct.unpack(">H", hello[i : i + 2])[0]
    i += 2
    while i + 4 <= end:
        kind, length = struct.unpack(">HH", hello[i : i + 4])
        if kind == 0x0033:
            j, stop = i + 6, i + 4 + length
            while j + 4 <= stop:
                group, klen = struct.unpack(">HH", hello[j : j + 4])
                if group == cp:
                    return hello[j + 4 : j + 4 + klen]
                j += 4 + klen
        i += 4 + length
    fail("no key share for the group in the ClientHello")
    return b""


def main() -> None:
    if not MODULE or not Path(MODULE).is_file():
        fail("set BIKEPROV_MODULE to the path of bikeprovider.so")
    if shutil.which("openssl") is None:
        fail("openssl not installed")
    work = Path(tempfile.mkdtemp(prefix="bikeprov-malformed."))
    try:
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                str(work / "key.pem"),
                "-out",
                str(work / "cert.pem"),
                "-subj",
                "/CN=localhost",
                "-days",
                "1",
            ],
            check=True,
            capture_output=True,
            env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"},
        )
        conf = work / "bike.cnf"
        write_conf(conf, ":".join(GROUPS))
        attack_server(work, conf)
        attack_client(work, conf)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("all malformed key share tests passed")


if __name__ == "__main__":
    main()
