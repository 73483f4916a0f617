// The head of the device view and what it shows of the device: its name and clock, its conditions in their
// controls, its apps in the app menu (the app controls work once there is one), and its pending task requests.
import { enc } from "./api.js";
import { showTaskRequest } from "./details.js";
import { $ } from "./dom.js";
import { deviceTitle, formatVirtual, shortId } from "./format.js";
import { state } from "./state.js";
import { lanes, model } from "./widgets.js";

export function renderDevice() {
  const d = state.device;
  $("device-title").textContent = deviceTitle(d, state.devices);
  $("device-clock").textContent = `virtual time ${formatVirtual(d.clock.now)}`;
  const c = d.conditions || {};
  // A control the tester is using keeps what they set.
  const set = (id, apply) => { if (document.activeElement !== $(id)) apply($(id)); };
  set("c-battery", (e) => { e.value = c.batteryLevel ?? 100; $("c-battery-out").textContent = String(e.value); });
  set("c-charging", (e) => { e.checked = !!c.charging; });
  set("c-lpm", (e) => { e.checked = !!c.lowPowerMode; });
  set("c-network", (e) => { e.value = c.network || "wifi"; });
  set("c-bar", (e) => { e.checked = c.backgroundAppRefresh !== false; });
}

/** Reads the device's apps and the device again, and shows them (the lanes get a lane for each installed app). */
export async function refreshApps() {
  if (!state.deviceId) return;
  const generation = state.generation;
  try {
    const page = await state.api.get(`/v1/devices/${enc(state.deviceId)}/apps?limit=500`);
    if (generation !== state.generation) return;
    state.apps = page.items || [];
    if (model.setInstalled(state.apps)) lanes.schedule();
    const device = await state.api.get(`/v1/devices/${enc(state.deviceId)}`);
    if (generation !== state.generation) return;
    state.device = device;
    renderDevice();
  } catch { return; }
  const select = $("app-select");
  const previous = select.value;
  select.replaceChildren(...state.apps.map((a) => {
    const o = document.createElement("option");
    o.value = a.bundleId;
    o.title = a.bundleId;
    o.textContent = `${shortId(a.bundleId, 24)} (${a.state})`;
    return o;
  }));
  select.title = select.value;
  if (state.apps.some((a) => a.bundleId === previous)) select.value = previous;
  for (const b of document.querySelectorAll("[data-action]")) {
    if (b.dataset.action !== "install-sample") b.disabled = state.apps.length === 0;
  }
  renderPending();
}

function renderPending() {
  const box = $("pending");
  const nodes = [];
  for (const app of state.apps) {
    for (const request of app.taskRequests || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "pending-request";
      b.textContent = `pending ${request.kind}: ${request.identifier}`;
      b.addEventListener("click", () => showTaskRequest(app.bundleId, request));
      nodes.push(b);
    }
  }
  if (!nodes.length) {
    const span = document.createElement("span");
    span.className = "muted";
    span.textContent = "No pending task requests.";
    nodes.push(span);
  }
  box.replaceChildren(...nodes);
}
