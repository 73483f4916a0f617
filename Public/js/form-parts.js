// The parts the forecast form is built of: a labelled input naming its request field by `data-path`, a fieldset,
// a `<details>` for the rarely changed fields, a row of fields and a note.

/** A labelled input of the request field `path` (a JSON path such as `population.forceQuitShare`). */
export function field(label, path, { type = "number", min, max, step = "any", width, hint, list, placeholder } = {}) {
  const wrap = document.createElement("label");
  wrap.className = type === "check" ? "check" : "field";
  const input = document.createElement("input");
  input.type = type === "check" ? "checkbox" : type;
  input.dataset.path = path;
  if (type === "number") { input.step = step; if (min !== undefined) input.min = min; if (max !== undefined) input.max = max; }
  if (width) input.style.width = width;
  if (list) input.setAttribute("list", list);
  if (placeholder) input.placeholder = placeholder;
  if (hint) wrap.title = hint;
  if (type === "check") wrap.append(input, ` ${label}`);
  else wrap.append(`${label} `, input);
  return wrap;
}

/** A share from 0 to 1. */
export const share = (label, path, hint) => field(label, path, { min: 0, max: 1, step: 0.01, width: "5.5em", hint });

export function group(legend, ...children) {
  const fieldset = document.createElement("fieldset");
  const l = document.createElement("legend");
  l.textContent = legend;
  fieldset.append(l, ...children);
  return fieldset;
}

export function more(summary, ...children) {
  const details = document.createElement("details");
  const s = document.createElement("summary");
  s.textContent = summary;
  details.append(s, ...children);
  return details;
}

export function row(...children) {
  const div = document.createElement("div");
  div.className = "form-row";
  div.append(...children);
  return div;
}

export function note(text) {
  const p = document.createElement("p");
  p.className = "form-note muted";
  p.textContent = text;
  return p;
}
