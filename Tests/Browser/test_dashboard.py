"""The dashboard in headless Chromium against the real service."""
import base64
import json
import pathlib
import plistlib
import time
import urllib.request

from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By

from conftest import API_KEY, ROOT, openapi_event_types, screenshot, set_viewport, sign_in, wait

SAMPLE = "com.example.sample"
PAGE_SIZE = 500  # the dashboard's page of history


def view(driver):
    return driver.execute_script("return document.body.dataset.view")


def feed_ids(driver):
    return driver.execute_script("return window.__bgemu.feedIds()")


def device_event_ids(service, device_id):
    ids, cursor = [], None
    while True:
        page = service.api("GET", f"/v1/devices/{device_id}/events?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        ids += [e["id"] for e in page["items"]]
        cursor = page["nextCursor"]
        if not cursor:
            return ids


def create_device(service, name="Test phone", **extra):
    return service.api("POST", "/v1/devices", {"name": name, "osVersion": "17.0", **extra})


def segments(driver, state=None):
    selector = "#lanes rect.seg" + (f'[data-state="{state}"]' if state else "")
    return driver.find_elements(By.CSS_SELECTOR, selector)


def click_fresh(driver, selector, attempts=20):
    """Clicks the element `selector` finds, again if the page re-rendered it between the find and the click (lists,
    lanes and feed rows are rebuilt as events arrive: the element is gone, or a row laid out where it was a moment
    ago takes the click). Rows that overlapped for good would still fail, after 2 s."""
    for attempt in range(attempts):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except (StaleElementReferenceException, ElementClickInterceptedException):
            if attempt == attempts - 1:
                raise
            time.sleep(0.1)


def click_action(driver, action):
    driver.find_element(By.CSS_SELECTOR, f'[data-action="{action}"]').click()


def status_text(driver):
    return driver.find_element(By.ID, "action-status").text


def wait_live(driver):
    wait(driver, lambda d: d.find_element(By.ID, "feed").get_attribute("data-loaded") == "true"
         and d.execute_script("return window.__bgemu.streamState()") == 1, 30, "history loaded and stream open")


def test_sign_in_states_and_device_appears(service, driver):
    driver.get(service.base + "/")
    wait(driver, lambda d: view(d) == "signin")
    assert driver.execute_script("return document.body.dataset.signin") == "no-key"
    screenshot(driver, "01-sign-in")

    sign_in(driver, service, key="not-the-key")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.signin") == "wrong-key", message="wrong-key state")
    error = driver.find_element(By.ID, "signin-error")
    assert error.is_displayed() and "401" in error.text
    assert driver.execute_script("return localStorage.getItem('bgemu.apiKey')") is None
    screenshot(driver, "02-wrong-key")

    driver.find_element(By.ID, "apikey").send_keys(API_KEY)
    driver.find_element(By.CSS_SELECTOR, "#signin-form button[type=submit]").click()
    wait(driver, lambda d: view(d) == "main", message="main view")
    assert driver.find_element(By.ID, "empty-tenant").is_displayed()
    assert driver.find_element(By.ID, "create-first").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#device-list a") == []
    screenshot(driver, "03-empty-tenant")

    device = create_device(service, "Created by the API")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#device-list a[data-device-id="{device["id"]}"]'),
         message="device listed")
    assert not driver.find_element(By.ID, "empty-tenant").is_displayed()
    wait(driver, lambda d: "Created by the API" in d.find_element(By.ID, "device-title").text)

    # The key stays across a reload; signing out removes it.
    driver.refresh()
    wait(driver, lambda d: view(d) == "main")
    driver.find_element(By.ID, "signout").click()
    wait(driver, lambda d: view(d) == "signin")
    assert driver.execute_script("return localStorage.getItem('bgemu.apiKey')") is None


def test_unreachable_state_and_retry(service, driver):
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main")
    service.stop()
    # The page stays loaded: the periodic refresh reports the outage, and a new sign-in finds no service.
    wait(driver, lambda d: "unreachable" in d.find_element(By.ID, "conn").text, message="outage shown")
    driver.find_element(By.ID, "signout").click()
    driver.find_element(By.ID, "apikey").send_keys(API_KEY)
    driver.find_element(By.CSS_SELECTOR, "#signin-form button[type=submit]").click()
    wait(driver, lambda d: view(d) == "unreachable", message="unreachable view")
    screenshot(driver, "04-unreachable")
    service.start()
    driver.find_element(By.ID, "retry").click()
    wait(driver, lambda d: view(d) == "main", message="back after retry")


def test_drive_an_app_through_the_controls(service, driver):
    device = create_device(service)
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main")
    wait_live(driver)
    rows_before = len(feed_ids(driver))
    assert rows_before >= 1  # device.created

    click_action(driver, "install-sample")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#app-select option[value="{SAMPLE}"]'), message="app listed")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#lanes g.lane[data-app="{SAMPLE}"]'), message="lane drawn")
    assert segments(driver, "notRunning")

    click_action(driver, "launch")
    wait(driver, lambda d: segments(d, "active"), message="active segment")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#lanes g.lane[data-app="{SAMPLE}"]').get_attribute("data-state") == "active")
    click_action(driver, "background")
    wait(driver, lambda d: segments(d, "background"), message="background segment")
    # The sample app begins a background task on entering the background (and ends it after 3 s).
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lanes rect.bgtask"), message="background task drawn")
    driver.find_element(By.CSS_SELECTOR, '[data-advance="60"]').click()
    wait(driver, lambda d: segments(d, "suspended"), message="suspended segment after 1 min")
    assert "now 2026-01-01 00:01:00" in status_text(driver) or "00:01:00" in status_text(driver)

    ids = feed_ids(driver)
    api_ids = device_event_ids(service, device["id"])
    wait(driver, lambda d: feed_ids(d) == api_ids, message="feed holds every event of the device")
    rows = driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row")
    assert len(rows) == len(api_ids) > rows_before
    types = [r.get_attribute("data-type") for r in rows]
    assert types.count("app.stateChanged") >= 5 and "clock.advanced" in types
    lane = driver.find_element(By.CSS_SELECTOR, f'#lanes g.lane[data-app="{SAMPLE}"]')
    assert lane.get_attribute("data-state") == "suspended"
    states = [s.get_attribute("data-state") for s in lane.find_elements(By.CSS_SELECTOR, "rect.seg")]
    assert states[0] == "notRunning" and states[-1] == "suspended"
    # The launch's states lasted no virtual time: they share a pixel column with notRunning and are merged.
    assert {"background", "suspended"} <= set(states)

    # A suspended app's code cannot submit: the control shows the service's problem.
    click_action(driver, "submit-refresh")
    wait(driver, lambda d: "failed" in status_text(d) and "409" in status_text(d), message="problem shown")
    # A refresh request from the running app, its eligibility, then a run drawn on the lane.
    click_action(driver, "launch")
    wait(driver, lambda d: status_text(d).endswith("is active"))
    click_action(driver, "submit-refresh")
    wait(driver, lambda d: "Submit refresh request:" in status_text(d) or "failed" in status_text(d))
    assert "pending" in status_text(driver), status_text(driver)
    click_action(driver, "background")
    wait(driver, lambda d: status_text(d).endswith("is background"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#pending .pending-request"), message=f"pending request")

    click_fresh(driver, "#pending .pending-request")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-body .met-yes, #detail-body .met-no"), message="eligibility")
    cells = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#detail-body tbody tr td:first-child")]
    assert "budget" in cells and "permitted" in cells
    screenshot(driver, "06-eligibility-detail")

    driver.find_element(By.CSS_SELECTOR, '[data-advance="3600"]').click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#lanes rect.run[data-outcome="success"]'), message="run drawn")
    screenshot(driver, "05-device-view")
    click_fresh(driver, "#lanes rect.run")
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Run run_"), message="run detail")

    # An event's detail from the feed.
    click_fresh(driver, '#feed .feed-row[data-type="clock.advanced"]')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Event "))
    screenshot(driver, "07-event-detail")

    # Conditions and the push button: each shows what the service answered (a problem until /push exists).
    driver.find_element(By.ID, "c-lpm").click()
    wait(driver, lambda d: "lowPowerMode" in status_text(d), message="conditions patched")
    wait(driver, lambda d: "device.conditionsChanged" in [r.get_attribute("data-type") for r in d.find_elements(By.CSS_SELECTOR, "#feed .feed-row")])
    click_action(driver, "push")
    wait(driver, lambda d: status_text(d).startswith("Background push:") or "failed" in status_text(d), message="push answered")
    # Until the push route exists the button shows the problem; once it does, the outcome.
    assert ("no push route" in status_text(driver) or
            any(w in status_text(driver) for w in ("delivered", "deferred", "coalesced", "dropped"))), status_text(driver)
    print("push:", status_text(driver))


def test_feed_resumes_after_a_restart_without_gap_or_duplicate(service, driver):
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    sign_in(driver, service)
    wait_live(driver)
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    wait(driver, lambda d: feed_ids(d) == device_event_ids(service, device["id"]), message="live before restart")
    before = feed_ids(driver)

    service.restart()
    # Events made right after the restart, before and while the page reconnects.
    service.api("POST", f"{base}/apps/{SAMPLE}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 60})
    wait(driver, lambda d: d.execute_script("return window.__bgemu.streamState()") == 1, 30, "stream reopened")
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 55})
    expected = device_event_ids(service, device["id"])
    wait(driver, lambda d: feed_ids(d)[-1:] == expected[-1:], 30, "feed caught up after the restart")
    time.sleep(1)  # anything repeated would arrive now
    ids = feed_ids(driver)
    assert ids == expected
    assert all(a < b for a, b in zip(ids, ids[1:])), "ids strictly increasing, no repeats"
    assert ids[: len(before)] == before and len(ids) > len(before)
    rows = driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row")
    row_ids = [int(r.get_attribute("data-id")) for r in rows]
    assert len(row_ids) == len(set(row_ids))


def busy_device(service, name, bundle):
    """A device whose backgrounded app resubmits a 2 s refresh run every minute: thousands of events per day of
    virtual time. Answers the device and its path."""
    device = create_device(service, name, policy={
        "opportunityInterval": 60, "opportunityJitter": 0, "dailyLaunchBudget": 1000, "minimumLaunchSpacing": 0})
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {
        "bundleId": bundle,
        "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [f"{bundle}.refresh"]},
        "behavior": {"appRefresh": {"completeAfter": 2, "result": "success", "resubmit": True, "resubmitAfter": 0}}})
    service.api("POST", f"{base}/apps/{bundle}/launch")
    service.api("POST", f"{base}/apps/{bundle}/task-requests", {"kind": "appRefresh", "identifier": f"{bundle}.refresh"})
    service.api("POST", f"{base}/apps/{bundle}/background")
    return device, base


def test_ten_thousand_events_stay_responsive(service, driver):
    """A long history: the newest page is shown and live at once; older pages come in as the reader reaches back."""
    device, base = busy_device(service, "Busy", "com.example.busy")
    service.api("POST", f"{base}/clock/advance", {"seconds": 125_000})
    api_ids = device_event_ids(service, device["id"])
    total = len(api_ids)
    assert total >= 10_000, total

    def row_count():
        return len(driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row"))

    def bgemu(name):
        return driver.execute_script(f"return window.__bgemu.{name}()")

    def history_text():
        return driver.find_element(By.ID, "history-state").text

    sign_in(driver, service)
    started = time.time()
    wait_live(driver)
    live = time.time() - started
    print(f"\nnewest page of a {total}-event history shown and live in {live:.2f} s")

    # Only the newest page: the device's newest events, contiguous, and the rest announced as not loaded.
    ids = feed_ids(driver)
    assert 0 < len(ids) <= PAGE_SIZE, len(ids)
    assert ids == api_ids[-len(ids):]
    assert bgemu("oldestId") == ids[0] and bgemu("allLoaded") is False
    assert "older events: scroll to load" in history_text(), history_text()
    assert row_count() < 120
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lanes .state-unknown"), message="history not loaded drawn")
    screenshot(driver, "10-history-not-loaded")

    # Live at once: a new event arrives through the stream, after the newest of the page.
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 42})
    newest = device_event_ids(service, device["id"])[-1]
    assert newest > ids[-1]
    wait(driver, lambda d: feed_ids(d)[-1] == newest, 10, "live event shown")

    # Panning the lanes to before the oldest loaded event pages older events in.
    before = len(feed_ids(driver))
    driver.find_element(By.ID, "pan-left").click()
    wait(driver, lambda d: len(feed_ids(d)) > before and not bgemu("loadingOlder"), 30, "older page after panning")

    # Scrolling the feed to its top pages the rest in, one page at a time, until everything is loaded.
    driver.find_element(By.ID, "follow").click()  # stop following to scroll freely
    page_times = []
    while not bgemu("allLoaded"):
        held = len(feed_ids(driver))
        t0 = time.time()
        driver.execute_script("document.getElementById('feed').scrollTop = 0;")
        wait(driver, lambda d: len(feed_ids(d)) > held or bgemu("allLoaded"), 30, f"older page after {held} events")
        wait(driver, lambda d: not bgemu("loadingOlder"), 30)
        page_times.append(time.time() - t0)
        assert row_count() < 120
        assert len(page_times) < total // PAGE_SIZE + 5, "paging never ends"
    ids = feed_ids(driver)
    expected = device_event_ids(service, device["id"])
    assert len(ids) >= 10_000
    assert all(a < b for a, b in zip(ids, ids[1:])), "ids strictly increasing, no duplicate"
    assert ids == expected, "no gap: the feed holds exactly the API's list"
    wait(driver, lambda d: "all" in history_text() and str(len(ids)) in history_text(), message="all loaded shown")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#lanes .state-unknown"), message="unknown span gone")
    in_page = bgemu("pageTimes")
    print(f"{len(page_times)} older pages by scrolling: "
          f"{sum(page_times) / len(page_times):.3f} s per page seen by the test (max {max(page_times):.3f} s); "
          f"{sum(in_page) / len(in_page):.0f} ms per page in the page (max {max(in_page):.0f} ms, "
          f"fetch + feed + lane rebuild of up to {len(ids)} events)")

    # The rows shown near the middle are the events there; the DOM stays bounded wherever the feed is.
    counts = []
    for fraction in (0, 0.5, 1):
        driver.execute_script("const f = document.getElementById('feed'); f.scrollTop = (f.scrollHeight - f.clientHeight) * arguments[0];"
                              " return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));", fraction)
        counts.append(row_count())
    assert max(counts) < 120, counts
    driver.execute_script("const f = document.getElementById('feed'); f.scrollTop = (f.scrollHeight - f.clientHeight) / 2;"
                          " return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    shown = sorted(int(r.get_attribute("data-id")) for r in driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row"))
    assert ids[len(ids) // 2] in shown
    # Swimlanes stay bounded too: at most a few rectangles per pixel column.
    driver.find_element(By.ID, "zoom-fit").click()
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    rects = driver.execute_script("return document.querySelectorAll('#lanes rect').length")
    assert rects < 3 * 2000, rects
    screenshot(driver, "08-ten-thousand-events")


def test_an_app_with_only_unloaded_history_still_has_its_lane(service, driver):
    """An app whose every event is older than the newest page gets its lane from the apps list, in its current state."""
    quiet = "com.example.quiet"
    device = create_device(service, "Two apps", policy={
        "opportunityInterval": 60, "opportunityJitter": 0, "dailyLaunchBudget": 1000, "minimumLaunchSpacing": 0})
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": quiet, "infoPlist": {"UIBackgroundModes": ["audio"]}})
    service.api("POST", f"{base}/apps/{quiet}/launch")
    bundle = "com.example.busy"
    service.api("POST", f"{base}/apps", {
        "bundleId": bundle,
        "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [f"{bundle}.refresh"]},
        "behavior": {"appRefresh": {"completeAfter": 2, "result": "success", "resubmit": True, "resubmitAfter": 0}}})
    service.api("POST", f"{base}/apps/{bundle}/launch")   # the quiet app goes to the background, then is suspended
    service.api("POST", f"{base}/apps/{bundle}/task-requests", {"kind": "appRefresh", "identifier": f"{bundle}.refresh"})
    service.api("POST", f"{base}/apps/{bundle}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 20_000})
    quiet_state = service.api("GET", f"{base}/apps/{quiet}")["state"]
    quiet_events = service.api("GET", f"{base}/events?bundleId={quiet}&order=desc&limit=1")["items"]
    newest_page = service.api("GET", f"{base}/events?order=desc&limit={PAGE_SIZE}")
    assert newest_page["nextCursor"], "more than one page of history"
    assert quiet_events[0]["id"] < newest_page["items"][-1]["id"], "the quiet app's events are all older than the page"

    sign_in(driver, service)
    wait_live(driver)
    assert driver.execute_script("return window.__bgemu.allLoaded()") is False
    lane = f'#lanes g.lane[data-app="{quiet}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, lane), message="the quiet app's lane")
    assert driver.find_element(By.CSS_SELECTOR, lane).get_attribute("data-state") == quiet_state
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'{lane} rect.seg[data-state="{quiet_state}"]'),
         message="its current state drawn over the loaded span")
    assert driver.find_elements(By.CSS_SELECTOR, f"{lane} rect.state-unknown"), "and history not loaded before it"
    assert driver.find_elements(By.CSS_SELECTOR, f'#lanes g.lane[data-app="{bundle}"]')
    screenshot(driver, "11-lane-from-apps-list")

    # A link to the busy app's first run, whose events are all older than the loaded page: the run's detail
    # lists every one of them, asked of the API.
    first_run = service.api("GET", f"{base}/apps/{bundle}/runs?limit=1")["items"][0]["id"]
    run_events = [e["id"] for e in service.api("GET", f"{base}/events?runId={first_run}")["items"]]
    loaded = set(feed_ids(driver))
    assert len(run_events) >= 2 and not loaded & set(run_events), (run_events, min(loaded))
    driver.get(service.base + f"/#device={device['id']}&app={bundle}&run={first_run}")
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text == f"Run {first_run}", message="run detail")
    wait(driver, lambda d: [int(td.text) for td in d.find_elements(By.CSS_SELECTOR, "#detail table.run-events tbody tr td:first-child")]
         == run_events, message="every event of the run listed")
    assert "run=" in driver.execute_script("return location.hash")
    driver.find_element(By.ID, "detail-close").click()
    assert driver.execute_script("return location.hash") == f"#device={device['id']}"


def device_with_expirations(service):
    """A device whose app never ends its background task nor completes its refresh run: both expire."""
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    bundle = "com.example.slow"
    service.api("POST", f"{base}/apps", {
        "bundleId": bundle,
        "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [f"{bundle}.refresh"]},
        "behavior": {"appRefresh": {"completeAfter": "never"},
                     "onEnterBackground": {"name": "upload", "endAfter": "never", "endOnExpiration": True}}})
    service.api("POST", f"{base}/apps/{bundle}/launch")
    service.api("POST", f"{base}/apps/{bundle}/task-requests", {"kind": "appRefresh", "identifier": f"{bundle}.refresh"})
    service.api("POST", f"{base}/apps/{bundle}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 1800})
    types = {e["type"] for e in service.api("GET", f"{base}/events?limit=500")["items"]}
    assert {"run.expired", "backgroundTask.expiring"} <= types, types
    return device


DARK_BACKGROUND = "rgb(21, 23, 27)"   # the page's dark palette (style.css)


def test_expirations_are_drawn_and_dark_mode(service, driver):
    device_with_expirations(service)

    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#lanes rect.run.expired[data-outcome="expired"]'), message="expired run")
    assert driver.find_elements(By.CSS_SELECTOR, "#lanes line.expiry")
    assert driver.find_elements(By.CSS_SELECTOR, "#lanes rect.bgtask")
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == DARK_BACKGROUND, background
    # Zoom onto the expiration (keyboard: the lanes are focusable), then open it.
    driver.find_element(By.ID, "lanes").click()
    # Found and clicked in one script: the lanes are redrawn as events and app lists arrive.
    driver.execute_script("document.querySelector('#lanes line.expiry')"
                          ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Event "), message="expiry detail")
    screenshot(driver, "09-dark-expirations")


def test_a_live_burst_of_ten_thousand_events(service, driver):
    device, base = busy_device(service, "Burst", "com.example.burst")
    sign_in(driver, service)
    wait_live(driver)
    started = time.time()
    service.api("POST", f"{base}/clock/advance", {"seconds": 125_000})
    expected = device_event_ids(service, device["id"])
    assert len(expected) >= 10_000
    wait(driver, lambda d: d.execute_script("return window.__bgemu.lastId()") == expected[-1], 60, "burst received")
    print(f"{len(expected)} live events shown in {time.time() - started:.1f} s")
    assert feed_ids(driver) == expected
    assert len(driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row")) < 120
    # The page still answers at once.
    t0 = time.time()
    driver.execute_script("return document.querySelectorAll('#lanes rect').length")
    assert time.time() - t0 < 1


# ---------------------------------------------------------------- the polish of issue 10: data as a person has it

SIGNAL = "org.whispersystems.signal.notificationserviceextension"


def push(service, base, topic, expiration=None, collapse=None):
    """A background push to `topic`; answers its outcome (`delivered`, `deferred`, `dropped`)."""
    headers = {"apns-topic": topic, "apns-push-type": "background", "apns-priority": "5"}
    if expiration is not None:
        headers["apns-expiration"] = str(expiration)
    if collapse:
        headers["apns-collapse-id"] = collapse
    return service.api("POST", f"{base}/push", {"aps": {"content-available": 1}}, headers=headers)


def device_with_pushes(service, name="My iPhone"):
    """A device with an app of a long bundle id that gets background pushes while suspended: some delivered, some
    throttled (deferred, then coalesced or delivered later), some dropped (force quit, expired); with a refused task
    request and a termination on the way. Answers the device, its path and the outcomes the service answered."""
    device = create_device(service, name)
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {
        "bundleId": SIGNAL, "displayName": "Signal",
        "infoPlist": {"UIBackgroundModes": ["remote-notification", "fetch"],
                      "BGTaskSchedulerPermittedIdentifiers": [f"{SIGNAL}.refresh"]},
        "behavior": {"remoteNotification": {"completeAfter": 3, "result": "newData"}}})
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    service.api("POST", f"{base}/apps/{SIGNAL}/launch")
    service.api("POST", f"{base}/apps/{SIGNAL}/task-requests", {"kind": "appRefresh", "identifier": f"{SIGNAL}.refresh"})
    # A second request of the kind with another identifier is refused (taskRequest.rejected).
    service.request("POST", f"{base}/apps/{SIGNAL}/task-requests", {"kind": "appRefresh", "identifier": "not.permitted"})
    service.api("POST", f"{base}/apps/{SIGNAL}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 600})
    outcomes = []
    for _ in range(5):  # past the profile's pushes per hour: the rest are deferred, a newer one replacing the older
        outcomes.append(push(service, base, SIGNAL)["outcome"])
        service.api("POST", f"{base}/clock/advance", {"seconds": 120})
    service.api("POST", f"{base}/clock/advance", {"seconds": 3 * 3600})   # the deferred one is delivered later
    now = service.api("GET", base)["clock"]["now"]
    expires = int(time.mktime(time.strptime(now[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone) + 600
    for _ in range(4):
        push(service, base, SIGNAL)
    outcomes.append(push(service, base, SIGNAL, expiration=expires)["outcome"])   # waits, then expires
    service.api("POST", f"{base}/clock/advance", {"seconds": 1200})
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    service.api("POST", f"{base}/apps/{SIGNAL}/force-quit")
    outcomes.append(push(service, base, SIGNAL)["outcome"])   # dropped: force quit
    service.api("POST", f"{base}/clock/advance", {"seconds": 600})
    return device, base, outcomes


def run_scenario(service, file_name):
    """Runs an example scenario on the service (a new device of the tenant, named after the scenario)."""
    scenario = json.loads((ROOT / "Examples/scenarios" / file_name).read_text())
    return service.api("POST", "/v1/scenarios/run", scenario)


def open_device(driver, device_id):
    driver.execute_script("location.hash = arguments[0]", f"device={device_id}")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#device-list a[data-device-id="{device_id}"]')
         .get_attribute("aria-current") == "page", message="device opened")
    wait_live(driver)


def svg_boxes(driver, selector):
    """The bounding boxes (x, y, width, height in CSS pixels) of the SVG elements `selector` finds."""
    return driver.execute_script("""return [...document.querySelectorAll(arguments[0])].map((e) => {
        const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; });""", selector)


def test_pushes_and_runs_are_marks_to_see_and_click(service, driver):
    """Every push is a mark on its app's lane, shaped by what became of it; runs are bars wide enough to click."""
    device, base, outcomes = device_with_pushes(service)
    assert {"delivered", "deferred", "dropped"} <= set(outcomes), outcomes
    set_viewport(driver, 1400, 900)
    sign_in(driver, service)
    wait_live(driver)
    lane = f'#lanes g.lane[data-app="{SIGNAL}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"{lane} .push"), message="push marks")
    api_pushes = {e["data"]["apnsId"] for e in service.api("GET", f"{base}/events?limit=500")["items"]
                  if e["type"] == "push.received"}
    marks = driver.find_elements(By.CSS_SELECTOR, f"{lane} .push")
    shown = {m.get_attribute("data-ref") for m in marks}
    assert shown <= api_pushes and len(shown) >= 6, (shown, api_pushes)
    seen = {m.get_attribute("data-outcome") for m in marks}
    assert {"delivered", "coalesced", "dropped"} <= seen, seen
    # A push deferred first, delivered at a later opportunity: a line from its arrival to its delivery.
    assert driver.find_elements(By.CSS_SELECTOR, f'{lane} .push[data-deferred="true"][data-outcome="delivered"] .push-wait')
    # Marks a person can see: at least 9 px across; runs at least 8 px wide although they last 3 s of 4 h.
    for box in svg_boxes(driver, f"{lane} .push .pm"):
        assert box[2] >= 8 and box[3] >= 8, box
    runs = svg_boxes(driver, f"{lane} rect.run")
    assert runs and all(w >= 8 and h >= 10 for _, _, w, h in runs), runs
    screenshot(driver, "12-push-marks")

    # A dropped push opens its story; a run opens its detail.
    click_fresh(driver, f'{lane} .push[data-outcome="dropped"] .pm')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Push "), message="push detail")
    types = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#detail-body .push-events tbody tr td:nth-child(2)")]
    assert types[0] == "push.received" and types[-1] == "push.dropped", types
    reasons = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#detail-body .push-events tbody tr td:nth-child(3)")]
    assert reasons[-1] in ("expired", "forceQuit"), reasons
    # The long bundle id and the table fit the panel: nothing to scroll sideways.
    assert driver.execute_script("const d = document.getElementById('detail'); return d.scrollWidth <= d.clientWidth")
    screenshot(driver, "12-push-detail")
    click_fresh(driver, f'{lane} rect.run[data-outcome="newData"]')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Run run_"), message="run detail")


def test_every_event_type_has_a_human_summary(service, driver):
    """Each type openapi.yaml documents has its own sentence in the feed; none shows raw JSON."""
    documented = openapi_event_types()
    device, base, _ = device_with_pushes(service)
    for name in sorted(p.name for p in (ROOT / "Examples/scenarios").glob("*.json")):
        run_scenario(service, name)
    sign_in(driver, service)
    open_device(driver, device["id"])
    assert set(documented) <= set(driver.execute_script("return window.__bgemu.summaryTypes()"))
    # The live stream listens for every documented type (EventSource hands named events only to their listeners).
    assert set(documented) <= set(driver.execute_script("return window.__bgemu.eventTypes()"))

    # Every event the service recorded on every device, summarized by the page's own code.
    events = []
    for d in service.api("GET", "/v1/devices?limit=500")["items"]:
        events += device_event_list(service, d["id"])
    summaries = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import("/js/summaries.js").then((m) => done(arguments[0].map((e) => [e.type, m.summarize(e)])));""", events)
    seen = {t for t, _ in summaries}
    assert len(seen) >= 25 and {"taskRequest.submitted", "taskRequest.rejected", "app.terminated", "push.deferred"} <= seen, sorted(seen)
    for event_type, text in summaries:
        assert text and "{" not in text and '":' not in text, (event_type, text)
    # A documented type with no data at all still reads as words, not as an error.
    empty = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import("/js/summaries.js").then((m) => done(arguments[0].map((t) => m.summarize({type: t, data: {}}))));""", documented)
    assert all(isinstance(t, str) and "{" not in t for t in empty), empty

    # The three the issue names, as the feed shows them.
    driver.find_element(By.ID, "follow").click()
    # app.terminated says why, and what the app was before when the event tells (under either field name).
    said = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import("/js/summaries.js").then((m) => done([{previousState: "suspended"}, {wasRunning: true}, {}].map((d) =>
          m.summarize({type: "app.terminated", data: {reason: "memoryPressure", ...d}}))));""")
    assert said == ["terminated: memoryPressure · was suspended", "terminated: memoryPressure · was running",
                    "terminated: memoryPressure"], said
    for event_type, words in (("app.terminated", ["terminated: watchdog"]),
                              ("taskRequest.rejected", ["appRefresh not.permitted refused: notPermitted"]),
                              ("taskRequest.submitted", ["appRefresh", "submitted"])):
        text = driver.execute_script("""const feed = document.getElementById('feed');
            const event = arguments[0];
            const index = window.__bgemu.feedTypes().indexOf(event);
            feed.scrollTop = Math.max(0, index * 24 - 48);
            return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => {
              const row = document.querySelector(`#feed .feed-row[data-type="${event}"] .summary`);
              r(row ? row.textContent : null); })));""", event_type)
        assert text and all(w in text for w in words), (event_type, text)
    screenshot(driver, "13-event-summaries")


def device_event_list(service, device_id):
    items, cursor = [], None
    while True:
        page = service.api("GET", f"/v1/devices/{device_id}/events?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        items += page["items"]
        cursor = page["nextCursor"]
        if not cursor:
            return items


def test_long_bundle_ids_are_shortened_in_the_middle(service, driver):
    device, base, _ = device_with_pushes(service)
    set_viewport(driver, 1400, 900)
    sign_in(driver, service)
    wait_live(driver)
    lane = f'#lanes g.lane[data-app="{SIGNAL}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, lane), message="lane")
    label = driver.find_element(By.CSS_SELECTOR, f"{lane} .lane-label")
    text = driver.execute_script("return arguments[0].firstChild.textContent", label)
    head, _, tail = text.partition("…")
    assert tail and SIGNAL.startswith(head) and SIGNAL.endswith(tail) and len(text) <= 24, text
    assert head.startswith("org.whisper"), text
    assert driver.execute_script("return arguments[0].querySelector('title').textContent", label).startswith(SIGNAL)
    # The label stays left of the plot.
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", label)
    plot = driver.execute_script("return document.querySelector('#lanes svg').getBoundingClientRect().left + 170")
    assert box[1] <= plot, (box, plot)
    # The feed's app column and the app menu: short, with the whole id on hover.
    cells = driver.find_elements(By.CSS_SELECTOR, "#feed .feed-row .app")
    long_cells = [c for c in cells if c.get_attribute("title") == SIGNAL]
    assert long_cells and all("…" in c.text and c.text != SIGNAL for c in long_cells)
    assert all(c.get_property("scrollWidth") <= c.get_property("clientWidth") + 1 for c in long_cells)
    option = driver.find_element(By.CSS_SELECTOR, f'#app-select option[value="{SIGNAL}"]')
    assert "…" in option.text and option.get_attribute("title") == SIGNAL
    screenshot(driver, "14-long-bundle-id")
    # With the detail panel open the feed is narrower; the short ids still fit their column.
    click_fresh(driver, f'{lane} .push[data-outcome="delivered"] .pm')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Push "), message="push detail")
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    fits = driver.execute_script("""return [...document.querySelectorAll('#feed .feed-row .app')]
        .map((c) => [c.textContent, c.scrollWidth <= c.clientWidth + 1]);""")
    assert fits and all(ok for _, ok in fits), fits


def test_device_list_search_groups_and_delete(service, driver):
    """Scenario runs fold into a group per scenario, after the user's devices; a search finds a device; delete asks first."""
    mine = create_device(service, "My iPhone")
    other = create_device(service, "iPad on the desk")
    menu = [run_scenario(service, "silent-push-menu.json")["deviceId"] for _ in range(3)]
    audio = run_scenario(service, "background-audio.json")["deviceId"]
    assert service.api("GET", f"/v1/devices/{audio}")["scenario"] == "Background audio keeps playing"
    assert service.api("GET", f"/v1/devices/{mine['id']}")["scenario"] is None
    set_viewport(driver, 1400, 900)
    sign_in(driver, service)
    wait_live(driver)

    def listed():
        return [a.get_attribute("data-device-id") for a in driver.find_elements(By.CSS_SELECTOR, "#device-list a")
                if a.is_displayed()]

    # The user's devices first; each scenario's runs in one closed group with its count (one run is a group too).
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-list a")) == 6, message="six devices")
    group = driver.find_element(By.CSS_SELECTOR, '#device-list .scenario-group[data-name="Silent push updates the menu"]')
    assert group.find_element(By.CSS_SELECTOR, ".count").text == "3"
    assert not driver.execute_script("return arguments[0].querySelector('details').open", group)
    audio_group = driver.find_element(By.CSS_SELECTOR, '#device-list .scenario-group[data-name="Background audio keeps playing"]')
    assert audio_group.find_element(By.CSS_SELECTOR, ".count").text == "1"
    assert listed()[:2] == [mine["id"], other["id"]] and not set(menu) & set(listed())
    assert driver.find_element(By.ID, "device-count").text == "6"

    # The search: by scenario name (a group opens to show its matches), by id.
    search = driver.find_element(By.ID, "device-search")
    search.send_keys("menu")
    wait(driver, lambda d: set(listed()) == set(menu), message="the three menu runs")
    screenshot(driver, "15-device-search")
    search.clear()
    search.send_keys(audio[-8:])
    wait(driver, lambda d: listed() == [audio], message="found by id")
    search.send_keys("nothing")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#device-list .no-match"), message="no match said")
    driver.execute_script("const s = document.getElementById('device-search'); s.value = ''; s.dispatchEvent(new Event('input'));")
    wait(driver, lambda d: listed()[:2] == [mine["id"], other["id"]] and not set(menu) & set(listed()), message="all again")
    scenario_devices = menu + [audio]
    audio = other["id"]  # the device deleted below: one of the user's own

    # Delete asks first; Cancel keeps the device.
    click_fresh(driver, f'#device-list li[data-device-id="{audio}"] .delete-device')
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#device-list li[data-device-id="{audio}"] .confirm-delete'))
    screenshot(driver, "15-device-delete-confirm")
    click_fresh(driver, "#device-list .confirm-no")
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".confirm-delete"), message="confirmation gone")
    assert service.request("GET", f"/v1/devices/{audio}")[0] == 200
    # Delete for real: gone from the service and from the list.
    click_fresh(driver, f'#device-list li[data-device-id="{audio}"] .delete-device')
    click_fresh(driver, "#device-list .confirm-yes")
    wait(driver, lambda d: "Deleted" in d.find_element(By.ID, "device-list-status").text, message="deleted")
    assert service.request("GET", f"/v1/devices/{audio}")[0] == 404
    wait(driver, lambda d: audio not in [a.get_attribute("data-device-id") for a in d.find_elements(By.CSS_SELECTOR, "#device-list a")])
    # Deleting the device shown shows another one.
    click_fresh(driver, f'#device-list li[data-device-id="{mine["id"]}"] .delete-device')
    click_fresh(driver, "#device-list .confirm-yes")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#device-list a[aria-current="page"]')
         and d.find_element(By.CSS_SELECTOR, '#device-list a[aria-current="page"]').get_attribute("data-device-id")
         in scenario_devices,
         message="another device shown")
    assert service.request("GET", f"/v1/devices/{mine['id']}")[0] == 404
    wait_live(driver)
    screenshot(driver, "15-device-list-after-delete")


def feed_in_view(driver):
    """Where the feed sits in the window: its box, the window's height, and whether the page scrolls."""
    return driver.execute_script("""const f = document.getElementById('feed').getBoundingClientRect();
        const v = document.getElementById('device-view');
        return {top: f.top, bottom: f.bottom, height: f.height, window: innerHeight,
                scrolls: v.scrollHeight > v.clientHeight + 1 || document.documentElement.scrollHeight > innerHeight + 1};""")


def test_feed_visible_without_scrolling_at_1400_by_900(service, driver):
    """In a 1400×900 window (its page area 1400×820 under the browser's bars), light and dark, with the detail open:
    the whole event feed is on screen, at least eight rows tall, without scrolling."""
    device, base, _ = device_with_pushes(service)
    for dark in (False, True):
        set_viewport(driver, 1400, 820, dark)
        if dark:
            driver.refresh()
        else:
            sign_in(driver, service)
        wait_live(driver)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lanes .push"), message="lanes drawn")
        where = feed_in_view(driver)
        assert not where["scrolls"] and where["bottom"] <= where["window"] and where["height"] >= 8 * 24, where
        screenshot(driver, f"16-1400x900-{'dark' if dark else 'light'}")
        click_fresh(driver, f'#lanes .push[data-outcome="delivered"] .pm')
        wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Push "), message="push detail")
        where = feed_in_view(driver)
        assert not where["scrolls"] and where["bottom"] <= where["window"] and where["height"] >= 8 * 24, where
        screenshot(driver, f"16-1400x900-detail-{'dark' if dark else 'light'}")


def test_timeline_shows_a_device_where_no_time_has_passed(service, driver):
    """Every event at one instant: each app's state is still drawn (on to the right edge), and the page says why."""
    device = create_device(service, "Just made")
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    service.api("POST", f"{base}/apps", {"bundleId": SIGNAL, "infoPlist": {"UIBackgroundModes": ["remote-notification"]}})
    service.api("POST", f"{base}/apps/{SIGNAL}/launch")
    push(service, base, SAMPLE)   # dropped at once: the app lacks the mode
    assert len({e["at"] for e in service.api("GET", f"{base}/events")["items"]}) == 1
    set_viewport(driver, 1400, 900)
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: d.find_element(By.ID, "lanes").get_attribute("data-instant") == "true", message="one instant")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lanes g.lane")) == 2, message="two lanes")
    for app, state in ((SIGNAL, "active"), (SAMPLE, "notRunning")):
        boxes = svg_boxes(driver, f'#lanes g.lane[data-app="{app}"] rect.seg[data-state="{state}"]')
        assert boxes and max(w for _, _, w, _ in boxes) > 400, (app, boxes)
    assert driver.find_elements(By.CSS_SELECTOR, f'#lanes g.lane[data-app="{SAMPLE}"] .push[data-outcome="dropped"]')
    note = driver.find_element(By.ID, "lanes-note")
    assert note.is_displayed() and "Advance the clock" in note.text
    screenshot(driver, "17-single-instant")
    # Once time passes, the states are drawn as they lasted, and the note goes.
    driver.find_element(By.CSS_SELECTOR, '[data-advance="60"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "lanes").get_attribute("data-instant") == "false", message="time passed")
    wait(driver, lambda d: not d.find_element(By.ID, "lanes-note").is_displayed())


def test_favicon_is_served(service, driver):
    """The browser's request for /favicon.ico is answered with an icon (no 404), and the page links an SVG one."""
    with urllib.request.urlopen(service.base + "/favicon.ico") as r:
        assert r.status == 200 and r.headers["Content-Type"] == "image/vnd.microsoft.icon"
        assert r.read(4) == b"\0\0\1\0"
    with urllib.request.urlopen(service.base + "/favicon.svg") as r:
        assert r.status == 200 and r.headers["Content-Type"].startswith("image/svg+xml")
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main")
    assert driver.execute_script("return fetch('/favicon.ico').then((r) => r.status)") == 200
    time.sleep(0.5)
    errors = [e["message"] for e in driver.get_log("browser") if "404" in e["message"] or "favicon" in e["message"]]
    assert not errors, errors


def prune_while_stopped(service, device_id, more_ids=0):
    """Stops the service and prunes the device's events as the retention does (issue 12 §2): every event of the
    device is deleted and its watermark raised to the newest id, `more_ids` events later (written and pruned while
    the page was away). Then starts the service again: a resume from the page's last id is a 410."""
    import sqlite3
    service.stop()
    db = sqlite3.connect(service.database)
    with db:
        newest = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()[0] + more_ids
        db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", (newest,))
        db.execute("DELETE FROM events WHERE device_id = ?", (device_id,))
        tenant_id = db.execute("SELECT tenant_id FROM devices WHERE id = ?", (device_id,)).fetchone()[0]
        # The count exists only while a per-device limit is counting; the watermarks as the pruner raises them.
        db.execute("UPDATE event_counts SET held = 0 WHERE tenant_id = ? AND device_id = ?", (tenant_id, device_id))
        db.execute("INSERT INTO event_watermarks (tenant_id, device_id, pruned_through) VALUES (?, ?, ?) "
                   "ON CONFLICT (tenant_id, device_id) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)",
                   (tenant_id, device_id, newest))
        db.execute("INSERT INTO tenant_event_watermarks (tenant_id, pruned_through) VALUES (?, ?) "
                   "ON CONFLICT (tenant_id) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)",
                   (tenant_id, newest))
    db.close()
    service.start()
    status, problem = service.request("GET", f"/v1/devices/{device_id}/events?after=0")
    assert status == 410 and problem["code"] == "eventsPruned" and problem["lastPrunedEventId"] == newest
    return newest


def test_a_device_whose_events_were_all_pruned_goes_live(service, driver):
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    pruned_through = prune_while_stopped(service, device["id"])
    sign_in(driver, service)
    # The history is empty; the stream resumes after the last pruned id instead of asking for id 0 (a 410).
    wait_live(driver)
    assert feed_ids(driver) == []
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 55})
    expected = device_event_ids(service, device["id"])
    assert expected and expected[0] > pruned_through
    wait(driver, lambda d: feed_ids(d) == expected, 30, "the new event in the feed")


def test_feed_reloads_when_the_events_after_it_were_pruned_while_away(service, driver):
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 80})
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: feed_ids(d) == device_event_ids(service, device["id"]), message="live before pruning")
    pruned_through = prune_while_stopped(service, device["id"], more_ids=5)
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 70})
    # The browser's resume after its last id is a 410: the page loads the held events again and goes live.
    wait(driver, lambda d: feed_ids(d) == device_event_ids(service, device["id"]), 30, "feed reloaded")
    wait(driver, lambda d: d.execute_script("return window.__bgemu.streamState()") == 1, 30, "stream open again")
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 60})
    expected = device_event_ids(service, device["id"])
    assert len(expected) == 2 and expected[0] > pruned_through
    wait(driver, lambda d: feed_ids(d) == expected, 30, "live after the reload")


# ---------------------------------------------------------------- each concern of the page's script (issue 13 §2)

def current_device(driver):
    links = driver.find_elements(By.CSS_SELECTOR, '#device-list a[aria-current="page"]')
    return links[0].get_attribute("data-device-id") if links else None


def test_create_a_device_with_the_form(service, driver):
    """The empty tenant's button makes a device from the form and shows it; the form makes the device as filled in."""
    from selenium.webdriver.support.select import Select
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main")
    wait(driver, lambda d: d.find_element(By.ID, "create-first").is_displayed(), message="the empty tenant's button")
    driver.find_element(By.ID, "create-first").click()
    wait(driver, lambda d: status_text(d).startswith("Created "), message="created")
    [first] = service.api("GET", "/v1/devices")["items"]
    assert (first["name"], first["osVersion"]) == ("iPhone", "17.0")
    assert status_text(driver) == f"Created iPhone ({first['id']})."
    wait(driver, lambda d: current_device(d) == first["id"], message="the new device shown")
    wait_live(driver)
    assert driver.find_element(By.ID, "device-title").text == "iPhone · iOS 17.0"
    assert not driver.find_element(By.ID, "create-first").is_displayed()
    assert not driver.find_element(By.ID, "empty-tenant").is_displayed()

    name = driver.find_element(By.ID, "dev-name")
    name.clear()
    name.send_keys("Lab phone")
    Select(driver.find_element(By.ID, "dev-os")).select_by_visible_text("15.0")
    driver.find_element(By.CSS_SELECTOR, "#create-device button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.ID, "device-title").text == "Lab phone · iOS 15.0", message="second device shown")
    lab = next(d for d in service.api("GET", "/v1/devices")["items"] if d["name"] == "Lab phone")
    assert lab["osVersion"] == "15.0"
    wait(driver, lambda d: current_device(d) == lab["id"], message="the second device marked in the list")
    assert driver.find_element(By.ID, "device-count").text == "2"
    assert driver.execute_script("return location.hash") == f"#device={lab['id']}"
    wait_live(driver)


def test_the_device_view_shows_its_conditions_and_follows_them(service, driver):
    """The controls show the device's conditions and clock as the service has them, and follow a change made elsewhere."""
    device = create_device(service, "Conditions")
    base = f"/v1/devices/{device['id']}"
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 35, "charging": True, "lowPowerMode": True,
                                                "network": "cellular", "backgroundAppRefresh": False})
    service.api("POST", f"{base}/clock/advance", {"seconds": 3600})
    sign_in(driver, service)
    wait_live(driver)

    def controls(d):
        value = lambda i: d.find_element(By.ID, i).get_property("value")
        checked = lambda i: d.find_element(By.ID, i).get_property("checked")
        return {"battery": value("c-battery"), "shown": d.find_element(By.ID, "c-battery-out").text,
                "charging": checked("c-charging"), "lpm": checked("c-lpm"), "network": value("c-network"),
                "bar": checked("c-bar")}

    wait(driver, lambda d: controls(d)["battery"] == "35", message="conditions shown")
    assert controls(driver) == {"battery": "35", "shown": "35", "charging": True, "lpm": True, "network": "cellular",
                                "bar": False}, controls(driver)
    assert "2026-01-01 01:00:00" in driver.find_element(By.ID, "device-clock").text
    # Changed by another client: the event arrives, the device is read again, the controls follow.
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 80, "charging": False, "network": "wifi"})
    wait(driver, lambda d: controls(d)["battery"] == "80", message="conditions followed")
    assert controls(driver) == {"battery": "80", "shown": "80", "charging": False, "lpm": True, "network": "wifi",
                                "bar": False}, controls(driver)


def test_lane_states_and_background_tasks_open_their_detail(service, driver):
    """A state of a lane and a background task open their detail; closing the detail leaves the device's address."""
    device = create_device(service)
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]},
                                        "behavior": {"onEnterBackground": {"name": "save", "endAfter": 3}}})
    service.api("POST", f"{base}/apps/{SAMPLE}/launch")
    service.api("POST", f"{base}/apps/{SAMPLE}/background")
    service.api("POST", f"{base}/clock/advance", {"seconds": 60})
    sign_in(driver, service)
    wait_live(driver)
    lane = f'#lanes g.lane[data-app="{SAMPLE}"]'
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'{lane} rect.seg[data-state="background"]')
         and d.find_elements(By.CSS_SELECTOR, f"{lane} rect.bgtask"), message="states and task drawn")

    def open_detail(selector):
        # Found and clicked in one script: the lanes are redrawn as events and app lists arrive.
        driver.execute_script("document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                              selector)

    def fields(d):
        return {r.find_elements(By.TAG_NAME, "td")[0].text: r.find_elements(By.TAG_NAME, "td")[1].text
                for r in d.find_elements(By.CSS_SELECTOR, "#detail-body tbody tr")}

    open_detail(f'{lane} rect.seg[data-state="suspended"]')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text == f"{SAMPLE}: suspended", message="state detail")
    assert fields(driver) == {"state": "suspended", "from": "2026-01-01 00:00:05.000", "until": "now", "cause": "idle"}
    # The launch and the return to Home took no virtual time: four states begin at the same instant, and the one
    # clicked is the one shown.
    open_detail(f'{lane} rect.seg[data-state="background"]')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text == f"{SAMPLE}: background", message="state detail")
    assert fields(driver) == {"state": "background", "from": "2026-01-01 00:00:00.000", "until": "2026-01-01 00:00:05.000",
                              "cause": "userLeft"}, fields(driver)

    open_detail(f"{lane} rect.bgtask")
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Background task bgt_"), message="task detail")
    task = fields(driver)
    assert task["app"] == SAMPLE and task["name"] == "save" and task["outcome"] == "ended", task
    assert (task["began"], task["ended"]) == ("2026-01-01 00:00:00.000", "2026-01-01 00:00:03.000"), task

    driver.find_element(By.ID, "detail-close").click()
    assert not driver.find_element(By.ID, "detail").is_displayed()
    assert driver.execute_script("return document.body.dataset.detail") == "closed"
    assert driver.execute_script("return location.hash") == f"#device={device['id']}"


def test_a_device_that_cannot_be_read_is_retried_and_another_one_shown(service, driver):
    """A link to a device the service does not have says why it shows nothing and retries; following a link to a
    device it has shows that one, live."""
    device = create_device(service)
    sign_in(driver, service)
    wait_live(driver)
    driver.execute_script("location.hash = 'device=dev_missing'")
    wait(driver, lambda d: "history failed: 404" in d.find_element(By.ID, "stream-state").text
         and "retrying" in d.find_element(By.ID, "stream-state").text, message="the failure said")
    assert driver.execute_script("return window.__bgemu.streamState()") == -1
    reads = "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/v1/devices/dev_missing')).length"
    wait(driver, lambda d: d.execute_script(reads) >= 2, 10, "read again after 3 s")
    assert "history failed: 404" in driver.find_element(By.ID, "stream-state").text
    assert feed_ids(driver) == []
    driver.execute_script("location.hash = arguments[0]", f"device={device['id']}")
    wait(driver, lambda d: current_device(d) == device["id"], message="the device shown")
    wait_live(driver)
    assert driver.find_element(By.ID, "stream-state").text == "live"
    assert feed_ids(driver) == device_event_ids(service, device["id"])


def test_a_key_revoked_while_signed_in_signs_the_page_out(service, driver):
    """The periodic device refresh meets a 401 once the tenant's key is revoked: the page forgets the key and asks for one."""
    from conftest import ADMIN_TOKEN
    tenant = service.api("POST", "/v1/admin/tenants", {"name": "revoked-while-signed-in"}, key=ADMIN_TOKEN)
    created = service.api("POST", "/v1/devices", {"name": "Theirs", "osVersion": "17.0"}, key=tenant["apiKey"])
    sign_in(driver, service, key=tenant["apiKey"])
    wait_live(driver)
    assert current_device(driver) == created["id"]
    assert driver.execute_script("return localStorage.getItem('bgemu.apiKey')") == tenant["apiKey"]
    status, _ = service.request("DELETE", f"/v1/admin/tenants/{tenant['id']}/keys/{tenant['keyId']}", key=ADMIN_TOKEN)
    assert status == 204
    wait(driver, lambda d: view(d) == "signin", 10, "signed out by the refresh")
    assert driver.execute_script("return document.body.dataset.signin") == "wrong-key"
    assert driver.find_element(By.ID, "signin-error").text == "The API key is no longer accepted (401)."
    assert driver.execute_script("return localStorage.getItem('bgemu.apiKey')") is None
    assert driver.execute_script("return window.__bgemu.streamState()") == -1


def test_the_feed_stops_following_when_the_reader_goes_up(service, driver):
    """Scrolling the feed away from its live end (the wheel, the keys, the scrollbar, a row scrolled in to be clicked)
    stops following it; the checkbox, or scrolling back to the end, follows it again."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    device, base = busy_device(service, "Scrolling", "com.example.busy")
    service.api("POST", f"{base}/clock/advance", {"seconds": 3600})
    sign_in(driver, service)
    wait_live(driver)
    follow = driver.find_element(By.ID, "follow")
    feed = driver.find_element(By.ID, "feed")
    at_end = "const f = document.getElementById('feed'); return f.scrollTop + f.clientHeight >= f.scrollHeight - 1"
    wait(driver, lambda d: d.execute_script(at_end), message="following the live end")
    assert follow.is_selected()

    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(feed), 0, -300).perform()
    wait(driver, lambda d: not follow.is_selected(), message="the wheel stops following")
    follow.click()
    wait(driver, lambda d: follow.is_selected() and d.execute_script(at_end), message="following again")
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 42})
    newest = device_event_ids(service, device["id"])[-1]
    wait(driver, lambda d: feed_ids(d)[-1] == newest and d.execute_script(at_end), message="the new event in view")

    driver.execute_script("document.getElementById('feed').focus()")
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    wait(driver, lambda d: not follow.is_selected(), message="the arrow key stops following")
    service.api("PATCH", f"{base}/conditions", {"batteryLevel": 43})
    newest = device_event_ids(service, device["id"])[-1]
    wait(driver, lambda d: feed_ids(d)[-1] == newest, message="the new event held")
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    assert not driver.execute_script(at_end), "the reader stays where they went"

    # The scrollbar (dragging it sets scrollTop, as this does) stops following too; back at the live end it follows.
    follow.click()
    wait(driver, lambda d: follow.is_selected() and d.execute_script(at_end), message="following again")
    driver.execute_script("document.getElementById('feed').scrollTop = 0")
    wait(driver, lambda d: not follow.is_selected(), message="the scrollbar stops following")
    driver.execute_script("const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight")
    wait(driver, lambda d: follow.is_selected(), message="back at the live end, following again")
    wait(driver, lambda d: d.execute_script(at_end), message="at the live end")

    # A row out of view, clicked: the browser scrolls it in and it stays there to take the click. (Following used to
    # snap the feed back to the live end, and the click landed on whichever row was there then.)
    hidden = driver.execute_script("""const f = document.getElementById('feed'), box = f.getBoundingClientRect();
        const rows = [...f.querySelectorAll('.feed-row')].filter((r) => r.getBoundingClientRect().bottom <= box.top);
        return rows.length ? rows[rows.length - 1].dataset.id : null;""")
    assert hidden, "a rendered row above the viewport"
    driver.find_element(By.ID, f"evt-{hidden}").click()
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text == f"Event {hidden}", message="that row's detail")
    assert driver.find_element(By.ID, f"evt-{hidden}").get_attribute("aria-selected") == "true"
    assert not follow.is_selected()


def test_the_lane_buttons_zoom_and_pan(service, driver):
    """The buttons over the lanes zoom in and out and pan: an hour of one-minute runs shows fewer of them zoomed in."""
    device, base = busy_device(service, "Zooming", "com.example.busy")
    service.api("POST", f"{base}/clock/advance", {"seconds": 3600})
    set_viewport(driver, 1400, 900)
    sign_in(driver, service)
    wait_live(driver)
    runs = '#lanes g.lane[data-app="com.example.busy"] rect.run'
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, runs)) >= 40, message="an hour of runs drawn")

    def after(button):
        driver.find_element(By.ID, button).click()
        driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
        return len(driver.find_elements(By.CSS_SELECTOR, runs))

    fitted = len(driver.find_elements(By.CSS_SELECTOR, runs))
    zoomed = after("zoom-in")
    assert 0 < zoomed < fitted * 0.7, (fitted, zoomed)
    assert abs(after("zoom-out") - fitted) <= 2
    panned = after("pan-right")   # a quarter of the view later: past the clock's now, fewer runs
    assert zoomed < panned < fitted, (fitted, zoomed, panned)
    assert abs(after("pan-left") - fitted) <= 2
    after("zoom-in")
    assert after("zoom-fit") == fitted


# ---------------------------------------------------------------- the forecast page (issue 14)

def forecast_probe(driver):
    return driver.execute_script("return window.__bgemu.forecast()")


def open_forecast_page(driver, service):
    """Signs in, opens the forecast page by its link in the top bar and waits for its stream."""
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main", message="main view")
    driver.find_element(By.ID, "nav-forecast").click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.page") == "forecast" and view(d) == "main",
         message="forecast page")
    assert driver.find_element(By.ID, "view-forecast").is_displayed()
    assert not driver.find_element(By.ID, "view-main").is_displayed()
    assert driver.find_element(By.ID, "nav-forecast").get_attribute("aria-current") == "page"
    wait(driver, lambda d: forecast_probe(d)["streamLive"], message="the tenant's event stream open")


def form_input(driver, path):
    return driver.find_element(By.CSS_SELECTOR, f'#forecast-form [data-path="{path}"]')


def set_form_value(driver, path, value):
    field = form_input(driver, path)
    field.clear()
    field.send_keys(str(value))


def form_request(driver):
    return driver.execute_script("return import('/js/forecast-form.js').then((m) => m.readRequest())")


def wait_forecast_done(driver, timeout=120):
    wait(driver, lambda d: forecast_probe(d)["state"] in ("done", "failed"), timeout, "the forecast finished")
    probe = forecast_probe(driver)
    assert probe["state"] == "done", probe
    return probe


def percent_text(share):
    """The page's percent format (svg-plot.js `percent`): 0.4213 → "42.1 %", 1 → "100 %"."""
    value = share * 100
    return f"{int(value)} %" if value == int(value) else f"{value:.1f} %"


def raw_get(service, path):
    request = urllib.request.Request(service.base + path, headers={"Authorization": f"Bearer {API_KEY}"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return r.status, dict(r.headers), r.read()


# What the plots drew (the line series, the histogram's bars, the why-not and push bars, the plots' names) and the
# key figures' cells, read in the page.
PLOT_FACTS_JS = """
    const q = (s) => [...document.querySelectorAll(s)];
    return {
      lines: q('#fc-plot-ran path.series').map((p) => [p.dataset.series, Number(p.dataset.points)]),
      histogram: q('#fc-plot-histogram rect.bar').map((r) => [r.dataset.series, Number(r.dataset.value)]),
      whyNot: q('#fc-plot-whynot rect.bar').map((r) => [r.dataset.series, r.dataset.category, Number(r.dataset.value)]),
      pushes: q('#fc-plot-pushes rect.bar').map((r) => [r.dataset.category, Number(r.dataset.value)]),
      names: q('#fc-plots svg').map((s) => [s.getAttribute('role'), s.querySelector('title').textContent,
        document.getElementById(s.getAttribute('aria-labelledby')).textContent,
        document.getElementById(s.getAttribute('aria-describedby')).textContent]),
      figures: q('#fc-figures tbody tr').map((tr) => [...tr.cells].map((c) => c.textContent)),
    };"""


def plot_facts(driver):
    return driver.execute_script(PLOT_FACTS_JS)


def check_plots_against(facts, result):
    """The plots and figures of the page hold what the service answered: a line per kind, a bar per histogram bin
    (of the first kind), a bar per why-not condition of each kind, a bar per push outcome, a figures row per kind.
    Returns the kinds."""
    kinds = [k for k in ("appRefresh", "processing", "fetch") if result.get(k)]
    assert kinds, result
    assert sorted(facts["lines"]) == sorted([k, len(result[k]["ranWithinHours"])] for k in kinds), facts["lines"]
    assert all(len(result[k]["ranWithinHours"]) == 24 * result["days"] + 1 for k in kinds)
    first = kinds[0]
    assert [v for _, v in facts["histogram"]] == [b["devices"] for b in result[first]["runsPerDayHistogram"]]
    assert sum(v for _, v in facts["histogram"]) == result["devices"]
    expected_why = sorted([k, c, v] for k in kinds for c, v in result[k]["whyNot"].items())
    assert sorted(facts["whyNot"]) == expected_why, facts["whyNot"]
    if result.get("pushes") and result["pushes"]["sent"] > 0:
        # One bar per exclusive outcome, its share as the result gives it; the bars add up to every push sent.
        outcomes = result["pushes"]["outcomes"]
        assert [c for c, _ in facts["pushes"]] == ["deliveredAtOnce", "deliveredLater", "coalesced", "dropped", "pending"]
        assert all(outcomes[c]["share"] == v for c, v in facts["pushes"]), facts["pushes"]
        assert round(sum(v for _, v in facts["pushes"]) * 10000) == 10000, facts["pushes"]
    else:
        assert facts["pushes"] == []
    assert len(facts["names"]) == 3 + (1 if facts["pushes"] else 0)
    for role, title, name, description in facts["names"]:
        assert role == "img" and title and name == title and description, (role, title, name, description)
    assert len(facts["figures"]) == len(kinds)
    for cells, kind in zip(facts["figures"], kinds):
        within = result[kind]["devicesWithRunWithin"]
        assert cells[1:4] == [percent_text(within["1h"]), percent_text(within["4h"]), percent_text(within["24h"])], cells
        assert float(cells[7]) == result[kind]["runsPerDevicePerDay"]["mean"], cells
    return kinds


def test_the_forecast_form_holds_the_services_defaults(service, driver):
    # A forecast given only what is required (and something to count): the service echoes its request with every
    # default filled in.
    created = service.api("POST", "/v1/forecasts", {"devices": 1, "days": 1, "app": {
        "bundleId": "com.example.min", "infoPlist": {"UIBackgroundModes": ["fetch"]}, "atLaunch": {"fetchInterval": "minimum"}}})
    open_forecast_page(driver, service)
    shown = form_request(driver)
    echoed = created["request"]
    assert shown["population"] == echoed["population"], (shown["population"], echoed["population"])
    assert shown["osVersion"] == echoed["osVersion"] and shown["seed"] == echoed["seed"]
    assert shown["pushes"] == echoed["pushes"] == []
    assert form_input(driver, "population.forceQuitShare").get_attribute("value") == str(echoed["population"]["forceQuitShare"])
    # The advanced fields wait in closed <details>.
    assert not form_input(driver, "population.lowPowerModeWhenLowShare").is_displayed()
    assert form_input(driver, "population.lowPowerModeShare").is_displayed()


def test_forecast_view_runs_a_fleet_plots_it_and_reopens_it(service, driver, tmp_path):
    open_forecast_page(driver, service)
    set_form_value(driver, "devices", 200)
    set_form_value(driver, "days", 2)
    set_form_value(driver, "seed", 7)
    driver.find_element(By.CSS_SELECTOR, '[data-rows="pushes"] .add-row').click()   # a push every hour
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: forecast_probe(d)["id"], message="forecast started")
    probe = wait_forecast_done(driver)
    forecast_id = probe["id"]
    assert driver.current_url.endswith(f"#forecast={forecast_id}")

    # The bar went to the end, from the stream (its final event at least) or from polling.
    assert driver.find_element(By.ID, "fc-progress").get_attribute("value") == "1"
    assert "100 %" in driver.find_element(By.ID, "fc-progress-text").text
    seen = probe["progressSeen"]
    assert seen[-1][2] == "done" and all(0 <= p <= 1 for _, p, _ in seen), seen
    progresses = [p for _, p, _ in seen]
    assert progresses == sorted(progresses), seen
    wait(driver, lambda d: forecast_probe(d)["streamEvents"] >= 1, 10, "a forecast.progress event on the stream")

    forecast = service.api("GET", f"/v1/forecasts/{forecast_id}")
    assert forecast["state"] == "done" and forecast["request"]["devices"] == 200 and forecast["request"]["days"] == 2
    assert forecast["request"]["pushes"] == [{"everyMinutes": 60, "priority": 5}]
    result = forecast["result"]
    kinds = check_plots_against(plot_facts(driver), result)
    assert kinds == ["appRefresh", "fetch"]   # the form's example app: a refresh request and a fetch interval
    # The histogram of the other kind, by its switch.
    driver.find_element(By.CSS_SELECTOR, '#fc-plot-histogram input[value="fetch"]').click()
    wait(driver, lambda d: plot_facts(d)["histogram"] and plot_facts(d)["histogram"][0][0] == "fetch")
    assert [v for _, v in plot_facts(driver)["histogram"]] == [b["devices"] for b in result["fetch"]["runsPerDayHistogram"]]
    screenshot(driver, "forecast-view")
    set_viewport(driver, 1400, 900, dark=True)   # the plots take the page's dark palette
    assert driver.execute_script("return getComputedStyle(document.body).backgroundColor") == DARK_BACKGROUND
    line = driver.find_element(By.CSS_SELECTOR, "#fc-plot-ran path.series")
    assert driver.execute_script("return getComputedStyle(arguments[0]).stroke", line) != "rgb(11, 92, 213)"  # light --run
    screenshot(driver, "forecast-view-dark")
    set_viewport(driver, 1600, 1000)

    # The CSV: fetched with the key, saved as a download, the service's rows byte for byte.
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.find_element(By.ID, "fc-csv").click()
    target = downloads / f"forecast-{forecast_id}.csv"
    wait(driver, lambda d: target.exists() and not list(downloads.glob("*.crdownload")), 30, "the CSV downloaded")
    status, headers, body = raw_get(service, f"/v1/forecasts/{forecast_id}/devices")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert target.read_bytes() == body
    assert len(body.decode().strip().splitlines()) == 200 + 1   # a header and a row per device
    wait(driver, lambda d: "Downloaded" in d.find_element(By.ID, "fc-status").text)

    # Reopened from the list of past forecasts after a fresh load of the page.
    driver.get(service.base + "/#forecast")   # only the address's fragment changes: no load yet
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#fc-list li[data-forecast-id="{forecast_id}"]'),
         message="listed")
    assert forecast_probe(driver)["id"] is None
    listed = service.api("GET", "/v1/forecasts")["forecasts"]
    assert [li.get_attribute("data-forecast-id") for li in driver.find_elements(By.CSS_SELECTOR, "#fc-list li")] \
        == [f["forecastId"] for f in listed]
    driver.find_element(By.CSS_SELECTOR, f'#fc-list li[data-forecast-id="{forecast_id}"] a').click()
    wait(driver, lambda d: forecast_probe(d)["id"] == forecast_id and forecast_probe(d)["state"] == "done")
    check_plots_against(plot_facts(driver), result)
    assert form_input(driver, "devices").get_attribute("value") == "200"   # its request, to change and run again
    assert form_input(driver, "seed").get_attribute("value") == "7"

    # And by its address; the Devices link goes back to the devices.
    driver.get(service.base + f"/#forecast={forecast_id}")
    wait(driver, lambda d: forecast_probe(d)["id"] == forecast_id and d.find_elements(By.CSS_SELECTOR, "#fc-plot-ran path.series"))
    driver.find_element(By.ID, "nav-devices").click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.page") == "devices")
    assert driver.find_element(By.ID, "view-main").is_displayed()
    assert not driver.find_element(By.ID, "view-forecast").is_displayed()


def test_an_invalid_forecast_value_shows_the_problem(service, driver):
    open_forecast_page(driver, service)
    set_form_value(driver, "devices", 50)
    set_form_value(driver, "days", 1)
    set_form_value(driver, "population.forceQuitShare", 1.5)
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: "bad" in d.find_element(By.ID, "fc-status").get_attribute("class"), message="problem shown")
    text = driver.find_element(By.ID, "fc-status").text
    assert "422" in text and "population.forceQuitShare" in text, text
    assert form_input(driver, "population.forceQuitShare").get_attribute("aria-invalid") == "true"
    assert service.api("GET", "/v1/forecasts")["forecasts"] == []
    screenshot(driver, "forecast-invalid")
    # A seed past what a browser's numbers hold exactly is stopped before it is sent rounded.
    set_form_value(driver, "population.forceQuitShare", 0.2)
    set_form_value(driver, "seed", 2**53 + 1)
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: "seed" in d.find_element(By.ID, "fc-status").text, message="seed refused")
    assert form_input(driver, "seed").get_attribute("aria-invalid") == "true"
    assert form_input(driver, "population.forceQuitShare").get_attribute("aria-invalid") is None
    assert service.api("GET", "/v1/forecasts")["forecasts"] == []
    # A field in a closed <details> is shown when it is the one refused.
    assert not form_input(driver, "population.lowPowerModeBatteryLevel").is_displayed()
    set_form_value(driver, "seed", 3)
    driver.execute_script("""const e = document.querySelector('#forecast-form [data-path="population.lowPowerModeBatteryLevel"]');
                             e.value = "0";""")
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: "population.lowPowerModeBatteryLevel" in d.find_element(By.ID, "fc-status").text)
    assert form_input(driver, "population.lowPowerModeBatteryLevel").is_displayed()
    assert form_input(driver, "population.lowPowerModeBatteryLevel").get_attribute("aria-invalid") == "true"
    set_form_value(driver, "population.lowPowerModeBatteryLevel", 20)
    # Mended, it runs; the mark goes.
    driver.find_element(By.ID, "fc-run").click()
    wait_forecast_done(driver)
    assert form_input(driver, "seed").get_attribute("aria-invalid") is None
    assert not driver.find_elements(By.CSS_SELECTOR, "#forecast-form [aria-invalid]")


def test_an_info_plist_fills_the_app_fields(service, driver, tmp_path):
    plist = tmp_path / "Info.plist"
    plist.write_text("""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
  <key>CFBundleIdentifier</key><string>org.example.news</string>
  <key>UIBackgroundModes</key><array><string>processing</string><string>fetch</string></array>
  <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>org.example.news.refresh</string><string>org.example.news.clean</string></array>
  <key>UIApplicationExitsOnSuspend</key><false/>
</dict></plist>""")
    open_forecast_page(driver, service)
    driver.find_element(By.ID, "fc-plist").send_keys(str(plist))
    wait(driver, lambda d: "read Info.plist" in d.find_element(By.ID, "fc-plist-status").text)
    request = form_request(driver)
    assert request["app"]["bundleId"] == "org.example.news"
    assert sorted(request["app"]["infoPlist"]["UIBackgroundModes"]) == ["fetch", "processing"]
    assert request["app"]["infoPlist"]["BGTaskSchedulerPermittedIdentifiers"] == ["org.example.news.refresh", "org.example.news.clean"]
    # A binary property list is sent as it is (Base64), for the service to read.
    binary = tmp_path / "Binary.plist"
    plistlib.dump({"CFBundleIdentifier": "org.example.bin", "UIBackgroundModes": ["fetch"]}, binary.open("wb"),
                  fmt=plistlib.FMT_BINARY)
    driver.find_element(By.ID, "fc-plist").send_keys(str(binary))
    wait(driver, lambda d: "binary property list" in d.find_element(By.ID, "fc-plist-status").text)
    sent = form_request(driver)["app"]["infoPlist"]
    assert base64.b64decode(sent) == binary.read_bytes()
    driver.find_element(By.ID, "fc-plist-detach").click()
    assert isinstance(form_request(driver)["app"]["infoPlist"], dict)


REAL_PROJECTS = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "RealProjects"


def test_a_real_info_plist_with_build_settings_is_sent_as_it_is_and_read_by_the_service(service, driver):
    """Mullvad VPN's Info.plist names its BGTask identifiers `$(APPLICATION_IDENTIFIER).…`: the page sends the file
    with the build setting typed beside it, and the forecast's request (as the service read it) has them expanded."""
    open_forecast_page(driver, service)
    # The fleet and the launch submission first (showing a request detaches any file), then the file.
    driver.execute_script("""
        return import('/js/forecast-form.js').then((m) => {
          const r = m.readRequest();
          Object.assign(r, {devices: 50, days: 1});
          r.app.bundleId = 'net.mullvad.MullvadVPN';
          r.app.atLaunch.submit = [{kind: 'appRefresh', identifier: 'net.mullvad.MullvadVPN.AppRefresh', earliestBeginSeconds: 900}];
          m.fillRequest(r);
        })""")
    driver.find_element(By.ID, "fc-plist").send_keys(str(REAL_PROJECTS / "mullvad-ios-Info.plist"))
    wait(driver, lambda d: "APPLICATION_IDENTIFIER" in d.find_element(By.ID, "fc-plist-status").text)
    assert driver.find_element(By.ID, "fc-build-settings").is_displayed()
    driver.find_element(By.ID, "fc-build-settings").send_keys("APPLICATION_IDENTIFIER=net.mullvad.MullvadVPN")
    # Its CFBundleIdentifier is $(PRODUCT_BUNDLE_IDENTIFIER): the example id was cleared, the setting shown instead.
    bundle = form_input(driver, "app.bundleId")
    assert bundle.get_attribute("value") == ""
    assert "PRODUCT_BUNDLE_IDENTIFIER" in bundle.get_attribute("placeholder")
    set_form_value(driver, "app.bundleId", "net.mullvad.MullvadVPN")
    request = form_request(driver)
    assert request["app"]["bundleId"] == "net.mullvad.MullvadVPN"
    assert request["app"]["infoPlist"] == (REAL_PROJECTS / "mullvad-ios-Info.plist").read_text()
    assert request["app"]["buildSettings"] == {"APPLICATION_IDENTIFIER": "net.mullvad.MullvadVPN"}
    driver.find_element(By.ID, "fc-run").click()
    probe = wait_forecast_done(driver)
    forecast = service.api("GET", f"/v1/forecasts/{probe['id']}")
    assert forecast["request"]["app"]["infoPlist"]["BGTaskSchedulerPermittedIdentifiers"] == [
        "net.mullvad.MullvadVPN.AppRefresh", "net.mullvad.MullvadVPN.PrivateKeyRotation",
        "net.mullvad.MullvadVPN.AddressCacheUpdate"]
    assert "appRefresh" in forecast["result"]


def test_a_running_forecast_moves_its_bar_and_cancel_deletes_it(service, driver):
    open_forecast_page(driver, service)
    # A fleet that runs for about 40 s on this machine and build (debug or release, alone or beside other work):
    # the speed of a small run of the form's request first.
    small = {**form_request(driver), "devices": 100, "days": 2}
    calibration = service.api("POST", "/v1/forecasts", small)["forecastId"]
    deadline = time.time() + 120
    while (answer := service.api("GET", f"/v1/forecasts/{calibration}"))["state"] == "running" and time.time() < deadline:
        time.sleep(0.2)
    assert answer["state"] == "done", answer
    devices = max(1000, min(100000, int(answer["devicesPerSecond"] * 40)))
    set_form_value(driver, "devices", devices)
    set_form_value(driver, "days", 2)
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: forecast_probe(d)["state"] == "running", message="running")
    forecast_id = forecast_probe(driver)["id"]
    wait(driver, lambda d: 0 < float(d.find_element(By.ID, "fc-progress").get_attribute("value")) < 1, 60, "the bar moving")
    wait(driver, lambda d: any(source == "stream" and 0 < p < 1 for source, p, _ in forecast_probe(d)["progressSeen"]),
         30, "progress from the stream")
    assert driver.find_element(By.ID, "fc-cancel").is_displayed()
    assert not driver.find_element(By.ID, "fc-csv").is_displayed()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#fc-list li[data-forecast-id="{forecast_id}"][data-state="running"]'))
    screenshot(driver, "forecast-running")

    # One forecast at a time: a second one is refused with the service's problem.
    driver.find_element(By.ID, "fc-run").click()
    wait(driver, lambda d: "409" in d.find_element(By.ID, "fc-status").text, message="409 shown")
    assert forecast_probe(driver)["id"] == forecast_id

    driver.find_element(By.ID, "fc-cancel").click()
    wait(driver, lambda d: forecast_probe(d)["id"] is None, 30, "cancelled")
    assert "Cancelled and deleted" in driver.find_element(By.ID, "fc-status").text
    assert service.request("GET", f"/v1/forecasts/{forecast_id}")[0] == 404
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#fc-list li[data-forecast-id="{forecast_id}"]'))
    assert driver.current_url.endswith("#forecast")


def test_scripted_handlers_and_a_push_schedule_reach_the_service_and_come_back(service, driver):
    open_forecast_page(driver, service)
    set_form_value(driver, "devices", 40)
    set_form_value(driver, "days", 1)
    driver.execute_script("document.querySelectorAll('#forecast-form details').forEach((d) => { d.open = true; })")
    driver.find_element(By.ID, "fc-behavior-custom").click()
    # The rows start as the service's own default behaviour; the refresh handler is made to never complete.
    rows = form_request(driver)["app"]["behavior"]
    assert rows["appRefresh"] == {"completeAfter": 5, "result": "success", "resubmit": True, "resubmitAfter": 900}
    never = driver.find_element(By.CSS_SELECTOR, '[data-rows="app.behavior"] tbody tr:first-child td:nth-child(2) input')
    never.clear()
    never.send_keys("never")
    form_input(driver, "app.behavior.onEnterBackground").click()
    driver.find_element(By.CSS_SELECTOR, '[data-rows="pushes"] .add-row').click()
    hours = driver.find_element(By.CSS_SELECTOR, '[data-rows="pushes"] tbody tr td:nth-child(2) input')
    hours.send_keys("9, 21.5")
    driver.find_element(By.CSS_SELECTOR, '[data-rows="pushes"] tbody tr td:nth-child(3) select option[value="10"]').click()
    sent = form_request(driver)
    driver.find_element(By.ID, "fc-run").click()
    wait_forecast_done(driver)
    forecast = service.api("GET", f"/v1/forecasts/{forecast_probe(driver)['id']}")
    behavior = forecast["request"]["app"]["behavior"]
    assert behavior["appRefresh"]["completeAfter"] == "never"
    assert behavior["onEnterBackground"] == {"name": "save", "endAfter": 3, "endOnExpiration": True}
    assert forecast["request"]["pushes"] == [{"everyMinutes": 60, "atHours": [9, 21.5], "priority": 10}]
    assert forecast["request"]["population"] == sent["population"]
    assert forecast["result"]["appRefresh"]["expiredShare"] > 0   # a handler that never completes expires (R22)
    # Reopened, the form holds that request again.
    driver.find_element(By.ID, "fc-reset").click()
    assert not driver.find_element(By.ID, "fc-behavior-custom").is_selected()
    driver.get(service.base + f"/#forecast={forecast['forecastId']}")
    driver.refresh()
    wait(driver, lambda d: forecast_probe(d)["id"] == forecast["forecastId"] and forecast_probe(d)["state"] == "done")
    assert driver.find_element(By.ID, "fc-behavior-custom").is_selected()
    assert form_request(driver)["app"]["behavior"] == behavior
    assert form_request(driver)["pushes"] == forecast["request"]["pushes"]

    # Deleted from the list, once confirmed: "Keep" first keeps it.
    item = f'#fc-list li[data-forecast-id="{forecast["forecastId"]}"]'
    driver.find_element(By.CSS_SELECTOR, f"{item} .delete-forecast").click()
    driver.find_element(By.CSS_SELECTOR, f"{item} .confirm-no").click()
    assert not driver.find_elements(By.CSS_SELECTOR, f"{item} .confirm-delete")
    assert service.request("GET", f"/v1/forecasts/{forecast['forecastId']}")[0] == 200
    driver.find_element(By.CSS_SELECTOR, f"{item} .delete-forecast").click()
    driver.find_element(By.CSS_SELECTOR, f"{item} .confirm-yes").click()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, item), message="gone from the list")
    assert service.request("GET", f"/v1/forecasts/{forecast['forecastId']}")[0] == 404
    assert forecast_probe(driver)["id"] is None and driver.current_url.endswith("#forecast")


def test_without_the_event_stream_polling_brings_the_forecast_to_its_end(service, driver):
    # The tenant's stream refused to the page (a proxy that drops event streams, say): the forecast is polled.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/events?type=forecast.*"]})
    sign_in(driver, service)
    wait(driver, lambda d: view(d) == "main", message="main view")
    driver.find_element(By.ID, "nav-forecast").click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.page") == "forecast")
    set_form_value(driver, "devices", 100)
    set_form_value(driver, "days", 1)
    driver.find_element(By.ID, "fc-run").click()
    probe = wait_forecast_done(driver)
    assert probe["streamEvents"] == 0 and not probe["streamLive"], probe
    assert driver.find_element(By.ID, "fc-progress").get_attribute("value") == "1"
    result = service.api("GET", f"/v1/forecasts/{probe['id']}")["result"]
    check_plots_against(plot_facts(driver), result)


# ---------------------------------------------------------------- issue 29 §5: the dashboard (each in both browsers)

# The device list's entries as the page shows them: id, the name shown, visible or not.
DEVICE_LABELS_JS = """
    return [...document.querySelectorAll('#device-list li.device-item')].map((li) => ({
      id: li.dataset.deviceId, label: li.querySelector('.device-name').textContent,
      visible: li.querySelector('a').checkVisibility() }));"""


def twin_devices(service):
    """Two devices named alike and one named apart: answers the twins and the other."""
    first = create_device(service, "CI iPhone")
    second = create_device(service, "CI iPhone")
    other = create_device(service, "Only iPad")
    return first, second, other


def check_twin_labels(entries, first, second, other):
    """Each twin is shown as its name and the end of its id (`CI iPhone · …8b3f`), the two told apart; the device
    of a name of its own keeps its name alone."""
    labels = {e["id"]: e["label"] for e in entries}
    assert set(labels) == {first["id"], second["id"], other["id"]}, entries
    for twin in (first, second):
        label = labels[twin["id"]]
        assert label.startswith("CI iPhone · …"), label
        suffix = label.split("…", 1)[1]
        assert len(suffix) >= 4 and twin["id"].endswith(suffix), (label, twin["id"])
    assert labels[first["id"]] != labels[second["id"]], labels
    assert labels[other["id"]] == "Only iPad", labels
    return labels


def test_two_devices_of_one_name_are_told_apart(service, driver):
    """Devices of one name are listed, titled and asked about by their name and the end of their id."""
    first, second, other = twin_devices(service)
    set_viewport(driver, 1280, 800)
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: len(d.execute_script(DEVICE_LABELS_JS)) == 3, message="three devices listed")
    labels = check_twin_labels(driver.execute_script(DEVICE_LABELS_JS), first, second, other)
    for twin in (first, second):
        open_device(driver, twin["id"])
        wait(driver, lambda d: d.find_element(By.ID, "device-title").text == f"{labels[twin['id']]} · iOS 17.0",
             message="the twin's title tells it apart")
        # Its group is open: both twins are there to see, each with its own label.
        shown = {e["id"]: e["label"] for e in driver.execute_script(DEVICE_LABELS_JS) if e["visible"]}
        assert shown[first["id"]] != shown[second["id"]], shown
    # The delete confirmation names the twin it deletes.
    click_fresh(driver, f'#device-list li[data-device-id="{second["id"]}"] .delete-device')
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#device-list .confirm-delete"), message="asked first")
    assert labels[second["id"]] in driver.find_element(By.CSS_SELECTOR, "#device-list .confirm-delete").text
    screenshot(driver, "29-twin-devices")
    click_fresh(driver, "#device-list .confirm-no")


# Each group's summary in the device list: its name, whether open, and how many arrows it shows — in its text, in
# its drawn ::before, and the browser's own disclosure marker (shown while the summary is a list item with a style).
GROUP_ARROWS_JS = """
    const arrows = /[▸▹►▶▾▿▼▽⏵⏷]/gu;
    return [...document.querySelectorAll('#device-list .device-group > details > summary')].map((s) => {
      const style = getComputedStyle(s);
      const before = getComputedStyle(s, '::before').content;
      const drawn = (before === 'none' || before === 'normal' ? '' : before) + s.textContent;
      const own = style.display === 'list-item' && style.listStyleType !== 'none' ? 1 : 0;
      return { name: s.closest('.device-group').dataset.name, scenario: s.closest('.scenario-group') !== null,
               open: s.parentElement.open, arrows: (drawn.match(arrows) || []).length + own, before };
    });"""


def check_one_arrow(groups, open_):
    """Every group (a scenario's and a name's) shows exactly one arrow: ▸ closed, ▾ open."""
    assert {g["scenario"] for g in groups} == {True, False}, groups
    for g in groups:
        assert g["open"] == open_ and g["arrows"] == 1, g
        assert g["before"].strip("\"'") == ("▾" if open_ else "▸"), g


def test_a_group_of_devices_shows_one_arrow(service, driver):
    """A scenario's group, and a group of devices of one name, show one disclosure arrow, closed and open."""
    create_device(service, "CI iPhone")
    create_device(service, "CI iPhone")
    run_scenario(service, "background-audio.json")
    mine = create_device(service, "My own")
    set_viewport(driver, 1280, 800)
    sign_in(driver, service)
    wait_live(driver)
    open_device(driver, mine["id"])
    wait(driver, lambda d: len(d.execute_script(GROUP_ARROWS_JS)) == 2, message="two groups listed")
    check_one_arrow(driver.execute_script(GROUP_ARROWS_JS), False)
    assert "▶" not in driver.find_element(By.CSS_SELECTOR, "#device-list .scenario-group summary").text
    for summary in driver.find_elements(By.CSS_SELECTOR, "#device-list .device-group summary"):
        summary.click()
    wait(driver, lambda d: all(g["open"] for g in d.execute_script(GROUP_ARROWS_JS)), message="groups opened")
    check_one_arrow(driver.execute_script(GROUP_ARROWS_JS), True)
    screenshot(driver, "29-group-arrows")


QUICK = "com.example.quick"
MARK_MIN_WIDTH = 4   # the narrowest mark a run gets on the lanes, however short it is at the zoom shown


def device_with_a_short_run(service):
    """A device whose app's refresh run is completed at the instant it starts, then a day passes: a run of no time
    in a day. Answers the device and the run's id."""
    device = create_device(service, "Short run")
    base = f"/v1/devices/{device['id']}"
    service.api("POST", f"{base}/apps", {
        "bundleId": QUICK,
        "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": [f"{QUICK}.refresh"]},
        "behavior": {"appRefresh": {"completeAfter": "never"}}})
    service.api("POST", f"{base}/apps/{QUICK}/launch")
    service.api("POST", f"{base}/apps/{QUICK}/task-requests", {"kind": "appRefresh", "identifier": f"{QUICK}.refresh"})
    service.api("POST", f"{base}/apps/{QUICK}/background")
    run = service.api("POST", f"{base}/apps/{QUICK}/task-requests/{QUICK}.refresh/simulate-launch")
    done = service.api("POST", f"{base}/apps/{QUICK}/runs/{run['id']}/complete", {"success": True})
    assert done["startedAt"] == done["endedAt"], done
    service.api("POST", f"{base}/clock/advance", {"seconds": 86400})
    return device, run["id"]


# The run marks of the quick app: their box, the run each stands for, and whether a click at its centre reaches it.
SHORT_RUN_JS = """
    return [...document.querySelectorAll('#lanes g.lane[data-app="com.example.quick"] rect.run')].map((r) => {
      const b = r.getBoundingClientRect();
      return { ref: r.dataset.ref, x: b.x, y: b.y, width: b.width, height: b.height,
               hit: document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2) === r };
    });"""


def check_short_run_marks(marks, run_id):
    """The run is one mark at least MARK_MIN_WIDTH wide, the element found at its centre (nothing drawn over it)."""
    assert len(marks) == 1 and marks[0]["ref"] == run_id, marks
    mark = marks[0]
    assert mark["width"] >= MARK_MIN_WIDTH and mark["height"] >= 8 and mark["hit"], mark


def test_a_run_of_no_time_is_still_a_mark_to_see_and_click(service, driver):
    """A run far narrower than a pixel at the zoom shown (none of a day, zoomed out) is drawn a few pixels wide,
    and a click on it opens its detail."""
    device, run_id = device_with_a_short_run(service)
    set_viewport(driver, 1280, 800)
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: d.execute_script(SHORT_RUN_JS), message="the run drawn")
    for _ in range(3):   # a day, then more: the run is a thousandth of a pixel
        driver.find_element(By.ID, "zoom-out").click()
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    check_short_run_marks(driver.execute_script(SHORT_RUN_JS), run_id)
    screenshot(driver, "29-short-run")
    click_fresh(driver, '#lanes g.lane[data-app="com.example.quick"] rect.run')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith(f"Run {run_id}"), message="run detail")


# The controls row: its height, the top of each group, how far apart the centres of its controls are (0 on one line),
# where the lanes start, and whether its last control comes into the row's view when the row is scrolled to its end.
CONTROLS_ROW_JS = """
    const row = document.querySelector('.controls-row');
    const box = (e) => e.getBoundingClientRect();
    const controls = [...row.querySelectorAll('fieldset > button, fieldset > select, fieldset > input, fieldset > label')];
    const centres = controls.map((c) => box(c).top + box(c).height / 2);
    const scroll = row.scrollLeft;
    row.scrollLeft = row.scrollWidth;
    const last = controls[controls.length - 1];
    const reachable = box(last).right <= box(row).right + 1 && box(last).left >= box(row).left - 1;
    row.scrollLeft = scroll;
    return { height: box(row).height, groups: [...row.querySelectorAll('fieldset')].map((f) => Math.round(box(f).top)),
             spread: Math.max(...centres) - Math.min(...centres), controls: controls.length, reachable,
             lanesTop: box(document.getElementById('lanes')).top, detail: document.body.dataset.detail || "" };"""


def check_controls_row(closed, opened):
    """The controls are on one line with the detail panel closed and open: the same height, every group at one top,
    every control's centre on one line, the last one within reach, and the lanes where they were."""
    for row in (closed, opened):
        assert row["controls"] >= 15 and len(set(row["groups"])) == 1 and row["spread"] <= 2 and row["reachable"], row
    assert opened["detail"] == "open" and closed["detail"] != "open", (closed, opened)
    assert abs(opened["height"] - closed["height"]) <= 1, (closed, opened)
    assert abs(opened["lanesTop"] - closed["lanesTop"]) <= 1, (closed, opened)


def test_the_controls_stay_on_one_line_when_the_detail_opens(service, driver):
    """At 1280×800 the detail panel opened beside the device view does not wrap its controls onto more lines."""
    device = create_device(service, "Narrow window")
    service.api("POST", f"/v1/devices/{device['id']}/apps", {"bundleId": SAMPLE, "infoPlist": {"UIBackgroundModes": ["fetch"]}})
    set_viewport(driver, 1280, 800)
    sign_in(driver, service)
    wait_live(driver)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#app-select option[value="{SAMPLE}"]'), message="the app listed")
    closed = driver.execute_script(CONTROLS_ROW_JS)
    click_fresh(driver, '#feed .feed-row[data-type="device.created"]')
    wait(driver, lambda d: d.find_element(By.ID, "detail-title").text.startswith("Event "), message="event detail")
    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));")
    opened = driver.execute_script(CONTROLS_ROW_JS)
    screenshot(driver, "29-controls-detail-open")
    check_controls_row(closed, opened)
    # A control beyond the row's view still works: it scrolls into view and is clicked.
    click_action(driver, "push")
    wait(driver, lambda d: status_text(d) != "", message="the push sent")
