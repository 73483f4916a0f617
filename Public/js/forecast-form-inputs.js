// The forecast form's inputs by the request path each names (`data-path`): every one of them, one of them, a value
// shown in one, and the UIBackgroundModes checkboxes. Only finding and setting inputs: it knows neither how the form
// is built (forecast-form-fields.js) nor what a request holds (forecast-request.js), beyond how a value is written.
import { $ } from "./dom.js";
import { fieldText } from "./forecast-request.js";

/** Every input and select of the form that names a request path, in the form's order. */
export function pathInputs() { return [...$("forecast-form").querySelectorAll("input[data-path], select[data-path]")]; }

/** The element of the form that names `path`. */
export function byPath(path) { return $("forecast-form").querySelector(`[data-path="${path}"]`); }

/** Shows `value` in the input of `path`: a checkbox ticked or not, any other input its text. */
export function showValue(path, value) {
  const input = $("forecast-form").querySelector(`input[data-path="${path}"]`);
  if (input.type === "checkbox") input.checked = Boolean(value);
  else input.value = fieldText(value);
}

/** Ticks the UIBackgroundModes checkboxes of `modes`, and only those. */
export function showModes(modes) {
  for (const box of $("forecast-form").querySelectorAll("[data-mode]")) box.checked = modes.includes(box.value);
}

/** The UIBackgroundModes ticked, in the form's order. */
export function checkedModes() {
  return [...$("forecast-form").querySelectorAll("[data-mode]:checked")].map((b) => b.value);
}
