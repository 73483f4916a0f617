#!/usr/bin/env python3
"""The service image checked without a Docker engine, from the Dockerfile itself.

It reads the `Dockerfile` (nothing of it is repeated here), then:
- builds the runtime stage's root file system: `debootstrap --variant=minbase SUITE` (the suite of the runtime
  stage's `FROM debian:SUITE[-slim]`), the image's Debian sources, then every `RUN` of the runtime stage replayed
  as written in a `chroot` (its `apt-get install` list, `useradd`, `mkdir`, `chown`), cached in `.build-container/`
  under a key of the suite, the mirror and those instructions, so that a change of the Dockerfile rebuilds it;
- builds the binary with the build stage's own `swift build …` command (beside the root's build) and takes the
  file its `install -D` names;
- lays the `COPY` lines (the build stage's binary, `Public/`, `openapi.yaml`) where they put them, on an overlay
  over the cached root (a fresh upper layer each run, as a container gets one);
- runs `ENTRYPOINT` + `CMD` in a `chroot` as the `USER` (its uid from the root's passwd, as `useradd` made it),
  in the `WORKDIR`, with exactly the image's environment (`ENV`, the base image's `PATH`, `HOME`, `HOSTNAME`) plus
  `BGEMU_API_KEY`, as a CI service block sets it; the process and the checks run in a network namespace of their own
  (loopback only), so the image's port does not meet anything on the host's.

Checks, each printed: the `HEALTHCHECK` command, run as written inside the root, passes; the `EXPOSE`d port
answers; `/` and `/openapi.yaml` serve the repository's files; an authenticated device create works (and none
without the key); the image's own CLI, as a CI job runs it (`ENTRYPOINT scenario run … --junit report.xml`), runs
the example scenarios against the service and writes its JUnit report; the database lands under the `VOLUME`; it survives a restart; `ldd` inside the root finds every
library; the process is not root; the stop signal makes it exit 0 promptly. Exits 1 on any failed check, 2 when the
check could not be set up. Root is needed (chroot, mounts, namespaces); when run as another user it builds the binary
as that user and runs the rest with sudo.

Usage: python3 Tests/Container/check_container.py [--mirror URL] [--cache DIR] [--skip-build]
"""

import argparse
import ctypes
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from xml.etree import ElementTree

sys.dont_write_bytecode = True  # no __pycache__ beside the sources from the import below
from dockerfile import DockerfileError, read_dockerfile  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Bumped when what the cached root holds changes for reasons the Dockerfile does not show.
CACHE_FORMAT = "1"
# The PATH of the official Debian images (their only ENV), which the runtime stage inherits.
DEBIAN_IMAGE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
API_KEY = "container-check-key-0123456789abcdef"
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000


class SetupError(Exception):
    """The check could not be set up (a Dockerfile it cannot read, a failed build): exit 2."""


def say(message):
    print(f"container: {message}", flush=True)


# ----------------------------------------------------------------------------------------------------------------
# Building


def run(argv, timeout, **options):
    """A command that must succeed within its time; its output is shown only when it fails."""
    try:
        done = subprocess.run(argv, timeout=timeout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", **options)
    except subprocess.TimeoutExpired:
        raise SetupError(f"`{shlex.join(argv)}` ran longer than {timeout} s")
    if done.returncode != 0:
        print(done.stdout[-6000:], file=sys.stderr)
        raise SetupError(f"`{shlex.join(argv)}` exited {done.returncode}")
    return done.stdout


class Build:
    """The build stage's own command, run in the repository (the build stage's /src) in the background, so that the
    root file system is built meanwhile; `binary()` waits for it and answers the file its `install -D` takes."""

    def __init__(self, spec):
        self.spec = spec["build"]
        say(f"build: {self.spec['command']}   (the build stage's command; host toolchain in place of "
            f"{self.spec['image']})")
        self.started, self.started_wall = time.monotonic(), time.time()
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(shlex.split(self.spec["command"]), cwd=REPO, stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def binary(self):
        try:
            status = self.process.wait(timeout=max(1, 1800 - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            self.stop()
            raise SetupError(f"`{self.spec['command']}` ran longer than 1800 s")
        if status != 0:
            self.log.seek(0)
            print(self.log.read().decode(errors="replace")[-6000:], file=sys.stderr)
            raise SetupError(f"`{self.spec['command']}` exited {status}")
        binary = run(["/bin/sh", "-c", f"printf %s {self.spec['source']}"], timeout=120, cwd=REPO)
        if not os.path.isfile(binary):
            raise SetupError(f"the build stage's install source {self.spec['source']} is {binary!r}, no file")
        # Its last output (SwiftPM's closing line) tells when it ended, also when it ended while the root was built.
        took = os.fstat(self.log.fileno()).st_mtime - self.started_wall
        say(f"build: {os.path.relpath(binary, REPO)} in {took:.0f} s")
        return binary

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


def cache_key(spec, mirror):
    layer = json.dumps([CACHE_FORMAT, spec["suite"], mirror, spec["layer"]], sort_keys=True)
    return hashlib.sha256(layer.encode()).hexdigest()[:16]


def debian_sources(suite, mirror):
    """The apt sources of the official Debian image of the suite (deb822), over the chosen mirror."""
    security = mirror.rstrip("/") + "-security" if mirror.rstrip("/").endswith("/debian") else mirror
    return (f"Types: deb\nURIs: {mirror}\nSuites: {suite} {suite}-updates\nComponents: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n"
            f"Types: deb\nURIs: {security}\nSuites: {suite}-security\nComponents: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")


def root_filesystem(spec, cache, mirror):
    """The cached root of the runtime stage's FROM + RUN layer; built when its key is new."""
    key = cache_key(spec, mirror)
    root = os.path.join(cache, f"rootfs-{spec['suite']}-{key}")
    if os.path.isfile(os.path.join(root, ".bgemu-container-complete")):
        shown = os.path.relpath(root, REPO) if root.startswith(REPO + os.sep) else root
        say(f"root: {shown} (cached; key of {spec['suite']}, the mirror and the RUN layer)")
        return root
    if not shutil.which("debootstrap"):
        raise SetupError("debootstrap is not installed (apt-get install debootstrap)")
    os.makedirs(cache, exist_ok=True)
    for old in os.listdir(cache):
        if old.startswith("rootfs-"):
            shutil.rmtree(os.path.join(cache, old))
    partial = root + ".partial"
    started = time.monotonic()
    say(f"root: debootstrap --variant=minbase {spec['suite']} ({mirror}) …")
    run(["debootstrap", "--variant=minbase", spec["suite"], partial, mirror], timeout=1200)
    with open(os.path.join(partial, "etc/apt/sources.list.d/debian.sources"), "w") as file:
        file.write(debian_sources(spec["suite"], mirror))
    if os.path.exists(os.path.join(partial, "etc/apt/sources.list")):
        os.remove(os.path.join(partial, "etc/apt/sources.list"))
    shutil.copyfile("/etc/resolv.conf", os.path.join(partial, "etc/resolv.conf"))
    say(f"root: debootstrap done in {time.monotonic() - started:.0f} s; the runtime stage's RUN lines in a chroot …")
    mount(["-t", "proc", "proc", os.path.join(partial, "proc")])
    try:
        for kind, workdir, env, arguments in spec["layer"]:
            os.makedirs(partial + workdir, exist_ok=True)
            if kind == "RUN":
                environment = {"PATH": DEBIAN_IMAGE_PATH, "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive", **env}
                run(["chroot", partial, "/bin/sh", "-c", f"cd {shlex.quote(workdir)} && {arguments}"],
                    timeout=1200, env=environment)
    finally:
        run(["umount", os.path.join(partial, "proc")], timeout=60)
    open(os.path.join(partial, ".bgemu-container-complete"), "w").close()
    os.rename(partial, root)
    say(f"root: built in {time.monotonic() - started:.0f} s")
    return root


def verify_layer(spec, root):
    """The RUN layer did what the Dockerfile's lines say: every package installed, the user with its uid, the
    folders, their owners."""
    missing = []
    for package in spec["packages"]:
        status = subprocess.run(["chroot", root, "dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                                text=True, timeout=60).stdout
        if status != "install ok installed":
            missing.append(package)
    if missing:
        raise SetupError(f"packages of the apt-get install line not installed in the root: {missing}")
    passwd = passwd_entries(root)
    for name, options in spec["users"].items():
        if name not in passwd or passwd[name]["uid"] != int(options["uid"]):
            raise SetupError(f"the root's passwd has no {name} with uid {options['uid']}")
    for directory in spec["directories"]:
        if not os.path.isdir(root + directory):
            raise SetupError(f"the folder {directory} of the mkdir line is not in the root")
    for owner, path in spec["chowns"]:
        name = owner.split(":")[0]
        if os.stat(root + path).st_uid != passwd[name]["uid"]:
            raise SetupError(f"{path} is not owned by {name} as the chown line says")


def passwd_entries(root):
    entries = {}
    with open(os.path.join(root, "etc/passwd")) as file:
        for line in file:
            name, _, uid, gid, _, home, shell = line.rstrip("\n").split(":")
            entries[name] = {"uid": int(uid), "gid": int(gid), "home": home, "shell": shell}
    return entries


def lay_copies(spec, merged, binary):
    """The COPY lines on the run's overlay, owned by root unless --chown says otherwise, as Docker copies."""
    for copy in spec["copies"]:
        if "workdir" in copy:
            os.makedirs(merged + copy["workdir"], exist_ok=True)  # a WORKDIR after the first COPY
            continue
        source = binary if copy["from"] else os.path.join(REPO, copy["source"])
        destination = merged + copy["destination"]
        if destination.endswith("/"):
            destination = os.path.join(destination, os.path.basename(source))
        if os.path.lexists(destination):
            shutil.rmtree(destination) if os.path.isdir(destination) else os.remove(destination)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, destination, symlinks=True)
        else:
            shutil.copy2(source, destination)
        owner = copy["chown"] or "0:0"
        run(["chroot", merged, "chown", "-R", owner, destination[len(merged):]], timeout=60)
        say(f"copy: {copy['source']}{' (build stage)' if copy['from'] else ''} -> {copy['destination']}")


# ----------------------------------------------------------------------------------------------------------------
# Namespaces and mounts


def unshare(flags):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(flags) != 0:
        raise SetupError(f"unshare({flags:#x}): {os.strerror(ctypes.get_errno())}")


def mount(arguments):
    run(["mount", *arguments], timeout=60)


def enter_namespaces_for_mounts():
    """A mount namespace of this process's own, private: every mount below ends with it, even on a crash."""
    unshare(CLONE_NEWNS)
    mount(["--make-rprivate", "/"])


def enter_network_namespace():
    """A network namespace with loopback only, for the service and the checks alike."""
    unshare(CLONE_NEWNET)
    run(["ip", "link", "set", "lo", "up"], timeout=30)


# ----------------------------------------------------------------------------------------------------------------
# The container


class Container:
    """The service in the root, as the image's user, in its WORKDIR, with its environment."""

    def __init__(self, spec, merged, run_dir):
        self.spec, self.merged, self.run_dir = spec, merged, run_dir
        passwd = passwd_entries(merged)
        user = spec["user"].split(":")[0]
        entry = passwd.get(user) or next((e for e in passwd.values() if str(e["uid"]) == user), None)
        if entry is None:
            raise SetupError(f"USER {spec['user']} is not in the root's passwd")
        self.uid, self.gid, self.home = entry["uid"], entry["gid"], entry["home"]
        self.environment = {"PATH": DEBIAN_IMAGE_PATH, "HOSTNAME": "bgemu-container-check", "HOME": self.home,
                            **spec["env"], "BGEMU_API_KEY": API_KEY}
        self.process, self.log, self.starts = None, None, 0

    def _enter(self):
        os.chroot(self.merged)
        os.chdir(self.spec["workdir"])
        os.setgroups([])
        os.setgid(self.gid)
        os.setuid(self.uid)

    def start(self):
        self.starts += 1
        self.log = os.path.join(self.run_dir, f"service-{self.starts}.log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(self.spec["entrypoint"] + self.spec["cmd"], env=self.environment,
                                            preexec_fn=self._enter, stdin=subprocess.DEVNULL, stdout=log, stderr=log)

    def inside(self, argv, timeout, cwd=None, extra=None):
        """A command in the root, as the image's user, with its environment (as `docker exec` and HEALTHCHECK do),
        in the WORKDIR or in `cwd`."""
        def enter():
            self._enter()
            if cwd:
                os.chdir(cwd)
        return subprocess.run(argv, env={**self.environment, **(extra or {})}, preexec_fn=enter, capture_output=True,
                              text=True, errors="replace", timeout=timeout)

    def stop(self, timeout=10):
        """The stop signal; the exit status and the seconds it took (None when it did not exit in time)."""
        started = time.monotonic()
        self.process.send_signal(getattr(signal, self.spec["stopsignal"]))
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
            return None, timeout
        return status, time.monotonic() - started

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def log_tail(self):
        with open(self.log, errors="replace") as file:
            return "".join(file.readlines()[-15:])


def healthcheck(container):
    """The HEALTHCHECK command until it passes, for as long as Docker would wait before calling the container
    unhealthy (start period + retries × interval); every try bounded by its --timeout."""
    check = container.spec["healthcheck"]
    deadline = time.monotonic() + check["start-period"] + check["retries"] * check["interval"]
    started, tries, last = time.monotonic(), 0, ""
    while time.monotonic() < deadline:
        tries += 1
        try:
            done = container.inside(check["argv"], timeout=check["timeout"])
            if done.returncode == 0:
                return True, f"passed after {time.monotonic() - started:.1f} s ({tries} tries)"
            last = f"exit {done.returncode} {done.stderr.strip()[-200:]}"
        except subprocess.TimeoutExpired:
            last = f"no answer in its {check['timeout']:g} s timeout"
        if container.process.poll() is not None:
            return False, f"the service exited {container.process.returncode}"
        time.sleep(0.5)
    return False, f"still failing after {time.monotonic() - started:.0f} s: {last}"


def http(port, method, path, body=None, key=None):
    """(status, bytes) of one request to the service, at most 10 s."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError as error:
        return None, str(error).encode()


def secrets_line(container):
    """What the service log of the latest start says of first-start secrets (printed once, then never again)."""
    with open(container.log, errors="replace") as file:
        text = file.read()
    shown = re.findall(r"^\s+(admin token|API key of [^:]+):", text, re.MULTILINE)
    return f"secrets printed: {', '.join(shown)}" if shown else "no secrets printed"


def repo_bytes(path):
    with open(os.path.join(REPO, path), "rb") as file:
        return file.read()


# ----------------------------------------------------------------------------------------------------------------
# The checks


class Results:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, name, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        say(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
        return ok


def run_checks(spec, container, results):
    port = int(container.environment.get("BGEMU_PORT", spec["expose"][0] if spec["expose"] else 8080))
    database = container.environment.get("BGEMU_DATABASE", "")
    say(f"run: {shlex.join(spec['entrypoint'] + spec['cmd'])} as {spec['user']} (uid {container.uid}) in "
        f"{spec['workdir']}, env " + " ".join(f"{k}={v}" for k, v in container.environment.items()))

    ldd(spec, container, results)

    container.start()
    ok, detail = healthcheck(container)
    if not results.check("healthcheck", ok, f"`{spec['healthcheck']['text']}` {detail}"):
        say("service log:\n" + container.log_tail())
        return
    say(f"note: first start: {secrets_line(container)}")

    for exposed in spec["expose"]:
        status, _ = http(exposed, "GET", "/healthz")
        results.check("expose", status == 200, f"EXPOSE {exposed}: GET /healthz answered {status}")

    for path, file in (("/", "Public/index.html"), ("/openapi.yaml", "openapi.yaml")):
        status, body = http(port, "GET", path)
        same = body == repo_bytes(file)
        results.check(f"GET {path}", status == 200 and same,
                      f"{status}, {len(body)} bytes, {'the same as' if same else 'NOT the same as'} the repository's "
                      f"{file}")

    status_without, _ = http(port, "POST", "/v1/devices", {"name": "no key", "osVersion": "17.0"})
    status, body = http(port, "POST", "/v1/devices", {"name": "container check", "osVersion": "17.0"}, key=API_KEY)
    device = json.loads(body).get("id") if status == 201 else None
    results.check("device create", status == 201 and status_without == 401 and bool(device),
                  f"with BGEMU_API_KEY's key {status} (device {device}), without a key {status_without}")

    scenario_run(spec, container, port, results)

    pid = container.process.pid
    with open(f"/proc/{pid}/status") as file:
        uids = next(line.split()[1:] for line in file if line.startswith("Uid:"))
    results.check("not root", uids and all(int(u) == container.uid for u in uids) and container.uid != 0,
                  f"/proc/{pid}/status Uid: {' '.join(uids)} (the image's user {spec['user']} is {container.uid})")

    status, seconds = container.stop()
    results.check("stop", status == 0 and seconds < 5,
                  f"{spec['stopsignal']} -> exit {status} in {seconds * 1000:.0f} ms")

    volume = next((v for v in spec["volumes"] if database.startswith(v.rstrip("/") + "/")), None)
    stored = container.merged + database
    owner = os.stat(stored).st_uid if os.path.exists(stored) else None
    if volume is None:
        results.check("volume", False, f"BGEMU_DATABASE={database} is under no VOLUME ({' '.join(spec['volumes'])})")
    else:
        results.check("volume", owner == container.uid and os.path.getsize(stored) > 0,
                      f"BGEMU_DATABASE={database} under VOLUME {volume}: "
                      + (f"{os.path.getsize(stored)} bytes, owner uid {owner}; the volume holds "
                         f"{sorted(os.listdir(container.merged + volume))}" if owner is not None else "no such file"))

    container.start()
    ok, detail = healthcheck(container)
    status, body = http(port, "GET", f"/v1/devices/{device}", key=API_KEY) if ok else (None, b"")
    name = json.loads(body).get("name") if status == 200 else None
    results.check("restart", ok and status == 200 and name == "container check",
                  f"started again, healthcheck {detail}; GET /v1/devices/{device} {status}, name {name!r}")
    if not ok:
        say("service log:\n" + container.log_tail())
    say(f"note: second start: {secrets_line(container)}")
    status, seconds = container.stop()
    results.check("stop again", status == 0 and seconds < 5,
                  f"{spec['stopsignal']} -> exit {status} in {seconds * 1000:.0f} ms")


def ldd(spec, container, results):
    """`ldd` of the binary inside the root: every library found there (before the service starts, so that a missing
    one is named even though the service then cannot start)."""
    done = subprocess.run(["chroot", container.merged, "ldd", spec["build_destination"]], capture_output=True,
                          text=True, timeout=60)
    libraries = [line.strip().split()[0] for line in done.stdout.splitlines() if line.strip()]
    missing = [line.strip() for line in done.stdout.splitlines() if "not found" in line]
    results.check("ldd", done.returncode == 0 and not missing and bool(libraries),
                  f"{len(libraries)} libraries of {spec['build_destination']} all found in the root"
                  if not missing and done.returncode == 0 else f"not found: {missing or done.stderr.strip()}")
    say("ldd: " + ", ".join(libraries))


def scenario_run(spec, container, port, results):
    """The image as a CI job uses it: `ENTRYPOINT scenario run Examples/scenarios/*.json --junit report.xml` in a
    folder of the job's (as `docker run -v "$PWD:/work" -w /work` or a GitLab job in the image), with BGEMU_URL and
    BGEMU_API_KEY, against the running service; the JUnit report must be written and count no failure."""
    work = container.merged + "/work"
    shutil.copytree(os.path.join(REPO, "Examples", "scenarios"), os.path.join(work, "scenarios"))
    os.chown(work, container.uid, container.gid)
    files = sorted(f"scenarios/{name}" for name in os.listdir(os.path.join(work, "scenarios")) if name.endswith(".json"))
    argv = spec["entrypoint"] + ["scenario", "run", *files, "--junit", "report.xml"]
    try:
        done = container.inside(argv, timeout=120, cwd="/work", extra={"BGEMU_URL": f"http://127.0.0.1:{port}"})
        status, output = done.returncode, (done.stdout + done.stderr).strip()
    except subprocess.TimeoutExpired:
        status, output = None, "no end in 120 s"
    tests = failures = None
    if os.path.isfile(os.path.join(work, "report.xml")):
        report = ElementTree.parse(os.path.join(work, "report.xml")).getroot()
        cases = list(report.iter("testcase"))
        tests, failures = len(cases), sum(1 for case in cases if case.find("failure") is not None)
    last = output.splitlines()[-1] if output else ""
    results.check("scenario run", status == 0 and bool(tests) and failures == 0,
                  f"`{' '.join(spec['entrypoint'] + ['scenario', 'run', 'scenarios/*.json', '--junit', 'report.xml'])}` "
                  f"in the image: exit {status}, \"{last}\", report.xml {tests} test cases, {failures} failures")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirror", default=os.environ.get("BGEMU_CONTAINER_MIRROR", "http://deb.debian.org/debian"),
                        help="Debian mirror for debootstrap and the root's apt sources")
    parser.add_argument("--cache", default=os.path.join(REPO, ".build-container"),
                        help="folder of the cached root file system and the runs' layers")
    parser.add_argument("--skip-build", metavar="BINARY", help="use this binary instead of building it (internal: "
                        "the build as the calling user before sudo)")
    arguments = parser.parse_args()
    started = time.monotonic()
    try:
        spec = read_dockerfile(os.path.join(REPO, "Dockerfile"))
        users = ", ".join(f"{name} uid {options['uid']}" for name, options in spec["users"].items())
        say(f"Dockerfile: runtime FROM {spec['image']} (suite {spec['suite']}), packages {' '.join(spec['packages'])}; "
            f"users {users}; USER {spec['user']}; "
            f"WORKDIR {spec['workdir']}; VOLUME {' '.join(spec['volumes'])}; EXPOSE "
            f"{' '.join(map(str, spec['expose']))}")
        build = None if arguments.skip_build else Build(spec)
        if os.geteuid() != 0:
            # The build as the calling user (its files stay theirs), then the rest as root.
            binary = arguments.skip_build or build.binary()
            say("not root: the rest runs with sudo")
            os.execvp("sudo", ["sudo", sys.executable, os.path.abspath(__file__), "--mirror", arguments.mirror,
                               "--cache", arguments.cache, "--skip-build", binary])
        spec["build_destination"] = next(c["destination"] for c in spec["copies"] if c.get("from"))
        try:
            enter_namespaces_for_mounts()
            root = root_filesystem(spec, os.path.abspath(arguments.cache), arguments.mirror)
            verify_layer(spec, root)
            binary = arguments.skip_build or build.binary()
        finally:
            if build:
                build.stop()
        run_dir = os.path.join(os.path.abspath(arguments.cache), "run")
        if os.path.exists(run_dir):
            shutil.rmtree(run_dir)
        for part in ("upper", "work", "merged"):
            os.makedirs(os.path.join(run_dir, part))
        merged = os.path.join(run_dir, "merged")
        try:
            mount(["-t", "overlay", "overlay", "-o",
                   f"lowerdir={root},upperdir={run_dir}/upper,workdir={run_dir}/work", merged])
        except SetupError as error:
            say(f"note: no overlay here ({error}); the run gets a copy of the root instead")
            run(["cp", "-a", f"{root}/.", merged], timeout=600)
        lay_copies(spec, merged, binary)
        enter_network_namespace()
        mount(["-t", "proc", "proc", os.path.join(merged, "proc")])
        mount(["-t", "sysfs", "-o", "ro", "sysfs", os.path.join(merged, "sys")])
        container = Container(spec, merged, run_dir)
        results = Results()
        try:
            run_checks(spec, container, results)
        finally:
            container.kill()
    except (SetupError, DockerfileError, OSError, subprocess.SubprocessError, ValueError, KeyError) as error:
        say(f"setup failed: {type(error).__name__}: {error}")
        return 2
    say(f"done in {time.monotonic() - started:.0f} s")
    print(f"container: {results.passed} passed, {results.failed} failed", flush=True)
    return 0 if results.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
