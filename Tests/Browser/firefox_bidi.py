"""A small WebDriver BiDi client for headless Firefox, without geckodriver.

Firefox speaks WebDriver BiDi itself when started with `--remote-debugging-port`: it writes the port it
listens on into `WebDriverBiDiServer.json` in its profile, and a client opens a session over a WebSocket at
`ws://127.0.0.1:PORT/session`. This module starts Firefox with a fresh temporary profile, opens that session
and offers the few commands the dashboard's tests use (navigate, evaluate, locate, click, type, screenshot).
Protocol: https://w3c.github.io/webdriver-bidi/ — commands are JSON `{id, method, params}`; the browser answers
`{type: "success", id, result}` or `{type: "error", id, error, message}` and pushes `{type: "event", ...}`.
"""
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time

from websockets.sync.client import connect

# Keep a test browser quiet and local: no updates, telemetry, experiments, safe-browsing lists, captive-portal
# or connectivity probes, DNS-over-HTTPS, prefetching or new-tab content. Every URL Firefox would fetch by
# itself points at a closed loopback port. (Firefox's remote agent adds its own recommended testing prefs.)
NOWHERE = "http://127.0.0.1:9/"
PREFS = {
    "app.normandy.enabled": False,
    "app.shield.optoutstudies.enabled": False,
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "browser.aboutwelcome.enabled": False,
    "browser.discovery.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.system.topstories": False,
    "browser.newtabpage.activity-stream.feeds.section.topstories": False,
    "browser.newtabpage.activity-stream.feeds.topsites": False,
    "browser.newtabpage.activity-stream.default.sites": "",
    "browser.ping-centre.telemetry": False,
    "browser.region.network.url": "",
    "browser.region.update.enabled": False,
    "browser.safebrowsing.downloads.remote.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.mozilla.updateURL": NOWHERE,
    "browser.safebrowsing.provider.google4.updateURL": NOWHERE,
    "browser.search.update": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.topsites.contile.enabled": False,
    "browser.urlbar.suggest.quicksuggest.sponsored": False,
    "browser.urlbar.quicksuggest.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.update.enabled": False,
    "geo.provider.network.url": "",
    "media.gmp-manager.url": NOWHERE,
    "media.gmp-gmpopenh264.autoupdate": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.http.speculative-parallel-limit": 0,
    "network.prefetch-next": False,
    "network.trr.mode": 5,
    "services.settings.server": NOWHERE,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.server": NOWHERE,
    "toolkit.telemetry.unified": False,
}


class BiDiError(Exception):
    pass


def firefox_binary():
    """The Firefox to drive: $FIREFOX_BINARY, else firefox-esr or firefox on the PATH; None if there is none."""
    explicit = os.environ.get("FIREFOX_BINARY")
    if explicit:
        return explicit
    for name in ("firefox-esr", "firefox"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _local_value(value):
    """A Python value (or a node from `locate`) as a BiDi LocalValue argument."""
    if isinstance(value, dict) and "sharedId" in value:
        return {"sharedId": value["sharedId"]}
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, (int, float)):
        return {"type": "number", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, (list, tuple)):
        return {"type": "array", "value": [_local_value(v) for v in value]}
    raise TypeError(f"cannot pass {type(value).__name__} to the page")


def _python_value(remote):
    """A BiDi RemoteValue as a Python value; nodes stay as their RemoteValue (they carry a sharedId)."""
    kind = remote.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind in ("string", "boolean"):
        return remote["value"]
    if kind == "number":
        value = remote["value"]
        return float(value.replace("Infinity", "inf")) if isinstance(value, str) else value
    if kind == "bigint":
        return int(remote["value"])
    if kind in ("array", "set", "nodelist", "htmlcollection"):
        return [_python_value(v) for v in remote.get("value", [])]
    if kind in ("object", "map"):
        return {(k if isinstance(k, str) else json.dumps(_python_value(k))): _python_value(v)
                for k, v in remote.get("value", [])}
    return remote  # node, window, function, error, ...


class Firefox:
    """A headless Firefox with a fresh profile and one BiDi session on its first tab. Always call close()."""

    def __init__(self, binary=None, width=1600, height=1000, timeout=20.0, log_path=None, prefs=None):
        self.timeout = timeout
        self.events = []  # every event the browser pushed, in order (log.entryAdded, ...)
        self._ids = itertools.count(1)
        self._socket = None
        self._connection = contextlib.ExitStack()
        self.profile = tempfile.mkdtemp(prefix="bgemu-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for name, value in {**PREFS, **(prefs or {})}.items():
                f.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        self.log_path = log_path or os.path.join(self.profile, "firefox.log")
        self._log = open(self.log_path, "ab")
        env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1", MOZ_REMOTE_SETTINGS_DEVTOOLS="1")
        self.process = subprocess.Popen(
            [binary or firefox_binary(), "--headless", "--no-remote", "--profile", self.profile,
             "--remote-debugging-port", "0", f"--width={width}", f"--height={height}", "about:blank"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        try:
            port = self._wait_for_port(timeout=60)
            self._socket = self._connection.enter_context(connect(
                f"ws://127.0.0.1:{port}/session", open_timeout=timeout, max_size=None, proxy=None, compression=None))
            self.capabilities = self.command("session.new", {"capabilities": {}})["capabilities"]
            self.command("session.subscribe", {"events": ["log.entryAdded"]})
            self.context = self.command("browsingContext.getTree", {"maxDepth": 0})["contexts"][0]["context"]
            self.command("browsingContext.setViewport",
                         {"context": self.context, "viewport": {"width": width, "height": height}})
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ the session

    def _wait_for_port(self, timeout):
        marker = os.path.join(self.profile, "WebDriverBiDiServer.json")
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise BiDiError(f"firefox exited with {self.process.returncode}: {self.log_tail()}")
            try:
                with open(marker) as f:
                    return json.load(f)["ws_port"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        raise BiDiError(f"firefox did not start its WebDriver BiDi server: {self.log_tail()}")

    def log_tail(self, size=3000):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-size:].decode(errors="replace")
        except OSError:
            return ""

    def command(self, method, params=None, timeout=None):
        """Sends one command and returns its result; events that arrive meanwhile go to self.events."""
        ident = next(self._ids)
        self._socket.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.time() + (timeout or self.timeout) + 10
        while True:
            remaining = deadline - time.time()
            if remaining <= 0:
                raise BiDiError(f"{method}: no answer in time")
            message = json.loads(self._socket.recv(timeout=remaining))
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == ident:
                if message.get("type") == "error":
                    raise BiDiError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]

    def close(self):
        """Ends the session, closes the browser (killing it if need be) and deletes the profile."""
        try:
            if self._socket is not None:
                try:
                    self.command("browser.close", timeout=5)
                except Exception:
                    pass
        finally:
            self._connection.close()
            self._socket = None
            if self.process.poll() is None:
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self._log.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    # ------------------------------------------------------------------ the page

    def navigate(self, url):
        return self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self):
        return self.command("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (promises awaited); raises on a thrown exception."""
        return self._script_result(self.command("script.evaluate", {
            "expression": expression, "target": {"context": self.context}, "awaitPromise": True,
            "resultOwnership": "none"}))

    def call(self, function, *args):
        """Calls a JavaScript function declaration with arguments (numbers, strings, nodes from locate...)."""
        return self._script_result(self.command("script.callFunction", {
            "functionDeclaration": function, "arguments": [_local_value(a) for a in args],
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"}))

    def _script_result(self, result):
        if result["type"] == "exception":
            details = result["exceptionDetails"]
            raise BiDiError(f"script threw: {details.get('text')}")
        return _python_value(result["result"])

    def locate(self, selector):
        """The nodes matching a CSS selector, as RemoteValues with a sharedId."""
        return self.command("browsingContext.locateNodes", {
            "context": self.context, "locator": {"type": "css", "value": selector}})["nodes"]

    def wait_for(self, condition, timeout=None, message="condition"):
        """Polls condition() (a Python callable, or a JavaScript expression) until it is truthy; returns it."""
        check = condition if callable(condition) else (lambda: self.evaluate(condition))
        deadline = time.time() + (timeout or self.timeout)
        last_error = None
        while True:
            try:
                value = check()
                if value:
                    return value
            except BiDiError as error:  # e.g. the page navigated in between
                last_error = error
            if time.time() >= deadline:
                raise TimeoutError(f"waited {timeout or self.timeout:.0f} s for {message}"
                                   + (f" (last error: {last_error})" if last_error else ""))
            time.sleep(0.1)

    def wait_for_node(self, selector, timeout=None):
        return self.wait_for(lambda: self.locate(selector), timeout, f"an element matching {selector!r}")[0]

    def click(self, selector):
        """A real mouse click (pointer move, down, up) at the centre of the first element matching selector."""
        node = self.wait_for_node(selector)
        self.call("(e) => e.scrollIntoView({block: 'center', inline: 'center'})", node)
        self.command("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": node}},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})

    def type(self, selector, text):
        """Focuses the element with a click and types text through real key events."""
        self.click(selector)
        keys = []
        for char in text:
            keys += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        self.command("input.performActions", {"context": self.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": keys}]})

    def screenshot(self, path):
        data = self.command("browsingContext.captureScreenshot", {"context": self.context})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def log_entries(self, level=None):
        """The page's console messages and uncaught errors so far (log.entryAdded events)."""
        while True:  # take in the events that arrived since the last command
            try:
                message = json.loads(self._socket.recv(timeout=0))
            except TimeoutError:
                break
            if message.get("type") == "event":
                self.events.append(message)
        entries = [e["params"] for e in self.events if e.get("method") == "log.entryAdded"]
        return [e for e in entries if level is None or e.get("level") == level]
