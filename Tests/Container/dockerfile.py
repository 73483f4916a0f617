"""The Dockerfile as the container check reads it: its stages, and of the runtime stage everything a container of the
image is made of (the RUN layer and what it says: packages, users, folders, owners; COPY, ENV, USER, WORKDIR,
VOLUME, EXPOSE, HEALTHCHECK, ENTRYPOINT, CMD, STOPSIGNAL), and of the build stage its `swift build` command and the
`install -D` that puts the binary where the runtime stage's `COPY --from` takes it. An instruction it cannot
replay faithfully is an error, never skipped."""

import json
import os
import re
import shlex


class DockerfileError(Exception):
    """A Dockerfile the check cannot read or replay."""


def instructions(text):
    """(line number, KEYWORD, arguments) of each instruction: comment lines dropped (also inside a continuation, as
    Docker drops them), continuation lines joined."""
    result, current, start = [], "", None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if start is None:
            start = number
        if line.endswith("\\"):
            current += line[:-1].rstrip() + " "
            continue
        current += line
        keyword, _, arguments = current.partition(" ")
        result.append((start, keyword.upper(), arguments.strip()))
        current, start = "", None
    if current:
        raise DockerfileError(f"Dockerfile line {start}: a continuation that never ends")
    return result


def json_or_words(arguments):
    """An instruction's JSON array form, else its words."""
    if arguments.startswith("["):
        return json.loads(arguments)
    return shlex.split(arguments)


def exec_form(arguments):
    """ENTRYPOINT/CMD/HEALTHCHECK CMD arguments as argv: the JSON form as is, the shell form under /bin/sh -c."""
    if arguments.startswith("["):
        return json.loads(arguments)
    return ["/bin/sh", "-c", arguments]


def key_values(arguments):
    """ENV's `K=V K2=V2` (or the old `K V`) form, with shell quoting."""
    words = shlex.split(arguments)
    if words and "=" not in words[0]:
        return {words[0]: arguments.split(None, 1)[1] if len(words) > 1 else ""}
    return dict(word.split("=", 1) for word in words)


def shell_commands(run):
    """The `&&`-joined commands of a RUN line, each as words."""
    return [shlex.split(part) for part in re.split(r"\s&&\s", run) if part.strip()]


def duration(text):
    """A Dockerfile duration (10s, 1m30s, 500ms) in seconds."""
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6, "ns": 1e-9}
    parts = re.findall(r"([0-9.]+)(ms|us|ns|h|m|s)", text)
    if not parts or "".join(a + b for a, b in parts) != text:
        raise DockerfileError(f"a duration the check cannot read: {text!r}")
    return sum(float(a) * units[b] for a, b in parts)


def split_stages(parsed):
    stages = []
    for number, keyword, arguments in parsed:
        if keyword == "FROM":
            words = [w for w in arguments.split() if not w.startswith("--")]
            name = words[2] if len(words) == 3 and words[1].lower() == "as" else None
            stages.append({"line": number, "image": words[0], "name": name, "body": []})
        elif not stages:
            if keyword != "ARG":
                raise DockerfileError(f"Dockerfile line {number}: {keyword} before any FROM")
        else:
            stages[-1]["body"].append((number, keyword, arguments))
    if len(stages) < 2:
        raise DockerfileError("the Dockerfile has no separate build and runtime stages")
    return stages


def read_dockerfile(path):
    """Everything the check needs from the Dockerfile, parsed."""
    with open(path, encoding="utf-8") as file:
        stages = split_stages(instructions(file.read()))
    runtime = stages[-1]
    image = runtime["image"]
    match = re.fullmatch(r"(?:docker\.io/)?(?:library/)?debian:([a-z]+)(?:-[0-9]+)?(?:-slim)?", image)
    if not match:
        raise DockerfileError(f"runtime stage FROM {image}: the check builds Debian roots only (debian:SUITE[-slim])")
    spec = {
        "image": image, "suite": match.group(1), "layer": [], "packages": [], "users": {}, "directories": [],
        "chowns": [], "copies": [], "env": {}, "user": None, "workdir": "/", "volumes": [], "expose": [],
        "healthcheck": None, "entrypoint": [], "cmd": [], "stopsignal": "SIGTERM", "build": None,
    }
    workdir, env, copied = "/", {}, False
    for number, keyword, arguments in runtime["body"]:
        where = f"Dockerfile line {number}"
        if keyword == "RUN":
            if copied:
                raise DockerfileError(f"{where}: a RUN after a COPY; the check caches the RUN layer, so it wants them first")
            spec["layer"].append(("RUN", workdir, dict(env), arguments))
            for words in shell_commands(arguments):
                read_run_command(words, spec, where)
        elif keyword == "WORKDIR":
            workdir = os.path.normpath(os.path.join(workdir, arguments))
            if copied:
                spec["copies"].append({"workdir": workdir})
            else:
                spec["layer"].append(("WORKDIR", workdir, None, None))
        elif keyword == "ENV":
            env.update(key_values(arguments))
        elif keyword == "COPY":
            copied = True
            spec["copies"].append(read_copy(arguments, workdir, stages, spec, where))
        elif keyword == "USER":
            spec["user"] = arguments
        elif keyword == "VOLUME":
            spec["volumes"] += json_or_words(arguments)
        elif keyword == "EXPOSE":
            spec["expose"] += [int(port.split("/")[0]) for port in arguments.split()]
        elif keyword == "HEALTHCHECK":
            spec["healthcheck"] = read_healthcheck(arguments, where)
        elif keyword == "ENTRYPOINT":
            spec["entrypoint"] = exec_form(arguments)
        elif keyword == "CMD":
            spec["cmd"] = exec_form(arguments) if not spec["entrypoint"] or arguments.startswith("[") \
                else shlex.split(arguments)
        elif keyword == "STOPSIGNAL":
            spec["stopsignal"] = arguments if arguments.startswith("SIG") else f"SIG{arguments}"
        elif keyword != "LABEL":
            raise DockerfileError(f"{where}: {keyword} in the runtime stage is not something the check knows how to replay")
    spec["env"], spec["workdir"] = env, workdir
    for name in ("user", "healthcheck"):
        if not spec[name]:
            raise DockerfileError(f"the runtime stage has no {name.upper()}")
    if not spec["entrypoint"] + spec["cmd"]:
        raise DockerfileError("the runtime stage has neither ENTRYPOINT nor CMD")
    if spec["build"] is None:
        raise DockerfileError("no COPY --from names the build stage's binary")
    return spec


def read_run_command(words, spec, where):
    """What one command of a runtime RUN tells the check (the command itself is replayed as written)."""
    if words[:2] == ["apt-get", "install"]:
        spec["packages"] += [w for w in words[2:] if not w.startswith("-")]
    elif words[:1] == ["useradd"]:
        options, name, i = {}, None, 1
        valued = {"-u": "uid", "--uid": "uid", "-d": "home", "--home-dir": "home", "-s": "shell", "--shell": "shell",
                  "-g": "gid", "--gid": "gid", "-c": "comment", "--comment": "comment", "-G": "groups",
                  "--groups": "groups"}
        while i < len(words):
            if words[i] in valued:
                options[valued[words[i]]] = words[i + 1]
                i += 2
                continue
            if not words[i].startswith("-"):
                name = words[i]
            i += 1
        if name is None or "uid" not in options:
            raise DockerfileError(f"{where}: a useradd without a name or a --uid")
        spec["users"][name] = options
    elif words[:1] == ["mkdir"]:
        spec["directories"] += [w for w in words[1:] if not w.startswith("-")]
    elif words[:1] == ["chown"]:
        arguments = [w for w in words[1:] if not w.startswith("-")]
        spec["chowns"] += [(arguments[0], path) for path in arguments[1:]]


def read_copy(arguments, workdir, stages, spec, where):
    words = json_or_words(arguments)
    flags = {w.split("=", 1)[0]: w.split("=", 1)[1] for w in words if w.startswith("--")}
    paths = [w for w in words if not w.startswith("--")]
    unknown = set(flags) - {"--from", "--chown"}
    if unknown or len(paths) != 2:
        raise DockerfileError(f"{where}: COPY {arguments}: the check copies one source to one destination, "
                         "with --from or --chown only")
    source, destination = paths
    destination = os.path.normpath(os.path.join(workdir, destination)) + ("/" if destination.endswith("/") else "")
    if "--from" in flags:
        stage = next((s for s in stages if s["name"] == flags["--from"]), None)
        if stage is None:
            raise DockerfileError(f"{where}: COPY --from={flags['--from']} names no stage")
        spec["build"] = read_build_stage(stage, source)
        return {"from": stage["name"], "source": source, "destination": destination, "chown": flags.get("--chown")}
    return {"from": None, "source": source, "destination": destination, "chown": flags.get("--chown")}


def read_build_stage(stage, artifact):
    """The build stage's `swift build …` command and the `install -D SOURCE ARTIFACT` that puts its binary where the
    runtime stage's COPY --from takes it. The stage's other RUN lines set up the Swift image; the host's toolchain
    and the libraries .ci/run installs stand in for them."""
    for number, keyword, arguments in stage["body"]:
        if keyword != "RUN" or "swift build" not in arguments:
            continue
        build, source = None, None
        for part in re.split(r"\s&&\s", arguments):
            words = part.split()
            if words[:2] == ["swift", "build"]:
                build = part.strip()
            elif words[:2] == ["install", "-D"] and words[-1] == artifact:
                source = part.strip()[len("install -D"):].strip()[: -len(artifact)].strip()
            else:
                raise DockerfileError(f"Dockerfile line {number}: `{part.strip()}` in the build command is not one the "
                                 "check knows")
        if build and source:
            return {"command": build, "source": source, "image": stage["image"]}
    raise DockerfileError(f"the build stage has no RUN with `swift build` and `install -D … {artifact}`")


def read_healthcheck(arguments, where):
    words = arguments.split()
    options = {"interval": 30.0, "timeout": 30.0, "start-period": 0.0, "retries": 3}
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0)[2:].partition("=")
        if name not in options and name != "start-interval":
            raise DockerfileError(f"{where}: HEALTHCHECK --{name} is not one the check knows")
        if name in options:
            options[name] = int(value) if name == "retries" else duration(value)
    if not words or words[0] != "CMD":
        raise DockerfileError(f"{where}: HEALTHCHECK without CMD")
    options["argv"] = exec_form(arguments.split("CMD", 1)[1].strip())
    options["text"] = arguments.split("CMD", 1)[1].strip()
    return options
