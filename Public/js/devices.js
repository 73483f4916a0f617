// The device list of the sidebar: a search box, the devices, and a delete action that asks first.
// Devices that a scenario run made (`scenario` names it) are folded into one group per scenario, and devices that
// share a name into one group under that name, after the user's own devices, so scenario runs do not bury them;
// a search opens every group. A device whose name another one has is shown with the end of its id after the name
// (`CI iPhone · …8b3f`), so the two can be told apart.

import { confirmDelete } from "./confirm-delete.js";
import { deviceLabel, shortId } from "./format.js";

const formatWall = (at) => (typeof at === "string" ? at.slice(5, 19).replace("T", " ") : "");

export class DeviceList {
  constructor(list, search, { onSelect, onDelete } = {}) {
    this.list = list;
    this.search = search;
    this.onSelect = onSelect;
    this.onDelete = onDelete;
    this.devices = [];
    this.currentId = null;
    this.confirming = null;     // the id of the device whose deletion is being asked about
    this.openGroups = new Set(); // names of the groups the user opened
    this.signature = "";
    search.addEventListener("input", () => this.render());
    search.addEventListener("keydown", (e) => { if (e.key === "Escape") { search.value = ""; this.render(); } });
  }

  /** Shows `devices` with `currentId` marked; draws only when something shown changed. */
  update(devices, currentId) {
    this.devices = devices;
    this.currentId = currentId;
    if (this.confirming && !devices.some((d) => d.id === this.confirming)) this.confirming = null;
    this.render();
  }

  get query() { return this.search.value.trim().toLowerCase(); }

  matches(d) {
    const q = this.query;
    return !q || [d.name, d.id, `ios ${d.osVersion}`, d.model, d.scenario]
      .some((v) => typeof v === "string" && v.toLowerCase().includes(q));
  }

  render(force = false) {
    const shown = this.devices.filter((d) => this.matches(d));
    const signature = JSON.stringify([shown.map((d) => [d.id, d.name, d.osVersion, d.scenario]), this.currentId, this.confirming,
                                      [...this.openGroups], this.query]);
    if (!force && signature === this.signature) return;
    this.signature = signature;
    // A scenario's devices make a group, and so do names held by more than one device; groups come after the
    // devices with a name of their own, scenario groups last.
    const byKey = new Map();
    for (const d of shown) {
      const key = d.scenario != null ? `scenario:${d.scenario}` : `name:${d.name}`;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(d);
    }
    const singles = [], groups = [], scenarios = [];
    for (const [key, devices] of byKey) {
      if (key.startsWith("scenario:")) scenarios.push(this.group(key, devices[0].scenario, devices, true));
      else if (devices.length === 1) singles.push(this.item(devices[0]));
      else groups.push(this.group(key, devices[0].name, devices, false));
    }
    const nodes = [...singles, ...groups, ...scenarios];
    if (!nodes.length && this.devices.length) {
      const li = document.createElement("li");
      li.className = "empty no-match";
      li.textContent = `No device matches “${this.search.value.trim()}”.`;
      nodes.push(li);
    }
    this.list.replaceChildren(...nodes);
    this.list.dataset.shown = String(shown.length);
  }

  group(key, name, devices, scenario) {
    const li = document.createElement("li");
    li.className = scenario ? "device-group scenario-group" : "device-group";
    li.dataset.name = name;
    const details = document.createElement("details");
    details.open = this.query !== "" || this.openGroups.has(key) || devices.some((d) => d.id === this.currentId);
    const summary = document.createElement("summary");
    summary.title = scenario ? `${devices.length} run${devices.length === 1 ? "" : "s"} of the scenario “${name}”`
      : `${devices.length} devices named “${name}”`;
    const label = document.createElement("span");
    label.className = "group-name";
    label.textContent = name;   // the summary's marker (style.css, ▸ or ▾) is its only arrow
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = String(devices.length);
    summary.append(label, count);
    const ul = document.createElement("ul");
    ul.className = "device-list";
    ul.append(...devices.map((d) => this.item(d, true)));
    details.append(summary, ul);
    // What the user opens stays open across redraws; a group a search opened closes with the search.
    summary.addEventListener("click", () => {
      if (details.open) this.openGroups.delete(key); else this.openGroups.add(key);
    });
    li.append(details);
    return li;
  }

  item(d, inGroup = false) {
    const li = document.createElement("li");
    li.className = "device-item";
    li.dataset.deviceId = d.id;
    const row = document.createElement("div");
    row.className = "device-row";
    const a = document.createElement("a");
    a.href = `#device=${d.id}`;
    a.dataset.deviceId = d.id;
    a.title = `${d.name} · iOS ${d.osVersion} · ${d.id}`;
    const label = deviceLabel(d, this.devices);
    const name = document.createElement("span");
    name.className = "device-name";
    name.textContent = label;
    a.append(name);
    const small = document.createElement("small");
    const apps = `${d.appCount ?? 0} app${d.appCount === 1 ? "" : "s"}`;
    // In a group the names are all the same: the end of the id after each, and when each was made, tell them apart.
    small.textContent = inGroup ? `iOS ${d.osVersion} · ${apps} · made ${formatWall(d.createdAt)}` : `iOS ${d.osVersion} · ${apps} · ${shortId(d.id, 14)}`;
    a.append(small);
    if (d.id === this.currentId) a.setAttribute("aria-current", "page");
    a.addEventListener("click", (e) => { e.preventDefault(); if (this.onSelect) this.onSelect(d.id); });
    const del = document.createElement("button");
    del.type = "button";
    del.className = "delete-device";
    del.textContent = "✕";
    del.title = `Delete ${label}`;
    del.setAttribute("aria-label", `Delete device ${label} (${d.id})`);
    del.addEventListener("click", () => { this.confirming = d.id; this.render(); this.list.querySelector(".confirm-no")?.focus(); });
    row.append(a, del);
    li.append(row);
    if (this.confirming === d.id) li.append(this.confirm(d));
    return li;
  }

  confirm(d) {
    const label = deviceLabel(d, this.devices);
    return confirmDelete({
      label: `Delete ${label}?`,
      text: `Delete “${label}” and all its events?`,
      keepLabel: "Cancel",
      onDelete: () => { this.confirming = null; if (this.onDelete) this.onDelete(d); },
      onKeep: () => { this.confirming = null; this.render(); },
    });
  }
}
