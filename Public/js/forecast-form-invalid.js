// The forecast form's inputs a problem refuses: each of a problem's `errors` (`population.forceQuitShare`,
// `pushes[0].priority`, …) marks the input of its path, or the table or group of its list, as invalid
// (`aria-invalid`), and the `<details>` it is in is opened to show it. Only marks: it knows neither how the form was
// built nor what a request holds, beyond the path a problem's field names (forecast-request.js).
import { $ } from "./dom.js";
import { problemPath } from "./forecast-request.js";

/** Marks the inputs `errors` name as invalid, and no other (`[]` clears them); returns how many were marked. */
export function markInvalid(errors) {
  const form = $("forecast-form");
  for (const e of form.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
  let marked = 0;
  for (const { field: name } of errors || []) {
    if (typeof name !== "string") continue;
    const path = problemPath(name);
    const target = form.querySelector(`[data-path="${CSS.escape(name)}"]`) || form.querySelector(`[data-path="${CSS.escape(path)}"]`)
      || form.querySelector(`[data-rows="${CSS.escape(path)}"]`);
    if (!target) continue;
    target.setAttribute("aria-invalid", "true");
    for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;   // seen
    marked += 1;
  }
  return marked;
}
