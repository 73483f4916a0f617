// Making and deleting devices from the sidebar: the create form (and the empty tenant's button that submits it),
// and the delete the device list asks about first.
import { enc } from "./api.js";
import { selectDevice, stopDevice } from "./device.js";
import { $ } from "./dom.js";
import { loadDevices, renderDeviceList, renderNoDevice } from "./sidebar.js";
import { state } from "./state.js";
import { clearLink } from "./url.js";
import { status } from "./views.js";

/** Creates a device from the form, then shows it. */
async function createDevice(e) {
  e.preventDefault();
  const body = { name: $("dev-name").value.trim() || "iPhone", osVersion: $("dev-os").value };
  try {
    const device = await state.api.post("/v1/devices", body);
    await loadDevices();
    selectDevice(device.id);
    status(`Created ${device.name} (${device.id}).`, "good");
  } catch (error) { status(`Create a device: ${error.message}`, "bad"); }
}

/** Deletes a device (asked first by the list); the next one is shown if it was the one shown. */
export async function deleteDevice(device) {
  const box = $("device-list-status");
  try {
    await state.api.del(`/v1/devices/${enc(device.id)}`);
  } catch (error) {
    box.textContent = `Delete ${device.name}: ${error.message}`;
    box.className = "device-list-status bad";
    renderDeviceList();
    return;
  }
  box.textContent = `Deleted ${device.name} (${device.id}).`;
  box.className = "device-list-status good";
  state.devices = state.devices.filter((d) => d.id !== device.id);
  if (state.deviceId === device.id) {
    stopDevice();
    state.deviceId = null;
    $("detail").hidden = true;
    clearLink();
  }
  renderDeviceList();
  try { await loadDevices(); } catch { /* the periodic refresh tries again */ }
  if (!state.deviceId) {
    if (state.devices.length) selectDevice(state.devices[0].id); else renderNoDevice();
  }
}

export function bindDeviceForm() {
  $("create-device").addEventListener("submit", createDevice);
  $("create-first").addEventListener("click", () => $("create-device").requestSubmit());
}
