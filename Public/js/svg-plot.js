// Small plots in plain SVG: lines over a numeric x axis, a histogram of numeric bins, and horizontal bars over
// categories (grouped when there are several series). Each has axes with ticks, axis labels, a title, a legend when
// it has several series, and an accessible name (`<title>`, `<desc>`, `aria-label`). Colours come from the page's
// style sheet (`.series-N`), so dark mode follows.

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 560;
let plotCount = 0;

/** An SVG element `name` with `attrs`, appended to `parent` when given. */
function node(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}

function text(parent, x, y, content, attrs = {}) {
  const t = node("text", { x, y, ...attrs }, parent);
  t.textContent = content;
  return t;
}

/** Round tick values from `min` to `max`, about `count` of them, steps of 1, 2, 2.5 or 5 × 10ⁿ (at least `minStep`). */
export function niceTicks(min, max, count = 5, minStep = 0) {
  if (!(max > min)) max = min + 1;
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  step = Math.max(step, minStep);
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/** A number as a percentage: 0.4213 → "42.1 %" (`digits` after the point), 1 → "100 %". */
export function percent(share, digits = 1) {
  const value = share * 100;
  return `${Number.isInteger(value) ? value : value.toFixed(digits)} %`;
}

/**
 * The frame every plot shares: the `<svg>` with its title, description, legend and the plot area's scales.
 * `x` and `y` are `{min, max}` domains; the returned `sx`/`sy` map values to pixels.
 */
function frame({ title, description, height, left, series = [], x, y, className }) {
  const id = `plot-${++plotCount}`;
  const top = series.length > 1 ? 44 : 30, right = 16, bottom = 44;
  const svg = node("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`, role: "img", class: `plot ${className || ""}`.trim(),
    // Named by its title, described by its data (a screen reader reads the name, then the description on demand).
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc`,
  });
  node("title", { id: `${id}-title` }, svg).textContent = title;
  node("desc", { id: `${id}-desc` }, svg).textContent = description;
  text(svg, 8, 18, title, { class: "plot-title" });
  let lx = 8;
  series.forEach((s, n) => {
    if (series.length < 2) return;
    const g = node("g", { class: "legend-item", "data-series": s.key }, svg);
    node("rect", { x: lx, y: 28, width: 12, height: 8, class: `series-${n} swatch` }, g);
    const label = text(g, lx + 16, 36, s.label, { class: "plot-legend" });
    lx += 16 + label.textContent.length * 6.5 + 14;
  });
  const area = { left, top, right: WIDTH - right, bottom: height - bottom };
  const sx = (v) => area.left + ((v - x.min) / (x.max - x.min || 1)) * (area.right - area.left);
  const sy = (v) => area.bottom - ((v - y.min) / (y.max - y.min || 1)) * (area.bottom - area.top);
  return { svg, area, sx, sy };
}

/** The x axis along the bottom of `area`, with its ticks, their labels and the axis label. */
function xAxis(svg, area, sx, ticks, format, label, grid = false) {
  const g = node("g", { class: "axis axis-x" }, svg);
  node("line", { x1: area.left, x2: area.right, y1: area.bottom, y2: area.bottom }, g);
  for (const t of ticks) {
    const px = sx(t);
    if (grid) node("line", { x1: px, x2: px, y1: area.top, y2: area.bottom, class: "grid" }, g);
    node("line", { x1: px, x2: px, y1: area.bottom, y2: area.bottom + 4 }, g);
    text(g, px, area.bottom + 16, format(t), { "text-anchor": "middle" });
  }
  text(g, (area.left + area.right) / 2, area.bottom + 34, label, { "text-anchor": "middle", class: "axis-label" });
}

/** The y axis along the left of `area`, with its ticks, grid lines, their labels and the axis label. */
function yAxis(svg, area, sy, ticks, format, label) {
  const g = node("g", { class: "axis axis-y" }, svg);
  node("line", { x1: area.left, x2: area.left, y1: area.top, y2: area.bottom }, g);
  for (const t of ticks) {
    const py = sy(t);
    node("line", { x1: area.left, x2: area.right, y1: py, y2: py, class: "grid" }, g);
    node("line", { x1: area.left - 4, x2: area.left, y1: py, y2: py }, g);
    text(g, area.left - 7, py + 4, format(t), { "text-anchor": "end" });
  }
  const cy = (area.top + area.bottom) / 2;
  text(g, 12, cy, label, { "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 12 ${cy})` });
}

/** A note in the middle of the plot area (no data to draw). */
function note(svg, area, content) {
  text(svg, (area.left + area.right) / 2, (area.top + area.bottom) / 2, content, { "text-anchor": "middle", class: "plot-note" });
}

/**
 * Lines over a numeric x axis: `series` is `[{key, label, points: [[x, y], …]}]`; `x`/`y` the domains; `xTicks`
 * optional tick values; `xFormat`/`yFormat` tick labels.
 */
export function linePlot({ title, description, xLabel, yLabel, series, x, y, xTicks, xFormat = String, yFormat = String }) {
  const { svg, area, sx, sy } = frame({ title, description, height: 300, left: 58, series, x, y, className: "line-plot" });
  yAxis(svg, area, sy, niceTicks(y.min, y.max, 5), yFormat, yLabel);
  xAxis(svg, area, sx, xTicks || niceTicks(x.min, x.max, 8), xFormat, xLabel);
  series.forEach((s, n) => {
    const d = s.points.map(([px, py], i) => `${i ? "L" : "M"}${sx(px).toFixed(1)} ${sy(py).toFixed(1)}`).join("");
    const path = node("path", { d, class: `series series-${n}`, "data-series": s.key, "data-points": s.points.length }, svg);
    node("title", {}, path).textContent = s.label;
  });
  if (!series.length) note(svg, area, "nothing to plot");
  return svg;
}

/**
 * A histogram: `bins` is `[{from, to, value}]` over a numeric x axis; each bin a bar from `from` to `to`.
 * `seriesIndex` picks the colour.
 */
export function histogramPlot({ title, description, xLabel, yLabel, bins, seriesKey, seriesIndex = 0, xFormat = String, yFormat = String }) {
  const xMax = Math.max(...bins.map((b) => b.to), 1e-9);
  const yMax = Math.max(...bins.map((b) => b.value), 1);
  const x = { min: 0, max: xMax }, y = { min: 0, max: yMax };
  const { svg, area, sx, sy } = frame({ title, description, height: 300, left: 58, x, y, className: "histogram-plot" });
  yAxis(svg, area, sy, niceTicks(0, yMax, 5, 1), yFormat, yLabel);
  xAxis(svg, area, sx, niceTicks(0, xMax, 8), xFormat, xLabel);
  for (const bin of bins) {
    const x0 = sx(bin.from), x1 = sx(bin.to);
    const rect = node("rect", {
      x: x0 + 0.5, width: Math.max(1, x1 - x0 - 1), y: sy(bin.value), height: Math.max(0, area.bottom - sy(bin.value)),
      class: `bar series-${seriesIndex}`, "data-series": seriesKey, "data-from": bin.from, "data-to": bin.to, "data-value": bin.value,
    }, svg);
    node("title", {}, rect).textContent = `${xFormat(bin.from)}–${xFormat(bin.to)}: ${yFormat(bin.value)}`;
  }
  return svg;
}

/**
 * Horizontal bars over categories: `categories` is `[{key, label}]`, `series` `[{key, label, values: {category: v}}]`;
 * a category a series has no value for gets no bar. `x` the value domain, `xFormat` its labels.
 */
export function barPlot({ title, description, xLabel, categories, series, x, xFormat = String, emptyNote = "nothing to plot" }) {
  const band = Math.max(18, 10 + 12 * series.length);
  const top = series.length > 1 ? 44 : 30;
  const height = top + Math.max(1, categories.length) * band + 44;
  const { svg, area, sx } = frame({ title, description, height, left: 150, series, x, y: { min: 0, max: 1 }, className: "bar-plot" });
  xAxis(svg, area, sx, niceTicks(x.min, x.max, 5), xFormat, xLabel, true);
  const axis = node("g", { class: "axis axis-y" }, svg);
  node("line", { x1: area.left, x2: area.left, y1: area.top, y2: area.bottom }, axis);
  const barHeight = (band - 8) / Math.max(1, series.length);
  categories.forEach((category, c) => {
    const y0 = area.top + c * band;
    text(axis, area.left - 7, y0 + band / 2 + 4, category.label, { "text-anchor": "end" });
    series.forEach((s, n) => {
      const value = s.values[category.key];
      if (value === undefined) return;
      const rect = node("rect", {
        x: area.left, y: y0 + 4 + n * barHeight, width: Math.max(0, sx(value) - area.left), height: barHeight - 1,
        class: `bar series-${n}`, "data-series": s.key, "data-category": category.key, "data-value": value,
      }, svg);
      node("title", {}, rect).textContent = `${series.length > 1 ? `${s.label}, ` : ""}${category.label}: ${xFormat(value)}`;
    });
  });
  if (!categories.length) note(svg, area, emptyNote);
  return svg;
}
