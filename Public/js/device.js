// The device shown: switching to one loads its device record, its apps and the newest page of its events, then
// goes live on its stream; switching away (or signing out) drops whatever of the previous one is still in flight.
import { enc } from "./api.js";
import { showRun } from "./details.js";
import { refreshApps, renderDevice } from "./device-panel.js";
import { $ } from "./dom.js";
import { loadNewest, renderHistoryState, resetEvents } from "./events.js";
import { renderDeviceList } from "./sidebar.js";
import { state } from "./state.js";
import { closeStream, openStream } from "./stream.js";
import { linkedRun, setLink } from "./url.js";
import { setStream } from "./views.js";

/** Drops the device shown: its loads in flight are ignored from now on, its stream is closed. */
export function stopDevice() {
  state.generation += 1;
  closeStream();
}

export async function selectDevice(id) {
  stopDevice();
  const generation = state.generation;
  const linked = linkedRun(id);   // a link to one of the device's runs opens it once the device is shown
  state.deviceId = id;
  setLink(linked);
  renderDeviceList();
  state.apps = [];
  resetEvents();
  $("no-device").hidden = true;
  $("device-content").hidden = false;
  setStream("loading…");
  renderHistoryState();
  try {
    state.device = await state.api.get(`/v1/devices/${enc(id)}`);
    if (generation !== state.generation) return;
    renderDevice();
    refreshApps();
    if (!await loadNewest(id, generation)) return;
  } catch (error) {
    if (generation !== state.generation) return;
    setStream(`history failed: ${error.message} — retrying`, "bad");
    state.reopenTimer = setTimeout(() => { if (generation === state.generation) selectDevice(id); }, 3000);
    return;
  }
  $("feed").dataset.loaded = "true";
  renderHistoryState();
  // Live at once: the stream resumes after the newest event of that page.
  openStream(generation, () => selectDevice(state.deviceId));
  if (linked) showRun(linked.app, linked.run);
}
