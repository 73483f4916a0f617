#!/usr/bin/env python3
"""bgemu's HTTP benchmark: wrk against the release build, with a Hummingbird 2 server as the yardstick.

Run from the repository root:

    python3 Benchmarks/bench.py                      # build, then every benchmark, 10 s per run
    python3 Benchmarks/bench.py --duration 5 --no-build
    python3 Benchmarks/bench.py --only bgemu-healthz --only hummingbird-healthz
    python3 Benchmarks/bench.py --list
    python3 Benchmarks/bench.py --json /tmp/bench.json

Not a test and not run in CI: the figures depend on the machine and on what else it is doing.
Python 3 standard library only. See Benchmarks/README.md.

Adding a benchmark: write a function `def bench_NAME(ctx: Context, server: Server) -> list[Result]`
and register it with `@benchmark("NAME", server="bgemu", about="...")`. The runner starts each server
once, runs the selected benchmarks that need it in registration order, and stops it before the next one
(so two servers never share the 2 cores).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
HB_PACKAGE = REPO / "Benchmarks" / "HummingbirdHealthz"
HB_SCRATCH = HB_PACKAGE / ".build-release"
BGEMU_BINARY = REPO / ".build" / "release" / "bgemu"
HB_BINARY = HB_SCRATCH / "release" / "hb-healthz"

CONNECTIONS = (64, 256)
WRK_THREADS = 2
WARMUP_SECONDS = 2
OTHER_CPU_WARNING = 0.25  # cores of other work during a run above which the run is flagged


# --------------------------------------------------------------------------------------------------
# Results


@dataclasses.dataclass
class Result:
    """One measured figure set: a wrk run, or (for later benchmarks) any other timing."""

    benchmark: str
    target: str  # e.g. "bgemu /healthz"
    connections: int | None
    requests_per_second: float | None
    p99_ms: float | None
    p50_ms: float | None = None
    requests: int | None = None
    duration_s: float | None = None
    errors: dict[str, int] = dataclasses.field(default_factory=dict)
    server_cpu: float | None = None  # cores the server used during the run (1.0 = one core, all the time)
    wrk_cpu: float | None = None  # cores wrk used during the run
    other_cpu: float | None = None  # cores busy with anything else (other work, unattributed kernel time)
    extra: dict[str, object] = dataclasses.field(default_factory=dict)

    @property
    def requests_per_server_cpu_second(self) -> float | None:
        if self.requests_per_second is None or not self.server_cpu:
            return None
        return self.requests_per_second / self.server_cpu


# --------------------------------------------------------------------------------------------------
# Processes and temporary files, always cleaned up


class Context:
    """What the benchmarks share: options, a temp folder, and every child process (killed on exit)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.duration: int = args.duration
        self.tmp = Path(tempfile.mkdtemp(prefix="bgemu-bench-"))
        self.processes: list[subprocess.Popen] = []

    def spawn(self, argv: list[str], *, env: dict[str, str] | None = None, log: Path | None = None,
              session: bool = True) -> subprocess.Popen:
        out = open(log, "wb") if log else subprocess.DEVNULL
        try:
            process = subprocess.Popen(
                argv, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=session)
        finally:
            if log:
                out.close()
        self.processes.append(process)
        return process

    def stop(self, process: subprocess.Popen, timeout: float = 10) -> int | None:
        """SIGTERM, then SIGKILL after `timeout` seconds; returns the exit status."""
        if process.poll() is None:
            try:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                print(f"  ! pid {process.pid} ignored SIGTERM for {timeout:.0f} s; killing it", flush=True)
                process.kill()
                process.wait()
            except ProcessLookupError:
                pass
        if process in self.processes:
            self.processes.remove(process)
        return process.returncode

    def cleanup(self) -> None:
        for process in list(self.processes):
            try:
                self.stop(process, timeout=5)
            except Exception as error:  # keep cleaning up the rest
                print(f"  ! could not stop pid {process.pid}: {error}", file=sys.stderr)
        shutil.rmtree(self.tmp, ignore_errors=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, *, body: object | None = None, token: str | None = None,
         timeout: float = 5) -> tuple[int, bytes, dict[str, str]]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


# --------------------------------------------------------------------------------------------------
# Servers


@dataclasses.dataclass
class Server:
    name: str
    process: subprocess.Popen
    port: int
    log: Path
    info: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server's process, all threads, from /proc/PID/stat."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def wait_until_healthy(server: Server, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"{server.name} exited with status {server.process.returncode} before answering:\n"
                + server.log_tail())
        try:
            status, _, _ = http("GET", server.base + "/healthz", timeout=1)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{server.name} did not answer /healthz within {timeout:.0f} s:\n" + server.log_tail())


def start_bgemu(ctx: Context) -> Server:
    port = free_port()
    database = ctx.tmp / "bench.sqlite"
    api_key = "bgemu_bench_" + secrets.token_urlsafe(24)
    admin_token = "bgemu_admin_" + secrets.token_urlsafe(24)
    env = dict(os.environ, BGEMU_API_KEY=api_key)
    argv = [str(BGEMU_BINARY), "serve", "--port", str(port), "--database", str(database),
            "--log-level", "warning", "--admin-token", admin_token]
    if ctx.args.bgemu_threads:
        argv += ["--threads", str(ctx.args.bgemu_threads)]
    log = ctx.tmp / "bgemu.log"
    server = Server("bgemu", ctx.spawn(argv, env=env, log=log), port, log)
    wait_until_healthy(server)
    status, body, _ = http("POST", server.base + "/v1/devices", body={"name": "bench"}, token=api_key)
    if status not in (200, 201):
        raise RuntimeError(f"POST /v1/devices answered {status}: {body[:300]!r}")
    server.info = {"api_key": api_key, "device_id": json.loads(body)["id"]}
    return server


def start_hummingbird(ctx: Context) -> Server:
    port = free_port()
    log = ctx.tmp / "hb-healthz.log"
    server = Server("hummingbird", ctx.spawn([str(HB_BINARY), str(port)], log=log), port, log)
    wait_until_healthy(server)
    return server


SERVERS: dict[str, Callable[[Context], Server]] = {
    "bgemu": start_bgemu,
    "hummingbird": start_hummingbird,
}


# --------------------------------------------------------------------------------------------------
# wrk

_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * _UNITS_MS[match.group(2)]


def parse_wrk(output: str) -> dict[str, object]:
    """Requests/s, latency percentiles, counts and errors from `wrk --latency` output."""
    figures: dict[str, object] = {"errors": {}}
    if m := re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M):
        figures["requests_per_second"] = float(m.group(1))
    percentiles = {}
    for m in re.finditer(r"^\s+(50|75|90|99)%\s+(\S+)$", output, re.M):
        percentiles[int(m.group(1))] = _ms(m.group(2))
    figures["percentiles_ms"] = percentiles
    if m := re.search(r"^\s+(\d+) requests in ([\d.]+)(us|ms|s|m|h)", output, re.M):
        figures["requests"] = int(m.group(1))
        figures["duration_s"] = _ms(m.group(2) + m.group(3)) / 1000
    errors: dict[str, int] = {}
    if m := re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output):
        for key, value in zip(("connect", "read", "write", "timeout"), m.groups()):
            if int(value):
                errors[f"socket {key}"] = int(value)
    if m := re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        errors["non-2xx/3xx"] = int(m.group(1))
    figures["errors"] = errors
    return figures


def run_wrk(ctx: Context, server: Server, url: str, connections: int, duration: int,
            headers: dict[str, str] | None = None) -> tuple[dict[str, object], str]:
    """One wrk run; besides wrk's figures, the CPU the server and wrk used (in cores) while it ran."""
    argv = ["wrk", f"-t{WRK_THREADS}", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "5s"]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    argv.append(url)
    # wrk stays in our process group, so Ctrl-C reaches it too; it is tracked for cleanup all the same.
    log = ctx.tmp / "wrk.out"
    children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    server0, busy0, wall0 = server.cpu_seconds(), machine_busy_seconds(), time.monotonic()
    process = ctx.spawn(argv, log=log, session=False)
    try:
        process.wait(timeout=duration + 30)
    finally:
        ctx.stop(process)
    server1, busy1, wall1 = server.cpu_seconds(), machine_busy_seconds(), time.monotonic()
    children1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = log.read_text(errors="replace")
    if process.returncode != 0:
        raise RuntimeError(f"wrk exited with status {process.returncode}:\n{output}")
    figures = parse_wrk(output)
    wall = max(wall1 - wall0, 1e-9)
    if server0 is not None and server1 is not None:
        figures["server_cpu"] = (server1 - server0) / wall
    wrk_seconds = (children1.ru_utime + children1.ru_stime) - (children0.ru_utime + children0.ru_stime)
    figures["wrk_cpu"] = wrk_seconds / wall
    if busy0 is not None and busy1 is not None and "server_cpu" in figures:
        figures["other_cpu"] = max(0.0, (busy1 - busy0) / wall - figures["server_cpu"] - figures["wrk_cpu"])
    return figures, output


def wrk_series(ctx: Context, server: Server, benchmark: str, target: str, path: str,
               headers: dict[str, str] | None = None) -> list[Result]:
    """A 2 s warm-up, then one measured run per connection count, against `server`'s `path`."""
    url = server.base + path
    print(f"  warm-up {target} ({WARMUP_SECONDS} s, {CONNECTIONS[0]} connections)", flush=True)
    run_wrk(ctx, server, url, CONNECTIONS[0], WARMUP_SECONDS, headers)
    results = []
    for connections in CONNECTIONS:
        # A run during which other work took CPU is measured again (up to --retries times, after waiting
        # up to 30 s for a quiet machine); the cleanest attempt is kept and its `other` column tells.
        figures, output = run_wrk(ctx, server, url, connections, ctx.duration, headers)
        last = figures
        for attempt in range(ctx.args.retries):
            if last.get("other_cpu") is None or last["other_cpu"] <= OTHER_CPU_WARNING:
                break
            print(f"  (c={connections}: {last['other_cpu']:.2f} cores of other work during that run; "
                  f"measuring again, {attempt + 1} of {ctx.args.retries})", flush=True)
            wait_quiet(30, quiet_samples=2, announce=False)
            last, last_output = run_wrk(ctx, server, url, connections, ctx.duration, headers)
            if last.get("other_cpu", float("inf")) < figures.get("other_cpu", float("inf")):
                figures, output = last, last_output  # keep the cleanest attempt
        percentiles = figures.get("percentiles_ms", {})
        result = Result(
            benchmark=benchmark, target=target, connections=connections,
            requests_per_second=figures.get("requests_per_second"),
            p99_ms=percentiles.get(99), p50_ms=percentiles.get(50),
            requests=figures.get("requests"), duration_s=figures.get("duration_s"),
            errors=figures["errors"], server_cpu=figures.get("server_cpu"), wrk_cpu=figures.get("wrk_cpu"),
            other_cpu=figures.get("other_cpu"))
        rps = f"{result.requests_per_second:,.0f}" if result.requests_per_second is not None else "?"
        p99 = f"{result.p99_ms:.2f} ms" if result.p99_ms is not None else "?"
        cpu = f"   server {result.server_cpu:.2f} cores" if result.server_cpu is not None else ""
        print(f"  {target:<28} c={connections:<4} {rps:>10} req/s   p99 {p99}{cpu}", flush=True)
        if result.errors:
            print(f"  ! wrk reported errors: {result.errors}", flush=True)
        if result.other_cpu is not None and result.other_cpu > OTHER_CPU_WARNING:
            print(f"  ! {result.other_cpu:.2f} cores went to other work during this run: "
                  "its figures are skewed; run again when the machine is quiet", flush=True)
        if result.requests_per_second is None:
            print("  ! could not parse wrk's output:\n" + output, flush=True)
        results.append(result)
    return results


# --------------------------------------------------------------------------------------------------
# The benchmarks


@dataclasses.dataclass
class Benchmark:
    name: str
    server: str  # a key of SERVERS
    about: str
    run: Callable[[Context, Server], list[Result]]


BENCHMARKS: list[Benchmark] = []


def benchmark(name: str, *, server: str, about: str):
    def register(function: Callable[[Context, Server], list[Result]]):
        BENCHMARKS.append(Benchmark(name, server, about, function))
        return function
    return register


@benchmark("bgemu-healthz", server="bgemu", about="wrk: bgemu GET /healthz (no auth, no database)")
def bench_bgemu_healthz(ctx: Context, server: Server) -> list[Result]:
    return wrk_series(ctx, server, "bgemu-healthz", "bgemu /healthz", "/healthz")


@benchmark("bgemu-device", server="bgemu",
           about="wrk: bgemu GET /v1/devices/{id} (Bearer key check + SQLite read + JSON)")
def bench_bgemu_device(ctx: Context, server: Server) -> list[Result]:
    return wrk_series(ctx, server, "bgemu-device", "bgemu /v1/devices/{id}",
                      f"/v1/devices/{server.info['device_id']}",
                      headers={"Authorization": f"Bearer {server.info['api_key']}"})


@benchmark("hummingbird-healthz", server="hummingbird",
           about="wrk: Hummingbird 2.28.1 GET /healthz, the same body (the yardstick)")
def bench_hummingbird_healthz(ctx: Context, server: Server) -> list[Result]:
    return wrk_series(ctx, server, "hummingbird-healthz", "Hummingbird /healthz", "/healthz")


# Later benchmarks (the 10,000 SSE streams, the clock-advance timing) register here the same way, e.g.
#
#   @benchmark("bgemu-sse", server="bgemu", about="10,000 concurrent Server-Sent-Events streams")
#   def bench_bgemu_sse(ctx: Context, server: Server) -> list[Result]:
#       ...  # open the streams against server.base with server.info["api_key"], time what matters
#       return [Result("bgemu-sse", "bgemu SSE streams", connections=10_000, requests_per_second=None,
#                      p99_ms=..., extra={"open_s": ...})]


# --------------------------------------------------------------------------------------------------
# Setup, machine, report


def ensure_wrk() -> None:
    if shutil.which("wrk"):
        return
    print("wrk not found: installing it with apt-get", flush=True)
    subprocess.run(["apt-get", "update"], check=True)
    subprocess.run(["apt-get", "install", "-y", "wrk"], check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def build(selected: list[Benchmark]) -> None:
    servers = {b.server for b in selected}
    steps = []
    if "bgemu" in servers:
        steps.append(("bgemu (release)", ["swift", "build", "-c", "release", "--product", "bgemu"]))
    if "hummingbird" in servers:
        steps.append(("hb-healthz (release; the first build takes several minutes)",
                      ["swift", "build", "-c", "release", "--package-path", str(HB_PACKAGE),
                       "--scratch-path", str(HB_SCRATCH)]))
    for what, argv in steps:
        print(f"building {what} ...", flush=True)
        if subprocess.run(argv, cwd=REPO).returncode != 0:
            sys.exit(f"bench: the build of {what.split(' (')[0]} failed (see above); nothing was measured. "
                     "--no-build measures the binaries already built.")


def machine_busy_seconds() -> float | None:
    """CPU-seconds all cores have spent busy since boot (everything but idle and iowait), from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:8]]
    except (OSError, ValueError):
        return None
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def cpu_busy_percent(seconds: float = 1.0) -> float | None:
    """How busy the machine was over `seconds`, in % of all cores: other work skews the figures."""
    busy0, wall0 = machine_busy_seconds(), time.monotonic()
    time.sleep(seconds)
    busy1, wall1 = machine_busy_seconds(), time.monotonic()
    if busy0 is None or busy1 is None:
        return None
    return 100.0 * (busy1 - busy0) / (wall1 - wall0) / (os.cpu_count() or 1)


def wait_quiet(limit: int, threshold: float = 10.0, quiet_samples: int = 3, announce: bool = True) -> None:
    """Waits (up to `limit` seconds) until the CPU is under `threshold` % busy for `quiet_samples` s in a row."""
    deadline = time.monotonic() + limit
    quiet = 0
    announced = False
    while time.monotonic() < deadline:
        busy = cpu_busy_percent()
        if busy is None:
            return
        quiet = quiet + 1 if busy < threshold else 0
        if quiet >= quiet_samples:
            return
        if quiet == 0 and announce and not announced:
            print(f"  waiting for a quiet machine (CPU {busy:.0f}% busy; up to {limit} s) ...", flush=True)
            announced = True
    if announce:
        print(f"! the machine did not quieten within {limit} s; measuring anyway", flush=True)


def machine() -> dict[str, str]:
    def command(*argv: str) -> str:
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "?"

    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    swift = command("swift", "--version").splitlines()
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return {
        "nproc": command("nproc"),
        "cpu": cpu,
        "kernel": f"{platform.system()} {platform.release()}",
        "swift": swift[0] if swift else "?",
        "wrk": (command("wrk", "--version").splitlines() or ["?"])[0].split(" Copyright")[0].strip(),
        "load_before": load,
        "cpu_busy_before": (f"{busy:.0f}%" if (busy := cpu_busy_percent()) is not None else "?"),
    }


def report(results: list[Result], info: dict[str, str], duration: int) -> dict[str, float]:
    print()
    print(f"Machine: {info['nproc']} cores, {info['cpu']}; {info['kernel']}; {info['swift']}; {info['wrk']}")
    print(f"Before the runs: load average {info['load_before']}, CPU {info['cpu_busy_before']} busy "
          "(over 1 s, with no benchmark running)")
    print(f"wrk -t{WRK_THREADS} --latency, {duration} s per run after a {WARMUP_SECONDS} s warm-up. "
          "wrk runs on the same cores as the server, so it takes part of the CPU the server could use:")
    print("the figures compare servers on this machine; they are not the servers' capacity.")
    print()
    def figure(value: float | None, form: str) -> str:
        return "-" if value is None else format(value, form)

    header = (f"{'target':<24} {'conns':>5} {'requests/s':>11} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'server CPU':>10} {'wrk CPU':>8} {'other':>6} {'req/CPU-s':>10}  errors")
    print(header)
    print("-" * len(header))
    for r in results:
        errors = ", ".join(f"{k} {v}" for k, v in r.errors.items()) or "none"
        if r.extra:  # figures of benchmarks that are not plain wrk runs
            errors += "   " + ", ".join(f"{k}={v}" for k, v in r.extra.items())
        conns = str(r.connections) if r.connections is not None else "-"
        print(f"{r.target:<24} {conns:>5} {figure(r.requests_per_second, ',.0f'):>11} "
              f"{figure(r.p50_ms, '.2f'):>7} {figure(r.p99_ms, '.2f'):>7} {figure(r.server_cpu, '.2f'):>10} "
              f"{figure(r.wrk_cpu, '.2f'):>8} {figure(r.other_cpu, '.2f'):>6} "
              f"{figure(r.requests_per_server_cpu_second, ',.0f'):>10}  {errors}")
    print(f"(CPU columns in cores, {os.cpu_count()}.00 = every core all the time; other = anything but the server "
          "and wrk, such as\n another build or kernel time charged to no process; req/CPU-s = requests/s per core "
          "the server used)")
    if any(r.other_cpu is not None and r.other_cpu > OTHER_CPU_WARNING for r in results):
        print(f"! some runs had more than {OTHER_CPU_WARNING} cores of other work: their figures are skewed")

    ratios: dict[str, float] = {}
    by_key = {(r.benchmark, r.connections): r for r in results}
    for connections in CONNECTIONS:
        ours = by_key.get(("bgemu-healthz", connections))
        theirs = by_key.get(("hummingbird-healthz", connections))
        if ours and theirs and ours.requests_per_second and theirs.requests_per_second:
            ratios[f"healthz_c{connections}"] = ours.requests_per_second / theirs.requests_per_second
        if ours and theirs and ours.requests_per_server_cpu_second and theirs.requests_per_server_cpu_second:
            ratios[f"healthz_c{connections}_per_cpu"] = (
                ours.requests_per_server_cpu_second / theirs.requests_per_server_cpu_second)
    if ratios:
        print()
        print("bgemu ÷ Hummingbird, /healthz (above 1: bgemu is faster):")
        for connections in CONNECTIONS:
            if (ratio := ratios.get(f"healthz_c{connections}")) is not None:
                per_cpu = ratios.get(f"healthz_c{connections}_per_cpu")
                tail = f"   per server CPU-second: {per_cpu:.2f}" if per_cpu is not None else ""
                print(f"  {connections:>4} connections: requests/s {ratio:.2f}{tail}")
    return ratios


# --------------------------------------------------------------------------------------------------
# Main


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per measured wrk run (default 10)")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already built")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this benchmark (repeatable, or comma-separated); see --list")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--wait-quiet", type=int, default=0, metavar="SECONDS",
                        help="before measuring, wait up to SECONDS for the CPU to be under 10%% busy (default 0)")
    parser.add_argument("--retries", type=int, default=2, metavar="N",
                        help="measure a run again, up to N times, when other work took more than "
                             f"{OTHER_CPU_WARNING} cores during it; the cleanest attempt is kept (default 2)")
    parser.add_argument("--bgemu-threads", type=int, metavar="N",
                        help="pass --threads N to bgemu (default: its own, one event loop per core)")
    args = parser.parse_args(argv)
    if args.duration < 1:
        parser.error("--duration must be at least 1")
    return args


def select(args: argparse.Namespace) -> list[Benchmark]:
    if not args.only:
        return list(BENCHMARKS)
    names = [n.strip() for item in args.only for n in item.split(",") if n.strip()]
    known = {b.name for b in BENCHMARKS}
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return [b for b in BENCHMARKS if b.name in names]


def _terminate(signum, frame):  # SIGTERM / SIGHUP: unwind through the finally blocks like Ctrl-C
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list:
        for b in BENCHMARKS:
            print(f"{b.name:<22} [{b.server}] {b.about}")
        return 0
    selected = select(args)
    os.chdir(REPO)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)

    ensure_wrk()
    if not args.no_build:
        build(selected)
    for b in selected:
        binary = BGEMU_BINARY if b.server == "bgemu" else HB_BINARY
        if not binary.exists():
            sys.exit(f"{binary} is missing: run without --no-build")

    if args.wait_quiet > 0:
        wait_quiet(args.wait_quiet)
    info = machine()
    busy = info["cpu_busy_before"]
    if busy != "?" and float(busy.rstrip("%")) > 10:
        print(f"! the CPU is {busy} busy before the runs (load average {info['load_before']}): "
              "other work on the machine will skew the figures", flush=True)

    ctx = Context(args)
    results: list[Result] = []
    try:
        # One server at a time, in the order the servers first appear among the selected benchmarks.
        order = list(dict.fromkeys(b.server for b in selected))
        for name in order:
            print(f"starting {name} ...", flush=True)
            server = SERVERS[name](ctx)
            try:
                for b in selected:
                    if b.server == name:
                        print(f"[{b.name}] {b.about}", flush=True)
                        results.extend(b.run(ctx, server))
                if server.process.poll() is not None:
                    print(f"! {name} died during the runs (status {server.process.returncode}):\n"
                          + server.log_tail(), flush=True)
            finally:
                status = ctx.stop(server.process)
                if status not in (0, None, -signal.SIGTERM):
                    print(f"! {name} exited with status {status} on SIGTERM:\n" + server.log_tail(), flush=True)
    except KeyboardInterrupt:
        print("\ninterrupted: stopping the servers and removing the temp files", file=sys.stderr)
        return 130
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        print(f"\nbench: {error}", file=sys.stderr)
        return 1
    finally:
        ctx.cleanup()

    ratios = report(results, info, args.duration)
    if args.json:
        payload = {
            "machine": info,
            "duration_s": args.duration,
            "warmup_s": WARMUP_SECONDS,
            "wrk_threads": WRK_THREADS,
            "results": [dict(dataclasses.asdict(r),
                             requests_per_server_cpu_second=r.requests_per_server_cpu_second) for r in results],
            "ratios_bgemu_over_hummingbird": ratios,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 1 if any(r.errors or r.requests_per_second is None for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
