// The tenant's devices in the sidebar: loaded page by page from the API, listed with their count and search box,
// and what the device view says while no device is shown.
import { enc } from "./api.js";
import { $ } from "./dom.js";
import { deviceTitle } from "./format.js";
import { state } from "./state.js";
import { deviceList } from "./widgets.js";

/** Loads every device of the tenant (all pages) and lists them. */
export async function loadDevices() {
  const items = [];
  let cursor = null;
  do {
    const page = await state.api.get(`/v1/devices?limit=500${cursor ? `&cursor=${enc(cursor)}` : ""}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  state.devices = items;
  renderDeviceList();
}

export function renderDeviceList() {
  // The search box appears once there is something to search; a hidden one filters nothing.
  $("device-search").hidden = state.devices.length < 2;
  if ($("device-search").hidden) $("device-search").value = "";
  deviceList.update(state.devices, state.deviceId);
  // Another device that takes the name of the one shown (or gives it up) changes how its title tells it apart.
  if (state.device && state.device.id === state.deviceId) $("device-title").textContent = deviceTitle(state.device, state.devices);
  $("empty-tenant").hidden = state.devices.length > 0;
  $("device-count").textContent = state.devices.length ? String(state.devices.length) : "";
  document.body.dataset.deviceCount = String(state.devices.length);
}

export function renderNoDevice() {
  $("no-device").hidden = false;
  $("device-content").hidden = true;
  const empty = state.devices.length === 0;
  $("no-device-text").textContent = empty
    ? "This tenant has no devices yet. Create one to emulate apps in the background."
    : "Select a device.";
  $("create-first").hidden = !empty;
}
