#!/usr/bin/env python3
"""Runs the README's "Testing your app's own code" as a reader would paste it, against a live service.

The section's files are the fenced blocks that follow a `<!-- app-file: PATH -->` line (the block written whole to
PATH); its commands are the ```sh blocks that follow a `<!-- app-run -->` line, run in order in one bash script with
`set -euo pipefail`. Both are laid out in a fresh folder as the section says: the app's package next to a bgemu
checkout named `bgemu` (a folder of links to this repository's sources: SwiftPM names a local package after its
folder). The service is this repository's binary on a free loopback port with a fresh database and a known key;
BGEMU_URL and BGEMU_API_KEY point at it, as the section asks the reader to set them. Any failing command (a red
`swift test`) fails the run.

Usage: readme_app.py [--binary .build/debug/bgemu] [--readme README.md] [--print]
"""
import argparse
import os
import re
import sys
import tempfile

from readme_service import free_port, run_beside_service

FILE_MARKER = re.compile(r"^<!-- app-file: (\S+) -->$")
RUN_MARKER = "<!-- app-run -->"


def blocks(readme: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The files (path, text) and the shell blocks the markers name, in order."""
    lines = readme.splitlines()
    files, commands, i = [], [], 0
    while i < len(lines):
        marker = lines[i].strip()
        file_match = FILE_MARKER.match(marker)
        if file_match or marker == RUN_MARKER:
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            fence = lines[j].strip() if j < len(lines) else ""
            if not fence.startswith("```") or (not file_match and not re.match(r"^```(sh|bash)$", fence)):
                sys.exit(f"readme_app: the marker on line {i + 1} is not followed by a fitting fenced block")
            k = j + 1
            while k < len(lines) and lines[k].strip() != "```":
                k += 1
            body = "\n".join(lines[j + 1:k]) + "\n"
            if file_match:
                files.append((file_match.group(1), body))
            else:
                commands.append(body)
            i = k
        i += 1
    return files, commands



def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/debug/bgemu")
    parser.add_argument("--readme", default="README.md")
    parser.add_argument("--print", action="store_true", help="print the files and the script, and exit")
    args = parser.parse_args()
    repo = os.path.dirname(os.path.abspath(args.readme))
    files, commands = blocks(open(args.readme, encoding="utf-8").read())
    if not files or not commands:
        sys.exit("readme_app: README.md has no marked app files or commands")
    script = "set -euo pipefail\nset -x\n" + "\n".join(commands)
    if args.print:
        for path, body in files:
            print(f"==> {path}\n{body}")
        print(script)
        return 0

    work = tempfile.mkdtemp(prefix="bgemu-readme-app-")
    checkout = os.path.join(work, "bgemu")
    os.makedirs(checkout)
    for name in os.listdir(repo):
        if not name.startswith(".") and name != "Examples":
            os.symlink(os.path.join(repo, name), os.path.join(checkout, name))
    for path, body in files:
        target = os.path.join(work, path)
        if os.path.isabs(path) or ".." in path.split("/"):
            sys.exit(f"readme_app: {path} is outside the folder")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as out:
            out.write(body)
    port = free_port()
    key = f"readme-app-{os.getpid()}-0123456789abcdef"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BGEMU_")}
    env.update({"BGEMU_URL": f"http://127.0.0.1:{port}", "BGEMU_API_KEY": key})
    serve = [os.path.abspath(args.binary), "serve", "--port", str(port), "--database", os.path.join(work, "bgemu.sqlite")]
    status, seconds = run_beside_service("readme_app", work, serve, script, env, port, timeout=1200)
    if status != 0:
        return 1
    print(f"readme_app: {len(files)} files, {len(commands)} command blocks, ran in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
