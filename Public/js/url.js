// The page's address: `#device=…` names the device shown, `&app=…&run=…` a run whose detail is open (a link to share);
// `#forecast` the forecast page, `#forecast=…` a forecast opened on it.
import { state } from "./state.js";

/** The forecast the address names: "" for the forecast page without one, null when it names no forecast page. */
export function linkedForecast() {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.has("forecast") ? params.get("forecast") : null;
}

/** The address of the forecast page, with the forecast `id` open (or none). */
export function setForecastLink(id) {
  history.replaceState(null, "", id ? `#${new URLSearchParams({ forecast: id })}` : "#forecast");
}

/** The device the address names, or null. */
export function linkedDevice() {
  return new URLSearchParams(location.hash.slice(1)).get("device");
}

/** The run a link names (`#device=…&app=…&run=…`) on device `id`, or null. */
export function linkedRun(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const app = params.get("app"), run = params.get("run");
  return params.get("device") === id && app && run ? { app, run } : null;
}

/** The address of what is shown: the device, and the run when its detail is open (a link to share). */
export function setLink(run) {
  if (!state.deviceId || linkedForecast() !== null) return;   // the forecast page keeps its own address
  const params = new URLSearchParams({ device: state.deviceId, ...(run ? { app: run.app, run: run.run } : {}) });
  history.replaceState(null, "", `#${params}`);
}

/** The address without device (the device shown was deleted). */
export function clearLink() {
  history.replaceState(null, "", location.pathname);
}
