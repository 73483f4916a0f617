#!/usr/bin/env python3
"""Status coverage: every (method, path, status) the contract documents is provoked against a live service.

For each operation of openapi.yaml and each status it documents, a *provocation* (a small recipe below) sets up
what it needs through the API and sends the one request that must be answered with exactly that status. Each
answer is checked: the status, the content type, the body against the documented JSON schema ($refs resolved),
the documented headers, and for a problem the `code` the recipe aims at. A status may have several recipes (one
per documented 409 code, say). The generic recipes also run as probes on operations that do not document their
status: the answer must then be a status the operation documents.

The run fails (exit 1) when a documented status has no provocation, a provocation gets another status or code,
an answer is off its documented response, a probe gets an undocumented status, or a provocation exists for a
status the contract does not document.

Usage (from the repository's root; Tests/Contract/run-status-coverage.sh starts the service for you):
    status_coverage.py --base http://127.0.0.1:PORT --api-key KEY --admin-token TOKEN --bin .build/debug/bgemu

Some statuses need an instance of their own, which this script starts (with the same binary) and stops:
  - `storage`: a full disk (RLIMIT_FSIZE lowered on the running process): writes answer 503 storageUnavailable;
  - `unreadable`: a disk whose reads fail with EIO (faults/unreadable-disk.c, preloaded, switched on by a file):
    reads answer 503 storageUnavailable, and /readyz 503 notReady;
  - `streams`: --max-streams 1: a second event stream answers 503 tooManyStreams;
  - `quota`: --max-devices-per-tenant 1: a tenant's second device (or scenario run) answers 409 tooManyDevices;
  - `tenantstreams`: --max-streams-per-tenant 1: a tenant's second event stream answers 429 tooManyStreamsForTenant;
  - `uploads`: --max-uploads-per-tenant 1: an upload while the tenant holds one half sent answers 429 tooManyUploads;
  - `nocontract`: --openapi pointing at no file: GET /openapi.yaml answers 404;
  - `smallimports`: --max-upload-mib 1: the export of a tenant past 1 MiB answers 409 exportTooLarge;
  - `retention`: --event-retention-per-device 1, pruned every 0.2 s: a page or resume from before a device's
    newest event answers 410 eventsPruned;
  - `ratelimit`: --rate-limit 0.01 --rate-burst 1 --rate-limit-hold 0.05: a tenant's one request spends its bucket
    for 100 s, so the next answers 429 rateLimited (on every tenant operation), each held 50 ms instead of 1 s;
  - `inflight`: --threads 2: a request waits for SQLite's write lock (held by this script) while its retry with the
    same Idempotency-Key answers 409 idempotencyKeyInFlight.

Extending it: when an operation or a status is added to the contract, add one `@case(...)` recipe in the route
family's section (or rely on a generic recipe at the end: 401, 404, 400, 413, 415, 422, 431, 503 on writes and reads).
The Idempotency-Key statuses (400, 409, 422 on every tenant POST) have recipes of their own (`idempotency_variants`).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
from dataclasses import dataclass, field
from typing import Callable

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

METHODS = ("get", "put", "post", "delete", "patch")
UNKNOWN_DEVICE = "dev_000000000000000000000000"
UNKNOWN_TENANT = "ten_000000000000000000000000"
BAD_SEGMENT = "%FF"  # not UTF-8 once percent-decoded: 400 invalidPath

# ---- HTTP ---------------------------------------------------------------------------------------------------

@dataclass
class Req:
    method: str
    path: str                     # already percent-encoded where needed; sent as is
    json: object = None
    body: bytes | None = None
    headers: dict = field(default_factory=dict)
    auth: str | None = "tenant"   # "tenant", "admin" or None
    instance: str = "main"        # which running instance answers
    stream: bool = False          # read only the head and a first chunk (event streams)
    code: str | None = None       # the problem's `code` the answer must carry, when it is a problem


@dataclass
class Resp:
    status: int
    headers: dict                 # lower-cased names
    body: bytes

    def json(self):
        return json.loads(self.body.decode())


class Instance:
    def __init__(self, base: str, api_key: str, admin_token: str, process: subprocess.Popen | None = None):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port
        self.api_key, self.admin_token, self.process = api_key, admin_token, process
        self.restart: Callable[[], "Instance"] | None = None   # starts it again on its database (own instances)
        # A connection opened ahead, used by the next send: it was dealt to an event loop before later connections.
        self.preconnected: http.client.HTTPConnection | None = None

    def send(self, r: Req, timeout: float = 10) -> Resp:
        headers = {"Connection": "close", **r.headers}
        conn, self.preconnected = self.preconnected, None
        body = r.body
        if r.json is not None:
            body = json.dumps(r.json).encode()
            headers.setdefault("Content-Type", "application/json")
        if r.auth == "tenant":
            headers.setdefault("Authorization", f"Bearer {self.api_key}")
        elif r.auth == "admin":
            headers.setdefault("Authorization", f"Bearer {self.admin_token}")
        conn = conn or http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.putrequest(r.method, r.path, skip_accept_encoding=True)
            if body is not None and "Content-Length" not in headers:
                headers["Content-Length"] = str(len(body))
            for k, v in headers.items():
                conn.putheader(k, v)
            conn.endheaders()
            if body is not None and headers.get("Content-Length") == str(len(body)):
                conn.send(body)
            resp = conn.getresponse()
            hdrs = {k.lower(): v for k, v in resp.getheaders()}
            data = resp.read1(65536) if r.stream else resp.read()
            return Resp(resp.status, hdrs, data)
        finally:
            conn.close()

    def ok(self, method: str, path: str, json_body=None, expect=(200, 201, 204), **kw) -> Resp:
        """A setup call: must succeed."""
        resp = self.send(Req(method, path, json=json_body, **kw))
        if resp.status not in expect:
            raise SetupError(f"{method} {path} -> {resp.status} {resp.body[:300]!r}")
        return resp

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()


class SetupError(Exception):
    pass


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_instance(binary: str, workdir: str, name: str, *extra: str, ignore_xfsz: bool = False,
                   env_extra: dict | None = None) -> Instance:
    """Starts `bgemu serve` on a free port with its own database (`<workdir>/<name>.sqlite`, kept across restarts)."""
    port = free_port()
    key, token = f"bgemu_cov_{name}_{os.getpid()}", f"admin_cov_{name}_{os.getpid()}"
    env = {**os.environ, "BGEMU_API_KEY": key, **(env_extra or {})}

    def child_setup():
        if ignore_xfsz:   # a write past RLIMIT_FSIZE then fails with EFBIG instead of killing the process
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    proc = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--database",
         os.path.join(workdir, f"{name}.sqlite"), "--admin-token", token, "--log-level", "error", *extra],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=child_setup)
    inst = Instance(f"http://127.0.0.1:{port}", key, token, proc)
    inst.restart = lambda: start_instance(binary, workdir, name, *extra, ignore_xfsz=ignore_xfsz, env_extra=env_extra)
    for _ in range(300):
        try:
            if inst.send(Req("GET", "/healthz", auth=None), timeout=1).status == 200:
                return inst
        except OSError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    inst.stop()
    raise SetupError(f"instance {name} did not start")


# ---- The world recipes set up through the API -----------------------------------------------------------------

BUNDLE = "com.example.cov"
REFRESH, CLEANUP = f"{BUNDLE}.refresh", f"{BUNDLE}.cleanup"
ALL_MODES = ["audio", "location", "voip", "fetch", "remote-notification", "newsstand-content",
             "external-accessory", "bluetooth-central", "processing"]


def q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


class World:
    """Helpers that build devices and apps in the states recipes need; every recipe gets fresh ones."""

    def __init__(self, instances: dict[str, Instance], workdir: str, binary: str):
        self.instances, self.workdir, self.binary = instances, workdir, binary
        self.counter = 0
        self.held_stream = None
        self.after_send = None

    @property
    def main(self) -> Instance:
        return self.instances["main"]

    def instance(self, name: str) -> Instance:
        if name not in self.instances:
            if name == "streams":
                self.instances[name] = start_instance(self.binary, self.workdir, name, "--max-streams", "1")
            elif name == "quota":
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--max-devices-per-tenant", "1")
            elif name == "tenantstreams":
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--max-streams-per-tenant", "1")
            elif name == "uploads":
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--max-uploads-per-tenant", "1")
            elif name == "inflight":   # two event loops: consecutive connections go to different ones
                self.instances[name] = start_instance(self.binary, self.workdir, name, "--threads", "2")
            elif name == "retention":   # one event kept per device, pruned five times a second
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--event-retention-per-device", "1",
                    "--event-retention-interval", "0.2")
            elif name == "ratelimit":   # one request per 100 s: after one, the next is refused (held 50 ms)
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--rate-limit", "0.01", "--rate-burst", "1",
                    "--rate-limit-hold", "0.05")
            elif name == "smallimports":   # the largest import (and so export) 1 MiB
                self.instances[name] = start_instance(self.binary, self.workdir, name, "--max-upload-mib", "1")
            elif name == "nocontract":
                self.instances[name] = start_instance(
                    self.binary, self.workdir, name, "--openapi", os.path.join(self.workdir, "missing.yaml"))
            elif name == "storage":
                self.instances[name] = start_instance(self.binary, self.workdir, name, ignore_xfsz=True)
            elif name == "unreadable":
                self.instances[name] = start_instance(self.binary, self.workdir, name, env_extra={
                    "LD_PRELOAD": build_unreadable_disk(self.workdir),
                    "BGEMU_FAULT_SWITCH": self.fault_switch, "BGEMU_FAULT_PREFIX": self.database(name)})
            else:
                raise SetupError(f"no instance {name}")
        return self.instances[name]

    @property
    def fault_switch(self) -> str:
        """While this file exists, the `unreadable` instance's reads of its database fail with EIO."""
        return os.path.join(self.workdir, "unreadable.fault")

    def database(self, name: str) -> str:
        return os.path.join(self.workdir, f"{name}.sqlite")

    def restart(self, name: str) -> Instance:
        """Stops an instance of its own and starts it again on the same database: its caches are cold."""
        old = self.instances[name]
        old.stop()
        self.instances[name] = old.restart()
        return self.instances[name]

    def unique(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter}-{os.getpid()}"

    def device(self, on: str = "main", **body) -> str:
        body.setdefault("name", self.unique("dev"))
        return self.instance(on).ok("POST", "/v1/devices", body).json()["id"]

    def app(self, dev: str, on: str = "main", bundle: str = BUNDLE, modes=ALL_MODES, behavior=None) -> str:
        body = {"bundleId": bundle, "infoPlist": {
            "UIBackgroundModes": list(modes), "BGTaskSchedulerPermittedIdentifiers": [REFRESH, CLEANUP]}}
        if behavior:
            body["behavior"] = behavior
        self.instance(on).ok("POST", f"/v1/devices/{dev}/apps", body)
        return bundle

    def device_with_app(self, on: str = "main", state: str = "notRunning", **device) -> tuple[str, str]:
        dev = self.device(on, **device)
        app = self.app(dev, on)
        if state in ("foreground", "background", "suspended"):
            self.lifecycle(dev, app, "launch", on)
        if state in ("background", "suspended"):
            self.lifecycle(dev, app, "background", on)
        if state == "suspended":
            self.advance(dev, 600, on)
        return dev, app

    def a(self, dev: str, app: str = BUNDLE, rest: str = "") -> str:
        return f"/v1/devices/{dev}/apps/{q(app)}{rest}"

    def lifecycle(self, dev, app, action, on="main"):
        return self.instance(on).ok("POST", self.a(dev, app, f"/{action}")).json()

    def advance(self, dev, seconds, on="main"):
        return self.instance(on).ok("POST", f"/v1/devices/{dev}/clock/advance", {"seconds": seconds}).json()

    def submit(self, dev, app=BUNDLE, identifier=REFRESH, kind="appRefresh", on="main"):
        return self.instance(on).ok("POST", self.a(dev, app, "/task-requests"),
                                    {"kind": kind, "identifier": identifier}).json()

    def run(self, dev, app=BUNDLE, on="main") -> str:
        """An open BGTask run (simulate-launch of a pending app refresh request)."""
        self.submit(dev, app, on=on)
        return self.instance(on).ok("POST", self.a(dev, app, f"/task-requests/{q(REFRESH)}/simulate-launch")).json()["id"]

    def session(self, dev, app=BUNDLE, identifier="sess", on="main", **extra) -> str:
        self.instance(on).ok("POST", self.a(dev, app, "/url-sessions"), {"identifier": identifier, **extra})
        return identifier

    def transfer(self, dev, app=BUNDLE, session="sess", on="main", bytes_=1000) -> str:
        return self.instance(on).ok("POST", self.a(dev, app, f"/url-sessions/{session}/transfers"),
                                    {"kind": "download", "bytes": bytes_}).json()["id"]

    def tenant(self) -> str:
        return self.main.ok("POST", "/v1/admin/tenants", {"name": self.unique("tenant")}, auth="admin").json()["id"]


# ---- The table of provocations --------------------------------------------------------------------------------

Recipe = Callable[[World], Req]
# Recipes by (METHOD, path, status); a status may have several (one per problem `code` worth showing).
CASES: dict[tuple[str, str, str], list[Recipe]] = {}


def case(operation: str, status: int, code: str | None = None):
    """Registers a recipe for `METHOD /path` answering `status` (and, for a problem, `code`)."""
    method, path = operation.split(" ", 1)

    def register(fn: Recipe) -> Recipe:
        def recipe(w: World) -> Req:
            r = fn(w)
            r.code = r.code or code
            return r
        recipe.code = code
        CASES.setdefault((method.upper(), path, str(status)), []).append(recipe)
        return fn
    return register


# -- Operations
case("GET /openapi.yaml", 200)(lambda w: Req("GET", "/openapi.yaml", auth=None))
case("GET /openapi.yaml", 404)(lambda w: Req("GET", "/openapi.yaml", auth=None, instance="nocontract"))
case("GET /healthz", 200)(lambda w: Req("GET", "/healthz", auth=None))
case("GET /readyz", 200)(lambda w: Req("GET", "/readyz", auth=None))
case("GET /metrics", 200)(lambda w: Req("GET", "/metrics", auth="admin"))
case("GET /readyz", 503, "notReady")(lambda w: storage_unreadable("GET", "/readyz", code="notReady")(w))

# -- Admin
case("POST /v1/admin/tenants", 201)(lambda w: Req("POST", "/v1/admin/tenants", {"name": w.unique("t")}, auth="admin"))


@case("POST /v1/admin/tenants", 409, "tenantExists")
def _(w):
    name = w.unique("t")
    w.main.ok("POST", "/v1/admin/tenants", {"name": name}, auth="admin")
    return Req("POST", "/v1/admin/tenants", {"name": name}, auth="admin")


case("POST /v1/admin/tenants", 422, "validationFailed")(lambda w: Req("POST", "/v1/admin/tenants", {"name": ""}, auth="admin"))
case("GET /v1/admin/tenants", 200)(lambda w: Req("GET", "/v1/admin/tenants?limit=2", auth="admin"))
case("GET /v1/admin/tenants", 422, "validationFailed")(lambda w: Req("GET", "/v1/admin/tenants?limit=0", auth="admin"))
case("GET /v1/admin/tenants/{tenantId}", 200)(lambda w: Req("GET", f"/v1/admin/tenants/{w.tenant()}", auth="admin"))
case("DELETE /v1/admin/tenants/{tenantId}", 204)(lambda w: Req("DELETE", f"/v1/admin/tenants/{w.tenant()}", auth="admin"))
case("PUT /v1/admin/tenants/{tenantId}/fence", 200)(
    lambda w: Req("PUT", f"/v1/admin/tenants/{w.tenant()}/fence", auth="admin"))
def fenced_tenant(w: World) -> str:
    """A new tenant, fenced: lifting its fence is a write (the stored fence deleted)."""
    tenant = w.tenant()
    w.main.ok("PUT", f"/v1/admin/tenants/{tenant}/fence", auth="admin")
    return tenant


case("DELETE /v1/admin/tenants/{tenantId}/fence", 200)(
    lambda w: Req("DELETE", f"/v1/admin/tenants/{fenced_tenant(w)}/fence", auth="admin"))
case("GET /v1/admin/tenants/{tenantId}/export", 200)(
    lambda w: Req("GET", f"/v1/admin/tenants/{w.tenant()}/export", auth="admin"))



@case("GET /v1/admin/tenants/{tenantId}/export", 409, "exportTooLarge")
def _(w):
    """A tenant whose rows pass the instance's 1 MiB (devices with long names, 100 at a time until they do)."""
    small = w.instance("smallimports")
    tenant = small.ok("POST", "/v1/admin/tenants", {"name": w.unique("large")}, auth="admin").json()
    bearer = {"Authorization": f"Bearer {tenant['apiKey']}"}
    export = Req("GET", f"/v1/admin/tenants/{tenant['id']}/export", auth="admin", instance="smallimports")
    for _ in range(40):
        for _ in range(100):
            small.ok("POST", "/v1/devices", {"name": "n" * 100}, auth=None, headers=bearer)
        if small.send(export).status == 409:
            return export
    raise SetupError("4,000 devices named with 100 characters did not make an export past 1 MiB")


def moved_tenant(w: "World") -> dict:
    """The export of a tenant deleted since: importable once."""
    tenant = w.tenant()
    document = w.main.ok("GET", f"/v1/admin/tenants/{tenant}/export", auth="admin").json()
    w.main.ok("DELETE", f"/v1/admin/tenants/{tenant}", auth="admin")
    return document


case("POST /v1/admin/tenants/import", 201)(
    lambda w: Req("POST", "/v1/admin/tenants/import", moved_tenant(w), auth="admin"))
case("POST /v1/admin/tenants/import", 409, "tenantExists")(
    lambda w: Req("POST", "/v1/admin/tenants/import",
                  w.main.ok("GET", f"/v1/admin/tenants/{w.tenant()}/export", auth="admin").json(), auth="admin"))
case("POST /v1/admin/tenants/import", 422, "validationFailed")(
    lambda w: Req("POST", "/v1/admin/tenants/import", {"format": "x"}, auth="admin"))
case("POST /v1/admin/tenants/{tenantId}/keys", 201)(
    lambda w: Req("POST", f"/v1/admin/tenants/{w.tenant()}/keys", auth="admin"))


@case("DELETE /v1/admin/tenants/{tenantId}/keys/{keyId}", 204)
def _(w):
    tenant = w.tenant()
    key = w.main.ok("POST", f"/v1/admin/tenants/{tenant}/keys", auth="admin").json()["id"]
    return Req("DELETE", f"/v1/admin/tenants/{tenant}/keys/{key}", auth="admin")


@case("DELETE /v1/admin/tenants/{tenantId}/keys/{keyId}", 404, "notFound")
def _(w):   # a key that is revoked already
    tenant = w.tenant()
    key = w.main.ok("POST", f"/v1/admin/tenants/{tenant}/keys", auth="admin").json()["id"]
    w.main.ok("DELETE", f"/v1/admin/tenants/{tenant}/keys/{key}", auth="admin")
    return Req("DELETE", f"/v1/admin/tenants/{tenant}/keys/{key}", auth="admin")


# -- Devices
case("POST /v1/devices", 201)(lambda w: Req("POST", "/v1/devices", {"name": "d", "osVersion": "17.0", "seed": 1}))
case("POST /v1/devices", 422, "validationFailed")(lambda w: Req("POST", "/v1/devices", {"name": "d", "osVersion": "99.0"}))
case("POST /v1/devices", 422, "validationFailed")(   # a clock starting past the latest instant it reads
    lambda w: Req("POST", "/v1/devices", {"name": "d", "clock": {"start": "9000-01-01T00:00:01Z"}}))
# Well-formed JSON whose number does not fit an integer field (Foundation calls that corrupted data).
case("POST /v1/devices", 422, "validationFailed")(lambda w: Req("POST", "/v1/devices", {"name": "d", "seed": -1}))
case("GET /v1/devices", 200)(lambda w: Req("GET", "/v1/devices?limit=2"))
case("GET /v1/devices/{deviceId}", 200)(lambda w: Req("GET", f"/v1/devices/{w.device()}"))
case("DELETE /v1/devices/{deviceId}", 204)(lambda w: Req("DELETE", f"/v1/devices/{w.device()}"))
case("PATCH /v1/devices/{deviceId}", 200)(lambda w: Req("PATCH", f"/v1/devices/{w.device()}", {"name": "renamed"}))
case("PATCH /v1/devices/{deviceId}", 422, "validationFailed")(lambda w: Req("PATCH", f"/v1/devices/{w.device()}", {"name": ""}))
case("PATCH /v1/devices/{deviceId}/conditions", 200)(
    lambda w: Req("PATCH", f"/v1/devices/{w.device()}/conditions", {"charging": True}))
case("PATCH /v1/devices/{deviceId}/conditions", 422, "validationFailed")(
    lambda w: Req("PATCH", f"/v1/devices/{w.device()}/conditions", {"batteryLevel": 101}))
case("GET /v1/devices/{deviceId}/clock", 200)(lambda w: Req("GET", f"/v1/devices/{w.device()}/clock"))
case("POST /v1/devices/{deviceId}/clock/advance", 200)(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/clock/advance", {"seconds": 90}))
case("POST /v1/devices/{deviceId}/clock/advance", 422, "validationFailed")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/clock/advance", {"seconds": -1}))
# Bounds relative to the clock's reading are conflicts: back in time, over 30 days ahead, past 9000-01-01.
case("POST /v1/devices/{deviceId}/clock/advance", 409, "clockCannotGoBack")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/clock/advance", {"to": "2025-01-01T00:00:00Z"}))
case("POST /v1/devices/{deviceId}/clock/advance", 409, "advanceTooLong")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/clock/advance", {"to": "2026-03-01T00:00:00Z"}))
case("POST /v1/devices/{deviceId}/clock/advance", 409, "clockAtLimit")(
    lambda w: Req("POST", f"/v1/devices/{w.device(clock={'start': '8999-12-31T00:00:00Z'})}/clock/advance",
                  {"seconds": 2 * 86_400}))
case("POST /v1/devices/{deviceId}/reboot", 200)(lambda w: Req("POST", f"/v1/devices/{w.device()}/reboot"))

# -- Apps
case("POST /v1/devices/{deviceId}/apps", 201)(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/apps", {"bundleId": BUNDLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}}))
INFO_PLIST = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
  <key>CFBundleIdentifier</key><string>{BUNDLE}</string>
  <key>UIBackgroundModes</key><array><string>fetch</string></array>
  <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>{REFRESH}</string></array>
</dict></plist>""".encode()
case("POST /v1/devices/{deviceId}/apps", 201)(   # a real Info.plist, its launch handlers in the query
    lambda w: Req("POST", f"/v1/devices/{w.device()}/apps?launchHandlers={q(REFRESH)}", body=INFO_PLIST,
                  headers={"Content-Type": "application/x-plist"}))


@case("POST /v1/devices/{deviceId}/apps", 409, "alreadyInstalled")
def _(w):
    dev = w.device()
    w.app(dev)
    return Req("POST", f"/v1/devices/{dev}/apps", {"bundleId": BUNDLE})


@case("POST /v1/devices/{deviceId}/apps", 409, "tooManyApps")
def _(w):
    dev = w.device()
    for i in range(200):
        w.main.ok("POST", f"/v1/devices/{dev}/apps", {"bundleId": f"{BUNDLE}{i}"})
    return Req("POST", f"/v1/devices/{dev}/apps", {"bundleId": BUNDLE})


class _HeldUpload:
    """An upload's head and part of its body, sent and held: the tenant's upload slot is taken while it lives."""

    def __init__(self, inst: Instance, dev: str):
        self.sock = socket.create_connection((inst.host, inst.port), timeout=10)
        self.sock.sendall((f"POST /v1/devices/{dev}/apps HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer {inst.api_key}\r\n"
                           "Content-Type: application/zip\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:   # 100 Continue: admitted, the slot is held
            more = self.sock.recv(1024)
            if not more:
                raise SetupError(f"the held upload was answered: {head[:100]!r}")
            head += more
        self.sock.sendall(b"PK")

    def close(self) -> None:
        self.sock.close()


@case("POST /v1/devices/{deviceId}/apps", 429, "tooManyUploads")
def _(w):
    dev = w.device(on="uploads")
    w.held_stream = _HeldUpload(w.instance("uploads"), dev)
    return Req("POST", f"/v1/devices/{dev}/apps", body=INFO_PLIST, headers={"Content-Type": "application/x-plist"},
               instance="uploads")


case("POST /v1/devices/{deviceId}/apps", 422, "validationFailed")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/apps", {"bundleId": BUNDLE, "infoPlist": {"UIBackgroundModes": ["nope"]}}))
case("GET /v1/devices/{deviceId}/apps", 200)(lambda w: Req("GET", f"/v1/devices/{w.device_with_app()[0]}/apps"))
case("GET /v1/devices/{deviceId}/apps/{bundleId}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0])))
case("DELETE /v1/devices/{deviceId}/apps/{bundleId}", 204)(lambda w: Req("DELETE", w.a(w.device_with_app()[0])))
case("GET /v1/devices/{deviceId}/apps/{bundleId}/background-modes", 200)(
    lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/background-modes")))
case("PUT /v1/devices/{deviceId}/apps/{bundleId}/background-modes", 200)(
    lambda w: Req("PUT", w.a(w.device_with_app()[0], rest="/background-modes"), {"backgroundModes": ["audio"]}))
case("PUT /v1/devices/{deviceId}/apps/{bundleId}/background-modes", 422, "validationFailed")(
    lambda w: Req("PUT", w.a(w.device_with_app()[0], rest="/background-modes"), {"backgroundModes": ["nope"]}))
case("PATCH /v1/devices/{deviceId}/apps/{bundleId}/settings", 200)(
    lambda w: Req("PATCH", w.a(w.device_with_app()[0], rest="/settings"), {"backgroundAppRefresh": False}))
case("PATCH /v1/devices/{deviceId}/apps/{bundleId}/settings", 422, "validationFailed")(
    lambda w: Req("PATCH", w.a(w.device_with_app()[0], rest="/settings"), {"backgroundAppRefresh": "no"}))

# -- Lifecycle
case("POST /v1/devices/{deviceId}/apps/{bundleId}/launch", 200)(lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/launch")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background", 200)(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/background")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background", 409, "notInForeground")(
    lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/background")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/foreground", 200)(
    lambda w: Req("POST", w.a(w.device_with_app(state="background")[0], rest="/foreground")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/foreground", 409, "notRunning")(
    lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/foreground")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/force-quit", 200)(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/force-quit")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/terminate", 200)(
    lambda w: Req("POST", w.a(w.device_with_app(state="suspended")[0], rest="/terminate")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/terminate", 409, "notRunning")(
    lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/terminate")))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/terminate", 409, "inForeground")(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/terminate")))

# -- Background tasks
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background-tasks", 201)(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/background-tasks"), {"name": "upload"}))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background-tasks", 200)(   # iOS 4 without multitasking (R14)
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground", osVersion="4.0", multitaskingSupported=False)[0],
                              rest="/background-tasks"), {"name": "upload"}))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background-tasks", 409, "appNotRunning")(
    lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/background-tasks"), {"name": "upload"}))
case("POST /v1/devices/{deviceId}/apps/{bundleId}/background-tasks", 422, "validationFailed")(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/background-tasks"), {"name": "x" * 201}))
case("GET /v1/devices/{deviceId}/apps/{bundleId}/background-tasks", 200)(
    lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/background-tasks")))


def begun_task(w: World) -> str:
    dev, app = w.device_with_app(state="foreground")
    task = w.main.ok("POST", w.a(dev, app, "/background-tasks"), {"name": "upload"}).json()["id"]
    return w.a(dev, app, f"/background-tasks/{task}")


case("GET /v1/devices/{deviceId}/apps/{bundleId}/background-tasks/{taskId}", 200)(lambda w: Req("GET", begun_task(w)))
case("DELETE /v1/devices/{deviceId}/apps/{bundleId}/background-tasks/{taskId}", 204)(lambda w: Req("DELETE", begun_task(w)))

# -- Task requests
TR = "/v1/devices/{deviceId}/apps/{bundleId}/task-requests"
def pending_request(w: World, rest: str = "") -> str:
    dev, app = w.device_with_app(state="foreground")
    w.submit(dev, app)
    return w.a(dev, app, f"/task-requests/{q(REFRESH)}{rest}")


case(f"POST {TR}", 201)(lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/task-requests"),
                                       {"kind": "appRefresh", "identifier": REFRESH}))
case(f"POST {TR}", 409, "appNotRunning")(
    lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/task-requests"), {"kind": "appRefresh", "identifier": REFRESH}))
case(f"POST {TR}", 409, "unavailable")(   # Low Power Mode (R18)
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground", conditions={"lowPowerMode": True})[0],
                              rest="/task-requests"), {"kind": "appRefresh", "identifier": REFRESH}))
case(f"POST {TR}", 409, "notPermitted")(   # not in BGTaskSchedulerPermittedIdentifiers (R15)
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/task-requests"),
                  {"kind": "appRefresh", "identifier": "com.example.other"}))


@case(f"POST {TR}", 409, "tooManyPendingTaskRequests")
def _(w):   # one pending app refresh request at most (R17)
    dev, app = w.device_with_app(state="foreground")
    w.submit(dev, app, REFRESH)
    return Req("POST", w.a(dev, app, "/task-requests"), {"kind": "appRefresh", "identifier": CLEANUP})


@case(f"POST {TR}", 409, "noLaunchHandler")
def _(w):   # the app registers no launch handler: submitting crashes it (R16)
    dev = w.device()
    w.main.ok("POST", f"/v1/devices/{dev}/apps", {"bundleId": BUNDLE, "launchHandlers": [], "infoPlist": {
        "UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [REFRESH]}})
    w.lifecycle(dev, BUNDLE, "launch")
    return Req("POST", w.a(dev, BUNDLE, "/task-requests"), {"kind": "appRefresh", "identifier": REFRESH})



case(f"POST {TR}", 422, "validationFailed")(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/task-requests"), {"kind": "nope", "identifier": REFRESH}))
case(f"GET {TR}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/task-requests")))
case(f"DELETE {TR}", 204)(lambda w: Req("DELETE", pending_request(w).rsplit("/", 1)[0]))


case(f"GET {TR}/{{identifier}}", 200)(lambda w: Req("GET", pending_request(w)))
case(f"DELETE {TR}/{{identifier}}", 204)(lambda w: Req("DELETE", pending_request(w)))
case(f"GET {TR}/{{identifier}}/eligibility", 200)(lambda w: Req("GET", pending_request(w, "/eligibility")))
case(f"POST {TR}/{{identifier}}/simulate-launch", 201)(lambda w: Req("POST", pending_request(w, "/simulate-launch")))


@case(f"POST {TR}/{{identifier}}/simulate-expiration", 200)
def _(w):
    dev, app = w.device_with_app(state="foreground")
    w.run(dev, app)
    return Req("POST", w.a(dev, app, f"/task-requests/{q(REFRESH)}/simulate-expiration"))


# -- Runs
RUNS = "/v1/devices/{deviceId}/apps/{bundleId}/runs"
case(f"GET {RUNS}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/runs")))


def open_run(w: World) -> str:
    dev, app = w.device_with_app(state="foreground")
    return w.a(dev, app, f"/runs/{w.run(dev, app)}")


case(f"GET {RUNS}/{{runId}}", 200)(lambda w: Req("GET", open_run(w)))
case(f"POST {RUNS}/{{runId}}/complete", 200)(lambda w: Req("POST", open_run(w) + "/complete", {"success": True}))
case(f"POST {RUNS}/{{runId}}/complete", 422, "validationFailed")(   # a fetch result for a BGTask run
    lambda w: Req("POST", open_run(w) + "/complete", {"result": "newData"}))


@case(f"POST {RUNS}/{{runId}}/complete", 409, "runNotOpen")
def _(w):
    run = open_run(w)
    w.main.ok("POST", run + "/complete", {"success": True})
    return Req("POST", run + "/complete", {"success": True})


# Continued processing (R41): an iOS 26 device whose app lists a wildcard identifier, in the foreground.
EXPORTS = f"{BUNDLE}.export.*"


def continued_run(w: World) -> str:
    """The path of a running continued processing run, submitted from the foreground."""
    dev = w.device(osVersion="26.0")
    w.main.ok("POST", f"/v1/devices/{dev}/apps", {"bundleId": BUNDLE, "infoPlist": {
        "BGTaskSchedulerPermittedIdentifiers": [EXPORTS]}})
    w.lifecycle(dev, BUNDLE, "launch")
    submitted = w.main.ok("POST", w.a(dev, BUNDLE, "/task-requests"), {
        "kind": "continuedProcessing", "identifier": f"{BUNDLE}.export.1", "title": "Exporting", "subtitle": "1 file"})
    return submitted.headers["location"]


case(f"POST {RUNS}/{{runId}}/progress", 200)(
    lambda w: Req("POST", continued_run(w) + "/progress", {"completedUnitCount": 1, "totalUnitCount": 2}))
case(f"POST {RUNS}/{{runId}}/progress", 409, "notContinuedProcessing")(
    lambda w: Req("POST", open_run(w) + "/progress", {"completedUnitCount": 1, "totalUnitCount": 2}))
case(f"POST {RUNS}/{{runId}}/progress", 422, "validationFailed")(
    lambda w: Req("POST", continued_run(w) + "/progress", {"completedUnitCount": -1, "totalUnitCount": 2}))


@case(f"POST {RUNS}/{{runId}}/progress", 409, "runNotOpen")
def _(w):
    run = continued_run(w)
    w.main.ok("POST", run + "/complete", {"success": True})
    return Req("POST", run + "/progress", {"completedUnitCount": 1, "totalUnitCount": 2})


case(f"POST {RUNS}/{{runId}}/cancel", 200)(lambda w: Req("POST", continued_run(w) + "/cancel"))
case(f"POST {RUNS}/{{runId}}/cancel", 409, "notContinuedProcessing")(lambda w: Req("POST", open_run(w) + "/cancel"))


@case(f"POST {TR}", 409, "immediateRunIneligible")
def _(w):   # a continued processing request submitted from the background (R41)
    run = continued_run(w)
    app_path = run.split("/runs/")[0]
    w.main.ok("POST", app_path + "/background")
    return Req("POST", app_path + "/task-requests", {
        "kind": "continuedProcessing", "identifier": f"{BUNDLE}.export.2", "title": "Exporting", "subtitle": "2"})


case("PUT /v1/devices/{deviceId}/apps/{bundleId}/fetch-interval", 200)(
    lambda w: Req("PUT", w.a(w.device_with_app()[0], rest="/fetch-interval"), {"interval": 3600}))
case("PUT /v1/devices/{deviceId}/apps/{bundleId}/fetch-interval", 422, "validationFailed")(
    lambda w: Req("PUT", w.a(w.device_with_app()[0], rest="/fetch-interval"), {"interval": -1}))

# -- Push
case("POST /v1/devices/{deviceId}/push", 200)(
    lambda w: Req("POST", f"/v1/devices/{w.device_with_app()[0]}/push", {"aps": {"content-available": 1}},
                  headers={"apns-topic": BUNDLE, "apns-push-type": "background", "apns-priority": "5"}))
case("POST /v1/devices/{deviceId}/push", 400, "MissingTopic")(
    lambda w: Req("POST", f"/v1/devices/{w.device_with_app()[0]}/push", {"aps": {"content-available": 1}}))

# -- Notifications
NOTE = "/v1/devices/{deviceId}/apps/{bundleId}/notifications"
case(f"POST {NOTE}", 201)(lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/notifications"),
                                         {"identifier": "n1", "timeInterval": 60}))
case(f"POST {NOTE}", 422, "validationFailed")(lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/notifications"), {"identifier": "n1"}))
case(f"POST {NOTE}", 409, "fireDateNotAhead")(lambda w: Req(   # the device's clock reads 2026-01-01
    "POST", w.a(w.device_with_app()[0], rest="/notifications"), {"identifier": "n1", "fireDate": "2025-12-31T00:00:00Z"}))
case(f"GET {NOTE}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/notifications")))


@case(f"DELETE {NOTE}/{{identifier}}", 204)
def _(w):
    dev, app = w.device_with_app()
    w.main.ok("POST", w.a(dev, app, "/notifications"), {"identifier": "n1", "timeInterval": 60})
    return Req("DELETE", w.a(dev, app, "/notifications/n1"))


# -- Events
case("GET /v1/events", 200)(lambda w: Req("GET", "/v1/events?limit=2"))
case("GET /v1/events", 200)(lambda w: Req("GET", "/v1/events", headers={"Accept": "text/event-stream"}, stream=True))
case("GET /v1/events", 400, "malformedRequest")(   # Last-Event-ID is read when a stream resumes
    lambda w: Req("GET", "/v1/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "not-an-id"}))
case("GET /v1/events", 422, "validationFailed")(lambda w: Req("GET", "/v1/events?limit=0"))
case("GET /v1/events", 422, "validationFailed")(lambda w: Req("GET", "/v1/events?runId=run_1"))   # runId without deviceId
case("GET /v1/devices/{deviceId}/events", 200)(lambda w: Req("GET", f"/v1/devices/{w.device()}/events?limit=2"))
case("GET /v1/devices/{deviceId}/events", 200)(   # the live stream: its head and the first block
    lambda w: Req("GET", f"/v1/devices/{w.device()}/events", headers={"Accept": "text/event-stream"}, stream=True))
case("GET /v1/devices/{deviceId}/events", 400, "malformedRequest")(
    lambda w: Req("GET", f"/v1/devices/{w.device()}/events",
                  headers={"Accept": "text/event-stream", "Last-Event-ID": "not-an-id"}))
case("GET /v1/devices/{deviceId}/events", 422, "validationFailed")(lambda w: Req("GET", f"/v1/devices/{w.device()}/events?limit=0"))


def pruned_device(w: World) -> str:
    """A device of the `retention` instance whose older events the pruner deleted (it keeps one per device)."""
    inst = w.instance("retention")
    dev = w.device(on="retention")
    w.advance(dev, 60, on="retention")
    w.advance(dev, 60, on="retention")
    for _ in range(100):
        if inst.send(Req("GET", f"/v1/devices/{dev}/events?after=0", instance="retention")).status == 410:
            return dev
        time.sleep(0.1)
    raise SetupError("the retention instance pruned nothing in 10 s")


case("GET /v1/events", 410, "eventsPruned")(   # a page continuing from before the retained range
    lambda w: Req("GET", f"/v1/events?deviceId={pruned_device(w)}&after=0", instance="retention"))
case("GET /v1/events", 410, "eventsPruned")(   # a stream resuming from before it, tenant-wide
    lambda w: (pruned_device(w), Req("GET", "/v1/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "0"},
                                     instance="retention"))[1])
case("GET /v1/devices/{deviceId}/events", 410, "eventsPruned")(
    lambda w: Req("GET", f"/v1/devices/{pruned_device(w)}/events?cursor=1&limit=5", instance="retention"))
case("GET /v1/devices/{deviceId}/events", 410, "eventsPruned")(
    lambda w: Req("GET", f"/v1/devices/{pruned_device(w)}/events?lastEventId=0", headers={"Accept": "text/event-stream"},
                  instance="retention"))


def too_many_streams(path: str, instance: str = "streams") -> Recipe:
    """A second stream on an instance that holds at most one (503 tooManyStreams), or at most one per tenant
    (429 tooManyStreamsForTenant)."""
    def recipe(w: World) -> Req:
        inst = w.instance(instance)
        hold = Req("GET", path(inst, w) if callable(path) else path, headers={"Accept": "text/event-stream"},
                   auth="tenant", instance=instance)
        w.held_stream = open_stream(inst, hold)
        return Req(hold.method, hold.path, headers=hold.headers, instance=instance)
    return recipe


def open_stream(inst: Instance, r: Req):
    """Opens a stream and keeps it: the hub counts it from the moment the request is accepted. A stream closed by
    the previous recipe may still hold the only place for a moment (the server sees the close on its next poll)."""
    for _ in range(50):
        conn = http.client.HTTPConnection(inst.host, inst.port, timeout=10)
        conn.request(r.method, r.path, headers={**r.headers, "Authorization": f"Bearer {inst.api_key}"})
        resp = conn.getresponse()
        if resp.status == 200:
            resp.read1(100)
            return resp   # the response owns the socket: the stream stays open while it is referenced
        resp.read()
        conn.close()
        if resp.status != 503:
            break
        time.sleep(0.05)
    raise SetupError(f"the first stream answered {resp.status}")


case("GET /v1/events", 503, "tooManyStreams")(too_many_streams("/v1/events"))
case("GET /v1/devices/{deviceId}/events", 503, "tooManyStreams")(
    too_many_streams(lambda inst, w: f"/v1/devices/{w.device(on='streams')}/events"))
case("GET /v1/events", 429, "tooManyStreamsForTenant")(too_many_streams("/v1/events", "tenantstreams"))
case("GET /v1/devices/{deviceId}/events", 429, "tooManyStreamsForTenant")(
    too_many_streams(lambda inst, w: f"/v1/devices/{w.device(on='tenantstreams')}/events", "tenantstreams"))
case("GET /v1/events", 429, "rateLimited")(lambda w: rate_limited("GET", "/v1/events", {})(w))
case("GET /v1/devices/{deviceId}/events", 429, "rateLimited")(
    lambda w: rate_limited("GET", "/v1/devices/{deviceId}/events", {})(w))

# -- URL sessions and transfers
US = "/v1/devices/{deviceId}/apps/{bundleId}/url-sessions"
case(f"POST {US}", 201)(lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/url-sessions"), {"identifier": "s"}))


@case(f"POST {US}", 200)
def _(w):   # the session exists: reconnected
    dev, app = w.device_with_app(state="foreground")
    w.session(dev, app, "s")
    return Req("POST", w.a(dev, app, "/url-sessions"), {"identifier": "s"})


case(f"POST {US}", 422, "validationFailed")(lambda w: Req("POST", w.a(w.device_with_app()[0], rest="/url-sessions"), {"identifier": ""}))
case(f"GET {US}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/url-sessions")))


def with_session(w: World, rest: str = "", state: str = "foreground") -> str:
    dev, app = w.device_with_app(state=state)
    w.session(dev, app, "s")
    return w.a(dev, app, f"/url-sessions/s{rest}")


case(f"GET {US}/{{identifier}}", 200)(lambda w: Req("GET", with_session(w)))
case(f"POST {US}/{{identifier}}/transfers", 201)(
    lambda w: Req("POST", with_session(w, "/transfers"), {"kind": "download", "bytes": 1000}))
case(f"POST {US}/{{identifier}}/transfers", 422, "validationFailed")(
    lambda w: Req("POST", with_session(w, "/transfers"), {"kind": "download", "bytes": 0}))
case(f"GET {US}/{{identifier}}/transfers", 200)(lambda w: Req("GET", with_session(w, "/transfers")))
case(f"GET {US}/{{identifier}}/transfers", 422, "validationFailed")(lambda w: Req("GET", with_session(w, "/transfers?limit=0")))
case(f"POST {US}/{{identifier}}/finish-events", 409, "noPendingEvents")(lambda w: Req("POST", with_session(w, "/finish-events")))


@case(f"POST {US}/{{identifier}}/finish-events", 200)
def _(w):   # a transfer ends while the app is suspended: the system relaunches it with the session's events
    dev, app = w.device_with_app(state="foreground")
    w.session(dev, app, "s", sessionSendsLaunchEvents=True)
    w.transfer(dev, app, "s", bytes_=10**8)    # 20 s on wifi; the app is suspended after 5 s
    w.lifecycle(dev, app, "background")
    w.advance(dev, 25)                          # the run opened at 20 s lasts 30 s
    return Req("POST", w.a(dev, app, "/url-sessions/s/finish-events"))


TRANSFERS = "/v1/devices/{deviceId}/apps/{bundleId}/transfers"
case(f"GET {TRANSFERS}", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/transfers")))


def a_transfer(w: World, ended: bool = False) -> str:
    dev, app = w.device_with_app(state="foreground")
    w.session(dev, app, "s")
    tid = w.transfer(dev, app, "s", bytes_=10**9 if not ended else 1000)
    if ended:
        w.advance(dev, 3600)
    return w.a(dev, app, f"/transfers/{tid}")


case(f"GET {TRANSFERS}/{{transferId}}", 200)(lambda w: Req("GET", a_transfer(w)))
case(f"DELETE {TRANSFERS}/{{transferId}}", 200)(lambda w: Req("DELETE", a_transfer(w)))
case(f"DELETE {TRANSFERS}/{{transferId}}", 409, "transferEnded")(lambda w: Req("DELETE", a_transfer(w, ended=True)))

# -- Activities
ACT = "/v1/devices/{deviceId}/apps/{bundleId}"
case(f"GET {ACT}/activities", 200)(lambda w: Req("GET", w.a(w.device_with_app()[0], rest="/activities")))
case(f"PUT {ACT}/activities/{{activity}}", 200)(
    lambda w: Req("PUT", w.a(w.device_with_app(state="foreground")[0], rest="/activities/audio"), {"active": True}))
case(f"PUT {ACT}/activities/{{activity}}", 422, "validationFailed")(   # voip without keepAliveInterval (R37)
    lambda w: Req("PUT", w.a(w.device_with_app(state="foreground")[0], rest="/activities/voip"), {"active": True}))
case(f"PUT {ACT}/activities/{{activity}}", 404, "notFound")(   # no such activity
    lambda w: Req("PUT", w.a(w.device_with_app()[0], rest="/activities/teleport"), {"active": True}))
case("POST /v1/devices/{deviceId}/location", 200)(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/location", {"latitude": 48.85, "longitude": 2.35}))
case("POST /v1/devices/{deviceId}/location", 422, "validationFailed")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/location", {"latitude": 91, "longitude": 2.35}))
case("POST /v1/devices/{deviceId}/accessories/{accessoryId}/data", 200)(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/accessories/acc1/data", {"transport": "bluetooth"}))
case("POST /v1/devices/{deviceId}/accessories/{accessoryId}/data", 422, "validationFailed")(
    lambda w: Req("POST", f"/v1/devices/{w.device()}/accessories/acc1/data", {"transport": "wifi"}))
case(f"POST {ACT}/newsstand-issue", 201)(
    lambda w: Req("POST", w.a(w.device_with_app(state="suspended")[0], rest="/newsstand-issue"), {"name": "issue-1"}))
case(f"POST {ACT}/newsstand-issue", 409, "inForeground")(
    lambda w: Req("POST", w.a(w.device_with_app(state="foreground")[0], rest="/newsstand-issue"), {"name": "issue-1"}))


@case(f"POST {ACT}/newsstand-issue", 409, "modeNotDeclared")
def _(w):
    dev = w.device()
    w.app(dev, modes=["fetch"])
    return Req("POST", w.a(dev, BUNDLE, "/newsstand-issue"), {"name": "issue-1"})
case(f"POST {ACT}/newsstand-issue", 422, "validationFailed")(
    lambda w: Req("POST", w.a(w.device_with_app(state="suspended")[0], rest="/newsstand-issue"), {"name": ""}))

# -- Scenarios
SCENARIO = {
    "name": "coverage", "device": {"osVersion": "17.0", "seed": 1},
    "apps": [{"bundleId": BUNDLE, "infoPlist": {"UIBackgroundModes": ["audio"]}}],
    "steps": [{"at": 0, "action": "launch", "bundleId": BUNDLE}, {"after": 1, "action": "background", "bundleId": BUNDLE}],
    "expect": [{"state": {"bundleId": BUNDLE, "is": "suspended", "at": 60}}],
}
case("POST /v1/scenarios/run", 200)(lambda w: Req("POST", "/v1/scenarios/run", SCENARIO))


def over_device_quota(path: str, body: dict) -> Recipe:
    """On an instance whose tenants hold one device each, a tenant with its one device asks for another: 409."""
    def recipe(w: World) -> Req:
        w.instance("quota").ok("POST", "/v1/devices", {"name": "fills the quota"}, expect=(201, 409))
        return Req("POST", path, body, instance="quota")
    return recipe


case("POST /v1/devices", 409, "tooManyDevices")(over_device_quota("/v1/devices", {"name": "one too many"}))
case("POST /v1/scenarios/run", 409, "tooManyDevices")(over_device_quota("/v1/scenarios/run", SCENARIO))
case("POST /v1/scenarios/run", 422, "validationFailed")(lambda w: Req("POST", "/v1/scenarios/run", {**SCENARIO, "expect": "soon"}))
case("POST /v1/scenarios/run", 422, "validationFailed")(   # it would run the clock past 9000-01-01
    lambda w: Req("POST", "/v1/scenarios/run", {**SCENARIO, "device": {"clock": {"start": "8999-12-31T23:59:30Z"}}}))


# -- Forecasts (issue 14). A tenant runs one forecast at a time: a recipe waits until the tenant's forecasts have
# ended before it starts one, and deletes a long one it started once its answer came.
FC = "/v1/forecasts"


def forecast_body(devices: int = 2, days: int = 1) -> dict:
    return {"seed": 1, "devices": devices, "days": days, "app": {
        "bundleId": BUNDLE, "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [REFRESH]},
        "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": REFRESH}], "fetchInterval": "minimum"}}}


def forecasts_idle(inst: Instance, timeout: float = 60):
    """Waits until none of the tenant's forecasts runs."""
    deadline = time.monotonic() + timeout
    while any(f["state"] == "running" for f in inst.ok("GET", FC).json()["forecasts"]):
        if time.monotonic() > deadline:
            raise SetupError("a forecast of the tenant is still running")
        time.sleep(0.05)


def done_forecast(w: World) -> str:
    """A small forecast of the tenant, run to its end."""
    forecasts_idle(w.main)
    fid = w.main.ok("POST", FC, forecast_body(), expect=(202,)).json()["forecastId"]
    forecasts_idle(w.main)
    return fid


def running_forecast(w: World) -> str:
    """A forecast of the tenant that runs for a while (2,000 device-days, the main instance's limit), deleted once
    the recipe's request was answered."""
    inst = w.main
    forecasts_idle(inst)
    fid = inst.ok("POST", FC, forecast_body(devices=1000, days=2), expect=(202,)).json()["forecastId"]
    w.after_send = lambda: inst.ok("DELETE", f"{FC}/{fid}", expect=(204, 404))
    return fid


@case(f"POST {FC}", 202)
def _(w):
    inst = w.main
    forecasts_idle(inst)
    w.after_send = lambda: forecasts_idle(inst)
    return Req("POST", FC, forecast_body())


case(f"POST {FC}", 409, "forecastRunning")(lambda w: (running_forecast(w), Req("POST", FC, forecast_body()))[1])
case(f"POST {FC}", 422, "validationFailed")(lambda w: Req("POST", FC, {**forecast_body(), "colour": "red"}))
case(f"POST {FC}", 422, "validationFailed")(   # 2,002 device-days, past the main instance's 2,000
    lambda w: Req("POST", FC, forecast_body(devices=1001, days=2)))
case(f"GET {FC}", 200)(lambda w: (done_forecast(w), Req("GET", FC))[1])
case(f"GET {FC}/{{forecastId}}", 200)(lambda w: Req("GET", f"{FC}/{done_forecast(w)}"))
case(f"DELETE {FC}/{{forecastId}}", 204)(lambda w: Req("DELETE", f"{FC}/{done_forecast(w)}"))
case(f"GET {FC}/{{forecastId}}/devices", 200)(lambda w: Req("GET", f"{FC}/{done_forecast(w)}/devices"))
case(f"GET {FC}/{{forecastId}}/devices", 409, "forecastNotDone")(
    lambda w: Req("GET", f"{FC}/{running_forecast(w)}/devices"))


# ---- Idempotency-Key: on every tenant POST, a bad key (400), a key reused with another request (422), and a key
# whose first request is still running (409). They run besides the operation's own recipes for these statuses.

IDEMPOTENCY_CODES = {"400": "invalidIdempotencyKey", "409": "idempotencyKeyInFlight", "422": "idempotencyKeyReused"}


def idempotency_variants(method: str, path: str, status: str, op: dict) -> list[Recipe]:
    if method != "POST" or status not in IDEMPOTENCY_CODES or path.startswith("/v1/admin") or not any(
            p.get("$ref", "").endswith("/IdempotencyKey") for p in op.get("parameters", [])):
        return []
    code = IDEMPOTENCY_CODES[status]

    def with_key(r: Req, key: str, **changes) -> Req:
        fields = {"method": r.method, "path": r.path, "json": r.json, "body": r.body, "auth": r.auth,
                  "instance": r.instance, "headers": {**r.headers, "Idempotency-Key": key}, "code": code, **changes}
        return Req(**fields)

    def bad_key(w: World) -> Req:   # a space is not a visible character
        return with_key(success_recipe(method, path)(w), "not a key")

    def reused(w: World) -> Req:    # the same key, then the same request with another query: another request
        r = success_recipe(method, path)(w)
        key = w.unique("idem")
        w.instance(r.instance).send(with_key(r, key))
        return with_key(r, key, path=r.path + ("&" if "?" in r.path else "?") + "another=request")

    def in_flight(w: World) -> Req:
        # The first request holds its key while it waits for SQLite's write lock, which this script holds; the retry,
        # on the other event loop, finds the key held. The lock is released after the retry's answer.
        r = success_on(w, "inflight", method, path)
        inst, key = w.instance("inflight"), w.unique("idem")
        # The retry's connection is opened first: whichever loop the first request blocks (the acceptor, loop 0,
        # among them), the retry's connection is already on the other one.
        inst.preconnected = http.client.HTTPConnection(inst.host, inst.port, timeout=10)
        inst.preconnected.connect()
        time.sleep(0.1)
        first_conn = http.client.HTTPConnection(inst.host, inst.port, timeout=10)
        locker = sqlite3.connect(w.database("inflight"), timeout=5, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")

        def send_first():
            first_conn.request(r.method, r.path, body=json.dumps(r.json).encode() if r.json is not None else r.body,
                               headers={"Authorization": f"Bearer {inst.api_key}", "Connection": "close",
                                        "Idempotency-Key": key, **r.headers,
                                        **({"Content-Type": "application/json"} if r.json is not None else {})})
            first_conn.getresponse().read()
            first_conn.close()
        first = threading.Thread(target=send_first)
        first.start()
        time.sleep(0.5)

        def release():
            locker.execute("ROLLBACK")
            locker.close()
            first.join()
        w.after_send = release
        return with_key(r, key, instance="inflight")

    return [{"400": bad_key, "409": in_flight, "422": reused}[status]]


# ---- Generic provocations: one rule per status, for every operation that documents it without a recipe ---------

def concrete_path(template: str, w: World, bad_last: bool = False) -> str:
    """The operation's path on a fresh device with an app in the foreground (and a fresh tenant); the other
    parameters get placeholders. `bad_last` puts a segment that is not UTF-8 in the last parameter."""
    names = re.findall(r"{(\w+)}", template)
    values = {}
    if "deviceId" in names:
        dev, app = w.device_with_app(state="foreground")
        values.update(deviceId=dev, bundleId=app)
    if "tenantId" in names:
        values["tenantId"] = w.tenant()
    defaults = {"identifier": q(REFRESH), "taskId": "bgt_0", "runId": "run_0", "transferId": "tr_0",
                "activity": "audio", "accessoryId": "acc1", "keyId": "key_0"}
    for n in names:
        values.setdefault(n, defaults.get(n, "x"))
    if bad_last and names:
        values[names[-1]] = BAD_SEGMENT
    return re.sub(r"{(\w+)}", lambda m: values[m.group(1)], template)


def auth_of(path: str) -> str:
    return "admin" if path.startswith("/v1/admin") or path == "/metrics" else "tenant"


def has_json_body(op: dict) -> bool:
    return "application/json" in op.get("requestBody", {}).get("content", {})


# The generic provocations also run, as probes, on the operations that do not document their status.
PROBED_STATUSES = ("400", "401", "404", "415", "422")


GENERIC_CODES = {"401": "unauthorized", "404": "notFound", "415": "unsupportedMediaType", "422": "validationFailed",
                 "429": "rateLimited", "503": "storageUnavailable"}


def generic_variants(method: str, path: str, status: str, op: dict) -> list[Recipe]:
    """Every generic recipe for `status`: the one of `generic`, and for 401 the other kind's credential too."""
    recipes = [r for r in [generic(method, path, status, op)] if r]
    last = (re.findall(r"{(\w+)}", path) or [None])[-1]
    if status == "404" and last not in (None, "deviceId", "tenantId", "accessoryId") and success_recipe(method, path):
        recipes.append(unknown_last_parameter(method, path))
    if status == "401" and recipes:
        other = "tenant" if auth_of(path) == "admin" else "admin"   # an API key on /v1/admin, the admin token elsewhere
        recipes.append(lambda w: Req(method.upper(), concrete_path(path, w), auth=other, code="unauthorized",
                                     json={} if has_json_body(op) else None))
    return recipes


def unknown_last_parameter(method: str, path: str) -> Recipe:
    """The operation's valid request with its last path parameter (app, task, run, session…) unknown: 404."""
    def recipe(w: World) -> Req:
        r = success_recipe(method, path)(w)
        template, (concrete, _, query) = path.split("/"), r.path.partition("?")
        segments = concrete.split("/")
        index = max(i for i, t in enumerate(template) if t.startswith("{"))
        segments[index] = "unknown" if template[index] != "{activity}" else "teleport"
        return Req(r.method, "/".join(segments) + (f"?{query}" if query else ""), r.json, r.body, r.headers, r.auth,
                   code="notFound")
    return recipe


def generic(method: str, path: str, status: str, op: dict) -> Recipe | None:
    """The generic recipe for `status`, with the problem code it must carry; None when none applies."""
    recipe = generic_request(method, path, status, op)
    if recipe is None:
        return None

    def with_code(w: World) -> Req:
        r = recipe(w)
        if r.code is None and status == "400":
            r.code = "malformedRequest" if r.body == b"{" else "invalidPath"
        r.code = r.code or GENERIC_CODES.get(status)
        return r
    return with_code


def generic_request(method: str, path: str, status: str, op: dict) -> Recipe | None:
    names = re.findall(r"{(\w+)}", path)
    auth = auth_of(path)
    if status == "401":
        return lambda w: Req(method.upper(), concrete_path(path, w), auth=None,
                             json={} if has_json_body(op) else None)
    if status == "413":   # a body announced larger than any limit (1 MiB, or an upload's): refused from the head
        return lambda w: Req(method.upper(), re.sub(r"{\w+}", "x", path), auth=None,
                             headers={"Content-Length": str(1 << 40), "Content-Type": "application/json"}, body=b"")
    if status == "431":
        return lambda w: Req(method.upper(), re.sub(r"{\w+}", "x", path), auth=None, headers={"X-Padding": "p" * 20000})
    if status == "404" and "deviceId" in names and has_json_body(op) and success_recipe(method, path):
        def unknown_device(w):   # the operation's valid request (bodies are checked first), on an unknown device
            r = success_recipe(method, path)(w)
            return Req(r.method, re.sub(r"/v1/devices/[^/?]+", f"/v1/devices/{UNKNOWN_DEVICE}", r.path, count=1),
                       r.json, r.body, r.headers, r.auth)
        return unknown_device
    if status == "404" and ("deviceId" in names or "tenantId" in names):
        def unknown(w):
            p = path.replace("{deviceId}", UNKNOWN_DEVICE).replace("{tenantId}", UNKNOWN_TENANT)
            return Req(method.upper(), concrete_path(p, w), auth=auth, json={} if has_json_body(op) else None)
        return unknown
    if status == "400" and has_json_body(op):   # a body that is not well-formed JSON
        return lambda w: Req(method.upper(), concrete_path(path, w), auth=auth, body=b"{",
                             headers={"Content-Type": "application/json"})
    if status == "400" and names:   # a path segment that is not UTF-8
        return lambda w: Req(method.upper(), concrete_path(path, w, bad_last=True), auth=auth)
    if status == "415" and op.get("requestBody"):
        return lambda w: Req(method.upper(), concrete_path(path, w), auth=auth, body=b"x",
                             headers={"Content-Type": "text/plain"})
    if status == "422" and any(p.get("$ref", "").endswith("/Limit") for p in op.get("parameters", [])):
        return lambda w: Req(method.upper(), concrete_path(path, w) + "?limit=0", auth=auth)
    if status == "422" and has_json_body(op):   # an unknown key
        return lambda w: Req(method.upper(), concrete_path(path, w), auth=auth, json={"unknownKey": 1})
    if status == "429":                         # a tenant past its request rate
        return rate_limited(method, path, op)
    if status == "503" and method != "GET":     # a write on a full disk
        return storage_unavailable(method, path, op)
    if status == "503":                         # a read on a disk that fails reads
        return storage_unreadable(method, path)
    return None


def success_recipe(method: str, path: str) -> Recipe | None:
    return next((CASES[(method, path, s)][0] for s in ("201", "202", "200", "204") if (method, path, s) in CASES), None)


def success_on(w: World, name: str, method: str, path: str) -> Req:
    """The operation's success recipe, with the world it needs set up on the instance `name` instead of main."""
    success = success_recipe(method, path)
    if success is None:
        raise SetupError("no success recipe to reuse")
    w.instance(name)
    saved = w.instances["main"]
    w.instances["main"] = w.instances[name]
    try:
        return success(w)
    finally:
        w.instances["main"] = saved


def storage_unavailable(method: str, path: str, op: dict) -> Recipe:
    """The operation's own success recipe, set up normally, then sent to a full disk: 503 storageUnavailable."""
    def recipe(w: World) -> Req:
        inst = w.instance("storage")
        r = success_on(w, "storage", method, path)
        # A full disk: any write past byte 1 of a file fails (EFBIG, SIGXFSZ ignored), so SQLite cannot commit.
        limit = resource.prlimit(inst.process.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(inst.process.pid, resource.RLIMIT_FSIZE, (1, limit[1]))
        w.after_send = lambda: resource.prlimit(inst.process.pid, resource.RLIMIT_FSIZE, limit)
        return Req(r.method, r.path, r.json, r.body, r.headers, r.auth, "storage", r.stream)
    return recipe


def rate_limited(method: str, path: str, op: dict) -> Recipe:
    """On an instance whose tenants may send one request per 100 s, a tenant spends it (whatever the answer, a 429
    included), then sends the operation's request, with its body: 429 rateLimited, from the head."""
    def recipe(w: World) -> Req:
        inst = w.instance("ratelimit")
        inst.send(Req("GET", "/v1/devices", instance="ratelimit"))
        return Req(method.upper(), re.sub(r"{\w+}", "x", path), instance="ratelimit",
                   json={} if has_json_body(op) else None)
    return recipe


def build_unreadable_disk(workdir: str) -> str:
    """Compiles the EIO fault (faults/unreadable-disk.c) into a shared object for LD_PRELOAD; answers its path."""
    out = os.path.join(workdir, "unreadable-disk.so")
    if not os.path.exists(out):
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
        if compiler is None:
            raise SetupError("no C compiler (cc, clang or gcc) to build faults/unreadable-disk.c")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "faults", "unreadable-disk.c")
        subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", out, source, "-ldl"], check=True)
    return out


def storage_unreadable(method: str, path: str, code: str | None = None) -> Recipe:
    """The operation's own success recipe, set up normally, then sent to a service whose disk fails every read:
    503 storageUnavailable (`code` for /readyz). The instance is restarted first, so that its device and key
    caches are cold and the operation itself must read the database."""
    def recipe(w: World) -> Req:
        r = success_on(w, "unreadable", method, path)
        inst = w.restart("unreadable")
        if r.auth == "tenant":   # the API key is looked up while the disk still reads: the operation's read fails
            inst.ok("GET", "/v1/events?limit=1")
        open(w.fault_switch, "w").close()
        w.after_send = lambda: os.remove(w.fault_switch)
        # Another process writes to the database, so every connection of the service finds the WAL changed and
        # drops its page cache: each read of the operation has to reach the disk.
        with sqlite3.connect(w.database("unreadable"), timeout=5) as other:
            other.execute("CREATE TABLE IF NOT EXISTS fault_probe (n INTEGER)")
            other.execute("INSERT INTO fault_probe VALUES (1)")
        other.close()
        return Req(r.method, r.path, r.json, r.body, r.headers, r.auth, "unreadable", r.stream, code=code)
    return recipe


# ---- Checking answers against the contract ---------------------------------------------------------------------

class Contract:
    def __init__(self, spec: dict):
        self.spec = spec
        # The schemas with every `#/…` reference made absolute, so that inline schemas resolve them too.
        self.absolute = self._absolute(spec)
        self.registry = Registry().with_resource(
            "urn:contract", Resource.from_contents(self.absolute, default_specification=DRAFT202012))

    @classmethod
    def _absolute(cls, node):
        if isinstance(node, dict):
            return {k: ("urn:contract" + v if k == "$ref" and isinstance(v, str) and v.startswith("#/")
                        else cls._absolute(v)) for k, v in node.items()}
        if isinstance(node, list):
            return [cls._absolute(v) for v in node]
        return node

    def resolve(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            target = self.spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            node = merged if "$ref" not in target else target
        return node

    def operations(self):
        for path, item in self.spec["paths"].items():
            for method in METHODS:
                if method in item:
                    yield method.upper(), path, item[method]

    @staticmethod
    def header_expected(name: str, header: dict, method: str) -> bool:
        """Whether a documented header must be in the answer: the contract lists a few that depend on the method."""
        conditional = {"Accept-Post": "POST", "Accept-Patch": "PATCH"}
        # Idempotent-Replayed: only on a replayed answer; Accept-Encoding: only on a 415 for a request
        # Content-Encoding, not one for Content-Type.
        if name in ("Idempotent-Replayed", "Accept-Encoding"):
            return False
        return conditional.get(name, method) == method

    def check(self, method: str, op: dict, status: str, resp: Resp) -> list[str]:
        """What is off in `resp` against the documented response for `status`."""
        problems = []
        documented = self.resolve(op["responses"][status])
        # Media types compared without their parameters (`text/plain; version=0.0.4` is `text/plain`).
        content = {key.split(";")[0].strip(): value for key, value in documented.get("content", {}).items()}
        ctype = resp.headers.get("content-type", "").split(";")[0].strip()
        if "x-request-id" not in resp.headers:
            problems.append("no X-Request-Id")
        refused_key = b'"code":"invalidIdempotencyKey"' in resp.body   # refused before the route: its headers only
        rate_limited = b'"code":"rateLimited"' in resp.body   # a 429 of another code has no RateLimit fields
        for name, header in documented.get("headers", {}).items():
            if refused_key and name == "apns-id":
                continue
            if name in ("RateLimit", "RateLimit-Policy") and not rate_limited:
                continue
            if name.lower() not in resp.headers and self.header_expected(name, self.resolve(header), method):
                problems.append(f"no {name} header")
        if not content:
            if resp.body and status != "413":
                problems.append(f"a body ({len(resp.body)} bytes) where none is documented")
            return problems
        if ctype not in content:
            return problems + [f"content type {ctype or 'none'!r}, documented {sorted(content)}"]
        schema = content[ctype].get("schema")
        if not schema or ctype not in ("application/json", "application/problem+json"):
            return problems
        try:
            body = resp.json()
        except ValueError as e:
            return problems + [f"body is not JSON: {e}"]
        validator = Draft202012Validator(self._absolute(schema), registry=self.registry)
        for error in list(validator.iter_errors(body))[:3]:
            where = "/".join(str(p) for p in error.absolute_path) or "body"
            problems.append(f"schema: {where}: {error.message[:160]}")
        return problems


# ---- Running ----------------------------------------------------------------------------------------------------

def provoke(world: World, contract: "Contract", method: str, path: str, status: str, op: dict, recipe: Recipe):
    """Runs one recipe; answers its row (verdict, method, path, status, detail)."""
    world.after_send = None
    try:
        req = recipe(world)
        resp = world.instance(req.instance).send(req)
    except (SetupError, OSError, ValueError, KeyError) as e:
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == __file__] or [None]
        where = f" (line {frames[-1].lineno}: {frames[-1].line})" if frames[-1] else ""
        return ("SETUP FAILED", method, path, status, f"{type(e).__name__}: {e}{where}")
    finally:
        if world.after_send:
            world.after_send()
        if world.held_stream:
            world.held_stream.close()
            world.held_stream = None
    if str(resp.status) != status:
        return ("WRONG STATUS", method, path, status, f"got {resp.status}: {resp.body[:200].decode(errors='replace')}")
    problems = contract.check(method, op, status, resp)
    if req.code and not problems:
        got = resp.json().get("code")
        if got != req.code:
            return ("WRONG CODE", method, path, status, f"code {got!r}, the recipe provokes {req.code!r}")
    return ("OFF SCHEMA" if problems else "ok", method, path, f"{status}", "; ".join(problems) or (req.code or ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--api-key", required=True)
    ap.add_argument("--admin-token", required=True)
    ap.add_argument("--bin", required=True, help="the bgemu binary, for the instances of their own")
    ap.add_argument("--spec", default="openapi.yaml")
    ap.add_argument("--only", help="a regular expression on 'METHOD /path STATUS'")
    args = ap.parse_args()

    contract = Contract(yaml.safe_load(open(args.spec)))
    workdir = tempfile.mkdtemp(prefix="bgemu-coverage-")
    world = World({"main": Instance(args.base, args.api_key, args.admin_token)}, workdir, args.bin)

    rows: list[tuple[str, str, str, str, str]] = []   # verdict, method, path, status, detail
    documented = {(m, p, s) for m, p, op in contract.operations() for s in op["responses"]}
    for key in sorted(set(CASES) - documented):
        rows.append(("UNDOCUMENTED", *key, "a recipe for a status the contract does not document"))

    ops = {(m, p): op for m, p, op in contract.operations()}
    started = time.monotonic()
    probes = 0
    try:
        for method, path, op in contract.operations():
            for status in op["responses"]:
                label = f"{method} {path} {status}"
                if args.only and not re.search(args.only, label):
                    continue
                only_idempotency = op["responses"][status].get("$ref", "").split("/")[-1].startswith("IdempotencyKey")
                recipes = [] if only_idempotency else (
                    CASES.get((method, path, status)) or generic_variants(method, path, status, op))
                recipes = recipes + idempotency_variants(method, path, status, op)
                if not recipes:
                    rows.append(("NO RECIPE", method, path, status, "no provocation: add a recipe"))
                    continue
                for recipe in recipes:
                    rows.append(provoke(world, contract, method, path, status, op, recipe))

        # Probes: the generic provocations on operations that do not document their status. The answer must be
        # one the operation documents (push answers a non-JSON body with APNs's 400, say); another is a gap.
        for method, path, op in contract.operations():
            for status in PROBED_STATUSES:
                if status in op["responses"] or (args.only and not re.search(args.only, f"{method} {path} {status}")):
                    continue
                recipe = generic(method, path, status, op)
                if recipe is None:
                    continue
                probes += 1
                try:
                    req = recipe(world)
                    resp = world.instance(req.instance).send(req)
                except (SetupError, OSError, ValueError, KeyError) as e:
                    rows.append(("SETUP FAILED", method, path, status, f"probe: {type(e).__name__}: {e}"))
                    continue
                if str(resp.status) not in op["responses"]:
                    rows.append(("UNDOCUMENTED ANSWER", method, path, str(resp.status),
                                 f"the generic {status} probe got {resp.status}, which the operation does not document: "
                                 + resp.body[:160].decode(errors="replace")))
    finally:
        for name, inst in world.instances.items():
            if name != "main":
                inst.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    failures = [r for r in rows if r[0] != "ok"]
    if failures:
        print(f"{'verdict':<13} {'status':<6} {'operation':<78} detail")
        for verdict, method, path, status, detail in failures:
            print(f"{verdict:<13} {status:<6} {method + ' ' + path:<78} {detail}")
        print()
    verdicts: dict[tuple[str, str, str], set[str]] = {}
    for verdict, method, path, status, _ in rows:
        if (method, path, status) in documented:
            verdicts.setdefault((method, path, status), set()).add(verdict)
    covered = {k for k, v in verdicts.items() if v == {"ok"}}
    by_status: dict[str, list[int]] = {}
    for key in documented:
        by_status.setdefault(key[2], [0, 0])[key in covered] += 1
    provoked = len(covered)
    ops_covered = {(m, p) for m, p, _ in covered}
    total = sum(len(op["responses"]) for op in ops.values())
    print(f"status coverage: {len(ops)} operations, {total} documented statuses; "
          f"{provoked} provoked and on their schema ({sum(1 for r in rows if r[0] == 'ok')} recipes), "
          f"{len(failures)} failing; {time.monotonic() - started:.1f} s")
    print("  by status: " + ", ".join(f"{s} {c[1]}/{sum(c)}" for s, c in sorted(by_status.items())))
    print(f"  operations with at least one provoked status: {len(ops_covered)}/{len(ops)}")
    print(f"  probes of statuses an operation does not document ({', '.join(PROBED_STATUSES)}): {probes}, "
          f"{sum(1 for r in rows if r[0] == 'UNDOCUMENTED ANSWER')} answered an undocumented status")
    print("status coverage: " + ("FAILED" if failures else "all documented statuses covered"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
