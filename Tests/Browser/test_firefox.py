"""The dashboard in headless Firefox (firefox-esr) against the real service, driven over WebDriver BiDi.

No geckodriver: Firefox serves WebDriver BiDi itself (firefox_bidi.py). Skipped only when no Firefox is installed.
Screenshots go to artifacts/firefox-*.png.
"""
import pytest

from conftest import API_KEY, ARTIFACTS
from firefox_bidi import Firefox, firefox_binary
from test_dashboard import DARK_BACKGROUND, SAMPLE, create_device, device_event_ids, device_with_expirations


def open_firefox(tmp_path, prefs=None):
    """A Firefox for one test, checked for uncaught page errors when the test is done."""
    binary = firefox_binary()
    if binary is None:
        pytest.skip("no Firefox installed (firefox-esr or firefox on the PATH, or FIREFOX_BINARY)")
    browser = Firefox(binary, width=1600, height=1000, timeout=20, log_path=str(tmp_path / "firefox.log"), prefs=prefs)
    try:
        yield browser
        for entry in browser.log_entries():  # shown with a failure's captured output, or with -s
            print(f"firefox {entry.get('type')} {entry.get('level')}: {entry.get('text')}")
        # Anything the page threw and did not catch is a failure in Firefox.
        uncaught = [e.get("text") for e in browser.log_entries() if e.get("type") == "javascript"]
        assert not uncaught, f"uncaught errors in the page: {uncaught}"
    finally:
        browser.close()


@pytest.fixture
def firefox(tmp_path):
    yield from open_firefox(tmp_path)


@pytest.fixture
def dark_firefox(tmp_path):
    # 0: pages see `prefers-color-scheme: dark`, whatever the system's theme.
    yield from open_firefox(tmp_path, {"layout.css.prefers-color-scheme.content-override": 0})


def screenshot(browser, name):
    ARTIFACTS.mkdir(exist_ok=True)
    browser.screenshot(str(ARTIFACTS / f"firefox-{name}.png"))


def view(browser):
    return browser.evaluate("document.body.dataset.view")


def visible(browser, element_id):
    return browser.call("(id) => { const e = document.getElementById(id); return !!e && e.checkVisibility(); }",
                        element_id)


def text(browser, selector):
    return browser.call("(s) => { const e = document.querySelector(s); return e ? e.textContent : null; }", selector)


def feed_ids(browser):
    return browser.evaluate("window.__bgemu.feedIds()")


def feed_types(browser):
    return browser.evaluate("[...document.querySelectorAll('#feed .feed-row')].map((r) => r.dataset.type)")


def submit_key(browser, key):
    browser.type("#apikey", key)
    browser.click("#signin-form button[type=submit]")


def wait_live(browser):
    browser.wait_for("document.getElementById('feed').dataset.loaded === 'true' && window.__bgemu.streamState() === 1",
                     30, "history loaded and the EventSource open")


def test_sign_in_states_and_a_device_appears(service, firefox):
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    assert firefox.evaluate("document.body.dataset.signin") == "no-key"
    assert visible(firefox, "apikey")
    screenshot(firefox, "01-sign-in")

    submit_key(firefox, "not-the-key")
    firefox.wait_for("document.body.dataset.signin === 'wrong-key'", message="wrong-key state")
    assert visible(firefox, "signin-error") and "401" in text(firefox, "#signin-error")
    assert firefox.evaluate("localStorage.getItem('bgemu.apiKey')") is None
    assert view(firefox) == "signin"
    screenshot(firefox, "02-wrong-key")

    submit_key(firefox, API_KEY)
    firefox.wait_for(lambda: view(firefox) == "main", message="main view")
    assert firefox.evaluate("localStorage.getItem('bgemu.apiKey')") == API_KEY
    assert visible(firefox, "empty-tenant") and visible(firefox, "create-first")
    assert firefox.locate("#device-list a") == []
    screenshot(firefox, "03-empty-tenant")

    # A device with an app, made through the API, shows up through the page's periodic refresh.
    device = create_device(service, "Made by the API")
    service.api("POST", f"/v1/devices/{device['id']}/apps",
                {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    firefox.wait_for_node(f'#device-list a[data-device-id="{device["id"]}"]')
    assert not visible(firefox, "empty-tenant")
    # The device's long id wraps inside its entry instead of spilling past it.
    assert firefox.evaluate("[...document.querySelectorAll('#device-list a')].every((a) => a.scrollWidth <= a.clientWidth)")
    firefox.wait_for(lambda: "Made by the API" in (text(firefox, "#device-title") or ""), message="device opened")
    firefox.wait_for_node(f'#lanes g.lane[data-app="{SAMPLE}"]')

    # The key survives a reload; signing out forgets it.
    firefox.reload()
    firefox.wait_for(lambda: view(firefox) == "main", message="main view after a reload")
    firefox.click("#signout")
    firefox.wait_for(lambda: view(firefox) == "signin", message="signed out")
    assert firefox.evaluate("localStorage.getItem('bgemu.apiKey')") is None


def test_swimlane_live_feed_controls_and_event_detail(service, firefox):
    other = create_device(service, "Another phone")
    device = create_device(service, "Firefox phone")
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})

    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    firefox.wait_for(lambda: view(firefox) == "main", message="main view")
    firefox.wait_for_node(f'#device-list a[data-device-id="{other["id"]}"]')

    # Open the device from the list.
    firefox.click(f'#device-list a[data-device-id="{device["id"]}"]')
    firefox.wait_for(lambda: "Firefox phone" in (text(firefox, "#device-title") or ""), message="device opened")
    assert firefox.evaluate("location.hash") == f"#device={device['id']}"
    wait_live(firefox)
    assert feed_ids(firefox) == device_event_ids(service, device["id"])

    # The swimlane: one lane for the app, not running yet.
    lane = f'#lanes g.lane[data-app="{SAMPLE}"]'
    firefox.wait_for_node(lane)
    assert firefox.locate('#lanes rect.seg[data-state="notRunning"]')
    firefox.wait_for_node(f'#app-select option[value="{SAMPLE}"]')

    # An API action reaches the page through the live feed (EventSource) and redraws the lane.
    before = feed_ids(firefox)
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    expected = device_event_ids(service, device["id"])
    assert len(expected) > len(before)
    firefox.wait_for(lambda: feed_ids(firefox) == expected, message="the launch's events in the live feed")
    firefox.wait_for(f"document.querySelector('{lane}').dataset.state === 'active'", message="lane active")
    firefox.wait_for_node('#lanes rect.seg[data-state="active"]')
    assert "app.stateChanged" in feed_types(firefox)
    firefox.wait_for(lambda: "(active)" in text(firefox, f'#app-select option[value="{SAMPLE}"]'), message="app list refreshed")
    screenshot(firefox, "04-device-view")

    # A control button on the page: Home sends the app to the background; the feed and lane follow.
    firefox.click('[data-action="background"]')
    firefox.wait_for(lambda: (text(firefox, "#action-status") or "").endswith("is background"), message="Home done")
    firefox.wait_for(f"document.querySelector('{lane}').dataset.state === 'background'", message="lane background")
    firefox.click('[data-advance="60"]')
    firefox.wait_for(lambda: "clock.advanced" in feed_types(firefox), message="clock.advanced in the feed")
    firefox.wait_for(lambda: feed_ids(firefox) == device_event_ids(service, device["id"]),
                     message="the feed holds every event of the device")
    firefox.wait_for_node('#lanes rect.seg[data-state="suspended"]')
    assert firefox.evaluate("document.getElementById('feed-count').textContent") == f"{len(feed_ids(firefox))} events"
    # The Launch button brings the suspended app back to the foreground.
    before = feed_ids(firefox)
    firefox.click('[data-action="launch"]')
    firefox.wait_for(lambda: (text(firefox, "#action-status") or "").endswith("is active"), message="Launch done")
    firefox.wait_for(f"document.querySelector('{lane}').dataset.state === 'active'", message="lane active again")
    firefox.wait_for(lambda: len(feed_ids(firefox)) > len(before), message="the relaunch's events in the live feed")
    firefox.wait_for(lambda: feed_ids(firefox) == device_event_ids(service, device["id"]), message="every event shown")

    # The detail panel for one event.
    row = '#feed .feed-row[data-type="clock.advanced"]'
    event_id = int(firefox.call("(s) => document.querySelector(s).dataset.id", row))
    firefox.click(row)
    firefox.wait_for(lambda: (text(firefox, "#detail-title") or "").startswith("Event "), message="event detail")
    assert visible(firefox, "detail") and firefox.evaluate("document.body.dataset.detail") == "open"
    assert str(event_id) in text(firefox, "#detail-title")
    assert "clock.advanced" in text(firefox, "#detail-body")
    screenshot(firefox, "05-event-detail")
    firefox.click("#detail-close")
    firefox.wait_for(lambda: not visible(firefox, "detail"), message="detail closed")


def test_live_feed_resumes_after_a_service_restart(service, firefox):
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    wait_live(firefox)
    before = feed_ids(firefox)

    # Firefox's EventSource reconnects by itself (or the page reopens it) and resumes after the last id.
    service.restart()
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    service.api("POST", f"{base}/apps/{SAMPLE}/background")
    firefox.wait_for("window.__bgemu.streamState() === 1", 30, "stream reopened")
    service.api("POST", f"{base}/clock/advance", {"seconds": 60})
    expected = device_event_ids(service, device["id"])
    firefox.wait_for(lambda: feed_ids(firefox)[-1:] == expected[-1:], 30, "feed caught up after the restart")
    ids = feed_ids(firefox)
    assert ids == expected and ids[: len(before)] == before
    assert all(a < b for a, b in zip(ids, ids[1:])), "ids strictly increasing, no repeats"
    screenshot(firefox, "06-after-restart")


def test_dark_mode_expirations_and_the_unreachable_state(service, dark_firefox):
    firefox = dark_firefox
    device_with_expirations(service)
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    wait_live(firefox)
    firefox.wait_for_node('#lanes rect.run.expired[data-outcome="expired"]')
    assert firefox.locate("#lanes line.expiry") and firefox.locate("#lanes rect.bgtask")
    background = firefox.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == DARK_BACKGROUND, background
    screenshot(firefox, "09-dark-expirations")

    # The service goes away: the page says so, a new sign-in finds no service, and Retry brings it back.
    service.stop()
    firefox.wait_for(lambda: "unreachable" in (text(firefox, "#conn") or ""), message="outage shown")
    firefox.click("#signout")
    firefox.wait_for(lambda: view(firefox) == "signin", message="signed out")
    submit_key(firefox, API_KEY)
    firefox.wait_for(lambda: view(firefox) == "unreachable", message="unreachable view")
    assert visible(firefox, "retry")
    screenshot(firefox, "04-unreachable")
    service.start()
    firefox.click("#retry")
    firefox.wait_for(lambda: view(firefox) == "main", message="back after retry")
    wait_live(firefox)
