// Virtual time across the swimlanes: the range they show when fitted to the model, that range zoomed and panned, and
// the time axis's tick step and tick labels. Plain arithmetic on milliseconds (ranges are `[from, to]`): it knows no
// DOM, no pointer or key, and nothing of how the lanes are drawn; lanes.js keeps the range shown, lane-drawing.js
// draws the axis with it.

const TICKS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400, 30 * 86400]
  .map((s) => s * 1000);

/** The range that shows the whole of `m` (a LaneModel): a minute from now when it holds no event yet. */
export function fitRange(m) {
  if (m.start === null) { const t = Date.now(); return [t, t + 60000]; }
  // Everything at one instant: a minute around it, the instant a sixth of the way in.
  if (m.instant) return [m.start - 10000, m.start + 50000];
  const end = Math.max(m.now, m.start + 60000);
  const pad = (end - m.start) * 0.02;
  return [m.start - pad, end + pad];
}

/** `[a, b]` scaled by `factor` (< 1 zooms in) about the point `focus` of the way across (0 left, 1 right), ≥ 1 s. */
export function zoomRange([a, b], factor, focus = 0.5) {
  const span = Math.max(1000, (b - a) * factor);
  const center = a + (b - a) * focus;
  return [center - span * focus, center + span * (1 - focus)];
}

/** `[a, b]` moved by `fraction` of its span (negative: to earlier times). */
export function panRange([a, b], fraction) {
  const dt = (b - a) * fraction;
  return [a + dt, b + dt];
}

/** The axis's step: the smallest of TICKS that leaves at least 90 pixels between ticks over `plotWidth` pixels. */
export function tickStep(a, b, plotWidth) {
  return TICKS.find((s) => (b - a) / s <= plotWidth / 90) || TICKS[TICKS.length - 1];
}

/** A tick's label: the date for steps of days, the date and time over ranges longer than a day, else the time. */
export function tickLabel(t, longRange, step) {
  const iso = new Date(t).toISOString();
  if (step >= 86400000) return iso.slice(5, 10);
  if (longRange) return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  return step < 60000 ? iso.slice(11, 19) : iso.slice(11, 16);
}
