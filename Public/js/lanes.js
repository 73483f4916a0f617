// Swimlanes: one lane per app over virtual time, built incrementally from events and drawn as SVG.
// Drawing costs at most a few rectangles per pixel column per lane, however long the history.
// When only the newest part of a device's history is loaded, the time before it is drawn as "history not
// loaded" (class `state-unknown`), and an app's state stays unknown until a loaded event says what it is.
// Each lane: its states (a band), its runs and background tasks (bars at least a few pixels wide, to see and
// click) and, when the app got pushes, one mark per push: where it arrived and what became of it.
import { shortId } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";
const LABEL_WIDTH = 170;
const AXIS_HEIGHT = 22;
const LANE_HEIGHT = 42;       // states, runs, background tasks
const PUSH_ROW = 16;          // and below them the pushes, on a lane that has any
const RUN_MIN_WIDTH = 8;      // a run of two seconds in a day is still a mark to see and click
const TICKS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400, 30 * 86400]
  .map((s) => s * 1000);

export class LaneModel {
  constructor() { this.installed = []; this.reset(); }

  reset() {
    this.apps = new Map();
    this.start = null;   // ms of the first event
    this.now = null;     // ms of the device clock
    this.historyFrom = null;  // ms of the oldest loaded event while older ones are not loaded; null when all are
  }

  /** Builds the model again from `events` (oldest first); `complete` says whether they are the whole history. */
  rebuild(events, complete) {
    this.reset();
    if (!complete && events.length) {
      const t = Date.parse(events[0].at);
      if (!Number.isNaN(t)) this.historyFrom = t;
    }
    for (const event of events) this.apply(event);
    this.addInstalled();
  }

  /**
   * The device's apps as the apps list gives them (`[{bundleId, state}]`, kept across rebuilds): an installed
   * app whose events are all older than the loaded ones still gets its lane. No loaded event changed its state,
   * so over the loaded span it is in the state it is in now; before that span it is unknown, like every lane.
   */
  setInstalled(apps) {
    this.installed = apps.map((a) => ({ bundleId: a.bundleId, state: a.state }));
    return this.addInstalled();
  }

  /** Adds the lanes of installed apps that have none; answers whether it added one (the view needs drawing). */
  addInstalled() {
    if (this.historyFrom === null) return false;   // the whole history is loaded: every app has its events
    let added = false;
    for (const app of this.installed) {
      if (this.apps.has(app.bundleId)) continue;
      added = true;
      this.apps.set(app.bundleId, newLane(app.bundleId, app.state,
        { start: this.historyFrom, end: null, state: app.state, cause: "no loaded event: its state now" }));
    }
    return added;
  }

  lane(bundleId, t) {
    let lane = this.apps.get(bundleId);
    if (!lane) {
      // Without the whole history, what the app did before its first loaded event is unknown.
      const state = this.historyFrom === null ? "notRunning" : "unknown";
      const start = this.historyFrom === null ? t : Math.min(t, this.historyFrom);
      lane = newLane(bundleId, state, { start, end: null, state });
      this.apps.set(bundleId, lane);
    }
    return lane;
  }

  apply(event) {
    const t = Date.parse(event.at);
    if (Number.isNaN(t)) return;
    if (this.start === null || t < this.start) this.start = t;
    if (this.now === null || t > this.now) this.now = t;
    const d = event.data || {};
    if (event.type === "clock.advanced" && d.to) this.now = Math.max(this.now, Date.parse(d.to));
    if (!event.bundleId) return;
    const lane = this.lane(event.bundleId, t);
    switch (event.type) {
      case "app.installed": {
        lane.removed = false;
        if (lane.state === "unknown") {
          this.close(lane, t);
          lane.state = "notRunning";
          lane.segments.push({ start: t, end: null, state: lane.state });
        }
        break;
      }
      case "app.uninstalled": this.close(lane, t); lane.removed = true; break;
      case "app.stateChanged": {
        this.close(lane, t);
        lane.state = d.to || "notRunning";
        lane.segments.push({ start: t, end: null, state: lane.state, cause: d.cause });
        break;
      }
      case "run.started": {
        const run = { id: d.runId, start: t, end: null, kind: d.kind, identifier: d.identifier, deadline: d.deadline, outcome: null };
        lane.runs.set(d.runId, run);
        lane.runList.push(run);
        break;
      }
      case "run.completed": case "run.expired": {
        const run = lane.runs.get(d.runId);
        if (run) { run.end = t; run.outcome = event.type === "run.expired" ? "expired" : (d.result || "completed"); }
        if (event.type === "run.expired") lane.expiries.push({ at: t, label: `run ${d.runId} expired`, event });
        break;
      }
      case "run.expiring":
        lane.expiries.push({ at: t, label: `run ${d.runId} expiring`, event });
        break;
      case "run.progress": {
        // A continued-processing task that advanced has its deadline moved on (R41).
        const run = lane.runs.get(d.runId);
        if (run && d.deadline) run.deadline = d.deadline;
        break;
      }
      case "backgroundTask.began": {
        const task = { id: d.taskId, name: d.name, start: t, end: null, outcome: null };
        lane.tasks.set(d.taskId, task);
        lane.taskList.push(task);
        break;
      }
      case "backgroundTask.ended": {
        const task = lane.tasks.get(d.taskId);
        if (task) { task.end = t; task.outcome = d.reason || "ended"; }
        break;
      }
      case "backgroundTask.expiring":
        lane.expiries.push({ at: t, label: `background task ${d.taskId} expiring`, event });
        break;
      case "push.received": case "push.delivered": case "push.deferred": case "push.coalesced": case "push.dropped": {
        let push = lane.pushes.get(d.apnsId);
        if (!push) {
          // Received before the loaded history (or its outcome came first): it starts at what is known.
          push = { id: d.apnsId, at: t, outcome: "received", resolvedAt: null, deferred: false, events: [] };
          lane.pushes.set(d.apnsId, push);
          lane.pushList.push(push);
        }
        push.events.push(event);
        const outcome = event.type.slice(5);
        if (outcome !== "received") { push.outcome = outcome; push.resolvedAt = t; }
        if (outcome === "deferred") push.deferred = true;
        break;
      }
      default: break;
    }
  }

  close(lane, t) {
    const last = lane.segments[lane.segments.length - 1];
    if (last && last.end === null) last.end = t;
  }

  /** Whether every loaded event happened at one instant (no virtual time has passed yet). */
  get instant() { return this.start !== null && this.now === this.start; }
}

function newLane(bundleId, state, segment) {
  return { bundleId, state, segments: [segment], runs: new Map(), runList: [], tasks: new Map(), taskList: [],
           expiries: [], pushes: new Map(), pushList: [], removed: false };
}

export class LaneView {
  constructor(container, model, { onSelect, onRange, note } = {}) {
    this.container = container;
    this.note = note;         // an element under the lanes for a sentence about what they show
    this.model = model;
    this.onSelect = onSelect;
    this.onRange = onRange;   // (from, to, fitted) after every drawing: the app pages older events in
    this.view = null;   // [from, to] in ms; null = fit
    this.scheduled = false;
    this.drag = null;
    container.addEventListener("pointerdown", (e) => {
      if (e.target.closest(".run, .bgtask, .seg, .expiry, .unloaded, .push")) return;
      this.drag = { x: e.clientX, view: this.range() };
      container.setPointerCapture(e.pointerId);
    });
    container.addEventListener("pointermove", (e) => {
      if (!this.drag) return;
      const [a, b] = this.drag.view;
      const dt = ((e.clientX - this.drag.x) / this.plotWidth()) * (b - a);
      this.view = [a - dt, b - dt];
      this.schedule();
    });
    const end = () => { this.drag = null; };
    container.addEventListener("pointerup", end);
    container.addEventListener("pointercancel", end);
    container.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = container.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (e.clientX - rect.left - LABEL_WIDTH) / this.plotWidth()));
      this.zoom(e.deltaY < 0 ? 0.8 : 1.25, f);
    }, { passive: false });
    container.addEventListener("keydown", (e) => {
      const map = { ArrowLeft: () => this.pan(-0.2), ArrowRight: () => this.pan(0.2), "+": () => this.zoom(0.5),
                    "=": () => this.zoom(0.5), "-": () => this.zoom(2), f: () => this.fit() };
      if (map[e.key]) { e.preventDefault(); map[e.key](); }
    });
    container.addEventListener("click", (e) => {
      const el = e.target.closest("[data-kind]");
      if (el && this.onSelect) this.onSelect(el.dataset.kind, el.dataset.app, el.dataset.ref, el.dataset);
    });
    new ResizeObserver(() => this.schedule()).observe(container);
  }

  plotWidth() { return Math.max(50, (this.container.clientWidth || 800) - LABEL_WIDTH - 10); }

  fitRange() {
    const m = this.model;
    if (m.start === null) { const t = Date.now(); return [t, t + 60000]; }
    // Everything at one instant: a minute around it, the instant a sixth of the way in.
    if (m.instant) return [m.start - 10000, m.start + 50000];
    const end = Math.max(m.now, m.start + 60000);
    const pad = (end - m.start) * 0.02;
    return [m.start - pad, end + pad];
  }

  range() { return this.view || this.fitRange(); }
  fit() { this.view = null; this.schedule(); }
  zoom(factor, focus = 0.5) {
    const [a, b] = this.range();
    const span = Math.max(1000, (b - a) * factor);
    const center = a + (b - a) * focus;
    this.view = [center - span * focus, center + span * (1 - focus)];
    this.schedule();
  }
  pan(fraction) {
    const [a, b] = this.range();
    const dt = (b - a) * fraction;
    this.view = [a + dt, b + dt];
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.render(); });
  }

  render() {
    const lanes = [...this.model.apps.values()].filter((l) => !l.removed);
    const heights = lanes.map((l) => LANE_HEIGHT + (l.pushList.length ? PUSH_ROW : 0));
    const width = this.plotWidth() + LABEL_WIDTH + 10;
    const height = AXIS_HEIGHT + (lanes.length ? heights.reduce((sum, h) => sum + h, 0) : LANE_HEIGHT) + 4;
    const [a, b] = this.range();
    const pw = this.plotWidth();
    const x = (t) => LABEL_WIDTH + ((t - a) / (b - a)) * pw;
    const now = this.model.now ?? a;
    // No virtual time has passed: each app's state now is drawn on to the right edge, so it can be seen.
    const instant = this.model.instant;
    const openUntil = instant ? Math.max(now, b) : now;
    const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
    const defs = el("defs");
    const hatch = el("pattern", { id: "unloaded-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
                                  patternTransform: "rotate(45)" });
    hatch.append(el("rect", { class: "hatch-bg", width: 6, height: 6 }), el("line", { class: "hatch-line", x1: 0, y1: 0, x2: 0, y2: 6 }));
    defs.append(hatch);
    svg.append(defs);
    const unloadedTo = this.model.historyFrom === null ? null : Math.min(this.model.historyFrom, b);

    // Time axis.
    const axis = el("g", { class: "axis" });
    const step = TICKS.find((s) => (b - a) / s <= pw / 90) || TICKS[TICKS.length - 1];
    const longRange = b - a > 86400000;
    for (let t = Math.ceil(a / step) * step; t <= b; t += step) {
      const px = x(t);
      axis.append(el("line", { x1: px, x2: px, y1: AXIS_HEIGHT - 4, y2: height }));
      const label = el("text", { x: px + 2, y: 13 });
      label.textContent = tickLabel(t, longRange, step);
      axis.append(label);
    }
    svg.append(axis);

    if (!lanes.length) {
      const t = el("text", { class: "empty-lanes", x: 10, y: AXIS_HEIGHT + 22 });
      t.textContent = "No apps installed on this device yet.";
      svg.append(t);
    }

    let y = AXIS_HEIGHT;
    lanes.forEach((lane, i) => {
      const g = el("g", { class: "lane", "data-app": lane.bundleId, "data-state": lane.state });
      if (i > 0) g.append(el("line", { class: "lane-rule", x1: 0, x2: width, y1: y, y2: y }));
      const label = el("text", { class: "lane-label", x: 6, y: y + 15 });
      label.textContent = shortId(lane.bundleId, 24);
      const title = el("title");
      title.textContent = `${lane.bundleId}: ${lane.state}`;
      label.append(title);
      g.append(label);
      const state = el("text", { class: "lane-state", x: 6, y: y + 30 });
      state.textContent = lane.state;
      g.append(state);
      // Before the oldest loaded event: no state is drawn, only that the history is not loaded.
      if (unloadedTo !== null && unloadedTo > a) {
        const rect = el("rect", {
          class: "unloaded state-unknown", "data-kind": "history", "data-app": lane.bundleId,
          x: LABEL_WIDTH, y: y + 4, width: Math.max(2, x(unloadedTo) - LABEL_WIDTH), height: heights[i] - 8,
        });
        const tt = el("title"); tt.textContent = "history not loaded: scroll the feed up, or pan here, to load it"; rect.append(tt);
        g.append(rect);
      }
      // States: a band, at most one rectangle per pixel column.
      drawSpans(g, lane.segments, a, b, x, openUntil, (s, x0, w) => el("rect", {
        class: `seg state-${s.state}`, "data-state": s.state, "data-kind": "segment", "data-app": lane.bundleId,
        "data-ref": String(s.start), x: x0, y: y + 4, width: w, height: 14,
      }), (s) => s.state === "background" || s.state === "active" || s.state === "inactive");
      drawRuns(g, lane, a, b, x, now, y + 21);
      drawSpans(g, lane.taskList, a, b, x, now, (task, x0, w) => {
        const rect = el("rect", {
          class: "bgtask", "data-kind": "task", "data-app": lane.bundleId, "data-ref": task.id,
          x: x0, y: y + 33, width: Math.max(w, 4), height: 6,
        });
        const tt = el("title"); tt.textContent = `background task ${task.id} ${task.name || ""} ${task.outcome || "open"}`; rect.append(tt);
        return rect;
      });
      if (lane.pushList.length) drawPushes(g, lane, a, b, x, y + LANE_HEIGHT + PUSH_ROW / 2 - 2);
      let lastPx = -Infinity;
      for (const exp of lane.expiries) {
        if (exp.at < a || exp.at > b) continue;
        const px = x(exp.at);
        if (px - lastPx < 2) continue;
        lastPx = px;
        const line = el("line", { class: "expiry", "data-kind": "event", "data-app": lane.bundleId,
                                 "data-ref": String(exp.event.id), x1: px, x2: px, y1: y + 2, y2: y + 40 });
        const tt = el("title"); tt.textContent = exp.label; line.append(tt);
        g.append(line);
      }
      svg.append(g);
      y += heights[i];
    });

    if (now >= a && now <= b) {
      const g = el("g", { class: "now" });
      g.append(el("line", { x1: x(now), x2: x(now), y1: AXIS_HEIGHT - 4, y2: height }));
      svg.append(g);
    }
    this.container.replaceChildren(svg);
    this.container.dataset.instant = String(instant);
    if (this.note) {
      this.note.textContent = instant && lanes.length
        ? `Every event so far happened at ${new Date(now).toISOString().slice(0, 19).replace("T", " ")} (virtual time): `
          + "each app's state is drawn on from there. Advance the clock to see time pass."
        : "";
      this.note.hidden = !this.note.textContent;
    }
    if (this.onRange) this.onRange(a, b, this.view === null);
  }
}

/**
 * Runs as bars at least RUN_MIN_WIDTH pixels wide. Runs whose bars would overlap are drawn as one bar that says
 * how many it holds; clicking it opens the newest of them.
 */
function drawRuns(g, lane, a, b, x, now, top) {
  const groups = [];
  for (const run of lane.runList) {
    const end = run.end ?? now;
    if (end < a || run.start > b) continue;
    const x0 = Math.max(x(run.start), x(a));
    const x1 = Math.max(x(Math.min(end, b)), x0 + RUN_MIN_WIDTH);
    const last = groups[groups.length - 1];
    if (last && x0 < last.x1 + 1) { last.runs.push(run); last.x1 = Math.max(last.x1, x1); }
    else groups.push({ x0, x1, runs: [run] });
  }
  for (const group of groups) {
    const run = group.runs[group.runs.length - 1];
    const expired = group.runs.some((r) => r.outcome === "expired");
    const rect = el("rect", {
      class: `run${expired ? " expired" : ""}${group.runs.length > 1 ? " many" : ""}`, "data-kind": "run", "data-app": lane.bundleId, "data-ref": run.id,
      "data-outcome": expired ? "expired" : (run.outcome || "open"), "data-count": group.runs.length,
      x: group.x0, y: top, width: group.x1 - group.x0, height: 10, rx: 2,
    });
    const tt = el("title");
    const lines = group.runs.slice(-5).map((r) => `${r.kind} ${r.id} ${r.outcome || "open"}`);
    tt.textContent = group.runs.length > 1 ? `${group.runs.length} runs (newest last):\n${lines.join("\n")}` : lines[0];
    rect.append(tt);
    g.append(rect);
  }
}

/**
 * One mark per push where it arrived, shaped and coloured by what became of it: delivered (a filled circle),
 * deferred and still waiting (a diamond), coalesced (a hollow circle), dropped (a cross). A push decided later
 * than it arrived (deferred first) gets a line from its arrival to a second mark where it was decided.
 * Marks closer than 4 pixels to the last one of the same outcome are left out.
 */
function drawPushes(g, lane, a, b, x, cy) {
  const lastPx = {};
  for (const push of lane.pushList) {
    const decided = push.resolvedAt ?? push.at;
    if (decided < a || push.at > b) continue;
    const px = x(push.at);
    const dx = x(decided);
    if (Math.abs(px - (lastPx[push.outcome] ?? -Infinity)) < 4 && dx - px < 4) continue;
    lastPx[push.outcome] = px;
    const mark = el("g", { class: `push push-${push.outcome}`, "data-kind": "push", "data-app": lane.bundleId,
                           "data-ref": push.id, "data-outcome": push.outcome, "data-deferred": String(push.deferred) });
    const tt = el("title");
    tt.textContent = `push ${push.id}: ${push.events.map((e) => e.type.slice(5)).join(" → ")}`;
    mark.append(tt);
    if (dx - px >= 4) {
      mark.append(el("line", { class: "push-wait", x1: px, x2: dx, y1: cy, y2: cy }));
      mark.append(shape("deferred", px, cy));
      mark.append(el("circle", { class: "push-hit", cx: dx, cy, r: 8 }));
      mark.append(shape(push.outcome, dx, cy));
    } else {
      mark.append(el("circle", { class: "push-hit", cx: px, cy, r: 8 }));
      mark.append(shape(push.outcome, px, cy));
    }
    g.append(mark);
  }
}

function shape(outcome, cx, cy) {
  switch (outcome) {
    case "delivered": return el("circle", { class: "pm pm-delivered", cx, cy, r: 5 });
    case "deferred": return el("path", { class: "pm pm-deferred", d: `M${cx} ${cy - 6}l6 6l-6 6l-6 -6z` });
    case "coalesced": return el("circle", { class: "pm pm-coalesced", cx, cy, r: 4.5 });
    case "dropped": return el("path", { class: "pm pm-dropped", d: `M${cx - 5} ${cy - 5}l10 10M${cx + 5} ${cy - 5}l-10 10` });
    default: return el("path", { class: "pm pm-received", d: `M${cx - 5} ${cy - 4}h10l-5 9z` });
  }
}

/** Draws spans (`start`, `end` or open until `now`) clipped to [a, b], merging what falls in one pixel column. */
function drawSpans(g, spans, a, b, x, now, make, emphasize = () => false) {
  let lastPx = -Infinity;
  let overlayPx = -Infinity;
  const lastIndex = spans.length - 1;
  for (let i = 0; i <= lastIndex; i++) {
    const s = spans[i];
    const end = s.end ?? now;
    if (end < a || s.start > b) continue;
    const rx1 = Math.ceil(x(Math.min(end, b)));
    if (rx1 <= lastPx) {
      // Within pixels already drawn: only the latest span (the current state) is still drawn, on top.
      // So is a short span worth seeing (a brief wake-up into the background), once per pixel column.
      if (i === lastIndex) g.append(make(s, lastPx - 3, 3));
      else if (emphasize(s) && rx1 > overlayPx) { overlayPx = rx1 + 1; g.append(make(s, rx1 - 2, 2)); }
      continue;
    }
    const x0 = Math.max(Math.floor(x(Math.max(s.start, a))), lastPx);
    const x1 = Math.max(rx1, x0 + 2);
    lastPx = x1;
    g.append(make(s, x0, x1 - x0));
  }
}

function tickLabel(t, longRange, step) {
  const iso = new Date(t).toISOString();
  if (step >= 86400000) return iso.slice(5, 10);
  if (longRange) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  return step < 60000 ? iso.slice(11, 19) : iso.slice(11, 16);
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}
