// The bgemu live dashboard: sign-in, devices, swimlanes, live event feed, details and tester controls.
import { API, APIError, storedKey, storeKey, enc } from "./api.js";
import { DeviceList } from "./devices.js";
import { Feed } from "./feed.js";
import { formatVirtual, shortId } from "./format.js";
import { LaneModel, LaneView } from "./lanes.js";
import { SUMMARIES } from "./summaries.js";

const $ = (id) => document.getElementById(id);

// Every event type the service emits; EventSource dispatches named events only to listeners of that name.
const EVENT_TYPES = [
  "app.crashed", "app.delegate", "app.installed", "app.settingsChanged", "app.stateChanged", "app.terminated",
  "app.uninstalled", "backgroundTask.began", "backgroundTask.ended", "backgroundTask.expiring", "clock.advanced",
  "device.conditionsChanged", "device.created", "device.policyChanged", "device.rebooted", "fetch.intervalChanged",
  "notification.cancelled", "notification.delivered", "notification.dropped", "notification.scheduled",
  "push.coalesced", "push.deferred", "push.delivered", "push.dropped", "push.received", "run.completed",
  "run.expired", "run.expiring", "run.started", "system.opportunity", "taskRequest.cancelled",
  "taskRequest.rejected", "taskRequest.submitted", "transfer.cancelled", "transfer.completed", "transfer.enqueued",
  "transfer.failed", "transfer.progress", "transfer.started", "transfer.waiting", "urlSession.created",
  "urlSession.eventsDelivered", "activity.started", "activity.stopped", "device.locationChanged", "location.delivered",
  "accessory.dataReceived", "voip.keepAlive", "message",
];
const PAGE = 500;          // events per page of history
const NEAR_TOP_ROWS = 20;  // the feed pages older events in when scrolled this close to its top

const state = {
  api: null,
  devices: [],
  deviceId: null,
  device: null,
  apps: [],
  generation: 0,     // bumps on every device switch: stale loads and streams drop their results
  lastId: 0,         // the newest event id seen (history or stream): resume point and de-duplication
  oldestId: null,    // the oldest event id loaded; older pages go below it
  allLoaded: false,  // whether the device's whole history is loaded
  loadingOlder: false, // one page of older events in flight at a time
  pageTimes: [],     // milliseconds each page of older events took (for the browser tests' figures)
  source: null,
  reopenTimer: null,
  pollTimer: null,
  appsTimer: null,
};

const feed = new Feed($("feed"), $("feed-spacer"), { onSelect: showEvent, onNearTop: () => loadOlder() });
const model = new LaneModel();
const lanes = new LaneView($("lanes"), model, { onSelect: onLaneSelect, onRange: onLaneRange, note: $("lanes-note") });
const deviceList = new DeviceList($("device-list"), $("device-search"), { onSelect: selectDevice, onDelete: deleteDevice });

// ---------------------------------------------------------------- views

function showView(name) {
  document.body.dataset.view = name;
  $("view-signin").hidden = name !== "signin";
  $("view-unreachable").hidden = name !== "unreachable";
  $("view-main").hidden = name !== "main";
  $("signout").hidden = name === "signin";
}

function setConn(text, kind = "") {
  const c = $("conn");
  c.textContent = text;
  c.className = `conn ${kind}`;
}

function showSignin(error) {
  stopDevice();
  stopPolling();
  showView("signin");
  const box = $("signin-error");
  box.hidden = !error;
  box.textContent = error || "";
  document.body.dataset.signin = error ? "wrong-key" : "no-key";
  setConn("");
  $("apikey").focus();
}

function showUnreachable(message) {
  stopDevice();
  stopPolling();
  showView("unreachable");
  $("unreach-detail").textContent = `${message} Check that bgemu is running, then retry.`;
  setConn("service unreachable", "bad");
  $("retry").focus();
}

// ---------------------------------------------------------------- sign-in and devices

async function start() {
  const key = storedKey();
  if (!key) { showSignin(); return; }
  state.api = new API(key);
  try {
    await loadDevices();
  } catch (error) {
    if (error instanceof APIError && error.status === 401) {
      storeKey("");
      showSignin("That API key was refused (401): it is wrong or has been revoked.");
    } else if (error instanceof APIError && error.unreachable) {
      showUnreachable(error.message);
    } else {
      showUnreachable(String(error.message || error));
    }
    return;
  }
  showView("main");
  setConn("connected", "good");
  state.deviceId = null;
  startPolling();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("device");
  const pick = state.devices.find((d) => d.id === wanted) || state.devices[0];
  if (pick) selectDevice(pick.id); else renderNoDevice();
}

async function loadDevices() {
  const items = [];
  let cursor = null;
  do {
    const page = await state.api.get(`/v1/devices?limit=500${cursor ? `&cursor=${enc(cursor)}` : ""}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  state.devices = items;
  renderDeviceList();
}

function renderDeviceList() {
  // The search box appears once there is something to search; a hidden one filters nothing.
  $("device-search").hidden = state.devices.length < 2;
  if ($("device-search").hidden) $("device-search").value = "";
  deviceList.update(state.devices, state.deviceId);
  $("empty-tenant").hidden = state.devices.length > 0;
  $("device-count").textContent = state.devices.length ? String(state.devices.length) : "";
  document.body.dataset.deviceCount = String(state.devices.length);
}

/** Deletes a device (asked first by the list); the next one is shown if it was the one shown. */
async function deleteDevice(device) {
  const box = $("device-list-status");
  try {
    await state.api.del(`/v1/devices/${enc(device.id)}`);
  } catch (error) {
    box.textContent = `Delete ${device.name}: ${error.message}`;
    box.className = "device-list-status bad";
    renderDeviceList();
    return;
  }
  box.textContent = `Deleted ${device.name} (${device.id}).`;
  box.className = "device-list-status good";
  state.devices = state.devices.filter((d) => d.id !== device.id);
  if (state.deviceId === device.id) {
    stopDevice();
    state.deviceId = null;
    $("detail").hidden = true;
    history.replaceState(null, "", location.pathname);
  }
  renderDeviceList();
  try { await loadDevices(); } catch { /* the periodic refresh tries again */ }
  if (!state.deviceId) {
    if (state.devices.length) selectDevice(state.devices[0].id); else renderNoDevice();
  }
}

function renderNoDevice() {
  $("no-device").hidden = false;
  $("device-content").hidden = true;
  const empty = state.devices.length === 0;
  $("no-device-text").textContent = empty
    ? "This tenant has no devices yet. Create one to emulate apps in the background."
    : "Select a device.";
  $("create-first").hidden = !empty;
}
$("create-first").addEventListener("click", () => $("create-device").requestSubmit());

function startPolling() {
  stopPolling();
  state.pollTimer = setInterval(async () => {
    try {
      await loadDevices();
      setConn("connected", "good");
      if (!state.deviceId && state.devices.length) selectDevice(state.devices[0].id);
      else if (!state.deviceId) renderNoDevice();
    } catch (error) {
      if (error instanceof APIError && error.status === 401) { storeKey(""); showSignin("The API key is no longer accepted (401)."); return; }
      setConn("service unreachable — retrying", "bad");
    }
  }, 2500);
}
function stopPolling() { clearInterval(state.pollTimer); state.pollTimer = null; }

$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const key = $("apikey").value.trim();
  if (!key) return;
  storeKey(key);
  $("apikey").value = "";
  start();
});
$("signout").addEventListener("click", () => { storeKey(""); state.api = null; location.hash = ""; showSignin(); });
$("retry").addEventListener("click", () => start());

$("create-device").addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = { name: $("dev-name").value.trim() || "iPhone", osVersion: $("dev-os").value };
  try {
    const device = await state.api.post("/v1/devices", body);
    await loadDevices();
    selectDevice(device.id);
    status(`Created ${device.name} (${device.id}).`, "good");
  } catch (error) { status(`Create a device: ${error.message}`, "bad"); }
});

// ---------------------------------------------------------------- a device: history, then the live stream

function stopDevice() {
  state.generation += 1;
  if (state.source) { state.source.close(); state.source = null; }
  clearTimeout(state.reopenTimer);
}

async function selectDevice(id) {
  stopDevice();
  const generation = state.generation;
  const linked = linkedRun(id);   // a link to one of the device's runs opens it once the device is shown
  state.deviceId = id;
  state.lastId = 0;
  state.oldestId = null;
  state.allLoaded = false;
  state.loadingOlder = false;
  state.pageTimes = [];
  setLink(linked);
  renderDeviceList();
  feed.reset();
  state.apps = [];
  model.setInstalled([]);
  model.reset();
  lanes.fit();
  $("no-device").hidden = true;
  $("device-content").hidden = false;
  $("feed").dataset.loaded = "false";
  setStream("loading…");
  renderHistoryState();
  try {
    state.device = await state.api.get(`/v1/devices/${enc(id)}`);
    if (generation !== state.generation) return;
    renderDevice();
    refreshApps();
    // The newest page only; older pages come in when the feed or the lanes reach back before it.
    const page = await state.api.get(`/v1/devices/${enc(id)}/events?order=desc&limit=${PAGE}`);
    if (generation !== state.generation) return;
    const events = page.items.slice().reverse();
    state.allLoaded = !page.nextCursor;
    state.oldestId = events.length ? events[0].id : null;
    // Before the oldest event of the page, the lanes show no state until that history is loaded.
    model.reset();
    if (!state.allLoaded && events.length) model.historyFrom = Date.parse(events[0].at);
    receive(events);
    if (model.addInstalled()) lanes.schedule();   // the apps list may have come first
  } catch (error) {
    if (generation !== state.generation) return;
    setStream(`history failed: ${error.message} — retrying`, "bad");
    state.reopenTimer = setTimeout(() => { if (generation === state.generation) selectDevice(id); }, 3000);
    return;
  }
  $("feed").dataset.loaded = "true";
  renderHistoryState();
  // Live at once: the stream resumes after the newest event of that page.
  openStream(generation);
  if (linked) showRun(linked.app, linked.run);
}

/** The run a link names (`#device=…&app=…&run=…`) on device `id`, or null. */
function linkedRun(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const app = params.get("app"), run = params.get("run");
  return params.get("device") === id && app && run ? { app, run } : null;
}

/** The address of what is shown: the device, and the run when its detail is open (a link to share). */
function setLink(run) {
  if (!state.deviceId) return;
  const params = new URLSearchParams({ device: state.deviceId, ...(run ? { app: run.app, run: run.run } : {}) });
  history.replaceState(null, "", `#${params}`);
}

/** Loads the page of events just older than the oldest loaded one; one request at a time. */
async function loadOlder() {
  if (state.allLoaded || state.loadingOlder || state.oldestId === null || !state.deviceId) return;
  if ($("feed").dataset.loaded !== "true") return;
  const generation = state.generation;
  const started = performance.now();
  state.loadingOlder = true;
  renderHistoryState();
  let page;
  try {
    page = await state.api.get(`/v1/devices/${enc(state.deviceId)}/events?order=desc&limit=${PAGE}&cursor=${state.oldestId}`);
  } catch (error) {
    if (generation !== state.generation) return;
    state.loadingOlder = false;
    renderHistoryState(`older events failed: ${error.message}`);
    return;
  }
  if (generation !== state.generation) return;
  state.loadingOlder = false;
  // Oldest first, and only what is older than every event held: the feed never shows one twice.
  const older = page.items.filter((e) => e.id < state.oldestId && (!e.deviceId || e.deviceId === state.deviceId)).reverse();
  state.allLoaded = !page.nextCursor;
  if (older.length) {
    state.oldestId = older[0].id;
    feed.prepend(older);
  }
  // Applying events is order-sensitive: the lanes are built again from everything loaded, in id order.
  model.rebuild(feed.events, state.allLoaded);
  lanes.schedule();
  state.pageTimes.push(performance.now() - started);
  renderHistoryState();
  $("feed-count").textContent = `${feed.events.length} events`;
  // Still at the top (a short page, or a reader holding the top): keep going.
  if (!state.allLoaded && feed.container.scrollTop < NEAR_TOP_ROWS * 24) setTimeout(() => loadOlder(), 0);
}

/** After every drawing of the lanes: a view panned or zoomed to before the oldest loaded event pages older ones in. */
function onLaneRange(from, to, fitted) {
  if (fitted || state.allLoaded || model.historyFrom === null) return;
  if (from < model.historyFrom) loadOlder();
}

function renderHistoryState(error) {
  const box = $("history-state");
  const n = feed.events.length;
  let text;
  if ($("feed").dataset.loaded !== "true") text = "";
  else if (error) text = error;
  else if (state.allLoaded) text = `all ${n} events loaded`;
  else if (state.loadingOlder) text = `${n} newest events loaded · loading older events…`;
  else text = `${n} newest events loaded · older events: scroll to load`;
  box.textContent = text;
  box.className = error ? "muted error" : "muted";
  $("feed").dataset.allLoaded = String(state.allLoaded);
  $("feed").dataset.oldestId = state.oldestId === null ? "" : String(state.oldestId);
}

function openStream(generation) {
  if (generation !== state.generation) return;
  const url = `/v1/devices/${enc(state.deviceId)}/events?access_token=${enc(state.api.key)}&lastEventId=${state.lastId}`;
  const source = new EventSource(url);
  state.source = source;
  const onEvent = (message) => {
    if (generation !== state.generation) return;
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
    receive([event]);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
  source.onopen = () => { if (generation === state.generation) setStream("live", "good"); };
  source.onerror = () => {
    if (generation !== state.generation) return;
    if (source.readyState === EventSource.CLOSED) {
      // The browser gave up (a non-200 answer such as 503 or a restart mid-handshake): reopen after our last id,
      // unless the service no longer holds the events after it (410 eventsPruned: its retention pruned them).
      setStream("stream closed — reconnecting", "bad");
      source.close();
      clearTimeout(state.reopenTimer);
      state.reopenTimer = setTimeout(async () => {
        const prunedThrough = await prunedAfterLastId();
        if (generation !== state.generation) return;
        if (prunedThrough === null) openStream(generation);
        else if (feed.events.length) selectDevice(state.deviceId);   // the newest page again: no gap in the feed
        else { state.lastId = prunedThrough; openStream(generation); }
      }, 2000);
    } else {
      setStream("reconnecting…", "bad");
    }
  };
}

/** The greatest id the service's retention pruned after our last id (a resume from it would be a 410), or null. */
async function prunedAfterLastId() {
  try {
    await state.api.get(`/v1/devices/${enc(state.deviceId)}/events?after=${state.lastId}&limit=1`);
  } catch (error) {
    const pruned = error.status === 410 && error.problem ? error.problem.lastPrunedEventId : undefined;
    if (Number.isInteger(pruned)) return pruned;
  }
  return null;
}

/** Takes events in id order from the history or the stream, dropping any already seen. */
function receive(events) {
  const fresh = [];
  for (const event of events) {
    if (typeof event.id !== "number" || event.id <= state.lastId) continue;
    if (event.deviceId && event.deviceId !== state.deviceId) continue;
    state.lastId = event.id;
    fresh.push(event);
    model.apply(event);
  }
  if (!fresh.length) return;
  feed.append(fresh);
  lanes.schedule();
  $("feed").dataset.lastId = String(state.lastId);
  $("feed-count").textContent = `${feed.events.length} events`;
  if ($("feed").dataset.loaded === "true" && !state.loadingOlder) renderHistoryState();
  if (model.now !== null) $("device-clock").textContent = `virtual time ${formatVirtual(new Date(model.now).toISOString())}`;
  if (fresh.some((e) => /^(app|run|taskRequest|backgroundTask|device)\./.test(e.type))) {
    clearTimeout(state.appsTimer);
    state.appsTimer = setTimeout(refreshApps, 300);
  }
}

function setStream(text, kind = "") {
  const s = $("stream-state");
  s.textContent = text;
  s.className = `conn ${kind}`;
}

function renderDevice() {
  const d = state.device;
  $("device-title").textContent = `${d.name} · iOS ${d.osVersion}`;
  $("device-clock").textContent = `virtual time ${formatVirtual(d.clock.now)}`;
  const c = d.conditions || {};
  // A control the tester is using keeps what they set.
  const set = (id, apply) => { if (document.activeElement !== $(id)) apply($(id)); };
  set("c-battery", (e) => { e.value = c.batteryLevel ?? 100; $("c-battery-out").textContent = String(e.value); });
  set("c-charging", (e) => { e.checked = !!c.charging; });
  set("c-lpm", (e) => { e.checked = !!c.lowPowerMode; });
  set("c-network", (e) => { e.value = c.network || "wifi"; });
  set("c-bar", (e) => { e.checked = c.backgroundAppRefresh !== false; });
}

async function refreshApps() {
  if (!state.deviceId) return;
  const generation = state.generation;
  try {
    const page = await state.api.get(`/v1/devices/${enc(state.deviceId)}/apps?limit=500`);
    if (generation !== state.generation) return;
    state.apps = page.items || [];
    if (model.setInstalled(state.apps)) lanes.schedule();
    const device = await state.api.get(`/v1/devices/${enc(state.deviceId)}`);
    if (generation !== state.generation) return;
    state.device = device;
    renderDevice();
  } catch { return; }
  const select = $("app-select");
  const previous = select.value;
  select.replaceChildren(...state.apps.map((a) => {
    const o = document.createElement("option");
    o.value = a.bundleId;
    o.title = a.bundleId;
    o.textContent = `${shortId(a.bundleId, 24)} (${a.state})`;
    return o;
  }));
  select.title = select.value;
  if (state.apps.some((a) => a.bundleId === previous)) select.value = previous;
  for (const b of document.querySelectorAll("[data-action]")) {
    if (b.dataset.action !== "install-sample") b.disabled = state.apps.length === 0;
  }
  renderPending();
}

function renderPending() {
  const box = $("pending");
  const nodes = [];
  for (const app of state.apps) {
    for (const request of app.taskRequests || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pending-request";
      b.textContent = `pending ${request.kind}: ${request.identifier}`;
      b.addEventListener("click", () => showTaskRequest(app.bundleId, request));
      nodes.push(b);
    }
  }
  if (!nodes.length) {
    const span = document.createElement("span");
    span.className = "muted";
    span.textContent = "No pending task requests.";
    nodes.push(span);
  }
  box.replaceChildren(...nodes);
}

// ---------------------------------------------------------------- details

function detail(title, ...nodes) {
  setLink(null);
  $("detail").hidden = false;
  $("detail-title").textContent = title;
  $("detail-body").replaceChildren(...nodes);
  document.body.dataset.detail = "open";
}
$("detail-close").addEventListener("click", () => {
  $("detail").hidden = true;
  document.body.dataset.detail = "closed";
  setLink(null);
});

function pre(value) {
  const p = document.createElement("pre");
  p.textContent = JSON.stringify(value, null, 2);
  return p;
}
function para(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}
function table(headers, rows) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const h of headers) { const th = document.createElement("th"); th.textContent = h; head.append(th); }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      if (cell instanceof Node) td.append(cell); else td.textContent = cell ?? "";
    }
  }
  return t;
}

function showEvent(event) {
  const nodes = [table(["field", "value"], [
    ["id", String(event.id)], ["type", event.type], ["app", event.bundleId || "—"],
    ["virtual time", formatVirtual(event.at)], ["recorded (wall)", event.recordedAt],
  ]), pre(event.data)];
  if (event.data && event.data.runId && event.bundleId) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Open run ${event.data.runId}`;
    b.addEventListener("click", () => showRun(event.bundleId, event.data.runId));
    nodes.push(b);
  }
  detail(`Event ${event.id}`, ...nodes);
}

/** A run: what the API says of it, and every one of its events (asked of the API, loaded or not). */
async function showRun(bundleId, runId) {
  const rowsOf = (events) => events.map((e) => [String(e.id), formatVirtual(e.at), e.type]);
  const device = `/v1/devices/${enc(state.deviceId)}`;
  try {
    const [run, page] = await Promise.all([
      state.api.get(`${device}/apps/${enc(bundleId)}/runs/${enc(runId)}`),
      state.api.get(`${device}/events?runId=${enc(runId)}&bundleId=${enc(bundleId)}&limit=500`),
    ]);
    const events = table(["event", "virtual time", "type"], rowsOf(page.items));
    events.className = "run-events";
    detail(`Run ${runId}`, para(`${bundleId} · ${run.kind} · ${run.state}`), pre(run), events);
    setLink({ app: bundleId, run: runId });
  } catch (error) {
    // The loaded events of the run, at least.
    const loaded = feed.events.filter((e) => e.data && e.data.runId === runId && e.bundleId === bundleId);
    detail(`Run ${runId}`, para(error.message, "error"), table(["event", "virtual time", "type"], rowsOf(loaded)));
  }
}

/** A push: its events as loaded (received, then deferred, coalesced, delivered or dropped), and its run if any. */
function showPush(bundleId, apnsId) {
  const lane = model.apps.get(bundleId);
  const push = lane && lane.pushes.get(apnsId);
  if (!push) return;
  const rows = push.events.map((e) => [formatVirtual(e.at), e.type, (e.data && (e.data.reason || e.data.replacedBy)) || ""]);
  const events = table(["virtual time", "event", "reason"], rows);
  events.className = "push-events";
  const nodes = [para(`${bundleId} · ${push.outcome}${push.deferred && push.outcome !== "deferred" ? " after being deferred" : ""}`), events];
  const received = push.events.find((e) => e.type === "push.received");
  if (received) nodes.push(pre(received.data));
  const delivered = push.events.find((e) => e.type === "push.delivered" && e.data && e.data.runId);
  if (delivered) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Open run ${delivered.data.runId}`;
    b.addEventListener("click", () => showRun(bundleId, delivered.data.runId));
    nodes.push(b);
  }
  detail(`Push ${apnsId}`, ...nodes);
}

async function showTaskRequest(bundleId, request) {
  try {
    const e = await state.api.get(`/v1/devices/${enc(state.deviceId)}/apps/${enc(bundleId)}/task-requests/${enc(request.identifier)}/eligibility`);
    const rows = (e.conditions || []).map((c) => {
      const met = document.createElement("span");
      met.className = c.met ? "met-yes" : "met-no";
      met.textContent = c.met ? "✓ met" : "✗ not met";
      return [c.name, met, c.rule, c.detail];
    });
    const summary = para(e.eligible ? "Eligible: it runs at the next opportunity." : "Not eligible now.", e.eligible ? "met-yes" : "met-no");
    detail(`Task request ${request.identifier}`,
      para(`${bundleId} · ${request.kind} · submitted ${formatVirtual(request.submittedAt)}`), summary,
      para(`Next opportunity: ${formatVirtual(e.nextOpportunityAt) || "—"}; predicted launch: ${formatVirtual(e.predictedLaunchAt) || "—"}`),
      table(["condition", "met", "rule", "detail"], rows), pre(request));
  } catch (error) {
    detail(`Task request ${request.identifier}`, para(error.message, "error"), pre(request));
  }
}

function onLaneSelect(kind, bundleId, ref) {
  const lane = model.apps.get(bundleId);
  if (kind === "history") { loadOlder(); return; }
  if (kind === "run") { showRun(bundleId, ref); return; }
  if (kind === "push") { showPush(bundleId, ref); return; }
  if (kind === "event") { const e = feed.events.find((ev) => ev.id === Number(ref)); if (e) showEvent(e); return; }
  if (kind === "task" && lane) {
    const task = lane.tasks.get(ref);
    if (task) detail(`Background task ${task.id}`, table(["field", "value"], [
      ["app", bundleId], ["name", task.name || "—"], ["began", iso(task.start)], ["ended", task.end ? iso(task.end) : "open"],
      ["outcome", task.outcome || "running"]]));
    return;
  }
  if (kind === "segment" && lane) {
    const seg = lane.segments.find((s) => String(s.start) === ref);
    if (seg) detail(`${bundleId}: ${seg.state}`, table(["field", "value"], [
      ["state", seg.state], ["from", iso(seg.start)], ["until", seg.end ? iso(seg.end) : "now"], ["cause", seg.cause || "—"]]));
  }
}
const iso = (ms) => formatVirtual(new Date(ms).toISOString());

// ---------------------------------------------------------------- controls

function status(text, kind = "") {
  const s = $("action-status");
  s.textContent = text;
  s.className = `action-status ${kind}`;
}

async function act(label, fn) {
  if (!state.deviceId) return;
  status(`${label}…`);
  try {
    const result = await fn();
    status(`${label}: ${result}`, "good");
  } catch (error) {
    status(`${label} failed: ${error.message}`, "bad");
  }
}

const devicePath = () => `/v1/devices/${enc(state.deviceId)}`;
const appPath = () => `${devicePath()}/apps/${enc($("app-select").value)}`;
const selectedApp = () => state.apps.find((a) => a.bundleId === $("app-select").value);

for (const button of document.querySelectorAll("[data-action]")) {
  button.addEventListener("click", () => {
    const action = button.dataset.action;
    if (action === "launch" || action === "background" || action === "force-quit") {
      act(button.textContent, async () => {
        const app = await state.api.post(`${appPath()}/${action}`);
        refreshApps();
        return `${app.bundleId} is ${app.state}`;
      });
    } else if (action === "install-sample") {
      act("Install sample app", async () => {
        let bundleId = "com.example.sample";
        for (let n = 2; state.apps.some((a) => a.bundleId === bundleId); n++) bundleId = `com.example.sample${n}`;
        const app = await state.api.post(`${devicePath()}/apps`, {
          bundleId,
          displayName: "Sample",
          infoPlist: {
            UIBackgroundModes: ["fetch", "processing", "remote-notification"],
            BGTaskSchedulerPermittedIdentifiers: [`${bundleId}.refresh`, `${bundleId}.cleanup`],
          },
          behavior: {
            appRefresh: { completeAfter: 2, result: "success", resubmit: true, resubmitAfter: 900 },
            fetch: { completeAfter: 1, result: "newData" },
            remoteNotification: { completeAfter: 1, result: "newData" },
            onEnterBackground: { name: "save", endAfter: 3 },
          },
        });
        await refreshApps();
        $("app-select").value = app.bundleId;
        return `installed ${app.bundleId}`;
      });
    } else if (action === "submit-refresh") {
      act("Submit refresh request", async () => {
        const app = selectedApp();
        const identifier = (app && app.infoPlist.BGTaskSchedulerPermittedIdentifiers[0]) || `${$("app-select").value}.refresh`;
        const request = await state.api.post(`${appPath()}/task-requests`, { kind: "appRefresh", identifier });
        refreshApps();
        return `pending ${request.identifier}`;
      });
    } else if (action === "push") {
      act("Background push", async () => {
        let answer;
        try {
          answer = await state.api.post(`${devicePath()}/push`, { aps: { "content-available": 1 } }, {
            headers: { "apns-topic": $("app-select").value, "apns-push-type": "background", "apns-priority": "5" },
          });
        } catch (error) {
          if (error instanceof APIError && error.problem && (error.status === 405 || (error.status === 404 && /no file matches/i.test(error.problem.detail || "")))) {
            error.message += " — this service has no push route yet.";
          }
          throw error;
        }
        return `${answer.outcome || "sent"}${answer.reason ? ` (${answer.reason})` : ""}${answer.apnsId ? ` apns-id ${answer.apnsId}` : ""}`;
      });
    }
  });
}

for (const button of document.querySelectorAll("[data-advance]")) {
  button.addEventListener("click", () => act(`Advance ${button.textContent}`, async () => {
    const r = await state.api.post(`${devicePath()}/clock/advance`, { seconds: Number(button.dataset.advance) });
    return `now ${formatVirtual(r.now)}, ${r.eventsEmitted} events`;
  }));
}

function patchConditions(body) {
  act("Conditions", async () => {
    const r = await state.api.patch(`${devicePath()}/conditions`, body);
    const c = r.conditions || r;
    return Object.keys(body).map((k) => `${k} ${c[k] ?? body[k]}`).join(", ");
  });
}
$("c-battery").addEventListener("input", () => { $("c-battery-out").textContent = $("c-battery").value; });
$("c-battery").addEventListener("change", () => patchConditions({ batteryLevel: Number($("c-battery").value) }));
$("c-charging").addEventListener("change", () => patchConditions({ charging: $("c-charging").checked }));
$("c-lpm").addEventListener("change", () => patchConditions({ lowPowerMode: $("c-lpm").checked }));
$("c-network").addEventListener("change", () => patchConditions({ network: $("c-network").value }));
$("c-bar").addEventListener("change", () => patchConditions({ backgroundAppRefresh: $("c-bar").checked }));

$("follow").addEventListener("change", () => { feed.follow = $("follow").checked; feed.schedule(); });
$("feed").addEventListener("wheel", (e) => { if (e.deltaY < 0 && feed.follow) { feed.follow = false; $("follow").checked = false; } }, { passive: true });
$("feed").addEventListener("keydown", (e) => { if (["ArrowUp", "Home", "PageUp"].includes(e.key)) { feed.follow = false; $("follow").checked = false; } });

$("zoom-in").addEventListener("click", () => lanes.zoom(0.5));
$("zoom-out").addEventListener("click", () => lanes.zoom(2));
$("pan-left").addEventListener("click", () => lanes.pan(-0.25));
$("pan-right").addEventListener("click", () => lanes.pan(0.25));
$("zoom-fit").addEventListener("click", () => lanes.fit());

window.addEventListener("hashchange", () => {
  const id = new URLSearchParams(location.hash.slice(1)).get("device");
  if (!id || !state.api) return;
  if (id !== state.deviceId) { selectDevice(id); return; }
  const linked = linkedRun(id);
  if (linked) showRun(linked.app, linked.run);
});

// A read-only handle for browser tests and the console.
window.__bgemu = Object.freeze({
  feedIds: () => feed.events.map((e) => e.id),
  feedTypes: () => feed.events.map((e) => e.type),
  lastId: () => state.lastId,
  streamState: () => (state.source ? state.source.readyState : -1),
  oldestId: () => state.oldestId,
  allLoaded: () => state.allLoaded,
  loadingOlder: () => state.loadingOlder,
  pageTimes: () => state.pageTimes.slice(),
  eventTypes: () => EVENT_TYPES.slice(),
  summaryTypes: () => Object.keys(SUMMARIES),
});

start();
