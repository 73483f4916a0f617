// The forecast page: the form sends a forecast (`POST /v1/forecasts`); the forecast shown is followed by its progress
// events on the tenant's stream and by polling its resource; Cancel deletes it while it runs; once done its figures
// and plots show, with its rows as a CSV download; past forecasts are listed to reopen or delete. This is the page's
// controller: it decides which forecast is shown and when to read it again, and drops answers that come too late. It
// draws nothing itself (forecast-panel.js shows what it is told) and holds no words of a forecast (forecast-text.js).
import { $ } from "./dom.js";
import * as api from "./forecast-api.js";
import { DEFAULT_REQUEST } from "./forecast-defaults.js";
import { downloadRows } from "./forecast-download.js";
import { buildForm, fillRequest, readRequest } from "./forecast-form.js";
import { markInvalid } from "./forecast-form-invalid.js";
import { ForecastList } from "./forecast-list.js";
import {
  progressSeenSoFar, resetProgressSeen, showForecast, showNoForecast, showProgress, shownProgress, status,
} from "./forecast-panel.js";
import { ForecastStream } from "./forecast-stream.js";
import { seedProblem } from "./forecast-text.js";
import { state } from "./state.js";
import { setForecastLink } from "./url.js";

const view = {
  shown: false,
  current: null,        // the forecast object shown
  generation: 0,        // bumps when another forecast is shown: stale answers are dropped
  listing: false,       // a read of the list in flight
  listAgain: false,     // and another one asked for meanwhile
  pollTimer: null,
};

const stream = new ForecastStream(onProgressEvent);
const list = new ForecastList($("fc-list"), { onDelete: deleteForecast });

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
    showNoForecast();
    list.update([], null);
  }
}

/** Reads the list again; one read at a time, and one more after it when asked meanwhile. */
async function loadList() {
  if (view.listing) { view.listAgain = true; return; }
  view.listing = true;
  try {
    const answer = await api.listForecasts();
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
    const forecast = await api.readForecast(id);
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
  if (changed) resetProgressSeen();
  view.current = forecast;
  if (view.shown) setForecastLink(forecast.forecastId);   // not over the devices page's address
  showForecast(forecast);
  clearTimeout(view.pollTimer);
  if (forecast.state === "running") schedulePoll();
}

/** Polls the forecast shown while it runs: every 3 s while the stream is open, every second otherwise. */
function schedulePoll() {
  const generation = view.generation;
  const id = view.current.forecastId;
  view.pollTimer = setTimeout(async () => {
    if (generation !== view.generation || !view.shown) return;
    try {
      const forecast = await api.readForecast(id);
      if (generation !== view.generation || !view.current || view.current.forecastId !== id) return;
      if (forecast.state !== "running") { show(forecast); loadList(); return; }
      if (forecast.progress > shownProgress()) showProgress(forecast.progress, forecast.state, "poll");
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
    if (data.progress >= shownProgress()) showProgress(data.progress, "running", "stream");
    return;
  }
  // The end: its result (or problem) is committed before this event is sent.
  showProgress(data.state === "done" ? 1 : data.progress, data.state, "stream");
  const generation = view.generation;
  api.readForecast(data.forecastId).then((forecast) => {
    if (generation === view.generation) { show(forecast); loadList(); }
  }).catch((error) => { if (generation === view.generation) status(`Reading ${data.forecastId} failed: ${error.message}`, "bad"); });
}

function forgetCurrent(message) {
  view.generation += 1;
  clearTimeout(view.pollTimer);
  view.current = null;
  showNoForecast();
  setForecastLink(null);
  if (message) status(message, "good");
  loadList();
}

// ---------------------------------------------------------------- actions

async function submit(event) {
  event.preventDefault();
  markInvalid([]);
  const request = readRequest();
  const refused = seedProblem(request);
  if (refused) {
    status(refused, "bad");
    markInvalid([{ field: "seed" }]);
    return;
  }
  status("Starting the forecast…");
  $("fc-run").disabled = true;
  try {
    const forecast = await api.startForecast(request);
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
    await api.deleteForecast(id);
    if (view.current && view.current.forecastId === id) forgetCurrent(`${running ? "Cancelled and deleted" : "Deleted"} ${id}.`);
    else { status(`${running ? "Cancelled and deleted" : "Deleted"} ${id}.`, "good"); loadList(); }
  } catch (error) {
    status(`${running ? "Cancelling" : "Deleting"} ${id} failed: ${error.message}`, "bad");
  }
}

export function bindForecast() {
  buildForm($("forecast-form"));
  $("forecast-form").addEventListener("submit", submit);
  $("fc-reset").addEventListener("click", () => { fillRequest(DEFAULT_REQUEST); status("The form holds the defaults again."); });
  $("fc-cancel").addEventListener("click", () => view.current && deleteForecast(view.current.forecastId));
  $("fc-csv").addEventListener("click", async () => downloadRows(view.current.forecastId));
}

/** For the browser tests: the forecast shown and how its bar moved. */
export function forecastProbe() {
  return {
    id: view.current ? view.current.forecastId : null,
    state: view.current ? view.current.state : null,
    progressSeen: progressSeenSoFar(),
    streamEvents: stream.events,
    streamLive: stream.live,
  };
}
