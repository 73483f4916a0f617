"""Fixtures for the dashboard's browser tests: the real bgemu service and a headless Chromium."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
API_KEY = "browser-test-key"
ADMIN_TOKEN = "browser-test-admin"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary():
    explicit = os.environ.get("BGEMU_BINARY")
    if explicit:
        return explicit
    for candidate in (ROOT / ".build/debug/bgemu", ROOT / ".build/release/bgemu"):
        if candidate.exists():
            return str(candidate)
    raise RuntimeError("bgemu is not built: run `swift build` first (or set BGEMU_BINARY)")


class Service:
    """The bgemu process on a free loopback port with a temporary database; restartable on the same database."""

    def __init__(self, directory):
        self.port = free_port()
        self.database = os.path.join(directory, "bgemu.sqlite")
        self.log_path = os.path.join(directory, "service.log")
        self.process = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self):
        env = dict(os.environ, BGEMU_API_KEY=API_KEY)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [binary(), "serve", "--port", str(self.port), "--database", self.database,
             "--admin-token", ADMIN_TOKEN, "--public-directory", str(ROOT / "Public")],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(ROOT))
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"bgemu exited: {Path(self.log_path).read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("bgemu did not become healthy")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self):
        self.stop()
        self.start()

    def request(self, method, path, body=None, headers=None, key=API_KEY):
        data = None
        all_headers = {"Authorization": f"Bearer {key}", "Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as r:
                text = r.read()
                return r.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as e:
            text = e.read()
            return e.code, (json.loads(text) if text else None)

    def api(self, method, path, body=None, **kw):
        status, answer = self.request(method, path, body, **kw)
        assert 200 <= status < 300, f"{method} {path}: {status} {answer}"
        return answer


@pytest.fixture
def service(tmp_path):
    s = Service(str(tmp_path))
    s.start()
    yield s
    s.stop()


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture
def driver():
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1000",
                "--disable-gpu", "--force-color-profile=srgb"):
        options.add_argument(arg)
    # The page's console (errors such as a resource answered 404) for the tests to read.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    path = chromium_path()
    if path:
        options.binary_location = path
    driver_path = shutil.which("chromedriver")
    service = ChromeService(executable_path=driver_path) if driver_path else ChromeService()
    d = webdriver.Chrome(options=options, service=service)
    d.set_script_timeout(30)
    yield d
    d.quit()


def wait(driver, condition, timeout=20, message=""):
    # A condition that finds an element the page re-renders meanwhile meets a stale element: it is asked again at
    # the next poll, as when the element is not there yet.
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(lambda d: condition(d), message)


def screenshot(driver, name):
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def sign_in(driver, service, key=API_KEY):
    from selenium.webdriver.common.by import By
    driver.get(service.base + "/")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.view") == "signin", message="sign-in view")
    field = driver.find_element(By.ID, "apikey")
    field.send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "#signin-form button[type=submit]").click()


def set_viewport(driver, width, height, dark=False):
    """Chromium's page area set to exactly width×height CSS pixels, in light or dark mode."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def openapi_event_types():
    """The event types openapi.yaml documents (the EventType schema's enum)."""
    lines = (ROOT / "openapi.yaml").read_text().splitlines()
    start = lines.index("    EventType:")
    enum = next(i for i in range(start, len(lines)) if lines[i].strip() == "enum:")
    types = []
    for line in lines[enum + 1:]:
        if not line.strip():
            continue
        if not line.startswith("        - "):
            break
        types.append(line.strip()[2:])
    return types
