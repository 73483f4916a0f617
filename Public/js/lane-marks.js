// The marks of one swimlane, as SVG elements: its states band and its background tasks (spans clipped to the range,
// merged where they fall in one pixel column), its runs (bars wide enough to see and click, overlapping ones drawn as
// one that says how many), its pushes (a shaped mark each) and its expirations (lines). Each drawer gets a lane of the
// model, the range `[a, b]` (ms), `x` (ms → pixels) and where in the lane it draws, and appends to the lane's group;
// it knows nothing of the page, of the other lanes, of how the range was chosen or of what a click does.
import { el } from "./lane-svg.js";

const RUN_MIN_WIDTH = 8;      // a run of two seconds in a day is still a mark to see and click

/** The app's states as a band from `top`: at most one rectangle per pixel column (open ones until `openUntil`). */
export function drawStates(g, lane, a, b, x, openUntil, top) {
  drawSpans(g, lane.segments, a, b, x, openUntil, (s, x0, w) => el("rect", {
    class: `seg state-${s.state}`, "data-state": s.state, "data-kind": "segment", "data-app": lane.bundleId,
    "data-ref": String(s.start), x: x0, y: top, width: w, height: 14,
  }), (s) => s.state === "background" || s.state === "active" || s.state === "inactive");
}

/**
 * Runs as bars at least RUN_MIN_WIDTH pixels wide. Runs whose bars would overlap are drawn as one bar that says
 * how many it holds; clicking it opens the newest of them.
 */
export function drawRuns(g, lane, a, b, x, now, top) {
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

/** The app's background tasks as thin bars from `top`, at least 4 pixels wide (open ones until `now`). */
export function drawTasks(g, lane, a, b, x, now, top) {
  drawSpans(g, lane.taskList, a, b, x, now, (task, x0, w) => {
    const rect = el("rect", {
      class: "bgtask", "data-kind": "task", "data-app": lane.bundleId, "data-ref": task.id,
      x: x0, y: top, width: Math.max(w, 4), height: 6,
    });
    const tt = el("title"); tt.textContent = `background task ${task.id} ${task.name || ""} ${task.outcome || "open"}`; rect.append(tt);
    return rect;
  });
}

/**
 * One mark per push where it arrived, shaped and coloured by what became of it: delivered (a filled circle),
 * deferred and still waiting (a diamond), coalesced (a hollow circle), dropped (a cross). A push decided later
 * than it arrived (deferred first) gets a line from its arrival to a second mark where it was decided.
 * Marks closer than 4 pixels to the last one of the same outcome are left out.
 */
export function drawPushes(g, lane, a, b, x, cy) {
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

/** The app's expirations (of runs and background tasks) as lines from `top` to `bottom`, at least 2 pixels apart. */
export function drawExpiries(g, lane, a, b, x, top, bottom) {
  let lastPx = -Infinity;
  for (const exp of lane.expiries) {
    if (exp.at < a || exp.at > b) continue;
    const px = x(exp.at);
    if (px - lastPx < 2) continue;
    lastPx = px;
    const line = el("line", { class: "expiry", "data-kind": "event", "data-app": lane.bundleId,
                             "data-ref": String(exp.event.id), x1: px, x2: px, y1: top, y2: bottom });
    const tt = el("title"); tt.textContent = exp.label; line.append(tt);
    g.append(line);
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
