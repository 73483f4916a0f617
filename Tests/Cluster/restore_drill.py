#!/usr/bin/env python3
"""Restore drill of one shard replicated by Litestream (issue 30 §2): nothing acknowledged before the last
replication is lost when the shard's database is lost and restored from the replica.

1. `bgemu serve --replicated --shard-id s1` on a fresh database, and `litestream replicate` to a `file` replica.
2. Acknowledged writes through the HTTP API: devices created, their clocks advanced (each write answered only
   once committed), then a few seconds of write load from several threads, the WAL sampled meanwhile: it must
   start over (Litestream's checkpoints happen) and never pass bgemu's hard limit.
3. Replication caught up: `litestream sync -wait`, then the replica's newest TXID equal to the local one.
4. The machine lost: `kill -9` of the shard and of Litestream, the database, its -wal, -shm and Litestream's
   folder deleted; `litestream restore`; `PRAGMA integrity_check`; the shard started again.
5. Every acknowledged device (by id, with its clock), every event (by id, with its JSON) and the counts are there;
   the service takes a new write, and Litestream, started again, replicates it.

Python 3 standard library and the `litestream` binary (Tests/Cluster/install-litestream.sh) only. Prints
PASS/FAIL lines and a `N passed, N failed` summary; exits non-zero on any failure.
"""
import argparse
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

KEY = "restore-drill-key-0123456789abcdef"
WAL_FRAME = 4096 + 24
HARD_LIMIT_PAGES = 20_000  # WALCheckpointer.Limits().hardLimit


class Drill:
    def __init__(self, args: argparse.Namespace, work: str) -> None:
        self.args = args
        self.work = work
        self.db = os.path.join(work, "s1.sqlite")
        self.replica = os.path.join(work, "replica")
        self.socket = os.path.join(work, "litestream.sock")
        self.config = os.path.join(work, "litestream.yml")
        self.results: list[tuple[bool, str]] = []
        self.server: subprocess.Popen | None = None
        self.litestream: subprocess.Popen | None = None
        self.url = ""

    # ---- checks and processes -------------------------------------------------------------------------

    def check(self, ok: bool, what: str) -> bool:
        self.results.append((ok, what))
        print(("PASS " if ok else "FAIL ") + what, flush=True)
        return ok

    def start_shard(self, name: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BGEMU_")}
        env["BGEMU_API_KEY"] = KEY
        log_path = os.path.join(self.work, f"{name}.log")
        log = open(log_path, "w")
        self.server = subprocess.Popen(
            [self.args.binary, "serve", "--replicated", "--shard-id", "s1", "--database", self.db, "--port", "0",
             "--log-level", "notice", "--rate-limit", "0", "--max-devices-per-tenant", "1000000",
             "--public-directory", self.work, "--openapi", os.path.join(self.work, "none.yaml")],
            stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", open(log_path).read())
            if found:
                self.url = found.group(1)
                return
            if self.server.poll() is not None:
                break
            time.sleep(0.05)
        print(open(log_path).read()[-4000:], file=sys.stderr)
        raise RuntimeError(f"{name}: the shard did not start")

    def start_litestream(self, name: str) -> None:
        log = open(os.path.join(self.work, f"{name}.log"), "w")
        self.litestream = subprocess.Popen(
            [self.args.litestream, "replicate", "-config", self.config], stdout=log, stderr=subprocess.STDOUT)

    @staticmethod
    def kill(process: subprocess.Popen | None) -> None:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {KEY}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read()
                return answer.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            return error.code, None

    def pages(self, path: str) -> list[dict]:
        items: list[dict] = []
        cursor = ""
        while True:
            separator = "&" if "?" in path else "?"
            status, page = self.request("GET", f"{path}{separator}limit=500" + (f"&cursor={cursor}" if cursor else ""))
            if status != 200 or not isinstance(page, dict):
                raise RuntimeError(f"GET {path}: {status}")
            items += page["items"]
            cursor = page.get("nextCursor") or ""
            if not cursor:
                return items

    def litestream_json(self, command: str, *arguments: str) -> object:
        """`litestream COMMAND -json ARGUMENTS…` decoded (flags before the database, as Go's flag package wants)."""
        run = subprocess.run([self.args.litestream, command, "-json", *arguments], capture_output=True, text=True, timeout=60)
        return json.loads(run.stdout) if run.returncode == 0 and run.stdout.strip() else None

    # ---- the drill ------------------------------------------------------------------------------------

    def write_devices(self, count: int, prefix: str, acknowledged: dict[str, str]) -> int:
        """Creates `count` devices and advances each one's clock; returns the writes refused (none expected)."""
        refused = 0
        for n in range(count):
            status, device = self.request("POST", "/v1/devices", {"name": f"{prefix}-{n}", "osVersion": "17.0"})
            if status != 201 or not isinstance(device, dict):
                refused += 1
                continue
            status, _ = self.request("POST", f"/v1/devices/{device['id']}/clock/advance", {"seconds": 60 * (n + 1)})
            if status != 200:
                refused += 1
            acknowledged[device["id"]] = f"{prefix}-{n}"
        return refused

    def load(self, seconds: float, acknowledged: dict[str, str]) -> tuple[int, int, set[bytes]]:
        """Several writers for `seconds`, the WAL sampled meanwhile: its largest size, refusals, and the WAL's
        generations seen (its header's checkpoint sequence and salts, new each time it starts over)."""
        stop = time.monotonic() + seconds
        lock = threading.Lock()
        refused = [0]

        def writer(index: int) -> None:
            mine: dict[str, str] = {}
            n = 0
            while time.monotonic() < stop:
                refused_now = self.write_devices(1, f"load{index}-{n}", mine)
                n += 1
                with lock:
                    refused[0] += refused_now
            with lock:
                acknowledged.update(mine)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(self.args.writers)]
        for thread in threads:
            thread.start()
        largest = 0
        generations: set[bytes] = set()
        while any(thread.is_alive() for thread in threads):
            try:
                largest = max(largest, os.path.getsize(self.db + "-wal"))
                with open(self.db + "-wal", "rb") as wal:
                    header = wal.read(24)
                if len(header) == 24:
                    generations.add(header[12:24])
            except OSError:
                pass
            time.sleep(0.05)
        for thread in threads:
            thread.join()
        return largest, refused[0], generations

    def caught_up(self) -> bool:
        """`litestream sync -wait` (the daemon's control socket), then the replica's newest TXID, polled, equal to
        the database's local one."""
        deadline = time.monotonic() + 60
        while True:  # a daemon just started opens its control socket, and takes the database, within a second or so
            sync = subprocess.run(
                [self.args.litestream, "sync", "-wait", "-timeout", "60", "-socket", self.socket, self.db],
                capture_output=True, text=True, timeout=90)
            if sync.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        if sync.returncode != 0:
            print(sync.stdout + sync.stderr, file=sys.stderr)
        local = replica = None
        while time.monotonic() < deadline:
            status = self.litestream_json("status", "-config", self.config, self.db)
            files = self.litestream_json("ltx", "-level", "all", "file://" + self.replica)
            if isinstance(status, list) and status:
                status = status[0]
            local = status.get("local_txid") if isinstance(status, dict) else None
            if isinstance(files, list) and files:
                replica = max(str(f.get("max_txid", "")) for f in files)
            if local is not None and replica is not None and str(local) == replica:
                break
            time.sleep(0.5)
        return self.check(
            sync.returncode == 0 and local is not None and str(local) == replica,
            f"replica caught up: sync -wait exit {sync.returncode}, local TXID {local}, replica TXID {replica}")

    def run(self) -> None:
        with open(self.config, "w") as config:
            config.write(
                f"socket:\n  enabled: true\n  path: {self.socket}\n"
                f"dbs:\n  - path: {self.db}\n    replica:\n      type: file\n      path: {self.replica}\n"
                "      sync-interval: 1s\n")
        started = time.monotonic()
        self.start_shard("serve-1")
        status, health = self.request("GET", "/healthz")
        self.check(health == {"replicated": True, "shard": "s1", "status": "ok"}, f"/healthz says replicated: {health}")
        self.start_litestream("litestream-1")

        acknowledged: dict[str, str] = {}
        refused = self.write_devices(self.args.devices, "drill", acknowledged)
        largest, load_refused, generations = self.load(self.args.load_seconds, acknowledged)
        refused += load_refused
        self.check(refused == 0, f"{len(acknowledged)} devices created and their clocks advanced, "
                                 f"{2 * len(acknowledged)} writes acknowledged, {refused} refused")
        self.check(len(generations) >= 2, f"under load the WAL started over ({len(generations)} generations seen): "
                                          "Litestream's checkpoints ran")
        self.check(largest <= HARD_LIMIT_PAGES * WAL_FRAME + 32,
                   f"the WAL stayed bounded: at most {largest / 2**20:.1f} MiB "
                   f"(hard limit {HARD_LIMIT_PAGES * WAL_FRAME / 2**20:.0f} MiB)")

        devices = {d["id"]: d for d in self.pages("/v1/devices")}
        events = {e["id"]: e for e in self.pages("/v1/events")}
        self.check(set(acknowledged) <= set(devices), f"before the loss: {len(devices)} devices, {len(events)} events")
        if not self.caught_up():
            return

        # The machine is lost: both processes killed, every file of the database gone.
        lost = time.monotonic()
        self.kill(self.server)
        self.kill(self.litestream)
        for suffix in ["", "-wal", "-shm"]:
            if os.path.exists(self.db + suffix):
                os.remove(self.db + suffix)
        shutil.rmtree(os.path.join(self.work, ".s1.sqlite-litestream"), ignore_errors=True)
        restore_started = time.monotonic()
        restore = subprocess.run([self.args.litestream, "restore", "-o", self.db, "file://" + self.replica],
                                 capture_output=True, text=True, timeout=300)
        restore_seconds = time.monotonic() - restore_started
        if not self.check(restore.returncode == 0 and os.path.exists(self.db),
                          f"litestream restore in {restore_seconds:.2f} s (exit {restore.returncode})"):
            print(restore.stdout + restore.stderr, file=sys.stderr)
            return
        with sqlite3.connect(self.db) as connection:
            integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        self.check(integrity == "ok", f"restored file's integrity_check: {integrity}")

        self.start_shard("serve-2")
        self.check(time.monotonic() - lost < 120, f"shard answering again {time.monotonic() - lost:.1f} s after the loss")
        restored_devices = {d["id"]: d for d in self.pages("/v1/devices")}
        restored_events = {e["id"]: e for e in self.pages("/v1/events")}
        missing = [d for d in acknowledged if d not in restored_devices]
        self.check(not missing, f"every acknowledged device restored: {len(acknowledged) - len(missing)} of "
                                f"{len(acknowledged)}" + (f", missing {missing[:5]}" if missing else ""))
        changed = [i for i, d in devices.items() if "clock" not in d or restored_devices.get(i, {}).get("clock") != d["clock"]]
        self.check(not changed, f"every device's clock as acknowledged ({len(changed)} differ)")
        lost_events = [i for i in events if restored_events.get(i) != events[i]]
        self.check(not lost_events, f"every event restored by id with its JSON: {len(events) - len(lost_events)} of "
                                    f"{len(events)}")
        self.check((len(restored_devices), len(restored_events)) == (len(devices), len(events)),
                   f"counts equal: {len(restored_devices)} devices, {len(restored_events)} events")

        # Replication resumes from the restored database.
        self.start_litestream("litestream-2")
        after: dict[str, str] = {}
        self.check(self.write_devices(1, "after-restore", after) == 0 and len(after) == 1,
                   "the restored shard takes a new write")
        if self.caught_up():
            probe = os.path.join(self.work, "probe.sqlite")
            subprocess.run([self.args.litestream, "restore", "-o", probe, "file://" + self.replica],
                           capture_output=True, timeout=300)
            with sqlite3.connect(probe) as connection:
                found = connection.execute("SELECT count(*) FROM devices WHERE id = ?", (next(iter(after)),)).fetchone()[0]
            self.check(found == 1, "after the restore Litestream replicates again (the new write is in the replica)")
        print(f"drill: {time.monotonic() - started:.1f} s in all", flush=True)

    def close(self) -> None:
        self.kill(self.server)
        if self.litestream is not None and self.litestream.poll() is None:
            self.litestream.terminate()
            try:
                self.litestream.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill(self.litestream)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/debug/bgemu")
    parser.add_argument("--litestream", default=shutil.which("litestream") or "litestream")
    parser.add_argument("--devices", type=int, default=50, help="devices written before the load")
    parser.add_argument("--load-seconds", type=float, default=8)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the drill's folder (its logs)")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    version = subprocess.run([args.litestream, "version"], capture_output=True, text=True).stdout.strip()
    print(f"restore drill: bgemu {args.binary}, litestream {version}", flush=True)
    work = tempfile.mkdtemp(prefix="bgemu-restore-drill-")
    drill = Drill(args, work)
    try:
        drill.run()
    except Exception as error:  # a crash of the drill is a failure, reported as such
        drill.check(False, f"the drill stopped: {error!r}")
    finally:
        drill.close()
        if args.keep:
            print(f"drill folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    failed = sum(1 for ok, _ in drill.results if not ok)
    passed = len(drill.results) - failed
    print(f"restore-drill: {passed} passed, {failed} failed")
    return 1 if failed or not drill.results else 0


if __name__ == "__main__":
    sys.exit(main())
