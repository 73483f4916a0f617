#!/usr/bin/env python3
"""The deployment files of deploy/ checked against each other and by their own tools (issue 30), without Docker or
Kubernetes: HAProxy's configuration by `haproxy -c` with the environment the compose file and the Kubernetes
manifest give it; every shard they run has its backend in haproxy.cfg and the --shard-id of its name; the compose
file's and the manifests' YAML parse and name the same Litestream image as the pinned install; the Litestream
configuration is read by `litestream restore` (a dry run against an empty file replica); every Kubernetes resource
is valid against the Kubernetes API's own schema, strictly (an unknown or misplaced field fails), by
`kubernetes-validate` (PyPI), as `kubectl apply --validate=strict` would check it.

Usage: python3 Tests/Cluster/check_deploy.py [--haproxy haproxy] [--litestream litestream]
                                            [--kubernetes-validate kubernetes-validate]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEPLOY = os.path.join(ROOT, "deploy")
passed, failed = 0, 0


def check(condition: bool, what: str) -> None:
    global passed, failed
    passed, failed = passed + bool(condition), failed + (not condition)
    print(("ok    " if condition else "FAIL  ") + what, flush=True)


def haproxy_check(haproxy: str, environment: dict[str, str], what: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **environment,
               "BGEMU_TENANT_MAP": os.path.join(DEPLOY, "haproxy", "tenants.map"),
               "BGEMU_HAPROXY_SOCKET": os.path.join(folder, "admin.sock")}
        result = subprocess.run([haproxy, "-c", "-f", os.path.join(DEPLOY, "haproxy", "haproxy.cfg")], env=env,
                                capture_output=True, text=True)
        check(result.returncode == 0, f"haproxy -c accepts haproxy.cfg with {what}'s environment"
              + ("" if result.returncode == 0 else f": {result.stderr.strip()[-400:]}"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--haproxy", default="haproxy")
    parser.add_argument("--litestream", default="litestream")
    parser.add_argument("--kubernetes-validate", default="kubernetes-validate")
    options = parser.parse_args()
    config = open(os.path.join(DEPLOY, "haproxy", "haproxy.cfg")).read()
    backends = set(re.findall(r"^backend shard_(\S+)", config, re.M))
    pinned = re.search(r"^version=(\S+)", open(os.path.join(ROOT, "Tests", "Cluster", "install-litestream.sh")).read(), re.M)
    litestream_image = f"litestream/litestream:{pinned.group(1) if pinned else '?'}"

    compose = yaml.safe_load(open(os.path.join(DEPLOY, "compose.yaml")))
    services = compose["services"]
    shards = {name: service for name, service in services.items() if "serve" in (service.get("command") or [])}
    check(set(shards) == backends, f"the compose file's shards {sorted(shards)} are haproxy.cfg's backends {sorted(backends)}")
    for name, service in shards.items():
        command = service["command"]
        check(command[command.index("--shard-id") + 1] == name, f"compose: {name} runs --shard-id {name}")
        check(f"litestream-{name}" in services and f"restore-{name}" in services, f"compose: {name} has its Litestream and restore")
    images = {s.get("image") for n, s in services.items() if n.startswith(("litestream-", "restore-"))}
    check(images == {litestream_image}, f"compose: Litestream is the pinned {litestream_image} ({images})")
    proxy = services["haproxy"]["environment"]
    check({f"BGEMU_SHARD_{s.upper()}" for s in backends} <= set(proxy), "compose: HAProxy is given every shard's address")
    haproxy_check(options.haproxy, {k: str(v) for k, v in proxy.items()}, "the compose file")

    documents = [d for f in ("shards.yaml", "haproxy.yaml") for d in yaml.safe_load_all(open(os.path.join(DEPLOY, "kubernetes", f))) if d]
    sets = {d["metadata"]["name"].removeprefix("bgemu-"): d for d in documents if d["kind"] == "StatefulSet"}
    check(set(sets) == backends, f"Kubernetes: the StatefulSets {sorted(sets)} are haproxy.cfg's backends")
    for name, statefulset in sets.items():
        spec = statefulset["spec"]["template"]["spec"]
        bgemu = next(c for c in spec["containers"] if c["name"] == "bgemu")
        check(bgemu["args"][bgemu["args"].index("--shard-id") + 1] == name and "--replicated" in bgemu["args"],
              f"Kubernetes: bgemu-{name} runs --shard-id {name} --replicated")
        litestream = [c["image"] for c in spec["containers"] + spec["initContainers"] if "litestream" in c["image"]]
        check(litestream and set(litestream) == {litestream_image}, f"Kubernetes: bgemu-{name} restores and replicates with {litestream_image}")
        check(statefulset["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data", f"Kubernetes: bgemu-{name} has its own volume")
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    container = next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "haproxy")
    haproxy_check(options.haproxy, {e["name"]: e["value"] for e in container["env"]}, "the Kubernetes manifest")

    manifests = [os.path.join(DEPLOY, "kubernetes", f) for f in ("shards.yaml", "haproxy.yaml")]
    manifests.append(os.path.join(DEPLOY, "forecast", "indexed-job.yaml"))
    for manifest in manifests:
        kinds = [f"{d['kind']}/{d['metadata']['name']}" for d in yaml.safe_load_all(open(manifest)) if d]
        result = subprocess.run([options.kubernetes_validate, "--strict", "--no-warn", manifest], capture_output=True,
                                text=True)
        passing = result.stdout.count(" passed for resource ")
        check(result.returncode == 0 and passing == len(kinds),
              f"Kubernetes: {os.path.relpath(manifest, DEPLOY)} valid against the API schema, strictly "
              f"({passing} of {len(kinds)}: {', '.join(kinds)})"
              + ("" if result.returncode == 0 else f": {(result.stdout + result.stderr).strip()[-400:]}"))

    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(
            [options.litestream, "restore", "-config", os.path.join(DEPLOY, "litestream", "litestream.yml"),
             "-if-db-not-exists", "-if-replica-exists", "-o", os.path.join(folder, "restored.sqlite"), "/data/bgemu.sqlite"],
            env={**os.environ, "LITESTREAM_REPLICA_URL": "file://" + os.path.join(folder, "replica")},
            capture_output=True, text=True)
        check(result.returncode == 0, "litestream restore reads deploy/litestream/litestream.yml"
              + ("" if result.returncode == 0 else f": {result.stderr.strip()[-300:]}"))
    print(f"deploy: {passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
