// The bgemu live dashboard: sign-in, devices, swimlanes, live event feed, details and tester controls.
// This file wires the modules together; each concern lives in its own module:
//   session.js        the API key: sign-in, sign-out, 401 and unreachable, the periodic device refresh
//   sidebar.js        the tenant's devices listed;  device-actions.js  create and delete a device
//   device.js         the device shown: switching loads it, then goes live
//   events.js         its events in the feed and the lanes, older pages, the history line
//   stream.js         its live stream: reconnect, and resume after a 410 (events pruned)
//   device-panel.js   its name, clock, conditions, apps and pending task requests
//   details.js        the detail panel;  controls.js  the tester's controls;  url.js  the page's address
//   pages.js          the devices page or the forecast page, as the address says
//   forecast.js       the forecast page's controller: forecast-api.js (its routes), forecast-text.js (its words),
//                     forecast-panel.js (the forecast shown, with forecast-answer.js), forecast-download.js (CSV),
//                     forecast-form.js (with forecast-form-fields.js, forecast-form-inputs.js,
//                     forecast-form-invalid.js, forecast-request.js, forecast-plist-picker.js, form-parts.js,
//                     row-table.js, plist.js and forecast-defaults.js), forecast-stream.js (progress events),
//                     forecast-list.js, forecast-result.js (with svg-plot.js)
//   widgets.js        the widgets: feed.js, devices.js and the lanes (lanes.js, the view, over lane-model.js,
//                     lane-time.js, lane-drawing.js, lane-marks.js and lane-svg.js)
//   state.js, views.js, dom.js   shared state, status lines, element helpers
import { bindControls } from "./controls.js";
import { bindDeviceForm, deleteDevice } from "./device-actions.js";
import { selectDevice } from "./device.js";
import { closeDetail, showEvent, showLaneItem, showRun } from "./details.js";
import { $ } from "./dom.js";
import { loadOlder, onLaneRange } from "./events.js";
import { bindForecast, forecastProbe } from "./forecast.js";
import { bindPages, syncPage } from "./pages.js";
import { bindSession, start } from "./session.js";
import { state } from "./state.js";
import { EVENT_TYPES } from "./stream.js";
import { SUMMARIES } from "./summaries.js";
import { linkedDevice, linkedRun } from "./url.js";
import { deviceList, feed, lanes } from "./widgets.js";

// What the widgets' clicks and scrolls do.
feed.onSelect = showEvent;
feed.onNearTop = () => loadOlder();
feed.onFollowChange = (follow) => { $("follow").checked = follow; };
lanes.onSelect = (kind, bundleId, ref, data) => { if (kind === "history") loadOlder(); else showLaneItem(kind, bundleId, ref, data); };
lanes.onRange = onLaneRange;
deviceList.onSelect = selectDevice;
deviceList.onDelete = deleteDevice;

bindSession();
bindDeviceForm();
bindControls();
bindForecast();
bindPages();
$("detail-close").addEventListener("click", closeDetail);

// Following the live end of the feed: the box and the feed (which stops following when the reader scrolls away).
$("follow").addEventListener("change", () => feed.setFollow($("follow").checked));

$("zoom-in").addEventListener("click", () => lanes.zoom(0.5));
$("zoom-out").addEventListener("click", () => lanes.zoom(2));
$("pan-left").addEventListener("click", () => lanes.pan(-0.25));
$("pan-right").addEventListener("click", () => lanes.pan(0.25));
$("zoom-fit").addEventListener("click", () => lanes.fit());

// A link followed on the page: the forecast page or one of its forecasts, another device, or a run of the one shown.
window.addEventListener("hashchange", () => {
  if (syncPage() === "forecast") return;
  const id = linkedDevice();
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
  forecast: () => forecastProbe(),
});

start();
