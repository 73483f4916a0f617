// What the forecast page shows of the forecast it has open: the box with its title, progress bar, buttons, meta
// line, problem and answer (forecast-answer.js), its item marked in the past forecasts' list, the empty state when
// none is open, and the page's status line under the form. It also keeps, for the browser tests, how the progress
// bar moved (`[source, progress, state]`). It only writes what it is given: it knows no API, no timer and nothing of
// which forecast should be shown (forecast.js decides).
import { $ } from "./dom.js";
import { clearAnswer, showAnswer } from "./forecast-answer.js";
import { failureText, forecastMeta, forecastTitle, progressText } from "./forecast-text.js";

let progressSeen = [];   // [source, progress, state] as the bar moved

/** The status line under the form: what the last action did (`kind` `good` or `bad`). */
export function status(text, kind = "") {
  const s = $("fc-status");
  s.textContent = text;
  s.className = `action-status ${kind}`;
}

/** Shows `forecast`: its progress while it runs, its answer when done, its problem when failed. */
export function showForecast(forecast) {
  $("fc-empty").hidden = true;
  $("fc-current").hidden = false;
  $("fc-current").dataset.state = forecast.state;
  $("fc-current").dataset.forecastId = forecast.forecastId;
  $("fc-current-title").textContent = forecastTitle(forecast);
  showProgress(forecast.progress ?? 0, forecast.state, "get");
  $("fc-cancel").hidden = forecast.state !== "running";
  $("fc-csv").hidden = forecast.state !== "done";
  const error = $("fc-error");
  error.hidden = forecast.state !== "failed";
  error.textContent = failureText(forecast);
  $("fc-meta").textContent = forecastMeta(forecast);
  if (forecast.state === "done" && forecast.result) showAnswer(forecast.result);
  else clearAnswer();
  for (const a of $("fc-list").querySelectorAll("a")) {
    if (a.closest("li").dataset.forecastId === forecast.forecastId) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
  }
}

/** Shows that no forecast is open. */
export function showNoForecast() {
  $("fc-current").hidden = true;
  $("fc-empty").hidden = false;
}

/** Moves the progress bar to `progress` (0…1) in `forecastState`, as `source` (`get`, `poll`, `stream`) said. */
export function showProgress(progress, forecastState, source) {
  const bar = $("fc-progress");
  bar.value = Math.max(0, Math.min(1, progress));
  bar.dataset.state = forecastState;
  $("fc-progress-text").textContent = progressText(progress, forecastState);
  progressSeen.push([source, progress, forecastState]);
}

/** Where the progress bar is (0…1). */
export function shownProgress() { return $("fc-progress").value; }

/** Forgets how the bar moved (another forecast is shown). */
export function resetProgressSeen() { progressSeen = []; }

/** How the bar moved, oldest first (copies). */
export function progressSeenSoFar() { return progressSeen.map((p) => p.slice()); }
