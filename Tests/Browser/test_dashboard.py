"""The dashboard in headless Chromium against the real service."""
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from conftest import API_KEY, screenshot, sign_in, wait

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
    lanes and feed rows are rebuilt as events arrive)."""
    for attempt in range(attempts):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
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
