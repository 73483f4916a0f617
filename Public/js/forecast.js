// The forecast page: the form sends a forecast (`POST /v1/forecasts`); the forecast shown is followed by its progress
// events on the tenant's stream and by polling its resource; Cancel deletes it while it runs; once done its figures
// and plots show, with its rows as a CSV download; past forecasts are listed to reopen or delete.
import { enc } from "./api.js";
import { $, para } from "./dom.js";
import { DEFAULT_REQUEST } from "./forecast-defaults.js";
import { buildForm, fillRequest, readRequest } from "./forecast-form.js";
import { markInvalid } from "./forecast-form-invalid.js";
import { ForecastList } from "./forecast-list.js";
import { figuresTable, histogram, kindsOf, pushPlot, ranWithinPlot, whyNotPlot } from "./forecast-result.js";
import { ForecastStream } from "./forecast-stream.js";
import { state } from "./state.js";
import { percent } from "./svg-plot.js";
import { setForecastLink } from "./url.js";

const view = {
  shown: false,
  current: null,        // the forecast object shown
  generation: 0,        // bumps when another forecast is shown: stale answers are dropped
  listing: false,       // a read of the list in flight
  listAgain: false,     // and another one asked for meanwhile
  pollTimer: null,
  progressSeen: [],     // [source, progress, state] as the bar moved (for the browser tests)
};

const stream = new ForecastStream(onProgressEvent);
const list = new ForecastList($("fc-list"), { onDelete: deleteForecast });

function status(text, kind = "") {
  const s = $("fc-status");
  s.textContent = text;
  s.className = `action-status ${kind}`;
}

const path = (id) => `/v1/forecasts/${enc(id)}`;

// ---------------------------------------------------------------- the page

/** Shows the forecast page, with forecast `id` open when given (else the one shown, if any). */
export function showForecastPage(id) {
  if (!view.shown) {
    view.shown = true;
    stream.open(state.api);
    loadList();
    // Back on the page (by its link, or by an address naming the forecast shown): that forecast is read again,
    // as it may have moved or finished meanwhile, the form kept.
    if (view.current && (!id || id === view.current.forecastId)) { openForecast(view.current.forecastId, false); return; }
  }
  if (id && (!view.current || view.current.forecastId !== id)) openForecast(id, true);
}

/**
 * Leaves the forecast page: its stream and polling stop. The forecast shown stays for a return, unless `forget`
 * (signed out: another key may come).
 */
export function leaveForecastPage(forget = false) {
  view.shown = false;
  stream.close();
  clearTimeout(view.pollTimer);
  if (forget) {
    view.generation += 1;
    view.current = null;
    $("fc-current").hidden = true;
    $("fc-empty").hidden = false;
    list.update([], null);
  }
}

/** Reads the list again; one read at a time, and one more after it when asked meanwhile. */
async function loadList() {
  if (view.listing) { view.listAgain = true; return; }
  view.listing = true;
  try {
    const answer = await state.api.get("/v1/forecasts");
    if (view.shown) list.update(answer.forecasts || [], view.current && view.current.forecastId);
    $("fc-list-status").textContent = "";
  } catch (error) {
    $("fc-list-status").textContent = `The forecasts cannot be listed: ${error.message}`;
  } finally {
    view.listing = false;
    if (view.listAgain) { view.listAgain = false; if (view.shown) loadList(); }
  }
}

// ---------------------------------------------------------------- one forecast

/** Reads forecast `id` and shows it; `fill`: its request into the form too (to change it and run it again). */
async function openForecast(id, fill) {
  const generation = ++view.generation;
  status(`Opening ${id}…`);
  try {
    const forecast = await state.api.get(path(id));
    if (generation !== view.generation) return;
    status("");
    if (fill) fillRequest(forecast.request || DEFAULT_REQUEST);
    show(forecast);
  } catch (error) {
    if (generation !== view.generation) return;
    status(`Opening ${id} failed: ${error.message}`, "bad");
  }
}

/** Shows `forecast`: its progress while it runs (and follows it), its answer when done, its problem when failed. */
function show(forecast) {
  const changed = !view.current || view.current.forecastId !== forecast.forecastId;
  if (changed) view.progressSeen = [];
  view.current = forecast;
  if (view.shown) setForecastLink(forecast.forecastId);   // not over the devices page's address
  $("fc-empty").hidden = true;
  $("fc-current").hidden = false;
  $("fc-current").dataset.state = forecast.state;
  $("fc-current").dataset.forecastId = forecast.forecastId;
  const r = forecast.request || {};
  $("fc-current-title").textContent = `${forecast.forecastId}: ${r.devices} devices × ${r.days} days`;
  setProgress(forecast.progress ?? 0, forecast.state, "get");
  $("fc-cancel").hidden = forecast.state !== "running";
  $("fc-csv").hidden = forecast.state !== "done";
  const error = $("fc-error");
  error.hidden = forecast.state !== "failed";
  error.textContent = forecast.state === "failed" && forecast.error
    ? `${forecast.error.title || "Failed"}: ${forecast.error.detail || ""}` : "";
  $("fc-meta").textContent = meta(forecast);
  if (forecast.state === "done" && forecast.result) renderResult(forecast.result);
  else { $("fc-figures-box").replaceChildren(); $("fc-plots").replaceChildren(); }
  for (const a of $("fc-list").querySelectorAll("a")) {
    if (a.closest("li").dataset.forecastId === forecast.forecastId) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
  }
  clearTimeout(view.pollTimer);
  if (forecast.state === "running") schedulePoll();
}

function meta(f) {
  const parts = [`started ${f.createdAt ? f.createdAt.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC") : "?"}`];
  if (f.finishedAt) parts.push(`finished ${f.finishedAt.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC")}`);
  if (f.devicesPerSecond) parts.push(`${Math.round(f.devicesPerSecond).toLocaleString("en")} devices/s`);
  if (f.request) parts.push(`seed ${f.request.seed}`, `iOS ${f.request.osVersion}`, f.request.app ? f.request.app.bundleId : "");
  return parts.filter(Boolean).join(" · ");
}

function setProgress(progress, forecastState, source) {
  const bar = $("fc-progress");
  bar.value = Math.max(0, Math.min(1, progress));
  bar.dataset.state = forecastState;
  $("fc-progress-text").textContent = forecastState === "running" ? `running: ${percent(progress, 0)}`
    : forecastState === "done" ? "done: 100 %" : forecastState;
  view.progressSeen.push([source, progress, forecastState]);
}

/** Polls the forecast shown while it runs: every 3 s while the stream is open, every second otherwise. */
function schedulePoll() {
  const generation = view.generation;
  const id = view.current.forecastId;
  view.pollTimer = setTimeout(async () => {
    if (generation !== view.generation || !view.shown) return;
    try {
      const forecast = await state.api.get(path(id));
      if (generation !== view.generation || !view.current || view.current.forecastId !== id) return;
      if (forecast.state !== "running") { show(forecast); loadList(); return; }
      if (forecast.progress > $("fc-progress").value) setProgress(forecast.progress, forecast.state, "poll");
    } catch (error) {
      if (generation !== view.generation) return;
      if (error.status === 404) { forgetCurrent(`${id} no longer exists.`); return; }
      status(`Reading ${id} failed: ${error.message} — retrying`, "bad");
    }
    schedulePoll();
  }, stream.live ? 3000 : 1000);
}

function onProgressEvent(data) {
  if (!list.progress(data) && data.state === "running") loadList();   // a forecast started elsewhere
  const current = view.current;
  if (!current || current.forecastId !== data.forecastId || current.state !== "running") return;
  if (data.state === "running") {
    if (data.progress >= $("fc-progress").value) setProgress(data.progress, "running", "stream");
    return;
  }
  // The end: its result (or problem) is committed before this event is sent.
  setProgress(data.state === "done" ? 1 : data.progress, data.state, "stream");
  const generation = view.generation;
  state.api.get(path(data.forecastId)).then((forecast) => {
    if (generation === view.generation) { show(forecast); loadList(); }
  }).catch((error) => { if (generation === view.generation) status(`Reading ${data.forecastId} failed: ${error.message}`, "bad"); });
}

function forgetCurrent(message) {
  view.generation += 1;
  clearTimeout(view.pollTimer);
  view.current = null;
  $("fc-current").hidden = true;
  $("fc-empty").hidden = false;
  setForecastLink(null);
  if (message) status(message, "good");
  loadList();
}

// ---------------------------------------------------------------- the answer

function renderResult(result) {
  const kinds = kindsOf(result);
  $("fc-figures-box").replaceChildren(kinds.length ? figuresTable(result)
    : para("The app neither submits BGTask requests nor sets a fetch interval at launch: there are no runs to forecast.", "muted"));
  const plots = [];
  if (kinds.length) {
    plots.push(figure("fc-plot-ran", ranWithinPlot(result)));
    plots.push(histogramFigure(result, kinds));
    plots.push(figure("fc-plot-whynot", whyNotPlot(result)));
  }
  if (result.pushes && result.pushes.sent > 0) plots.push(figure("fc-plot-pushes", pushPlot(result.pushes)));
  $("fc-plots").replaceChildren(...plots);
}

function figure(id, svg) {
  const f = document.createElement("figure");
  f.id = id;
  f.className = "plot-box";
  f.append(svg);
  return f;
}

/** The histogram of one kind at a time, with a switch between kinds when there are several. */
function histogramFigure(result, kinds) {
  const f = figure("fc-plot-histogram", histogram(result, kinds[0].key));
  if (kinds.length > 1) {
    const fieldset = document.createElement("fieldset");
    fieldset.className = "kind-switch";
    const legend = document.createElement("legend");
    legend.className = "visually-hidden";
    legend.textContent = "Histogram of";
    fieldset.append(legend);
    kinds.forEach((k, n) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      Object.assign(input, { type: "radio", name: "fc-histogram-kind", value: k.key, checked: n === 0 });
      input.addEventListener("change", () => f.querySelector("svg").replaceWith(histogram(result, k.key)));
      label.append(input, ` ${k.label}`);
      fieldset.append(label);
    });
    f.prepend(fieldset);
  }
  return f;
}

// ---------------------------------------------------------------- actions

async function submit(event) {
  event.preventDefault();
  markInvalid([]);
  const request = readRequest();
  if (request.seed !== undefined && !Number.isSafeInteger(request.seed)) {
    // JSON numbers in the browser are doubles: a larger seed would be sent rounded to another one.
    status(`Forecast not sent: seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} here (the API takes any UInt64).`, "bad");
    markInvalid([{ field: "seed" }]);
    return;
  }
  status("Starting the forecast…");
  $("fc-run").disabled = true;
  try {
    const forecast = await state.api.post("/v1/forecasts", request);
    view.generation += 1;
    status(`Started ${forecast.forecastId}.`, "good");
    show(forecast);
    loadList();
  } catch (error) {
    status(`Forecast refused: ${error.message}`, "bad");
    markInvalid(error.problem && error.problem.errors);
  } finally {
    $("fc-run").disabled = false;
  }
}

async function deleteForecast(id) {
  const running = (view.current && view.current.forecastId === id && view.current.state === "running")
    || list.items.some((f) => f.forecastId === id && f.state === "running");
  status(`${running ? "Cancelling" : "Deleting"} ${id}…`);
  try {
    await state.api.del(path(id));
    if (view.current && view.current.forecastId === id) forgetCurrent(`${running ? "Cancelled and deleted" : "Deleted"} ${id}.`);
    else { status(`${running ? "Cancelled and deleted" : "Deleted"} ${id}.`, "good"); loadList(); }
  } catch (error) {
    status(`${running ? "Cancelling" : "Deleting"} ${id} failed: ${error.message}`, "bad");
  }
}

async function downloadCsv() {
  const id = view.current.forecastId;
  status(`Downloading the rows of ${id}…`);
  try {
    const blob = await state.api.blob(`${path(id)}/devices`, "text/csv");
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `forecast-${id}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    status(`Downloaded forecast-${id}.csv (${blob.size.toLocaleString("en")} bytes).`, "good");
  } catch (error) {
    status(`Download failed: ${error.message}`, "bad");
  }
}

export function bindForecast() {
  buildForm($("forecast-form"));
  $("forecast-form").addEventListener("submit", submit);
  $("fc-reset").addEventListener("click", () => { fillRequest(DEFAULT_REQUEST); status("The form holds the defaults again."); });
  $("fc-cancel").addEventListener("click", () => view.current && deleteForecast(view.current.forecastId));
  $("fc-csv").addEventListener("click", downloadCsv);
}

/** For the browser tests: the forecast shown and how its bar moved. */
export function forecastProbe() {
  return {
    id: view.current ? view.current.forecastId : null,
    state: view.current ? view.current.state : null,
    progressSeen: view.progressSeen.map((p) => p.slice()),
    streamEvents: stream.events,
    streamLive: stream.live,
  };
}
