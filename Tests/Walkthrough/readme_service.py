"""What the README's two runners share: a service started in a scratch folder, and a pasted script run beside it.

`readme_walkthrough.py` (the walkthrough's shell blocks) and `readme_app.py` (the "Testing your app's own code"
files and commands) each lay out their folder, then call `run_beside_service`.
"""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_beside_service(name: str, work: str, serve: list[str], script: str, env: dict[str, str],
                       port: int, timeout: int) -> tuple[int, float]:
    """Starts `serve` in `work` (its output in work/serve.log) with `env`, waits for its /healthz on `port`, runs
    `script` with bash in `work`, stops the service and removes `work`. Returns the script's exit status and how
    long it ran; prints the service's log's end when the script failed, and exits when the service never answers."""
    server = None
    try:
        log = open(os.path.join(work, "serve.log"), "w")
        server = subprocess.Popen(serve, cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env)
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                if server.poll() is not None:
                    print(open(os.path.join(work, "serve.log")).read(), file=sys.stderr)
                    sys.exit(f"{name}: the service exited")
                time.sleep(0.1)
        started = time.monotonic()
        run = subprocess.run(["bash", "-c", script], cwd=work, env=env, timeout=timeout)
        seconds = time.monotonic() - started
        if run.returncode != 0:
            print(f"{name}: failed (exit {run.returncode}); the service's log:", file=sys.stderr)
            print(open(os.path.join(work, "serve.log")).read()[-4000:], file=sys.stderr)
        return run.returncode, seconds
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)
