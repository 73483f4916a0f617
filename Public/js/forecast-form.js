// The forecast form: every field of a forecast request, pre-filled with its default, the rarely changed ones in
// `<details>`. `readRequest()` gives the request body, `fillRequest(r)` shows one (a past forecast's, or the defaults).
// Inputs name their field by `data-path` (the request's JSON path), so a problem's `errors[].field` marks its input.
import { $ } from "./dom.js";
import { BACKGROUND_MODES, BLANK, DEFAULT_REQUEST, RUN_KINDS, RUN_RESULTS, defaultBehavior } from "./forecast-defaults.js";
import { field, group, more, note, row, share } from "./form-parts.js";
import { attachedPlist, detachPlist, plistPicker } from "./forecast-plist-picker.js";
import { RowTable } from "./row-table.js";

const tables = {};

// ---------------------------------------------------------------- building

function tableIn(name, options) {
  const div = document.createElement("div");
  tables[name] = new RowTable(div, { ...options, path: options.path, blank: BLANK[name] });
  return div;
}

function modesField() {
  const box = document.createElement("div");
  box.className = "modes";
  box.dataset.path = "app.infoPlist.UIBackgroundModes";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "UIBackgroundModes");
  box.append("UIBackgroundModes ");
  for (const mode of BACKGROUND_MODES) {
    const label = document.createElement("label");
    label.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = mode;
    input.dataset.mode = mode;
    label.append(input, ` ${mode}`);
    box.append(label);
  }
  return box;
}

/** Shows the keys an Info.plist picked gives (`readInfoPlist`'s answer) in the app's fields. */
function showPlistKeys(found) {
  const bundleId = $("forecast-form").querySelector('[data-path="app.bundleId"]');
  if (found.bundleId) bundleId.value = found.bundleId;
  // The file names its bundle id by a build setting: the example id must not stand in for it. The service
  // takes the id typed here as PRODUCT_BUNDLE_IDENTIFIER, or the file's own once the settings resolve it.
  if (found.bundleIdSetting) { bundleId.value = ""; bundleId.placeholder = `from the file: ${found.bundleIdSetting}`; }
  if (found.UIBackgroundModes) setModes(found.UIBackgroundModes);
  if (found.BGTaskSchedulerPermittedIdentifiers) setPath("app.infoPlist.BGTaskSchedulerPermittedIdentifiers", found.BGTaskSchedulerPermittedIdentifiers);
  if (found.UIApplicationExitsOnSuspend !== undefined) setPath("app.infoPlist.UIApplicationExitsOnSuspend", found.UIApplicationExitsOnSuspend);
}

function fetchIntervalField() {
  const label = document.createElement("label");
  label.className = "field";
  const select = document.createElement("select");
  select.id = "fc-fetch-interval";
  select.dataset.path = "app.atLaunch.fetchInterval";
  for (const [value, text] of [["", "not set"], ["minimum", "minimum"], ["never", "never"], ["seconds", "seconds:"]]) select.append(new Option(text, value));
  const seconds = document.createElement("input");
  seconds.type = "number";
  seconds.id = "fc-fetch-seconds";
  seconds.min = 0;
  seconds.step = "any";
  seconds.style.width = "6em";
  seconds.setAttribute("aria-label", "Fetch interval in seconds");
  const sync = () => { seconds.hidden = select.value !== "seconds"; };
  select.addEventListener("change", sync);
  label.append("setMinimumBackgroundFetchInterval ", select);
  sync();
  return row(label, seconds);
}

function behaviorFields() {
  const custom = field("Script the handlers (else every run completes after 5 s and BGTasks resubmit as submitted)", "app.behavior", { type: "check" });
  custom.querySelector("input").id = "fc-behavior-custom";
  const rows = tableIn("behavior", {
    label: "Run behaviours", path: "app.behavior",
    columns: [
      { key: "kind", label: "Run kind", type: "select", options: RUN_KINDS },
      { key: "completeAfter", label: "Completes after (s or never)", type: "text", numberOrWord: true, width: "6em" },
      { key: "result", label: "Result", type: "select", options: RUN_RESULTS },
      { key: "resubmit", label: "Resubmits", type: "check" },
      { key: "resubmitAfter", label: "Resubmit after (s)", type: "number", optional: true, width: "6em" },
    ],
  });
  const task = document.createElement("div");
  task.className = "form-row";
  task.append(
    field("Begins a background task on entering the background:", "app.behavior.onEnterBackground", { type: "check" }),
    field("name", "app.behavior.onEnterBackground.name", { type: "text", width: "8em" }),
    field("ends after (s or never)", "app.behavior.onEnterBackground.endAfter", { type: "text", width: "5em" }),
    field("ends on expiration", "app.behavior.onEnterBackground.endOnExpiration", { type: "check" }),
  );
  const box = document.createElement("div");
  box.id = "fc-behavior";
  box.append(rows, task);
  const input = custom.querySelector("input");
  input.addEventListener("change", () => {
    box.hidden = !input.checked;
    if (input.checked && !tables.behavior.read().length) {
      tables.behavior.fill(behaviorRows(defaultBehavior(tables.submit.read())));
    }
  });
  return [custom, box];
}

/** Builds the form's fields into `form`, and shows the defaults. */
export function buildForm(form) {
  form.noValidate = true;   // the service judges the values: its problem names each field it refuses
  const osList = document.createElement("datalist");
  osList.id = "fc-os-versions";
  for (const v of ["26.0", "18.0", "17.0", "16.0", "15.0", "14.0", "13.0"]) osList.append(new Option(v));
  form.append(
    osList,
    group("Fleet",
      row(field("Devices", "devices", { min: 1, max: 100000, step: 1, width: "7em" }),
          field("Days", "days", { min: 1, max: 30, step: 1, width: "4.5em" }),
          field("Seed", "seed", { min: 0, step: 1, width: "8em", hint: "Device i depends only on (seed, i): the same request and seed give the same answer." }),
          field("iOS", "osVersion", { type: "text", list: "fc-os-versions", width: "5em" }))),
    group("App",
      row(field("Bundle id", "app.bundleId", { type: "text", width: "16em" })),
      ...plistPicker(showPlistKeys),
      modesField(),
      row(field("BGTaskSchedulerPermittedIdentifiers", "app.infoPlist.BGTaskSchedulerPermittedIdentifiers", { type: "text", width: "18em", placeholder: "identifiers, comma-separated" })),
      note("At each open the app submits:"),
      tableIn("submit", {
        label: "Launch submissions", path: "app.atLaunch.submit",
        columns: [
          { key: "kind", label: "Kind", type: "select", options: ["appRefresh", "processing"] },
          { key: "identifier", label: "Identifier", type: "text", width: "12em" },
          { key: "earliestBeginSeconds", label: "Earliest begin (s)", type: "number", optional: true, width: "5em", placeholder: "none" },
          { key: "requiresNetworkConnectivity", label: "Network", type: "check" },
          { key: "requiresExternalPower", label: "Power", type: "check" },
        ],
      }),
      fetchIntervalField(),
      more("More about the app",
        row(field("UIApplicationExitsOnSuspend", "app.infoPlist.UIApplicationExitsOnSuspend", { type: "check" })),
        row(field("Launch handlers registered", "app.launchHandlers", { type: "text", width: "22em", placeholder: "every permitted identifier" })),
        ...behaviorFields())),
    group("People",
      row(share("Low Power Mode on", "population.lowPowerModeShare", "Share of devices with Low Power Mode on all day (R18)"),
          share("Background App Refresh off", "population.backgroundAppRefreshOffShare", "Share with the device-wide switch off (R18)"),
          share("Force quit", "population.forceQuitShare", "Share who swipe the app away at the end of every session (R5)")),
      more("More about the people",
        row(share("Low Power Mode when low", "population.lowPowerModeWhenLowShare", "Share who turn it on at the level below, off at 80 %"),
            field("at battery %", "population.lowPowerModeBatteryLevel", { min: 1, max: 100, step: 1, width: "4.5em" }),
            share("App's own switch off", "population.appBackgroundAppRefreshOffShare")),
        note("Usage patterns (each person follows one, drawn by share):"),
        tableIn("usage", {
          label: "Usage patterns", path: "population.usage",
          columns: [
            { key: "name", label: "Name", type: "text", width: "7em" },
            { key: "share", label: "Share", type: "number", width: "4.5em" },
            { key: "hours", label: "Hours", type: "list", width: "6em" },
            { key: "opensPerDay", label: "Opens/day", type: "number", width: "4.5em" },
            { key: "spreadMinutes", label: "Spread (min)", type: "number", width: "4.5em" },
            { key: "sessionMinutes", label: "Session (min)", type: "number", width: "4.5em" },
          ],
        }),
        note("Charging habits:"),
        tableIn("charging", {
          label: "Charging habits", path: "population.charging",
          columns: [
            { key: "name", label: "Name", type: "text", width: "7em" },
            { key: "share", label: "Share", type: "number", width: "4.5em" },
            { key: "startHour", label: "Start hour", type: "number", optional: true, width: "4.5em", placeholder: "random" },
            { key: "durationHours", label: "Hours", type: "number", width: "4.5em" },
            { key: "daysShare", label: "Days share", type: "number", width: "4.5em" },
            { key: "spreadMinutes", label: "Spread (min)", type: "number", width: "4.5em" },
          ],
        }),
        row(field("Drain %/h unplugged from", "population.batteryDrainPerHour.min", { min: 0, max: 100, width: "4em" }),
            field("to", "population.batteryDrainPerHour.max", { min: 0, max: 100, width: "4em" }),
            field("Charge %/h", "population.chargePerHour", { min: 0, max: 100, width: "4em" }),
            field("Start battery % from", "population.startBattery.min", { min: 1, max: 100, width: "4em" }),
            field("to", "population.startBattery.max", { min: 1, max: 100, width: "4em" })),
        row(field("Home hours from", "population.network.homeFromHour", { min: 0, max: 24, width: "4em" }),
            field("to", "population.network.homeToHour", { min: 0, max: 24, width: "4em" })),
        row(document.createTextNode("At home:"),
            field("Wi-Fi", "population.network.home.wifi", { min: 0, width: "4.5em" }),
            field("cellular", "population.network.home.cellular", { min: 0, width: "4.5em" }),
            field("none", "population.network.home.none", { min: 0, width: "4.5em" })),
        row(document.createTextNode("Away:"),
            field("Wi-Fi", "population.network.away.wifi", { min: 0, width: "4.5em" }),
            field("cellular", "population.network.away.cellular", { min: 0, width: "4.5em" }),
            field("none", "population.network.away.none", { min: 0, width: "4.5em" })))),
    group("Pushes to the fleet",
      tableIn("pushes", {
        label: "Push schedules", path: "pushes",
        columns: [
          { key: "everyMinutes", label: "Every (min)", type: "number", optional: true, width: "5em" },
          { key: "atHours", label: "At hours", type: "list", optional: true, width: "7em" },
          { key: "priority", label: "Priority", type: "select", options: ["5", "10"], numeric: true },
          { key: "expirationSeconds", label: "Expires after (s)", type: "number", optional: true, width: "6em", placeholder: "never" },
        ],
      })),
  );
  fillRequest(DEFAULT_REQUEST);
}

// ---------------------------------------------------------------- reading and filling

function get(object, path) {
  return path.split(".").reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), object);
}

function set(object, path, value) {
  const keys = path.split(".");
  let o = object;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)] = value;
}

function inputs() { return [...$("forecast-form").querySelectorAll("input[data-path], select[data-path]")]; }

function setPath(path, value) {
  const input = $("forecast-form").querySelector(`input[data-path="${path}"]`);
  if (input.type === "checkbox") input.checked = Boolean(value);
  else input.value = Array.isArray(value) ? value.join(", ") : value === undefined || value === null ? "" : String(value);
}

function setModes(modes) {
  for (const box of $("forecast-form").querySelectorAll("[data-mode]")) box.checked = modes.includes(box.value);
}

function behaviorRows(behavior) {
  return RUN_KINDS.filter((k) => behavior[k]).map((kind) => ({ kind, ...behavior[kind] }));
}

/** Paths whose value is a list of words or numbers typed with commas, and the paths read by their own code. */
const WORDS = new Set(["app.infoPlist.BGTaskSchedulerPermittedIdentifiers", "app.launchHandlers"]);
const OWN = new Set(["app.buildSettings", "app.behavior", "app.behavior.onEnterBackground", "app.behavior.onEnterBackground.name",
  "app.behavior.onEnterBackground.endAfter", "app.behavior.onEnterBackground.endOnExpiration", "app.atLaunch.fetchInterval"]);

/** Shows `request` in the form (absent fields as the defaults). */
export function fillRequest(request) {
  detachPlist();   // a request shown has the keys read, as an object
  for (const input of inputs()) {
    const path = input.dataset.path;
    if (OWN.has(path)) continue;
    let value = get(request, path);
    if (value === undefined && path.startsWith("population.")) value = get({ population: DEFAULT_REQUEST.population }, path);
    setPath(path, value);
  }
  setModes(get(request, "app.infoPlist.UIBackgroundModes") || []);
  const interval = get(request, "app.atLaunch.fetchInterval");
  const select = $("fc-fetch-interval");
  select.value = interval === undefined || interval === null ? "" : typeof interval === "number" ? "seconds" : interval;
  $("fc-fetch-seconds").value = typeof interval === "number" ? String(interval) : "";
  select.dispatchEvent(new Event("change"));
  tables.submit.fill(get(request, "app.atLaunch.submit"));
  tables.usage.fill(get(request, "population.usage") ?? DEFAULT_REQUEST.population.usage);
  tables.charging.fill(get(request, "population.charging") ?? DEFAULT_REQUEST.population.charging);
  tables.pushes.fill(request.pushes);
  const behavior = get(request, "app.behavior");
  tables.behavior.fill(behavior ? behaviorRows(behavior) : []);
  const task = behavior && behavior.onEnterBackground;
  setPath("app.behavior.onEnterBackground", Boolean(task));
  setPath("app.behavior.onEnterBackground.name", task ? task.name : "save");
  setPath("app.behavior.onEnterBackground.endAfter", task ? task.endAfter : 3);
  setPath("app.behavior.onEnterBackground.endOnExpiration", task ? task.endOnExpiration : true);
  const custom = $("fc-behavior-custom");
  custom.checked = Boolean(behavior);
  $("fc-behavior").hidden = !custom.checked;
  markInvalid([]);
}

/** The request body the form holds. A number field left empty is left out (the service's default, or its problem). */
export function readRequest() {
  const request = {};
  for (const input of inputs()) {
    const path = input.dataset.path;
    if (OWN.has(path)) continue;
    const raw = input.value.trim();
    if (input.type === "checkbox") set(request, path, input.checked);
    else if (WORDS.has(path)) { if (raw || path !== "app.launchHandlers") set(request, path, raw.split(/[\s,]+/).filter(Boolean)); }
    else if (input.type === "number") { if (raw !== "") set(request, path, Number(raw)); }
    else set(request, path, raw);
  }
  set(request, "app.infoPlist.UIBackgroundModes",
    [...$("forecast-form").querySelectorAll("[data-mode]:checked")].map((b) => b.value));
  const interval = $("fc-fetch-interval").value;
  if (interval === "seconds") set(request, "app.atLaunch.fetchInterval", Number($("fc-fetch-seconds").value || "NaN"));
  else if (interval) set(request, "app.atLaunch.fetchInterval", interval);
  set(request, "app.atLaunch.submit", tables.submit.read());
  set(request, "population.usage", tables.usage.read());
  set(request, "population.charging", tables.charging.read());
  request.pushes = tables.pushes.read();
  if ($("fc-behavior-custom").checked) {
    const behavior = {};
    for (const { kind, ...run } of tables.behavior.read()) behavior[kind] = run;
    if ($("forecast-form").querySelector('[data-path="app.behavior.onEnterBackground"]').checked) {
      const value = (p) => $("forecast-form").querySelector(`[data-path="app.behavior.onEnterBackground.${p}"]`);
      const endAfter = value("endAfter").value.trim();
      behavior.onEnterBackground = {
        name: value("name").value.trim(),
        endAfter: Number.isFinite(Number(endAfter)) && endAfter !== "" ? Number(endAfter) : endAfter,
        endOnExpiration: value("endOnExpiration").checked,
      };
    }
    set(request, "app.behavior", behavior);
  }
  const file = attachedPlist();
  if (file) {
    request.app.infoPlist = file.payload;
    if (Object.keys(file.buildSettings).length) request.app.buildSettings = file.buildSettings;
    if (!request.app.bundleId) delete request.app.bundleId;   // the file's CFBundleIdentifier, when it writes one
  }
  return request;
}

/**
 * Marks the inputs a problem's `errors` name (`population.forceQuitShare`, `pushes[0].priority`, …) as invalid: the
 * input of that path, or the table or group of its list, opening the `<details>` it is in. Returns how many were
 * marked.
 */
export function markInvalid(errors) {
  const form = $("forecast-form");
  for (const e of form.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
  let marked = 0;
  for (const { field: name } of errors || []) {
    if (typeof name !== "string") continue;
    const path = name.replace(/\[\d+\].*$/, "").replace(/\[\d+\]/g, "");
    const target = form.querySelector(`[data-path="${CSS.escape(name)}"]`) || form.querySelector(`[data-path="${CSS.escape(path)}"]`)
      || form.querySelector(`[data-rows="${CSS.escape(path)}"]`);
    if (!target) continue;
    target.setAttribute("aria-invalid", "true");
    for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;   // seen
    marked += 1;
  }
  return marked;
}
