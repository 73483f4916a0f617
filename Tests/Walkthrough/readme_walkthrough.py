#!/usr/bin/env python3
"""Runs the README's walkthrough as a new user would paste it, against a live service.

Every ```sh block that follows a `<!-- walkthrough -->` line in README.md is taken, in order, into one bash script
run with `set -euo pipefail` (so a failing command, such as a `curl -f` that gets a non-2xx answer, fails the run).
The script runs in a fresh folder laid out like a checkout after the README's first command: `.build/release/bgemu`
(the binary under test), `Examples/`, `Tests/`, `Public/`, `openapi.yaml`, and a service started there by
`bgemu serve` on its embedded default (./bgemu.sqlite). The one change made to the text: the service listens on a
free port, so `127.0.0.1:8080` is rewritten to it.

Usage: readme_walkthrough.py [--binary .build/debug/bgemu] [--readme README.md] [--print]
"""
import argparse
import os
import re
import sys
import tempfile

from readme_service import free_port, run_beside_service

MARKER = "<!-- walkthrough -->"


def blocks(readme: str) -> list[str]:
    """The shell blocks that follow a walkthrough marker, in order."""
    lines = readme.splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == MARKER:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j >= len(lines) or not re.match(r"^```(sh|bash)\s*$", lines[j].strip()):
                sys.exit(f"walkthrough: the marker on line {i + 1} is not followed by a ```sh block")
            k = j + 1
            while k < len(lines) and lines[k].strip() != "```":
                k += 1
            found.append("\n".join(lines[j + 1:k]))
            i = k
        i += 1
    return found



def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/debug/bgemu")
    parser.add_argument("--readme", default="README.md")
    parser.add_argument("--print", action="store_true", help="print the script and exit")
    args = parser.parse_args()
    repo = os.path.dirname(os.path.abspath(args.readme))
    text = open(args.readme, encoding="utf-8").read()
    parts = blocks(text)
    if not parts:
        sys.exit("walkthrough: README.md has no walkthrough blocks")
    port = free_port()
    script = "set -euo pipefail\nset -x\n" + "\n".join(parts).replace("127.0.0.1:8080", f"127.0.0.1:{port}") + "\n"
    if args.print:
        print(script)
        return 0

    work = tempfile.mkdtemp(prefix="bgemu-walkthrough-")
    os.makedirs(os.path.join(work, ".build", "release"))
    os.symlink(os.path.abspath(args.binary), os.path.join(work, ".build", "release", "bgemu"))
    for name in ("Examples", "Tests", "Public", "openapi.yaml", "docs"):
        os.symlink(os.path.join(repo, name), os.path.join(work, name))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BGEMU_")}
    serve = [os.path.join(work, ".build", "release", "bgemu"), "serve", "--port", str(port)]
    status, seconds = run_beside_service("walkthrough", work, serve, script, env, port, timeout=600)
    if status != 0:
        return 1
    commands = sum(1 for line in script.splitlines() if line.strip() and not line.strip().startswith("#"))
    print(f"walkthrough: {len(parts)} README blocks, {commands} lines, ran in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
