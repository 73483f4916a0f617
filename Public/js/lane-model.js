// The swimlanes' model: one lane per app, built incrementally from the device's events (oldest first) — its states
// (segments), its runs and background tasks, its expirations and its pushes with what became of each. When only the
// newest part of a device's history is loaded, `historyFrom` says where it starts, and an app's state stays
// `unknown` until a loaded event says what it is. It works in milliseconds of virtual time and knows no DOM, no
// pixels and no drawing: lane-drawing.js draws it, lanes.js (the view) decides what part of it is shown.

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

  /** The lanes shown: every app's but those of apps uninstalled since, in the order the model first met their apps. */
  shownLanes() { return [...this.apps.values()].filter((l) => !l.removed); }
}

function newLane(bundleId, state, segment) {
  return { bundleId, state, segments: [segment], runs: new Map(), runList: [], tasks: new Map(), taskList: [],
           expiries: [], pushes: new Map(), pushList: [], removed: false };
}
