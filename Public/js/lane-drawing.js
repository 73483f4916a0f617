// The swimlanes drawn as one SVG picture: the time axis, then one lane per app shown (its name and state, the
// history not loaded hatched, and its marks from lane-marks.js), then the line of the device's clock. Drawing costs at
// most a few rectangles per pixel column per lane, however long the history. It is a function of the model, the
// range `[a, b]` (ms) and the plot's width in pixels; it knows nothing of the container it goes into, of pointers,
// keys or clicks, or of how the range was chosen (lanes.js, the view, does all that).
import { shortId } from "./format.js";
import { drawExpiries, drawPushes, drawRuns, drawStates, drawTasks } from "./lane-marks.js";
import { el } from "./lane-svg.js";
import { tickLabel, tickStep } from "./lane-time.js";

export const LABEL_WIDTH = 170;   // the lane's name and state, left of the plot
const AXIS_HEIGHT = 22;
const LANE_HEIGHT = 42;       // states, runs, background tasks
const PUSH_ROW = 16;          // and below them the pushes, on a lane that has any

/** The lanes of `model` (a LaneModel) over `[a, b]`, the plot `pw` pixels wide right of the labels, as an `<svg>`. */
export function drawLanes(model, [a, b], pw) {
  const lanes = model.shownLanes();
  const heights = lanes.map((l) => LANE_HEIGHT + (l.pushList.length ? PUSH_ROW : 0));
  const width = pw + LABEL_WIDTH + 10;
  const height = AXIS_HEIGHT + (lanes.length ? heights.reduce((sum, h) => sum + h, 0) : LANE_HEIGHT) + 4;
  const x = (t) => LABEL_WIDTH + ((t - a) / (b - a)) * pw;
  const now = model.now ?? a;
  // No virtual time has passed: each app's state now is drawn on to the right edge, so it can be seen.
  const instant = model.instant;
  const openUntil = instant ? Math.max(now, b) : now;
  const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
  const defs = el("defs");
  const hatch = el("pattern", { id: "unloaded-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)" });
  hatch.append(el("rect", { class: "hatch-bg", width: 6, height: 6 }), el("line", { class: "hatch-line", x1: 0, y1: 0, x2: 0, y2: 6 }));
  defs.append(hatch);
  svg.append(defs);
  const unloadedTo = model.historyFrom === null ? null : Math.min(model.historyFrom, b);

  svg.append(drawAxis(a, b, x, pw, height));

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
    drawStates(g, lane, a, b, x, openUntil, y + 4);
    drawRuns(g, lane, a, b, x, now, y + 21);
    drawTasks(g, lane, a, b, x, now, y + 33);
    if (lane.pushList.length) drawPushes(g, lane, a, b, x, y + LANE_HEIGHT + PUSH_ROW / 2 - 2);
    drawExpiries(g, lane, a, b, x, y + 2, y + 40);
    svg.append(g);
    y += heights[i];
  });

  if (now >= a && now <= b) {
    const g = el("g", { class: "now" });
    g.append(el("line", { x1: x(now), x2: x(now), y1: AXIS_HEIGHT - 4, y2: height }));
    svg.append(g);
  }
  return svg;
}

/** The time axis: a line and a label per tick, the lines down to `height`. */
function drawAxis(a, b, x, pw, height) {
  const axis = el("g", { class: "axis" });
  const step = tickStep(a, b, pw);
  const longRange = b - a > 86400000;
  for (let t = Math.ceil(a / step) * step; t <= b; t += step) {
    const px = x(t);
    axis.append(el("line", { x1: px, x2: px, y1: AXIS_HEIGHT - 4, y2: height }));
    const label = el("text", { x: px + 2, y: 13 });
    label.textContent = tickLabel(t, longRange, step);
    axis.append(label);
  }
  return axis;
}
