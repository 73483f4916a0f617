// The detail panel: an event, a run (with every one of its events), a push and what became of it, a task request
// with its eligibility, and the states and background tasks of the lanes. A run's detail is also a link.
import { enc } from "./api.js";
import { $, para, pre, table } from "./dom.js";
import { formatVirtual } from "./format.js";
import { state } from "./state.js";
import { setLink } from "./url.js";
import { feed, model } from "./widgets.js";

function detail(title, ...nodes) {
  setLink(null);
  $("detail").hidden = false;
  $("detail-title").textContent = title;
  $("detail-body").replaceChildren(...nodes);
  document.body.dataset.detail = "open";
}

export function closeDetail() {
  $("detail").hidden = true;
  document.body.dataset.detail = "closed";
  setLink(null);
}

export function showEvent(event) {
  const nodes = [table(["field", "value"], [
    ["id", String(event.id)], ["type", event.type], ["app", event.bundleId || "—"],
    ["virtual time", formatVirtual(event.at)], ["recorded (wall)", event.recordedAt],
  ]), pre(event.data)];
  if (event.data && event.data.runId && event.bundleId) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Open run ${event.data.runId}`;
    b.addEventListener("click", () => showRun(event.bundleId, event.data.runId));
    nodes.push(b);
  }
  detail(`Event ${event.id}`, ...nodes);
}

/** A run: what the API says of it, and every one of its events (asked of the API, loaded or not). */
export async function showRun(bundleId, runId) {
  const rowsOf = (events) => events.map((e) => [String(e.id), formatVirtual(e.at), e.type]);
  const device = `/v1/devices/${enc(state.deviceId)}`;
  try {
    const [run, page] = await Promise.all([
      state.api.get(`${device}/apps/${enc(bundleId)}/runs/${enc(runId)}`),
      state.api.get(`${device}/events?runId=${enc(runId)}&bundleId=${enc(bundleId)}&limit=500`),
    ]);
    const events = table(["event", "virtual time", "type"], rowsOf(page.items));
    events.className = "run-events";
    detail(`Run ${runId}`, para(`${bundleId} · ${run.kind} · ${run.state}`), pre(run), events);
    setLink({ app: bundleId, run: runId });
  } catch (error) {
    // The loaded events of the run, at least.
    const loaded = feed.events.filter((e) => e.data && e.data.runId === runId && e.bundleId === bundleId);
    detail(`Run ${runId}`, para(error.message, "error"), table(["event", "virtual time", "type"], rowsOf(loaded)));
  }
}

/** A push: its events as loaded (received, then deferred, coalesced, delivered or dropped), and its run if any. */
function showPush(bundleId, apnsId) {
  const lane = model.apps.get(bundleId);
  const push = lane && lane.pushes.get(apnsId);
  if (!push) return;
  const rows = push.events.map((e) => [formatVirtual(e.at), e.type, (e.data && (e.data.reason || e.data.replacedBy)) || ""]);
  const events = table(["virtual time", "event", "reason"], rows);
  events.className = "push-events";
  const nodes = [para(`${bundleId} · ${push.outcome}${push.deferred && push.outcome !== "deferred" ? " after being deferred" : ""}`), events];
  const received = push.events.find((e) => e.type === "push.received");
  if (received) nodes.push(pre(received.data));
  const delivered = push.events.find((e) => e.type === "push.delivered" && e.data && e.data.runId);
  if (delivered) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Open run ${delivered.data.runId}`;
    b.addEventListener("click", () => showRun(bundleId, delivered.data.runId));
    nodes.push(b);
  }
  detail(`Push ${apnsId}`, ...nodes);
}

/** A pending task request and its eligibility now, condition by condition. */
export async function showTaskRequest(bundleId, request) {
  try {
    const e = await state.api.get(`/v1/devices/${enc(state.deviceId)}/apps/${enc(bundleId)}/task-requests/${enc(request.identifier)}/eligibility`);
    const rows = (e.conditions || []).map((c) => {
      const met = document.createElement("span");
      met.className = c.met ? "met-yes" : "met-no";
      met.textContent = c.met ? "✓ met" : "✗ not met";
      return [c.name, met, c.rule, c.detail];
    });
    const summary = para(e.eligible ? "Eligible: it runs at the next opportunity." : "Not eligible now.", e.eligible ? "met-yes" : "met-no");
    detail(`Task request ${request.identifier}`,
      para(`${bundleId} · ${request.kind} · submitted ${formatVirtual(request.submittedAt)}`), summary,
      para(`Next opportunity: ${formatVirtual(e.nextOpportunityAt) || "—"}; predicted launch: ${formatVirtual(e.predictedLaunchAt) || "—"}`),
      table(["condition", "met", "rule", "detail"], rows), pre(request));
  } catch (error) {
    detail(`Task request ${request.identifier}`, para(error.message, "error"), pre(request));
  }
}

/**
 * What a click on the lanes opened (`kind`, `ref` and the mark's `data` as the lane view marks them), other than
 * unloaded history.
 */
export function showLaneItem(kind, bundleId, ref, data = {}) {
  const lane = model.apps.get(bundleId);
  if (kind === "run") { showRun(bundleId, ref); return; }
  if (kind === "push") { showPush(bundleId, ref); return; }
  if (kind === "event") { const e = feed.events.find((ev) => ev.id === Number(ref)); if (e) showEvent(e); return; }
  if (kind === "task" && lane) {
    const task = lane.tasks.get(ref);
    if (task) detail(`Background task ${task.id}`, table(["field", "value"], [
      ["app", bundleId], ["name", task.name || "—"], ["began", iso(task.start)], ["ended", task.end ? iso(task.end) : "open"],
      ["outcome", task.outcome || "running"]]));
    return;
  }
  if (kind === "segment" && lane) {
    // States the app went through in one instant share their start: the one clicked is told by its state too.
    const seg = lane.segments.find((s) => String(s.start) === ref && (!data.state || s.state === data.state));
    if (seg) detail(`${bundleId}: ${seg.state}`, table(["field", "value"], [
      ["state", seg.state], ["from", iso(seg.start)], ["until", seg.end ? iso(seg.end) : "now"], ["cause", seg.cause || "—"]]));
  }
}
const iso = (ms) => formatVirtual(new Date(ms).toISOString());
