// The forecast form's fields, built once: every field of a forecast request, the rarely changed ones in `<details>`,
// each input naming its field by `data-path` (the request's JSON path), the lists in tables of rows (`tables`), the
// Info.plist picker, the fetch interval's choice and the run behaviours' box. It only makes elements and adds no
// listener itself (the row tables and the picker keep their own): forecast-form.js wires the fields and fills them
// in. It knows nothing of reading or showing a request.
import { BACKGROUND_MODES, BLANK, RUN_KINDS, RUN_RESULTS } from "./forecast-defaults.js";
import { field, group, more, note, row, share } from "./form-parts.js";
import { plistPicker } from "./forecast-plist-picker.js";
import { RowTable } from "./row-table.js";

/** The form's tables of rows by name (`submit`, `behavior`, `usage`, `charging`, `pushes`), once built. */
export const tables = {};

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
  label.append("setMinimumBackgroundFetchInterval ", select);
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
  return [custom, box];
}

/** Builds the form's fields into `form`; `onPlistKeys(found)` gets the keys of an Info.plist picked. */
export function buildFields(form, { onPlistKeys }) {
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
      ...plistPicker(onPlistKeys),
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
}
