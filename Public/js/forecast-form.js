// The forecast form: it builds its fields (forecast-form-fields.js), wires them, and moves a request between them and
// its JSON. `readRequest()` gives the request body, `fillRequest(r)` shows one (a past forecast's, or the defaults).
// Inputs name their field by `data-path` (the request's JSON path), so a problem's `errors[].field` marks its input
// (forecast-form-invalid.js). It holds no rule of a request itself (forecast-request.js has them) and knows nothing of
// sending one, of forecasts or of the rest of the page.
import { $ } from "./dom.js";
import { DEFAULT_REQUEST, defaultBehavior } from "./forecast-defaults.js";
import { buildFields, tables } from "./forecast-form-fields.js";
import { byPath, checkedModes, pathInputs, showModes, showValue } from "./forecast-form-inputs.js";
import { markInvalid } from "./forecast-form-invalid.js";
import { attachedPlist, detachPlist } from "./forecast-plist-picker.js";
import {
  OWN, behaviorOf, behaviorRows, enterBackgroundFields, intervalChoice, intervalValue, putField, setAt, shownValue, valueAt,
  withPlistFile,
} from "./forecast-request.js";

/** Builds the form's fields into `form`, and shows the defaults. */
export function buildForm(form) {
  buildFields(form, { onPlistKeys: showPlistKeys });
  // The seconds box only with the choice that takes seconds.
  const select = $("fc-fetch-interval");
  const seconds = $("fc-fetch-seconds");
  const sync = () => { seconds.hidden = select.value !== "seconds"; };
  select.addEventListener("change", sync);
  sync();
  // Scripted handlers: the box of run behaviours, filled with what the service would script when it is empty.
  const custom = $("fc-behavior-custom");
  const box = $("fc-behavior");
  custom.addEventListener("change", () => {
    box.hidden = !custom.checked;
    if (custom.checked && !tables.behavior.read().length) {
      tables.behavior.fill(behaviorRows(defaultBehavior(tables.submit.read())));
    }
  });
  fillRequest(DEFAULT_REQUEST);
}

/** Shows the keys an Info.plist picked gives (`readInfoPlist`'s answer) in the app's fields. */
function showPlistKeys(found) {
  const bundleId = byPath("app.bundleId");
  if (found.bundleId) bundleId.value = found.bundleId;
  // The file names its bundle id by a build setting: the example id must not stand in for it. The service
  // takes the id typed here as PRODUCT_BUNDLE_IDENTIFIER, or the file's own once the settings resolve it.
  if (found.bundleIdSetting) { bundleId.value = ""; bundleId.placeholder = `from the file: ${found.bundleIdSetting}`; }
  if (found.UIBackgroundModes) showModes(found.UIBackgroundModes);
  if (found.BGTaskSchedulerPermittedIdentifiers) showValue("app.infoPlist.BGTaskSchedulerPermittedIdentifiers", found.BGTaskSchedulerPermittedIdentifiers);
  if (found.UIApplicationExitsOnSuspend !== undefined) showValue("app.infoPlist.UIApplicationExitsOnSuspend", found.UIApplicationExitsOnSuspend);
}

/** Shows `request` in the form (absent fields as the defaults). */
export function fillRequest(request) {
  detachPlist();   // a request shown has the keys read, as an object
  for (const input of pathInputs()) {
    const path = input.dataset.path;
    if (OWN.has(path)) continue;
    showValue(path, shownValue(request, path));
  }
  showModes(valueAt(request, "app.infoPlist.UIBackgroundModes") || []);
  const interval = intervalChoice(valueAt(request, "app.atLaunch.fetchInterval"));
  const select = $("fc-fetch-interval");
  select.value = interval.choice;
  $("fc-fetch-seconds").value = interval.seconds;
  select.dispatchEvent(new Event("change"));
  tables.submit.fill(valueAt(request, "app.atLaunch.submit"));
  tables.usage.fill(valueAt(request, "population.usage") ?? DEFAULT_REQUEST.population.usage);
  tables.charging.fill(valueAt(request, "population.charging") ?? DEFAULT_REQUEST.population.charging);
  tables.pushes.fill(request.pushes);
  const behavior = valueAt(request, "app.behavior");
  tables.behavior.fill(behavior ? behaviorRows(behavior) : []);
  const task = enterBackgroundFields(behavior);
  showValue("app.behavior.onEnterBackground", task.on);
  showValue("app.behavior.onEnterBackground.name", task.name);
  showValue("app.behavior.onEnterBackground.endAfter", task.endAfter);
  showValue("app.behavior.onEnterBackground.endOnExpiration", task.endOnExpiration);
  const custom = $("fc-behavior-custom");
  custom.checked = Boolean(behavior);
  $("fc-behavior").hidden = !custom.checked;
  markInvalid([]);
}

/** The request body the form holds. A number field left empty is left out (the service's default, or its problem). */
export function readRequest() {
  const request = {};
  for (const input of pathInputs()) {
    const path = input.dataset.path;
    if (OWN.has(path)) continue;
    putField(request, path, input.type, input.value, input.checked);
  }
  setAt(request, "app.infoPlist.UIBackgroundModes", checkedModes());
  const interval = intervalValue($("fc-fetch-interval").value, $("fc-fetch-seconds").value);
  if (interval !== undefined) setAt(request, "app.atLaunch.fetchInterval", interval);
  setAt(request, "app.atLaunch.submit", tables.submit.read());
  setAt(request, "population.usage", tables.usage.read());
  setAt(request, "population.charging", tables.charging.read());
  request.pushes = tables.pushes.read();
  if ($("fc-behavior-custom").checked) {
    const rows = tables.behavior.read();
    const task = byPath("app.behavior.onEnterBackground").checked ? {
      name: byPath("app.behavior.onEnterBackground.name").value,
      endAfter: byPath("app.behavior.onEnterBackground.endAfter").value,
      endOnExpiration: byPath("app.behavior.onEnterBackground.endOnExpiration").checked,
    } : null;
    setAt(request, "app.behavior", behaviorOf(rows, task));
  }
  const file = attachedPlist();
  if (file) withPlistFile(request, file);
  return request;
}
