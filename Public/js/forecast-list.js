// The tenant's past forecasts (`GET /v1/forecasts`, newest first): each a link that reopens it, with its state, size
// and app, and a button that deletes it once confirmed (as a device is). A running one's progress follows the stream.
import { confirmDelete } from "./confirm-delete.js";
import { percent } from "./svg-plot.js";

/** A wall-clock instant (RFC 3339) as `YYYY-MM-DD hh:mm:ss` UTC. */
function when(at) {
  return at ? at.replace("T", " ").replace(/(\.\d+)?Z$/, "") : "";
}

export class ForecastList {
  /** The list in `element`; `onDelete(id)` when its delete button is pressed. */
  constructor(element, { onDelete }) {
    this.element = element;
    this.onDelete = onDelete;
    this.items = [];
    this.confirming = null;   // the id of the forecast whose deletion is being asked about
  }

  /** Lists `items` (forecast objects without result), marking `currentId`. */
  update(items, currentId) {
    this.items = items;
    this.currentId = currentId;
    if (!items.some((f) => f.forecastId === this.confirming)) this.confirming = null;
    this.element.replaceChildren(...items.map((f) => this.item(f)));
    if (!items.length) {
      const li = document.createElement("li");
      li.className = "empty";
      li.textContent = "No forecast yet.";
      this.element.append(li);
    }
  }

  /** A stream event about one of them: its state and progress without reading the list again. */
  progress({ forecastId, state, progress }) {
    const item = this.items.find((f) => f.forecastId === forecastId);
    if (!item) return false;
    const changed = item.state !== state;
    Object.assign(item, { state, progress });
    const li = this.element.querySelector(`li[data-forecast-id="${CSS.escape(forecastId)}"]`);
    if (!li) return true;
    // Only its state text while it runs: the item kept, so is the focus on its link, × or confirmation.
    if (changed) li.replaceWith(this.item(item));
    else li.querySelector(".fc-state").textContent = stateText(item);
    return true;
  }

  item(f) {
    const li = document.createElement("li");
    li.dataset.forecastId = f.forecastId;
    li.dataset.state = f.state;
    const a = document.createElement("a");
    a.href = `#${new URLSearchParams({ forecast: f.forecastId })}`;
    if (f.forecastId === this.currentId) a.setAttribute("aria-current", "true");
    const request = f.request || {};
    a.append(
      Object.assign(document.createElement("span"), { className: `fc-state ${f.state}`, textContent: stateText(f) }),
      ` ${request.devices ?? "?"} × ${request.days ?? "?"} d · ${(request.app && request.app.bundleId) || ""}`,
      Object.assign(document.createElement("small"), { textContent: `${f.forecastId} · ${when(f.createdAt)}` }),
    );
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "delete-forecast";
    remove.textContent = "×";
    remove.title = f.state === "running" ? "Cancel and delete" : "Delete";
    remove.setAttribute("aria-label", `${remove.title} ${f.forecastId}`);
    remove.addEventListener("click", () => {
      this.confirming = f.forecastId;
      li.replaceWith(this.item(f));
      this.element.querySelector(".confirm-no")?.focus();
    });
    const row = document.createElement("div");
    row.className = "forecast-row";
    row.append(a, remove);
    li.append(row);
    if (this.confirming === f.forecastId) li.append(this.confirm(f));
    return li;
  }

  confirm(f) {
    return confirmDelete({
      label: `Delete ${f.forecastId}?`,
      text: f.state === "running" ? `Cancel ${f.forecastId} and delete it?` : `Delete ${f.forecastId}, its result and its rows?`,
      keepLabel: "Keep",
      onDelete: () => { this.confirming = null; this.onDelete(f.forecastId); },
      onKeep: () => { this.confirming = null; this.update(this.items, this.currentId); },
    });
  }
}

/** `running 42 %`, `done`, `failed`. */
function stateText(f) {
  return f.state === "running" ? `running ${percent(f.progress || 0, 0)}` : f.state;
}
