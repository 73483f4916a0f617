"""The dashboard in headless Firefox (firefox-esr) against the real service, driven over WebDriver BiDi.

No geckodriver: Firefox serves WebDriver BiDi itself (firefox_bidi.py). Skipped only when no Firefox is installed.
Screenshots go to artifacts/firefox-*.png.
"""
import json
import re
import time

import pytest

from conftest import API_KEY, ARTIFACTS, openapi_event_types
from firefox_bidi import BiDiError, Firefox, firefox_binary
from test_dashboard import (CONTROLS_ROW_JS, DARK_BACKGROUND, DEVICE_LABELS_JS, GROUP_ARROWS_JS, PLOT_FACTS_JS, SAMPLE,
                            SHORT_RUN_JS, SIGNAL, check_controls_row, check_one_arrow, check_plots_against,
                            check_short_run_marks, check_twin_labels, create_device, device_event_ids,
                            device_event_list, device_with_a_short_run, device_with_expirations, device_with_pushes,
                            run_scenario, twin_devices)

# The line Firefox logs when a device's event stream cannot reach the service.
STREAM_AWAY = re.compile(r"Firefox can.t establish a connection to the server at http://127\.0\.0\.1:\d+/v1/devices/[^/]+/events\?")


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
        # Anything the page threw and did not catch is a failure in Firefox. Not so the line Firefox logs when the
        # event stream finds the service away (a test that stops it): the page reconnects, and the test checks that.
        uncaught = [e.get("text") for e in browser.log_entries() if e.get("type") == "javascript"
                    and not STREAM_AWAY.match(e.get("text") or "")]
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


# ---------------------------------------------------------------- the polish of issue 10, in Firefox

def sign_in_at(firefox, service, width=1400, height=900, live=True):
    """Signs in on a page area of width×height CSS pixels and waits for the first device to be live."""
    firefox.command("browsingContext.setViewport",
                    {"context": firefox.context, "viewport": {"width": width, "height": height}})
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    if live:
        wait_live(firefox)
    else:
        firefox.wait_for(lambda: view(firefox) == "main", message="main view")


def click_fresh(firefox, selector, attempts=20):
    """Clicks what `selector` finds, again if the page redrew it between the find and the click (the lanes and the
    device list are rebuilt as events and refreshes arrive)."""
    for attempt in range(attempts):
        try:
            firefox.click(selector)
            return
        except BiDiError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.1)


def click_until(firefox, selector, condition, message, attempts=3):
    """Clicks what `selector` finds until `condition` holds, a few seconds each: a mark of the lanes can be redrawn
    between the find and the click, and the click then lands on the mark being replaced."""
    for attempt in range(attempts):
        click_fresh(firefox, selector)
        try:
            return firefox.wait_for(condition, timeout=5, message=message)
        except TimeoutError:
            if attempt == attempts - 1:
                raise


def boxes(firefox, selector):
    return firefox.call("""(s) => [...document.querySelectorAll(s)].map((e) => {
        const r = e.getBoundingClientRect(); return [r.width, r.height]; })""", selector)


def test_pushes_and_runs_are_marks_to_see_and_click(service, firefox):
    device, base, outcomes = device_with_pushes(service)
    sign_in_at(firefox, service)
    lane = f'#lanes g.lane[data-app="{SIGNAL}"]'
    firefox.wait_for_node(f"{lane} .push")
    seen = set(firefox.call("(s) => [...document.querySelectorAll(s)].map((m) => m.dataset.outcome)", f"{lane} .push"))
    assert {"delivered", "coalesced", "dropped"} <= seen, seen
    assert firefox.locate(f'{lane} .push[data-deferred="true"][data-outcome="delivered"] .push-wait')
    assert all(w >= 8 and h >= 8 for w, h in boxes(firefox, f"{lane} .push .pm"))
    runs = boxes(firefox, f"{lane} rect.run")
    assert runs and all(w >= 8 and h >= 10 for w, h in runs), runs
    screenshot(firefox, "12-push-marks")
    click_until(firefox, f'{lane} .push[data-outcome="dropped"] .pm',
                lambda: (text(firefox, "#detail-title") or "").startswith("Push "), "push detail")
    kinds = firefox.evaluate("[...document.querySelectorAll('#detail-body .push-events tbody tr td:nth-child(2)')].map((c) => c.textContent)")
    assert kinds[0] == "push.received" and kinds[-1] == "push.dropped", kinds
    assert firefox.evaluate("document.getElementById('detail').scrollWidth <= document.getElementById('detail').clientWidth")
    click_until(firefox, f'{lane} rect.run[data-outcome="newData"]',
                lambda: (text(firefox, "#detail-title") or "").startswith("Run run_"), "run detail")
    screenshot(firefox, "12-push-detail")


def test_every_event_type_has_a_human_summary(service, firefox):
    documented = openapi_event_types()
    device, base, _ = device_with_pushes(service)
    for name in ("background-audio.json", "downloads-while-terminated.json", "silent-push-menu.json"):
        run_scenario(service, name)
    sign_in_at(firefox, service)
    assert set(documented) <= set(firefox.evaluate("window.__bgemu.summaryTypes()"))
    assert set(documented) <= set(firefox.evaluate("window.__bgemu.eventTypes()"))
    events = []
    for d in service.api("GET", "/v1/devices?limit=500")["items"]:
        events += device_event_list(service, d["id"])
    summaries = firefox.call("""(json) => import("/js/summaries.js")
        .then((m) => JSON.parse(json).map((e) => [e.type, m.summarize(e)]))""", json.dumps(events))
    assert {"taskRequest.submitted", "taskRequest.rejected", "app.terminated", "transfer.completed"} <= {t for t, _ in summaries}
    for event_type, summary in summaries:
        assert summary and "{" not in summary and '":' not in summary, (event_type, summary)
    firefox.click("#follow")
    said = firefox.evaluate("""import("/js/summaries.js").then((m) => [{previousState: "suspended"}, {wasRunning: false}]
        .map((d) => m.summarize({type: "app.terminated", data: {reason: "crash", ...d}})))""")
    assert said == ["terminated: crash · was suspended", "terminated: crash · was not running"], said
    for event_type, words in (("app.terminated", ["terminated: "]),
                              ("taskRequest.rejected", ["refused: notPermitted"]),
                              ("taskRequest.submitted", ["appRefresh", "submitted"])):
        summary = firefox.call("""(type) => {
            const feed = document.getElementById('feed');
            feed.scrollTop = Math.max(0, window.__bgemu.feedTypes().indexOf(type) * 24 - 48);
            return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => {
              const row = document.querySelector(`#feed .feed-row[data-type="${type}"] .summary`);
              r(row ? row.textContent : null); })));
        }""", event_type)
        assert summary and all(w in summary for w in words), (event_type, summary)
    screenshot(firefox, "13-event-summaries")


def test_long_bundle_ids_are_shortened_in_the_middle(service, firefox):
    device_with_pushes(service)
    sign_in_at(firefox, service)
    label = f'#lanes g.lane[data-app="{SIGNAL}"] .lane-label'
    firefox.wait_for_node(label)
    shown = firefox.call("(s) => document.querySelector(s).firstChild.textContent", label)
    head, _, tail = shown.partition("…")
    assert head.startswith("org.whisper") and tail and SIGNAL.endswith(tail) and len(shown) <= 24, shown
    assert firefox.call("(s) => document.querySelector(s).querySelector('title').textContent", label).startswith(SIGNAL)
    cells = firefox.evaluate(f"""[...document.querySelectorAll('#feed .feed-row .app')].filter((c) => c.title === '{SIGNAL}')
        .map((c) => [c.textContent, c.scrollWidth <= c.clientWidth + 1])""")
    assert cells and all("…" in t and fits for t, fits in cells), cells[:3]
    screenshot(firefox, "14-long-bundle-id")


def test_device_list_search_groups_and_delete(service, firefox):
    mine = create_device(service, "My iPhone")
    other = create_device(service, "iPad on the desk")
    menu = [run_scenario(service, "silent-push-menu.json")["deviceId"] for _ in range(3)]
    run_scenario(service, "background-audio.json")
    sign_in_at(firefox, service)

    def listed():
        return firefox.evaluate("[...document.querySelectorAll('#device-list a')].filter((a) => a.checkVisibility())"
                                ".map((a) => a.dataset.deviceId)")

    firefox.wait_for(lambda: len(firefox.locate("#device-list a")) == 6, message="six devices")
    group = '#device-list .scenario-group[data-name="Silent push updates the menu"]'
    assert text(firefox, f"{group} .count") == "3"
    assert listed()[:2] == [mine["id"], other["id"]] and not set(menu) & set(listed())
    firefox.type("#device-search", "menu")
    firefox.wait_for(lambda: set(listed()) == set(menu), message="the menu runs")
    screenshot(firefox, "15-device-search")
    firefox.evaluate("(() => { const s = document.getElementById('device-search'); s.value = ''; s.dispatchEvent(new Event('input')); })()")
    firefox.wait_for(lambda: listed()[:2] == [mine["id"], other["id"]] and not set(menu) & set(listed()),
                     message="all again, the group closed")
    audio = other["id"]  # the device deleted below: one of the user's own

    click_fresh(firefox, f'#device-list li[data-device-id="{audio}"] .delete-device')
    firefox.wait_for_node(f'#device-list li[data-device-id="{audio}"] .confirm-delete')
    screenshot(firefox, "15-device-delete-confirm")
    click_fresh(firefox, "#device-list .confirm-no")
    firefox.wait_for(lambda: not firefox.locate(".confirm-delete"), message="asked no more")
    assert service.request("GET", f"/v1/devices/{audio}")[0] == 200
    click_fresh(firefox, f'#device-list li[data-device-id="{audio}"] .delete-device')
    click_fresh(firefox, "#device-list .confirm-yes")
    firefox.wait_for(lambda: "Deleted" in (text(firefox, "#device-list-status") or ""), message="deleted")
    assert service.request("GET", f"/v1/devices/{audio}")[0] == 404
    firefox.wait_for(lambda: audio not in listed(), message="gone from the list")


def feed_in_view(firefox):
    return firefox.evaluate("""(() => { const f = document.getElementById('feed').getBoundingClientRect();
        const v = document.getElementById('device-view');
        return {bottom: f.bottom, height: f.height, window: innerHeight,
                scrolls: v.scrollHeight > v.clientHeight + 1 || document.documentElement.scrollHeight > innerHeight + 1}; })()""")


def check_feed_in_view(firefox, name):
    firefox.wait_for_node("#lanes .push")
    where = feed_in_view(firefox)
    assert not where["scrolls"] and where["bottom"] <= where["window"] and where["height"] >= 8 * 24, where
    screenshot(firefox, f"16-1400x900-{name}")
    click_fresh(firefox, '#lanes .push[data-outcome="delivered"] .pm')
    firefox.wait_for(lambda: (text(firefox, "#detail-title") or "").startswith("Push "), message="push detail")
    where = feed_in_view(firefox)
    assert not where["scrolls"] and where["bottom"] <= where["window"] and where["height"] >= 8 * 24, where
    screenshot(firefox, f"16-1400x900-detail-{name}")


def test_feed_visible_without_scrolling_at_1400_by_900(service, firefox):
    device_with_pushes(service)
    sign_in_at(firefox, service, 1400, 820)   # a 1400×900 window's page area under the browser's bars
    check_feed_in_view(firefox, "light")


def test_feed_visible_without_scrolling_at_1400_by_900_dark(service, dark_firefox):
    device_with_pushes(service)
    sign_in_at(dark_firefox, service, 1400, 820)
    assert dark_firefox.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BACKGROUND
    check_feed_in_view(dark_firefox, "dark")


def test_timeline_shows_a_device_where_no_time_has_passed(service, firefox):
    device = create_device(service, "Just made")
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SIGNAL, "infoPlist": {"UIBackgroundModes": ["remote-notification"]}})
    service.api("POST", f"{base}/apps/{SIGNAL}/launch")
    sign_in_at(firefox, service)
    firefox.wait_for("document.getElementById('lanes').dataset.instant === 'true'", message="one instant")
    widths = [w for w, _ in boxes(firefox, f'#lanes g.lane[data-app="{SIGNAL}"] rect.seg[data-state="active"]')]
    assert widths and max(widths) > 400, widths
    assert visible(firefox, "lanes-note") and "Advance the clock" in text(firefox, "#lanes-note")
    screenshot(firefox, "17-single-instant")


def test_favicon_is_served(service, firefox):
    sign_in_at(firefox, service, live=False)
    assert firefox.evaluate("fetch('/favicon.ico').then((r) => r.status)") == 200
    assert firefox.evaluate("fetch('/favicon.ico').then((r) => r.headers.get('content-type'))") == "image/vnd.microsoft.icon"
    assert firefox.evaluate("document.querySelector('link[rel=icon]').href").endswith("/favicon.svg")


# ---------------------------------------------------------------- each concern of the page's script (issue 13 §2)

def test_create_a_device_with_the_form_and_open_a_lane_state(service, firefox):
    """The create form makes the device as filled in and shows it; a state of its app's lane opens its detail."""
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    firefox.wait_for(lambda: view(firefox) == "main" and visible(firefox, "create-first"), message="empty tenant")
    firefox.call("(id) => { document.getElementById(id).value = ''; }", "dev-name")
    firefox.type("#dev-name", "Lab phone")
    firefox.call("(v) => { document.getElementById('dev-os').value = v; }", "15.0")
    firefox.click("#create-device button[type=submit]")
    firefox.wait_for(lambda: text(firefox, "#device-title") == "Lab phone · iOS 15.0", message="the new device shown")
    [device] = service.api("GET", "/v1/devices")["items"]
    assert (device["name"], device["osVersion"]) == ("Lab phone", "15.0")
    assert text(firefox, "#action-status") == f"Created Lab phone ({device['id']})."
    assert not visible(firefox, "create-first")
    wait_live(firefox)

    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    service.api("POST", f"{base}/apps/{SAMPLE}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 60})
    seg = f'#lanes g.lane[data-app="{SAMPLE}"] rect.seg[data-state="background"]'
    firefox.wait_for_node(seg)
    firefox.call("(s) => document.querySelector(s).dispatchEvent(new MouseEvent('click', {bubbles: true}))", seg)
    firefox.wait_for(lambda: text(firefox, "#detail-title") == f"{SAMPLE}: background", message="state detail")
    assert "userLeft" in text(firefox, "#detail-body")


def test_feed_reloads_when_the_events_after_it_were_pruned_while_away(service, firefox):
    """Firefox's resume after its last id is a 410 once the events after it were pruned: the page loads what the
    service holds and goes live again."""
    from test_dashboard import prune_while_stopped
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 80})
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, API_KEY)
    wait_live(firefox)
    firefox.wait_for(lambda: feed_ids(firefox) == device_event_ids(service, device["id"]), message="live before pruning")
    pruned_through = prune_while_stopped(service, device["id"], more_ids=5)
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 70})
    firefox.wait_for(lambda: feed_ids(firefox) == device_event_ids(service, device["id"]), 30, "feed reloaded")
    firefox.wait_for("window.__bgemu.streamState() === 1", 30, "stream open again")
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 60})
    expected = device_event_ids(service, device["id"])
    assert len(expected) == 2 and expected[0] > pruned_through
    firefox.wait_for(lambda: feed_ids(firefox) == expected, 30, "live after the reload")


def test_a_key_revoked_while_signed_in_signs_the_page_out(service, firefox):
    from conftest import ADMIN_TOKEN
    tenant = service.api("POST", "/v1/admin/tenants", {"name": "revoked-in-firefox"}, key=ADMIN_TOKEN)
    service.api("POST", "/v1/devices", {"name": "Theirs", "osVersion": "17.0"}, key=tenant["apiKey"])
    firefox.navigate(service.base + "/")
    firefox.wait_for(lambda: view(firefox) == "signin", message="sign-in view")
    submit_key(firefox, tenant["apiKey"])
    wait_live(firefox)
    status, _ = service.request("DELETE", f"/v1/admin/tenants/{tenant['id']}/keys/{tenant['keyId']}", key=ADMIN_TOKEN)
    assert status == 204
    firefox.wait_for(lambda: view(firefox) == "signin", 10, "signed out by the refresh")
    assert text(firefox, "#signin-error") == "The API key is no longer accepted (401)."
    assert firefox.evaluate("localStorage.getItem('bgemu.apiKey')") is None
    assert firefox.evaluate("window.__bgemu.streamState()") == -1


# ---------------------------------------------------------------- the forecast page (issue 14), in Firefox

def forecast_probe(firefox):
    return firefox.evaluate("window.__bgemu.forecast()")


def test_forecast_view_runs_a_fleet_and_plots_it(service, firefox):
    sign_in_at(firefox, service, 1600, 1000, live=False)
    firefox.click("#nav-forecast")
    firefox.wait_for("document.body.dataset.page === 'forecast' && window.__bgemu.forecast().streamLive",
                     message="the forecast page with its stream open")
    assert visible(firefox, "view-forecast") and not visible(firefox, "view-main")
    set_value = """(path, value) => { const e = document.querySelector(`#forecast-form [data-path="${path}"]`);
                    e.value = value; e.dispatchEvent(new Event("input", {bubbles: true})); }"""
    firefox.call(set_value, "devices", "150")
    firefox.call(set_value, "days", "2")
    firefox.click('[data-rows="pushes"] .add-row')
    firefox.click("#fc-run")
    firefox.wait_for(lambda: forecast_probe(firefox)["state"] in ("done", "failed"), 120, "the forecast finished")
    probe = forecast_probe(firefox)
    assert probe["state"] == "done", probe
    assert firefox.evaluate("document.getElementById('fc-progress').value") == 1
    firefox.wait_for(lambda: forecast_probe(firefox)["streamEvents"] >= 1, 10, "a forecast.progress event")
    forecast = service.api("GET", f"/v1/forecasts/{probe['id']}")
    assert forecast["request"]["devices"] == 150
    facts = firefox.evaluate(f"(() => {{ {PLOT_FACTS_JS} }})()")
    check_plots_against(facts, forecast["result"])
    screenshot(firefox, "forecast-view")

    # Reopened from the list after a reload.
    firefox.navigate(service.base + "/#forecast")
    firefox.wait_for_node(f'#fc-list li[data-forecast-id="{probe["id"]}"] a')
    click_fresh(firefox, f'#fc-list li[data-forecast-id="{probe["id"]}"] a')
    firefox.wait_for(lambda: forecast_probe(firefox)["id"] == probe["id"] and forecast_probe(firefox)["state"] == "done",
                     message="reopened")
    check_plots_against(firefox.evaluate(f"(() => {{ {PLOT_FACTS_JS} }})()"), forecast["result"])


def test_an_invalid_forecast_value_shows_the_problem(service, firefox):
    sign_in_at(firefox, service, 1600, 1000, live=False)
    firefox.navigate(service.base + "/#forecast")
    firefox.wait_for("document.body.dataset.page === 'forecast'", message="the forecast page by its address")
    firefox.call("""() => { const e = document.querySelector('#forecast-form [data-path="days"]'); e.value = "31"; }""")
    firefox.click("#fc-run")
    firefox.wait_for("document.getElementById('fc-status').classList.contains('bad')", message="the problem shown")
    status = text(firefox, "#fc-status")
    assert "422" in status and "days" in status, status
    assert firefox.evaluate("document.querySelector('#forecast-form [data-path=\"days\"]').getAttribute('aria-invalid')") == "true"
    screenshot(firefox, "forecast-invalid")


# ---------------------------------------------------------------- issue 29 §5: the dashboard (each in both browsers)

def page_script(firefox, body):
    """The value of a function body written for Chromium's execute_script (`return …`), run in Firefox."""
    return firefox.evaluate(f"(() => {{ {body} }})()")


def open_device(firefox, device_id):
    firefox.evaluate(f"location.hash = 'device={device_id}'")
    firefox.wait_for(lambda: firefox.call("(id) => document.querySelector(`#device-list a[data-device-id=\"${id}\"]`)"
                                          "?.getAttribute('aria-current')", device_id) == "page", message="device opened")
    wait_live(firefox)


def test_two_devices_of_one_name_are_told_apart(service, firefox):
    first, second, other = twin_devices(service)
    sign_in_at(firefox, service, 1280, 800)
    firefox.wait_for(lambda: len(page_script(firefox, DEVICE_LABELS_JS)) == 3, message="three devices listed")
    labels = check_twin_labels(page_script(firefox, DEVICE_LABELS_JS), first, second, other)
    for twin in (first, second):
        open_device(firefox, twin["id"])
        firefox.wait_for(lambda: text(firefox, "#device-title") == f"{labels[twin['id']]} · iOS 17.0",
                         message="the twin's title tells it apart")
        shown = {e["id"]: e["label"] for e in page_script(firefox, DEVICE_LABELS_JS) if e["visible"]}
        assert shown[first["id"]] != shown[second["id"]], shown
    click_fresh(firefox, f'#device-list li[data-device-id="{second["id"]}"] .delete-device')
    firefox.wait_for_node("#device-list .confirm-delete")
    assert labels[second["id"]] in text(firefox, "#device-list .confirm-delete")
    screenshot(firefox, "29-twin-devices")
    click_fresh(firefox, "#device-list .confirm-no")


def test_a_group_of_devices_shows_one_arrow(service, firefox):
    create_device(service, "CI iPhone")
    create_device(service, "CI iPhone")
    run_scenario(service, "background-audio.json")
    mine = create_device(service, "My own")
    sign_in_at(firefox, service, 1280, 800)
    open_device(firefox, mine["id"])
    firefox.wait_for(lambda: len(page_script(firefox, GROUP_ARROWS_JS)) == 2, message="two groups listed")
    check_one_arrow(page_script(firefox, GROUP_ARROWS_JS), False)
    assert "▶" not in text(firefox, "#device-list .scenario-group summary")
    for name in firefox.evaluate("[...document.querySelectorAll('#device-list .device-group')].map((g) => g.dataset.name)"):
        click_fresh(firefox, f'#device-list .device-group[data-name="{name}"] summary')
    firefox.wait_for(lambda: all(g["open"] for g in page_script(firefox, GROUP_ARROWS_JS)), message="groups opened")
    check_one_arrow(page_script(firefox, GROUP_ARROWS_JS), True)
    screenshot(firefox, "29-group-arrows")


def test_a_run_of_no_time_is_still_a_mark_to_see_and_click(service, firefox):
    device, run_id = device_with_a_short_run(service)
    sign_in_at(firefox, service, 1280, 800)
    firefox.wait_for(lambda: page_script(firefox, SHORT_RUN_JS), message="the run drawn")
    for _ in range(3):
        firefox.click("#zoom-out")
    firefox.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    check_short_run_marks(page_script(firefox, SHORT_RUN_JS), run_id)
    screenshot(firefox, "29-short-run")
    click_until(firefox, '#lanes g.lane[data-app="com.example.quick"] rect.run',
                lambda: (text(firefox, "#detail-title") or "").startswith(f"Run {run_id}"), "run detail")


def test_the_controls_stay_on_one_line_when_the_detail_opens(service, firefox):
    device = create_device(service, "Narrow window")
    service.api("POST", f"/v1/devices/{device['id']}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    sign_in_at(firefox, service, 1280, 800)
    firefox.wait_for_node(f'#app-select option[value="{SAMPLE}"]')
    closed = page_script(firefox, CONTROLS_ROW_JS)
    click_until(firefox, '#feed .feed-row[data-type="device.created"]',
                lambda: (text(firefox, "#detail-title") or "").startswith("Event "), "event detail")
    firefox.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    opened = page_script(firefox, CONTROLS_ROW_JS)
    screenshot(firefox, "29-controls-detail-open")
    check_controls_row(closed, opened)
    firefox.click('[data-action="push"]')
    firefox.wait_for(lambda: text(firefox, "#action-status"), message="the push sent")
