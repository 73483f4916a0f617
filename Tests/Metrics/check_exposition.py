#!/usr/bin/env python3
"""Prometheus's own parser reads bgemu's /metrics.

Starts the debug binary on a free port, drives a few requests, scrapes GET /metrics with the admin token and parses
it with prometheus_client's text parser (the reference implementation of the text format 0.0.4). Fails on a parse
error, on a missing family or label, on a raw path in a label, or on a histogram whose buckets are not cumulative.

    python3 Tests/Metrics/check_exposition.py [--binary .build/debug/bgemu]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

ADMIN = "metrics-check-admin-token"
KEY = "metrics-check-api-key-0123456789"


def request(base, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def check(condition, message):
    if not condition:
        print(f"metrics check FAILED: {message}", file=sys.stderr)
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/debug/bgemu")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bgemu-metrics-")
    env = dict(os.environ, BGEMU_API_KEY=KEY)
    env.pop("BGEMU_ADMIN_TOKEN", None)
    process = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--database", os.path.join(folder, "bgemu.sqlite"),
         "--admin-token", ADMIN, "--log-level", "notice", "--public-directory", folder],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        base = None
        deadline = time.time() + 30
        while time.time() < deadline and base is None:
            line = process.stdout.readline()
            if not line:
                break
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
            if match:
                base = match.group(1)
        check(base is not None, "the service did not start")

        status, _, text = request(base, "POST", "/v1/devices", KEY, {"name": "scraped"})
        check(status == 201, f"POST /v1/devices answered {status}: {text}")
        device = json.loads(text)["id"]
        for _ in range(3):
            check(request(base, "GET", f"/v1/devices/{device}", KEY)[0] == 200, "GET device")
        check(request(base, "GET", "/nowhere")[0] == 404, "unmatched path")
        check(request(base, "GET", "/metrics")[0] == 401, "/metrics without a token")
        check(request(base, "GET", "/metrics", KEY)[0] == 401, "/metrics with a tenant key")

        status, headers, text = request(base, "GET", "/metrics", ADMIN)
        check(status == 200, f"/metrics answered {status}")
        check(headers.get("Content-Type") == "text/plain; version=0.0.4; charset=utf-8",
              f"content type {headers.get('Content-Type')}")
        families = {family.name: family for family in text_string_to_metric_families(text)}

        # prometheus_client names a counter family without its _total suffix.
        for name, kind in [("bgemu_http_requests", "counter"), ("bgemu_http_request_duration_seconds", "histogram"),
                           ("bgemu_events_written", "counter"), ("bgemu_sqlite_commit_duration_seconds", "histogram"),
                           ("bgemu_http_connections_open", "gauge"), ("bgemu_event_streams_open", "gauge"),
                           ("bgemu_realtime_clocks_driven", "gauge"), ("bgemu_stream_refusals", "counter"),
                           ("bgemu_rate_limited", "counter"), ("bgemu_rate_paced", "counter")]:
            check(name in families, f"family {name} missing; got {sorted(families)}")
            check(families[name].type == kind, f"{name} is a {families[name].type}, not a {kind}")

        requests = {(s.labels["method"], s.labels["route"], s.labels["status"]): s.value
                    for s in families["bgemu_http_requests"].samples if s.name == "bgemu_http_requests_total"}
        check(requests.get(("GET", "/v1/devices/{deviceId}", "200")) == 3, f"device reads: {requests}")
        check(requests.get(("GET", "unmatched", "404")) == 1, f"unmatched: {requests}")
        for family in families.values():
            for sample in family.samples:
                route = sample.labels.get("route")
                check(route is None or route == "unmatched" or route.startswith("/"), f"route label {route}")
                check(device not in str(sample.labels), f"a raw id in {sample}")

        histogram = families["bgemu_http_request_duration_seconds"]
        series = {}
        for sample in histogram.samples:
            key = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
            series.setdefault(key, {"buckets": [], "count": None, "sum": None})
            if sample.name.endswith("_bucket"):
                series[key]["buckets"].append((float(sample.labels["le"]), sample.value))
            elif sample.name.endswith("_count"):
                series[key]["count"] = sample.value
            elif sample.name.endswith("_sum"):
                series[key]["sum"] = sample.value
        for key, parts in series.items():
            buckets = sorted(parts["buckets"])
            check(buckets[0][0] == 0.0005 and buckets[-1][0] == float("inf"), f"bucket bounds of {key}")
            check(all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:])), f"buckets of {key} not cumulative")
            check(buckets[-1][1] == parts["count"] and parts["sum"] is not None, f"+Inf/_count/_sum of {key}")
        samples = sum(len(f.samples) for f in families.values())
        print(f"metrics check: prometheus_client parsed {len(families)} families, {samples} samples, all as expected")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    main()
