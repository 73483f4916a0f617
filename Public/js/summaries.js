// One line of plain words per event: what happened, for the feed's summary column. Every type the service
// records has its own sentence (openapi.yaml, EventType); an unknown type shows its fields as `name value`.

import { formatVirtual } from "./format.js";

const join = (...parts) => parts.filter((p) => p !== null && p !== undefined && p !== false && p !== "").join(" ");
const when = (cond, text) => (cond ? text : "");
const seconds = (s) => (typeof s === "number" ? `${+s.toFixed(3)} s` : "");
const bytes = (n) => {
  if (typeof n !== "number") return "";
  if (n >= 1e9) return `${+(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${+(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
};
const onOff = (b) => (b ? "on" : "off");
const task = (d) => join(`task ${d.taskId ?? "?"}`, d.name ? `“${d.name}”` : "");
const request = (d) => join(d.kind, d.identifier);
const transfer = (d) => join(`transfer ${d.transferId ?? "?"}`, d.session ? `in ${d.session}` : "");
const place = (d) => (typeof d.latitude === "number" && typeof d.longitude === "number"
  ? `${d.latitude.toFixed(4)}, ${d.longitude.toFixed(4)}` : "");
const duration = (from, to) => {
  const ms = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(ms)) return "";
  const s = ms / 1000;
  if (s < 120) return `+${+s.toFixed(3)} s`;
  if (s < 7200) return `+${+(s / 60).toFixed(1)} min`;
  if (s < 172800) return `+${+(s / 3600).toFixed(1)} h`;
  return `+${+(s / 86400).toFixed(1)} days`;
};

/** What the app was doing before it was terminated, whichever field the service names it by. */
function previous(d) {
  const state = d.previousState ?? d.wasState ?? d.fromState;
  if (typeof state === "string" && state) return `was ${state}`;
  if (d.wasRunning === true) return "was running";
  if (d.wasRunning === false) return "was not running";
  if (typeof d.wasRunning === "string" && d.wasRunning) return `was ${d.wasRunning}`;
  return "";
}

/** The summary of each event type, from its `data` (and the whole event where the app matters). */
export const SUMMARIES = {
  "device.created": (d) => join(`iOS ${d.osVersion ?? "?"}`, d.profile ? `(${d.profile})` : "",
    d.clock ? `· ${d.clock} clock` : "", d.seed !== undefined ? `· seed ${d.seed}` : ""),
  "device.conditionsChanged": (d) => Object.entries(d.changes || {})
    .map(([name, c]) => `${name} ${c && "from" in c ? `${c.from} → ${c.to}` : JSON.stringify(c)}`).join(", ") || "no change",
  "device.policyChanged": (d) => {
    const entries = Object.entries(d.overrides || {});
    return entries.length ? `overrides: ${entries.map(([k, v]) => `${k} ${v}`).join(", ")}` : "no overrides: the profile's policy";
  },
  "device.rebooted": () => "the device restarted",
  "device.locationChanged": (d) => `moved to ${place(d)}`,
  "clock.advanced": (d) => join(`${formatVirtual(d.from)} → ${formatVirtual(d.to)}`, `(${duration(d.from, d.to)})`),
  "app.installed": (d) => (Array.isArray(d.backgroundModes) && d.backgroundModes.length
    ? `installed; background modes: ${d.backgroundModes.join(", ")}` : "installed; no background modes"),
  "app.uninstalled": () => "removed from the device",
  "app.settingsChanged": (d) => `Background App Refresh ${onOff(d.backgroundAppRefresh)} for this app`,
  "app.delegate": (d) => join(d.method || d.callback || "", d.launchedBy ? `— launched by the ${d.launchedBy}` : "",
    d.reason ? `(${d.reason})` : ""),
  "app.stateChanged": (d) => join(`${d.from} → ${d.to}`, d.cause ? `(${d.cause})` : ""),
  "app.terminated": (d) => join(`terminated: ${d.reason || "no reason given"}`, previous(d) ? `· ${previous(d)}` : "",
    d.terminationCode ? `· code ${d.terminationCode}` : "", d.runId ? `· run ${d.runId}` : "",
    Array.isArray(d.taskIds) && d.taskIds.length ? `· tasks ${d.taskIds.join(", ")}` : ""),
  "app.crashed": (d) => join("crashed:", d.exception, d.reason ? `— ${d.reason}` : ""),
  "backgroundTask.began": (d) => join(task(d), "began", d.inForeground ? "in the foreground" : "in the background"),
  "backgroundTask.expiring": (d) => join(task(d), "expiring,", seconds(d.backgroundTimeRemaining), "left"),
  "backgroundTask.ended": (d) => join(task(d), "ended", d.reason && d.reason !== "ended" ? `(${d.reason})` : ""),
  "taskRequest.submitted": (d) => join(`${request(d)} submitted`,
    d.earliestBeginDate ? `· not before ${formatVirtual(d.earliestBeginDate)}` : "",
    when(d.requiresNetworkConnectivity, "· needs network"), when(d.requiresExternalPower, "· needs power"),
    when(d.replaced, "· replaced the pending one")),
  "taskRequest.rejected": (d) => join(`${request(d)} refused:`, d.code, d.detail ? `— ${d.detail}` : ""),
  "taskRequest.cancelled": (d) => (d.all ? `${d.identifier} cancelled (all requests)` : `${d.identifier} cancelled`),
  "run.started": (d) => join(`${d.kind} ${d.runId}`, d.identifier, d.reason ? `(${d.reason})` : "",
    when(d.launchedApp, "· launched the app"), d.deadline ? `· deadline ${formatVirtual(d.deadline)}` : ""),
  "run.expiring": (d) => join(d.kind, d.runId, "expiring:", d.reason),
  "run.progress": (d) => join(`${d.runId} progress ${d.completedUnitCount ?? "?"} of ${d.totalUnitCount ?? "?"}`,
    d.title ? `· “${d.title}”` : "", d.subtitle ? `(${d.subtitle})` : "",
    d.advanced ? (d.deadline ? `· deadline ${formatVirtual(d.deadline)}` : "") : "· no progress"),
  "run.completed": (d) => join(d.reason === "wakeEnded" ? `${d.kind} ${d.runId} ended: the app did nothing more, suspended`
    : `${d.kind} ${d.runId}: ${d.result ?? "done"}`, d.duration != null ? `after ${seconds(d.duration)}` : "",
    when(d.afterExpiration, "(after its expiration)")),
  "run.expired": (d) => join(d.kind, d.runId, "expired:", d.reason),
  "fetch.intervalChanged": (d) => `minimum background fetch interval ${typeof d.interval === "number" ? seconds(d.interval) : d.interval}`,
  "push.received": (d) => join(`${d.pushType || "?"} push, priority ${d.priority ?? "?"}`,
    when(d.contentAvailable, "· content-available"), when(d.alert, "· alert"),
    d.collapseId ? `· collapse ${d.collapseId}` : "", d.expiration ? `· expires ${formatVirtual(d.expiration)}` : "",
    `· ${d.apnsId}`),
  "push.delivered": (d) => (d.runId ? `push ${d.apnsId} delivered: run ${d.runId}`
    : d.inForeground ? `push ${d.apnsId} delivered to the app in the foreground`
    : `push ${d.apnsId} delivered as an alert (no wake-up)`),
  "push.deferred": (d) => `push ${d.apnsId} deferred: ${d.reason}`,
  "push.coalesced": (d) => `push ${d.apnsId} replaced by ${d.replacedBy}`,
  "push.dropped": (d) => `push ${d.apnsId} dropped: ${d.reason}`,
  "notification.scheduled": (d) => join(`notification ${d.identifier} scheduled for ${formatVirtual(d.fireDate)}`, when(d.repeats, "· repeats")),
  "notification.delivered": (d) => join(`${d.source || ""} notification`, d.title ? `“${d.title}”` : d.identifier,
    d.appState ? `shown while ${d.appState}` : ""),
  "notification.dropped": (d) => join(`notification ${d.identifier} dropped: ${d.reason}`, d.limit != null ? `(limit ${d.limit})` : ""),
  "notification.cancelled": (d) => `notification ${d.identifier} cancelled`,
  "urlSession.created": (d) => join(`background session ${d.identifier}`, d.reconnected ? "reconnected" : "created",
    when(d.discretionary, "· discretionary"), when(d.sessionSendsLaunchEvents, "· sends launch events")),
  "urlSession.eventsDelivered": (d) => join(`session ${d.session}: every transfer ended`,
    d.inForeground ? "(in the foreground)" : "· the app is woken to handle them"),
  "transfer.enqueued": (d) => join(`${d.kind || ""} ${transfer(d)} of ${bytes(d.bytes)} enqueued`,
    when(d.discretionary, "· discretionary"), d.earliestBeginDate ? `· not before ${formatVirtual(d.earliestBeginDate)}` : "",
    when(d.enqueuedInBackground, "· from the background")),
  "transfer.waiting": (d) => `${transfer(d)} waiting for ${d.waitingFor}`,
  "transfer.started": (d) => join(`${transfer(d)} started`, d.bytesPerSecond ? `at ${bytes(d.bytesPerSecond)}/s` : "",
    d.bytesTransferred ? `(from ${bytes(d.bytesTransferred)})` : ""),
  "transfer.progress": (d) => `${transfer(d)} ${Math.round((d.fraction || 0) * 100)}% (${bytes(d.bytesTransferred)} of ${bytes(d.bytes)})`,
  "transfer.completed": (d) => join(`${transfer(d)} completed: ${bytes(d.bytes)}`, d.duration != null ? `in ${seconds(d.duration)}` : ""),
  "transfer.cancelled": (d) => join(`${transfer(d)} cancelled`, d.reason ? `(${d.reason})` : "", `after ${bytes(d.bytesTransferred)} of ${bytes(d.bytes)}`),
  "transfer.failed": (d) => join(`${transfer(d)} failed: ${d.error || ""}`, d.reason ? `(${d.reason})` : "", `after ${bytes(d.bytesTransferred)} of ${bytes(d.bytes)}`),
  "activity.started": (d) => join(`${d.activity} started`, d.keepsAppRunning ? "· keeps the app running" : "· does not keep the app running",
    d.reason ? `(${d.reason})` : ""),
  "activity.stopped": (d) => join(`${d.activity} stopped`, d.reason ? `(${d.reason})` : ""),
  "location.delivered": (d) => join(`location ${place(d)}`, when(d.significantChange, "· significant change")),
  "accessory.dataReceived": (d) => join(`data from accessory ${d.accessoryId}`, d.transport ? `over ${d.transport}` : ""),
  "voip.keepAlive": (d) => (d.inForeground ? "VoIP keep-alive (in the foreground)" : "VoIP keep-alive: the app is woken for it"),
};

/** The feed's one line for `event`. */
export function summarize(event) {
  const d = event.data && typeof event.data === "object" ? event.data : {};
  const summary = SUMMARIES[event.type];
  if (summary) {
    try { return summary(d, event); } catch { /* an unexpected shape: its fields below */ }
  }
  return Object.entries(d).map(([k, v]) => `${k} ${v !== null && typeof v === "object" ? JSON.stringify(v) : v}`).join(" · ");
}
