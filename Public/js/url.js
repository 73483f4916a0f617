// The page's address: `#device=…` names the device shown, `&app=…&run=…` a run whose detail is open (a link to share).
import { state } from "./state.js";

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
  if (!state.deviceId) return;
  const params = new URLSearchParams({ device: state.deviceId, ...(run ? { app: run.app, run: run.run } : {}) });
  history.replaceState(null, "", `#${params}`);
}

/** The address without device (the device shown was deleted). */
export function clearLink() {
  history.replaceState(null, "", location.pathname);
}
