// The forecast request as the form sees it: a JSON object whose fields are named by dotted paths
// (`population.forceQuitShare`), which paths the form reads by its own code, how a field's value is written as text
// and read back, and the parts the form shows otherwise (the fetch interval's choice, the run behaviours as rows, the
// background task begun on entering the background, an Info.plist file sent as it is). Plain data: it knows no DOM,
// no input and no element; forecast-form.js moves values between it and the form's inputs.
import { DEFAULT_REQUEST, RUN_KINDS } from "./forecast-defaults.js";

/** The value at `path` (`app.atLaunch.submit`) in `object`, or undefined. */
export function valueAt(object, path) {
  return path.split(".").reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), object);
}

/** Sets the value at `path` in `object`, making the objects on the way. */
export function setAt(object, path, value) {
  const keys = path.split(".");
  let o = object;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)] = value;
}

/** Paths whose value is a list of words or numbers typed with commas, and the paths read by their own code. */
export const WORDS = new Set(["app.infoPlist.BGTaskSchedulerPermittedIdentifiers", "app.launchHandlers"]);
export const OWN = new Set(["app.buildSettings", "app.behavior", "app.behavior.onEnterBackground", "app.behavior.onEnterBackground.name",
  "app.behavior.onEnterBackground.endAfter", "app.behavior.onEnterBackground.endOnExpiration", "app.atLaunch.fetchInterval"]);

/** The value a field of `path` shows for `request`: a people's field the request leaves out shows its default. */
export function shownValue(request, path) {
  let value = valueAt(request, path);
  if (value === undefined && path.startsWith("population.")) value = valueAt({ population: DEFAULT_REQUEST.population }, path);
  return value;
}

/** A value as a text field shows it: a list with commas, nothing for none. */
export function fieldText(value) {
  return Array.isArray(value) ? value.join(", ") : value === undefined || value === null ? "" : String(value);
}

/**
 * Puts into `request` what a field of `path` holds: `type` is its input's type, `text` what it holds, `checked`
 * whether a checkbox is ticked. A number field left empty is left out (the service's default, or its problem), and
 * so is an empty list of launch handlers.
 */
export function putField(request, path, type, text, checked) {
  const raw = text.trim();
  if (type === "checkbox") setAt(request, path, checked);
  else if (WORDS.has(path)) { if (raw || path !== "app.launchHandlers") setAt(request, path, raw.split(/[\s,]+/).filter(Boolean)); }
  else if (type === "number") { if (raw !== "") setAt(request, path, Number(raw)); }
  else setAt(request, path, raw);
}

/** The fetch interval's choice for a request's `interval` (`""` none, `minimum`, `never`, `seconds`) and its seconds. */
export function intervalChoice(interval) {
  return {
    choice: interval === undefined || interval === null ? "" : typeof interval === "number" ? "seconds" : interval,
    seconds: typeof interval === "number" ? String(interval) : "",
  };
}

/** The request's fetch interval for a `choice` and the seconds typed; undefined for none. */
export function intervalValue(choice, secondsText) {
  if (choice === "seconds") return Number(secondsText || "NaN");
  return choice || undefined;
}

/** A behaviour (`{appRefresh: {...}, fetch: {...}}`) as table rows, one per run kind it scripts, in RUN_KINDS order. */
export function behaviorRows(behavior) {
  return RUN_KINDS.filter((k) => behavior[k]).map((kind) => ({ kind, ...behavior[kind] }));
}

/**
 * The behaviour the rows script, with the background task begun on entering the background when `task` is given
 * (`{name, endAfter, endOnExpiration}` as typed: a number of seconds is sent as one, a word such as `never` as it is).
 */
export function behaviorOf(rows, task) {
  const behavior = {};
  for (const { kind, ...run } of rows) behavior[kind] = run;
  if (task) {
    const endAfter = task.endAfter.trim();
    behavior.onEnterBackground = {
      name: task.name.trim(),
      endAfter: Number.isFinite(Number(endAfter)) && endAfter !== "" ? Number(endAfter) : endAfter,
      endOnExpiration: task.endOnExpiration,
    };
  }
  return behavior;
}

/** The background task fields for a request's `behavior`: the task it begins, or unticked with the example's values. */
export function enterBackgroundFields(behavior) {
  const task = behavior && behavior.onEnterBackground;
  return {
    on: Boolean(task),
    name: task ? task.name : "save",
    endAfter: task ? task.endAfter : 3,
    endOnExpiration: task ? task.endOnExpiration : true,
  };
}

/**
 * Puts an Info.plist `file` (`{payload, buildSettings}`) into `request` to be sent as it is: `app.infoPlist` is its
 * payload, with the build settings typed beside it; an empty bundle id is left out (the file's, when it writes one).
 */
export function withPlistFile(request, file) {
  request.app.infoPlist = file.payload;
  if (Object.keys(file.buildSettings).length) request.app.buildSettings = file.buildSettings;
  if (!request.app.bundleId) delete request.app.bundleId;   // the file's CFBundleIdentifier, when it writes one
  return request;
}

/** The path of the field or list a problem's `errors[].field` names: `pushes[0].priority` → `pushes`. */
export function problemPath(name) {
  return name.replace(/\[\d+\].*$/, "").replace(/\[\d+\]/g, "");
}
