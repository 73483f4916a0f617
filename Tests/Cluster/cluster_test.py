#!/usr/bin/env python3
"""Three bgemu shards behind HAProxy on loopback, checked as a user of the cluster meets them (issue 30).

Starts three shards (`bgemu serve --shard-id sN`, each with its own SQLite file) and HAProxy with the repository's
own `deploy/haproxy/haproxy.cfg` (its environment variables pointing at the shards, a map file and a runtime socket
in a temporary folder, short proxy timeouts), then checks:

- a tenant created on each shard by `bgemu tenants create --shard` is placed in the map file and the running proxy;
  each tenant's requests through the proxy reach its own shard (`Bgemu-Shard`), and its key is unknown elsewhere;
- the CLI through the proxy works unchanged; `bgemu tenants list --shard …` equals the union of the shards' own lists;
- an event stream through the proxy (`?access_token=`, as browsers open it) stays open past the proxy's client and
  server timeouts on the shards' heartbeats, and, after its shard is killed and restarted, resumes with
  `Last-Event-ID` with no gap and no duplicate;
- while a shard is down only its tenants are answered 503 with `Retry-After` (problem+json), the others 2xx;
- a key naming a tenant no shard holds is 401 at the proxy; a key of the older form goes to the default shard;
- `bgemu tenants move` under a write load through the proxy: the writer meets only the fence's 503s, every write
  acknowledged is on the target afterwards, the proxy sends the tenant there, the source holds it no more;
- a forecast split four ways with GNU parallel and merged equals the unsplit one byte for byte.

Usage: python3 Tests/Cluster/cluster_test.py [--binary .build/debug/bgemu] [--haproxy haproxy]
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADMIN = "cluster-admin-token-0123456789"
SHARDS = ["s1", "s2", "s3"]
PROXY_TIMEOUT = 3  # seconds: the proxy's client and server timeouts; the shards' heartbeat is 1 s

failures: list[str] = []
passed = 0


def check(condition: bool, what: str) -> None:
    global passed
    if condition:
        passed += 1
        print(f"ok    {what}", flush=True)
    else:
        failures.append(what)
        print(f"FAIL  {what}", flush=True)


_handed_out: set[int] = set()


def free_port() -> int:
    """A loopback port nothing listens on, never one handed out before in this run: two calls in a row can get the
    same port back from the kernel (the first socket is closed before the second binds), and HAProxy binds with
    SO_REUSEPORT, so a replica's HTTP frontend and its runtime socket on one port both bind, and share its
    connections (CI saw `set map` answered by the frontend's 400)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port


def wait_until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"cluster: timed out waiting for {what}")


def request(port: int, method: str, path: str, key: str | None = None, body=None, headers=None):
    """One request on its own connection: (status, headers as a dict of lower-case names, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    all_headers = dict(headers or {})
    if key:
        all_headers["Authorization"] = f"Bearer {key}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        all_headers["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=all_headers)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, payload


class Shard:
    def __init__(self, binary: str, folder: str, shard_id: str):
        self.binary, self.shard_id = binary, shard_id
        self.port = free_port()
        self.database = os.path.join(folder, f"{shard_id}.sqlite")
        self.log_path = os.path.join(folder, f"{shard_id}.log")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--database", self.database, "--shard-id", self.shard_id,
             "--sse-heartbeat", "1", "--log-level", "warning", "--public-directory", os.path.join(ROOT, "Public")],
            env={**os.environ, "BGEMU_ADMIN_TOKEN": ADMIN}, stdout=log, stderr=log, cwd=os.path.dirname(self.database))
        wait_until(lambda: request(self.port, "GET", "/healthz")[0] == 200, 30, f"shard {self.shard_id}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


class Proxy:
    """One HAProxy replica of deploy/haproxy/haproxy.cfg. The replicas share the map file (as replicas on one volume
    or with one ConfigMap do); the first's runtime socket is a Unix one, the others' TCP (`ipv4@`), as a replica on
    another machine exposes it."""

    def __init__(self, haproxy: str, folder: str, shards: list[Shard], replica: int = 0):
        self.port = free_port()
        self.name = "haproxy" if replica == 0 else f"haproxy-{replica}"
        self.map_file = os.path.join(folder, "tenants.map")
        self.socket = os.path.join(folder, "admin.sock") if replica == 0 else f"ipv4@127.0.0.1:{free_port()}"
        if replica == 0:
            shutil.copy(os.path.join(ROOT, "deploy", "haproxy", "tenants.map"), self.map_file)
        self.environment = {
            **os.environ,
            "BGEMU_PROXY_BIND": f"127.0.0.1:{self.port}",
            "BGEMU_TENANT_MAP": self.map_file,
            "BGEMU_HAPROXY_SOCKET": self.socket,
            "BGEMU_PROXY_TIMEOUT": f"{PROXY_TIMEOUT}s",
            **{f"BGEMU_SHARD_{s.shard_id.upper()}": f"127.0.0.1:{s.port}" for s in shards},
        }
        self.config = os.path.join(ROOT, "deploy", "haproxy", "haproxy.cfg")
        self.haproxy = haproxy
        self.log = open(os.path.join(folder, f"{self.name}.log"), "a")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        checked = subprocess.run([self.haproxy, "-c", "-f", self.config], env=self.environment, capture_output=True, text=True)
        check(checked.returncode == 0, f"haproxy -c accepts deploy/haproxy/haproxy.cfg ({checked.stdout.strip() or checked.stderr.strip()})")
        self.process = subprocess.Popen([self.haproxy, "-db", "-f", self.config], env=self.environment,
                                        stdout=self.log, stderr=self.log)
        wait_until(lambda: request(self.port, "GET", "/healthz")[0] == 200, 30, self.name)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def cli(binary: str, *arguments: str, environment=None) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(environment or {})})


class EventStream:
    """An event stream read line by line from a raw socket: (id, type) of each event, heartbeats counted."""

    def __init__(self, port: int, path: str, last_event_id: int | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=PROXY_TIMEOUT * 4)
        head = f"GET {path} HTTP/1.1\r\nHost: cluster\r\nAccept: text/event-stream\r\n"
        if last_event_id is not None:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.buffer = b""
        self.status = int(self._line().split()[1])
        while self._line():
            pass  # the head
        self.heartbeats = 0
        self.closed = False

    def _line(self) -> str:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.rstrip(b"\r").decode()

    def _body_line(self) -> str:
        """A line of the chunked body: chunk-size lines and empty chunk terminators are skipped."""
        while True:
            line = self._line()
            if line and all(c in "0123456789abcdefABCDEF" for c in line) and not line.startswith(("id", "event", "data")):
                if int(line, 16) == 0:
                    raise EOFError
                continue
            return line

    def events(self, count: int | None = None, until: float | None = None) -> list[tuple[int, str]]:
        """Reads events until `count` have come (or, with `until`, until that monotonic time passes)."""
        got: list[tuple[int, str]] = []
        current_id, current_type = None, "message"
        while count is None or len(got) < count:
            if until is not None:
                remaining = until - time.monotonic()
                if remaining <= 0:
                    break
                self.sock.settimeout(remaining)
            try:
                line = self._body_line()
            except (EOFError, ConnectionError):
                self.closed = True
                break
            except socket.timeout:
                break
            if line.startswith(":"):
                self.heartbeats += 1
            elif line.startswith("id:"):
                current_id = int(line[3:].strip())
            elif line.startswith("event:"):
                current_type = line[6:].strip()
            elif line == "" and current_id is not None:
                got.append((current_id, current_type))
                current_id, current_type = None, "message"
        return got

    def close(self) -> None:
        self.sock.close()


def all_ids(port: int, key: str, collection: str) -> list:
    """The ids of every item of a paged list (`/v1/events`, `/v1/devices`), following its cursor."""
    ids, cursor = [], None
    while True:
        path = f"/v1/{collection}?limit=500" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
        status, _, body = request(port, "GET", path, key)
        assert status == 200, body
        page = json.loads(body)
        ids += [item["id"] for item in page["items"]]
        cursor = page.get("nextCursor")
        if not cursor:
            return ids


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "bgemu"))
    parser.add_argument("--haproxy", default="haproxy")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    folder = tempfile.mkdtemp(prefix="bgemu-cluster-")
    shards = {s: Shard(binary, folder, s) for s in SHARDS}
    proxy = Proxy(options.haproxy, folder, list(shards.values()))
    replica = Proxy(options.haproxy, folder, list(shards.values()), replica=1)
    try:
        for shard in shards.values():
            shard.start()
        proxy.start()
        replica.start()
        run(binary, shards, proxy, replica, folder)
    finally:
        proxy.stop()
        replica.stop()
        for shard in shards.values():
            if shard.process and shard.process.poll() is None:
                shard.kill()
    print(f"cluster: {passed} passed, {len(failures)} failed", flush=True)
    if failures:
        for name in ("haproxy", "haproxy-1", *SHARDS):
            path = os.path.join(folder, f"{name}.log")
            print(f"--- {name}.log (last lines)\n" + "".join(open(path).readlines()[-20:]), flush=True)
        sys.exit(1)
    shutil.rmtree(folder, ignore_errors=True)


def run(binary: str, shards: dict[str, Shard], proxy: Proxy, replica: Proxy, folder: str) -> None:
    server = f"http://127.0.0.1:{proxy.port}"
    # Every placement goes to both replicas: the first over its Unix socket, the second over TCP.
    placement = ["--map-file", proxy.map_file, "--haproxy-socket", proxy.socket, "--haproxy-socket", replica.socket]

    # A tenant on each shard, created and placed through the proxy.
    tenants: dict[str, dict] = {}
    for shard_id in SHARDS:
        made = cli(binary, "tenants", "create", f"team-{shard_id}", "--shard", shard_id, "--server", server,
                   "--admin-token", ADMIN, *placement, "--json")
        check(made.returncode == 0, f"bgemu tenants create --shard {shard_id} succeeds ({made.stderr.strip()})")
        tenants[shard_id] = json.loads(made.stdout)
    map_lines = [line.split() for line in open(proxy.map_file) if line.strip() and not line.startswith("#")]
    check(sorted(map_lines) == sorted([[t["id"], s] for s, t in tenants.items()]),
          "the map file holds one line per tenant naming its shard")

    # Routing: each tenant's writes reach its own shard; its key is unknown on the others.
    for shard_id, tenant in tenants.items():
        status, headers, body = request(proxy.port, "POST", "/v1/devices", tenant["apiKey"], {"name": f"phone-{shard_id}"})
        check(status == 201 and headers.get("bgemu-shard") == shard_id,
              f"a request of {tenant['name']} through the proxy is answered by shard {shard_id} ({status}, {headers.get('bgemu-shard')})")
        tenant["device"] = json.loads(body)["id"]
        others = [s for s in SHARDS if s != shard_id]
        statuses = [request(shards[s].port, "GET", "/v1/devices", tenant["apiKey"])[0] for s in others]
        check(statuses == [401, 401], f"{tenant['name']}'s key is unknown on the other shards ({statuses})")

    # The second replica, changed over its TCP runtime socket by the same commands, routes as the first.
    routed = [request(replica.port, "GET", "/v1/devices", tenants[s]["apiKey"])[1].get("bgemu-shard") for s in SHARDS]
    check(routed == list(SHARDS), f"the second HAProxy replica routes every tenant to its shard too ({routed})")

    # A replica that does not answer: the others are changed all the same, and the command fails naming it.
    probe = "ten_" + "f" * 24
    probe_key = f"bgemu_{probe}." + "C" * 43
    dead = f"ipv4@127.0.0.1:{free_port()}"
    partial = cli(binary, "tenants", "place", probe, "s2", *placement, "--haproxy-socket", dead)
    check(partial.returncode == 1 and "in 2 of 3 running HAProxy replicas" in partial.stderr and dead in partial.stderr,
          f"a placement with one replica unreachable fails naming it, after the others ({partial.stderr.strip()[-200:]})")
    shards_seen = [request(p.port, "GET", "/v1/devices", probe_key)[1].get("bgemu-shard") for p in (proxy, replica)]
    check(shards_seen == ["s2", "s2"], f"both reachable replicas send the placed tenant to its shard ({shards_seen})")

    # The CLI through the proxy, unchanged.
    listed = cli(binary, "devices", "--server", server, "--api-key", tenants["s2"]["apiKey"])
    check(listed.returncode == 0 and "phone-s2" in listed.stdout and "phone-s1" not in listed.stdout,
          "bgemu devices through the proxy lists the tenant's own devices")

    # The admin list across shards equals the union of the shards' own lists.
    union = []
    for shard_id, shard in shards.items():
        status, _, body = request(shard.port, "GET", "/v1/admin/tenants?limit=500", ADMIN)
        union += [(item["id"], item["name"], shard_id) for item in json.loads(body)["items"]]
    across = cli(binary, "tenants", "list", "--server", server, "--admin-token", ADMIN,
                 *[arg for s in SHARDS for arg in ("--shard", s)], "--json")
    rows = [(row["id"], row["name"], row["shard"]) for row in json.loads(across.stdout or "[]")]
    check(across.returncode == 0 and sorted(rows) == sorted(union) and len(rows) >= 3,
          f"bgemu tenants list --shard s1 --shard s2 --shard s3 equals the union of the shards' lists ({len(rows)} tenants)")

    # The dashboard's files through the proxy (the default shard serves them).
    status, headers, body = request(proxy.port, "GET", "/")
    check(status == 200 and b"<html" in body.lower(), f"the dashboard loads through the proxy ({status})")

    # Keys that name no placed tenant, and keys of the older form.
    forged = "bgemu_ten_" + "0" * 24 + "." + "A" * 43
    status, headers, body = request(proxy.port, "GET", "/v1/devices", forged)
    check(status == 401 and headers.get("content-type") == "application/problem+json",
          f"a key naming a tenant no shard holds is 401 problem+json at the proxy ({status})")
    status, headers, _ = request(proxy.port, "GET", "/v1/devices", "bgemu_" + "B" * 43)
    check(status == 401 and headers.get("bgemu-shard") == "s1", "a key of the older form goes to the default shard")

    # An event stream through the proxy, past its timeouts, then across a restart of its shard.
    tenant = tenants["s2"]
    key, device = tenant["apiKey"], tenant["device"]
    token = urllib.parse.quote(key)
    stream = EventStream(proxy.port, f"/v1/events?access_token={token}")
    check(stream.status == 200, f"an event stream through the proxy opens with ?access_token= ({stream.status})")
    idle = stream.events(until=time.monotonic() + PROXY_TIMEOUT * 2.5)
    check(not stream.closed and stream.heartbeats >= PROXY_TIMEOUT * 2,
          f"an idle stream stays open past the proxy's {PROXY_TIMEOUT} s timeouts on heartbeats ({stream.heartbeats} heartbeats)")
    for hours in (1, 2, 3):
        request(proxy.port, "POST", f"/v1/devices/{device}/clock/advance", key, {"seconds": 3600})
        request(proxy.port, "PATCH", f"/v1/devices/{device}/conditions", key, {"batteryLevel": 90 - hours})
    before = stream.events(count=6, until=time.monotonic() + 10)  # 3 clock advances, 3 condition changes
    check(len(before) == 6, f"the stream carries the tenant's events through the proxy ({len(before)} of 6)")

    shards["s2"].kill()
    before += stream.events(until=time.monotonic() + 2)
    seen = [event_id for event_id, _ in idle + before]
    check(stream.closed, "the stream ends when its shard is killed")
    status, headers, body = request(proxy.port, "GET", "/v1/devices", key)
    problem = json.loads(body or b"{}")
    check(status == 503 and headers.get("retry-after", "").isdigit() and problem.get("status") == 503
          and headers.get("content-type") == "application/problem+json",
          f"a tenant of the killed shard is answered 503 with Retry-After, problem+json ({status}, {headers.get('retry-after')})")
    others = [request(proxy.port, "GET", "/v1/devices", tenants[s]["apiKey"])[0] for s in ("s1", "s3")]
    check(others == [200, 200], f"the other shards' tenants are untouched meanwhile ({others})")
    shards["s2"].start()
    wait_until(lambda: request(proxy.port, "GET", "/v1/devices", key)[0] == 200, 30, "the restarted shard behind the proxy")
    for hours in (4, 5):
        request(proxy.port, "PATCH", f"/v1/devices/{device}/conditions", key, {"batteryLevel": 50 - hours})
    resumed = EventStream(proxy.port, f"/v1/events?access_token={token}", last_event_id=seen[-1])
    after = [event_id for event_id, _ in resumed.events(count=2, until=time.monotonic() + 10)]
    resumed.close()
    stored = all_ids(proxy.port, key, "events")
    since_open = [event_id for event_id in stored if event_id >= seen[0]]
    check(seen + after == since_open and len(after) == 2,
          f"resumed with Last-Event-ID after the restart: no gap, no duplicate ({len(seen)} + {len(after)} = {len(since_open)} stored since the stream opened)")
    stream.close()

    # A live move under a write load through the proxy: fence, export, import, flip the map in the file and the
    # running proxy, delete from the source; the writer retries 503s (the fence) and loses nothing acknowledged.
    import threading
    mover = tenants["s3"]
    acknowledged: list[str] = []
    refusals: dict[int, int] = {}
    stop = threading.Event()

    def write_load() -> None:
        n = 0
        while not stop.is_set():
            status, headers, body = request(proxy.port, "POST", "/v1/devices", mover["apiKey"], {"name": f"load-{n}"})
            if status == 201:
                acknowledged.append(json.loads(body)["id"])
                n += 1
            else:
                refusals[status] = refusals.get(status, 0) + 1
                time.sleep(float(headers.get("retry-after", "1")) / 10)

    # A stream of the mover's events through the proxy, open across the move: it ends when the tenant leaves the
    # source, and a resume from its last id through the proxy continues on the target with no gap or duplicate.
    ids_before_move = all_ids(proxy.port, mover["apiKey"], "events")
    events_before_move = len(ids_before_move)
    mover_path = f"/v1/events?access_token={urllib.parse.quote(mover['apiKey'])}"
    mover_stream = EventStream(proxy.port, mover_path)
    writer = threading.Thread(target=write_load)
    writer.start()
    time.sleep(1)
    moved = cli(binary, "tenants", "move", mover["id"], "--from", f"http://127.0.0.1:{shards['s3'].port}",
                "--to", f"http://127.0.0.1:{shards['s1'].port}", "--admin-token", ADMIN, *placement, "--json")
    time.sleep(1)
    stop.set()
    writer.join()
    check(moved.returncode == 0, "bgemu tenants move s3 → s1 under a write load succeeds"
          + ("" if moved.returncode == 0 else f" ({moved.stderr.strip()[-300:]})"))
    status, headers, _ = request(proxy.port, "GET", "/v1/devices?limit=1", mover["apiKey"])
    on_target = set(all_ids(proxy.port, mover["apiKey"], "devices"))
    replica_shard = request(replica.port, "GET", "/v1/devices?limit=1", mover["apiKey"])[1].get("bgemu-shard")
    check(replica_shard == "s1", f"the second replica sends the moved tenant to s1 as well ({replica_shard})")
    check(status == 200 and headers.get("bgemu-shard") == "s1" and set(acknowledged) <= on_target and len(acknowledged) > 10,
          f"after the move the proxy sends the tenant to s1, which holds every acknowledged write ({len(acknowledged)} written, "
          f"refused meanwhile: {refusals})")
    check(set(refusals) <= {503}, f"the writer met only the fence's 503s, never a 401 or a 5xx of another kind ({refusals})")
    check(request(shards["s3"].port, "GET", "/v1/devices", mover["apiKey"])[0] == 401, "the source no longer holds the tenant")
    check([line.split() for line in open(proxy.map_file) if line.startswith(mover["id"])] == [[mover["id"], "s1"]],
          "the map file names the tenant's new shard")
    seen_moving = mover_stream.events(until=time.monotonic() + 5)
    check(mover_stream.closed and len(seen_moving) > 0,
          f"the mover's stream through the proxy ends when the tenant leaves its source ({len(seen_moving)} events first)")
    mover_stream.close()
    if seen_moving:
        resumed_moving = EventStream(proxy.port, mover_path, last_event_id=seen_moving[-1][0])
        tail = [event_id for event_id, _ in resumed_moving.events(until=time.monotonic() + 3)]
        resumed_moving.close()
        stored_moving = all_ids(proxy.port, mover["apiKey"], "events")
        check(len(seen_moving) + len(tail) == len(stored_moving) - events_before_move and len(tail) > 0
              and tail == stored_moving[len(stored_moving) - len(tail):],
              f"resumed through the proxy with the source's Last-Event-ID, the stream continues on the target: no gap, "
              f"no duplicate ({len(seen_moving)} on the source + {len(tail)} on the target = "
              f"{len(stored_moving) - events_before_move} stored since it opened)")
        streamed_ids = [event_id for event_id, _ in seen_moving]
        check(stored_moving[:events_before_move] == ids_before_move
              and stored_moving[events_before_move:events_before_move + len(streamed_ids)] == streamed_ids,
              f"the moved events keep their ids on the target: the {events_before_move} read before the move and the "
              f"{len(streamed_ids)} streamed from the source are listed there with the same ids "
              f"({ids_before_move[:1]}…{streamed_ids[-1:]})")

    # A forecast split four ways with GNU parallel equals the unsplit one byte for byte.
    if shutil.which("parallel"):
        request_file = os.path.join(folder, "forecast.json")
        with open(request_file, "w") as f:
            json.dump({"devices": 200, "days": 3, "seed": 7, "pushes": [{"everyMinutes": 240}], "app": {
                "bundleId": "com.example.cluster",
                "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.cluster.refresh"}]},
                "infoPlist": {"UIBackgroundModes": ["fetch", "remote-notification"],
                              "BGTaskSchedulerPermittedIdentifiers": ["com.example.cluster.refresh"]}}}, f)
        whole = cli(binary, "forecast", request_file, "--shard", "0/1", "--out", os.path.join(folder, "whole.json"))
        split = subprocess.run(["parallel", binary, "forecast", request_file, "--shard", "{}/4", "--out",
                                os.path.join(folder, "part-{}.json"), ":::", "0", "1", "2", "3"],
                               capture_output=True, text=True, timeout=300)
        merged = cli(binary, "forecast", "merge", *[os.path.join(folder, f"part-{i}.json") for i in range(4)], "--json")
        unsplit = cli(binary, "forecast", "merge", os.path.join(folder, "whole.json"), "--json")
        check(whole.returncode == 0 and split.returncode == 0 and merged.returncode == 0 and merged.stdout == unsplit.stdout
              and len(merged.stdout) > 100,
              "a forecast split 4 ways by GNU parallel and merged equals K = 1 byte for byte"
              + ("" if merged.returncode == 0 and split.returncode == 0 else f" ({split.stderr.strip()[-300:]} {merged.stderr.strip()[-300:]})"))
    else:
        check(False, "GNU parallel is installed (the forecast split is checked with it)")


if __name__ == "__main__":
    main()
