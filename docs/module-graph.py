#!/usr/bin/env python3
"""Writes the module graph of docs/architecture.md from Package.swift, so that the page cannot drift from the package.

It asks SwiftPM for the manifest (`swift package dump-package`, with a scratch folder of its own in a temporary
directory, so that it never takes the lock of the repository's `.build/` while a build runs there), and rewrites what
lies between the `<!-- module-graph -->` and `<!-- /module-graph -->` lines of docs/architecture.md:

- a Mermaid `graph TD` of every target but the test targets: an arrow `A --> B` says that A depends on B. An arrow
  that a longer path already implies (API --> Locking, when API --> HTTPServer --> Locking) is left out, so that the
  graph stays readable; the table below it lists every direct dependency.
- a table, in a <details> block: each module, its kind, what it depends on directly and what depends on it.

Node styles: the executable is a stadium, a library the package exports as a product a bold box, an internal module
a plain box, a C module (a system library found by pkg-config, or a target of C sources) a double-edged box, and a
product of another package (swift-log's Logging, …) a hexagon of its own colour.

Usage, from anywhere (Python 3 standard library only; needs `swift` on PATH):
    python3 docs/module-graph.py            # rewrite the block in docs/architecture.md
    python3 docs/module-graph.py --check    # exit 1 (and show the difference) when the block is out of date
    python3 docs/module-graph.py --manifest dump.json   # read `swift package dump-package`'s output from a file
Exit status: 0 written or up to date, 1 out of date (--check), 2 the manifest or the page could not be read.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "architecture.md")
BEGIN = "<!-- module-graph -->"
END = "<!-- /module-graph -->"

STYLES = {
    "executable": "fill:#fde2c8,stroke:#b35900,color:#000",
    "product": "fill:#d6e6ff,stroke:#1f4e99,stroke-width:2px,color:#000",
    "module": "fill:#eef2f7,stroke:#5b6b7f,color:#000",
    "c": "fill:#e8e8e8,stroke:#777,color:#000",
    "external": "fill:#e3f4dc,stroke:#3d7a2a,color:#000",
}


def fail(message: str) -> None:
    print(f"module-graph: {message}", file=sys.stderr)
    sys.exit(2)


def dump_package() -> dict:
    """The manifest as `swift package dump-package` gives it, with a throw-away scratch folder."""
    swift = shutil.which("swift")
    if swift is None:
        fail("`swift` is not on PATH (or pass --manifest FILE, the output of `swift package dump-package`)")
    with tempfile.TemporaryDirectory(prefix="module-graph-") as scratch:
        run = subprocess.run(
            [swift, "package", "--package-path", ROOT, "--scratch-path", scratch, "dump-package"],
            capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"`swift package dump-package` failed ({run.returncode}):\n{run.stderr.strip()}")
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError as error:
        fail(f"`swift package dump-package` answered something that is not JSON: {error}")
    raise AssertionError("unreachable")


def condition_text(condition: dict | None) -> str:
    """`linux`, `debug`, … for a dependency declared `.when(…)`; empty when it always applies."""
    if not condition:
        return ""
    parts = list(condition.get("platformNames") or [])
    config = condition.get("config")
    if isinstance(config, dict):
        config = config.get("config") or next(iter(config.values()), None)
    if config:
        parts.append(str(config))
    return ", ".join(parts)


class Graph:
    """The targets (test targets, and the test-support targets kept under `Tests/`, left out), the other packages'
    products they use, and their direct dependencies."""

    def __init__(self, manifest: dict):
        targets = [t for t in manifest.get("targets", [])
                   if t.get("type") != "test" and not (t.get("path") or "").startswith("Tests/")]
        self.names = [t["name"] for t in targets]
        self.kind: dict[str, str] = {}
        self.detail: dict[str, str] = {}
        exported = {name for p in manifest.get("products", []) if "library" in (p.get("type") or {})
                    for name in p.get("targets", [])}
        for target in targets:
            name = target["name"]
            kind = target.get("type")
            if kind == "executable":
                self.kind[name], self.detail[name] = "executable", "executable"
            elif kind == "system":
                self.kind[name] = "c"
                package = target.get("pkgConfig")
                self.detail[name] = f"system library (pkg-config `{package}`)" if package else "system library"
            elif self.is_c(target):
                self.kind[name], self.detail[name] = "c", "C target"
            elif name in exported:
                self.kind[name], self.detail[name] = "product", "library product"
            else:
                self.kind[name], self.detail[name] = "module", "module"
        # Each edge: (from, to, condition). `to` is a target name or ("product", package, name).
        self.edges: list[tuple[str, object, str]] = []
        self.externals: list[tuple[str, str]] = []
        for target in targets:
            for dependency in target.get("dependencies", []):
                self.edges.append((target["name"], *self.resolve(dependency)))

    @staticmethod
    def is_c(target: dict) -> bool:
        """A target whose folder holds C sources and no Swift (CSystem)."""
        folder = os.path.join(ROOT, target.get("path") or os.path.join("Sources", target["name"]))
        found = {os.path.splitext(f)[1] for _, _, files in os.walk(folder) for f in files}
        return bool(found & {".c", ".h"}) and ".swift" not in found

    def resolve(self, dependency: dict) -> tuple[object, str]:
        if "product" in dependency:
            name, package = dependency["product"][0], dependency["product"][1]
            condition = dependency["product"][3] if len(dependency["product"]) > 3 else None
            return self.external(package or name, name), condition_text(condition)
        key = "target" if "target" in dependency else "byName"
        name, condition = dependency[key][0], (dependency[key][1] if len(dependency[key]) > 1 else None)
        if name in self.names:
            return name, condition_text(condition)
        return self.external(name, name), condition_text(condition)  # a product named like its package

    def external(self, package: str, product: str) -> tuple[str, str, str]:
        if (package, product) not in self.externals:
            self.externals.append((package, product))
        return ("product", package, product)

    # Names and ids

    @staticmethod
    def node_id(node: object) -> str:
        if isinstance(node, tuple):
            return "p_" + re.sub(r"\W", "_", f"{node[1]}_{node[2]}")
        return "m_" + re.sub(r"\W", "_", str(node))

    @staticmethod
    def label(node: object) -> str:
        return f"{node[2]} ({node[1]})" if isinstance(node, tuple) else str(node)

    def reduced_edges(self) -> list[tuple[str, object, str]]:
        """The edges no longer path implies (a conditional edge is always kept, and implies nothing)."""
        successors: dict[object, list[object]] = {}
        for source, target, condition in self.edges:
            if not condition:
                successors.setdefault(source, []).append(target)

        def reaches(start: object, goal: object, skip_edge: tuple[object, object]) -> bool:
            stack, seen = [start], set()
            while stack:
                node = stack.pop()
                for following in successors.get(node, []):
                    if (node, following) == skip_edge:
                        continue
                    if following == goal:
                        return True
                    if following not in seen:
                        seen.add(following)
                        stack.append(following)
            return False

        return [(s, t, c) for s, t, c in self.edges if c or not reaches(s, t, (s, t))]

    # Output

    def mermaid(self) -> list[str]:
        lines = ["```mermaid", "graph TD"]
        for name in self.names:
            kind = self.kind[name]
            node = self.node_id(name)
            if kind == "executable":
                lines.append(f'  {node}(["{name}"])')
            elif kind == "c":
                lines.append(f'  {node}[["{name}"]]')
            else:
                lines.append(f'  {node}["{name}"]')
        for package, product in self.externals:
            lines.append(f'  {self.node_id(("product", package, product))}{{{{"{product}<br/>{package}"}}}}')
        for source, target, condition in self.reduced_edges():
            arrow = f'-->|"{condition}"|' if condition else "-->"
            lines.append(f"  {self.node_id(source)} {arrow} {self.node_id(target)}")
        for kind, style in STYLES.items():
            members = [self.node_id(n) for n in self.names if self.kind[n] == kind]
            if kind == "external":
                members = [self.node_id(("product", p, q)) for p, q in self.externals]
            if members:
                lines.append(f"  classDef {kind} {style}")
                lines.append(f"  class {','.join(members)} {kind}")
        lines.append("```")
        return lines

    def table(self) -> list[str]:
        def names(entries: list[str]) -> str:
            return ", ".join(entries) or "—"

        def entry(node: object, condition: str) -> str:
            return f"`{self.label(node)}`" + (f" (on {condition})" if condition else "")

        lines = ["| module | kind | depends on | used by |", "| --- | --- | --- | --- |"]
        for name in self.names:
            uses = [entry(t, c) for s, t, c in self.edges if s == name]
            users = [entry(s, c) for s, t, c in self.edges if t == name]
            lines.append(f"| `{name}` | {self.detail[name]} | {names(uses)} | {names(users)} |")
        for package, product in self.externals:
            node = ("product", package, product)
            users = [entry(s, c) for s, t, c in self.edges if t == node]
            lines.append(f"| `{product}` | product of the package `{package}` | — | {names(users)} |")
        return lines

    def block(self) -> str:
        lines = [
            BEGIN,
            "<!-- Written by docs/module-graph.py from Package.swift: edit the package, then run the script. -->",
            "",
            *self.mermaid(),
            "",
            "<details><summary>Every direct dependency, as Package.swift declares it (test targets left out)</summary>",
            "",
            *self.table(),
            "",
            "</details>",
            END,
        ]
        return "\n".join(lines)


def replace_block(text: str, block: str, path: str) -> str:
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        fail(f"{path} needs exactly one `{BEGIN}` line followed by one `{END}` line")
    return "\n".join(lines[:starts[0]] + block.split("\n") + lines[ends[0] + 1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when the page is out of date")
    parser.add_argument("--manifest", metavar="FILE", help="the JSON of `swift package dump-package` (default: run it)")
    parser.add_argument("--doc", default=DOC, help="the page to update (default: docs/architecture.md)")
    options = parser.parse_args()

    if options.manifest:
        try:
            with open(options.manifest, encoding="utf-8") as file:
                manifest = json.load(file)
        except (OSError, json.JSONDecodeError) as error:
            fail(f"cannot read {options.manifest}: {error}")
    else:
        manifest = dump_package()
    try:
        with open(options.doc, encoding="utf-8") as file:
            current = file.read()
    except OSError as error:
        fail(f"cannot read {options.doc}: {error}")
    updated = replace_block(current, Graph(manifest).block(), options.doc)
    shown = os.path.relpath(options.doc)

    if options.check:
        if updated == current:
            print(f"module-graph: {shown} is up to date with Package.swift")
            return
        sys.stdout.writelines(difflib.unified_diff(
            current.splitlines(keepends=True), updated.splitlines(keepends=True), shown, f"{shown} (from Package.swift)"))
        print(f"module-graph: {shown} is out of date with Package.swift: run python3 docs/module-graph.py",
              file=sys.stderr)
        sys.exit(1)
    if updated != current:
        with open(options.doc, "w", encoding="utf-8") as file:
            file.write(updated)
        print(f"module-graph: wrote the module graph of {shown}")
    else:
        print(f"module-graph: {shown} was up to date")


if __name__ == "__main__":
    main()
