// An SVG element made with its attributes, for the swimlanes' drawing (lane-drawing.js, lane-marks.js). It knows only
// the SVG namespace: no page, no data; svg-plot.js has its own (which also leaves out null and undefined attributes).

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element `name` with `attrs`, each set as the string of its value. */
export function el(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}
