// The words the forecast page says of a forecast (a `Forecast` object as the API gives it): its title, the line of
// when it ran and with what, its progress and its problem, and why a request is not sent. Plain functions of the
// data: they know no DOM, no API and nothing of what the page shows.
import { percent } from "./svg-plot.js";

/** `F-…: 1000 devices × 7 days`. */
export function forecastTitle(forecast) {
  const r = forecast.request || {};
  return `${forecast.forecastId}: ${r.devices} devices × ${r.days} days`;
}

/** When it started and finished, how fast it ran, and its seed, iOS version and app, joined by `·`. */
export function forecastMeta(f) {
  const parts = [`started ${f.createdAt ? f.createdAt.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC") : "?"}`];
  if (f.finishedAt) parts.push(`finished ${f.finishedAt.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC")}`);
  if (f.devicesPerSecond) parts.push(`${Math.round(f.devicesPerSecond).toLocaleString("en")} devices/s`);
  if (f.request) parts.push(`seed ${f.request.seed}`, `iOS ${f.request.osVersion}`, f.request.app ? f.request.app.bundleId : "");
  return parts.filter(Boolean).join(" · ");
}

/** Beside the progress bar: `running: 42 %`, `done: 100 %`, or the state (`failed`, `cancelled`). */
export function progressText(progress, forecastState) {
  return forecastState === "running" ? `running: ${percent(progress, 0)}`
    : forecastState === "done" ? "done: 100 %" : forecastState;
}

/** A failed forecast's problem in one line; "" when it did not fail or names no problem. */
export function failureText(forecast) {
  return forecast.state === "failed" && forecast.error
    ? `${forecast.error.title || "Failed"}: ${forecast.error.detail || ""}` : "";
}

/**
 * Why `request` is not sent, or null: JSON numbers in the browser are doubles, so a seed beyond the safe integers
 * would be sent rounded to another one.
 */
export function seedProblem(request) {
  if (request.seed !== undefined && !Number.isSafeInteger(request.seed)) {
    return `Forecast not sent: seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} here (the API takes any UInt64).`;
  }
  return null;
}
