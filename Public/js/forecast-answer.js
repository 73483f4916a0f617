// A done forecast's answer in the page: its key figures (or a note that there are no runs to forecast) in
// `#fc-figures-box`, and its plots in `#fc-plots`, each a `<figure>`, the runs-per-day histogram with a switch between
// run kinds when there are several. The table and the plots themselves are forecast-result.js's; this only places
// them. It knows no API and nothing of which forecast is shown or how it was read.
import { $, para } from "./dom.js";
import { figuresTable, histogram, kindsOf, pushPlot, ranWithinPlot, whyNotPlot } from "./forecast-result.js";

/** Shows `result` (a done forecast's `result`). */
export function showAnswer(result) {
  const kinds = kindsOf(result);
  $("fc-figures-box").replaceChildren(kinds.length ? figuresTable(result)
    : para("The app neither submits BGTask requests nor sets a fetch interval at launch: there are no runs to forecast.", "muted"));
  const plots = [];
  if (kinds.length) {
    plots.push(figure("fc-plot-ran", ranWithinPlot(result)));
    plots.push(histogramFigure(result, kinds));
    plots.push(figure("fc-plot-whynot", whyNotPlot(result)));
  }
  if (result.pushes && result.pushes.sent > 0) plots.push(figure("fc-plot-pushes", pushPlot(result.pushes)));
  $("fc-plots").replaceChildren(...plots);
}

/** Shows no answer (the forecast shown is not done). */
export function clearAnswer() {
  $("fc-figures-box").replaceChildren();
  $("fc-plots").replaceChildren();
}

function figure(id, svg) {
  const f = document.createElement("figure");
  f.id = id;
  f.className = "plot-box";
  f.append(svg);
  return f;
}

/** The histogram of one kind at a time, with a switch between kinds when there are several. */
function histogramFigure(result, kinds) {
  const f = figure("fc-plot-histogram", histogram(result, kinds[0].key));
  if (kinds.length > 1) {
    const fieldset = document.createElement("fieldset");
    fieldset.className = "kind-switch";
    const legend = document.createElement("legend");
    legend.className = "visually-hidden";
    legend.textContent = "Histogram of";
    fieldset.append(legend);
    kinds.forEach((k, n) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      Object.assign(input, { type: "radio", name: "fc-histogram-kind", value: k.key, checked: n === 0 });
      input.addEventListener("change", () => f.querySelector("svg").replaceWith(histogram(result, k.key)));
      label.append(input, ` ${k.label}`);
      fieldset.append(label);
    });
    f.prepend(fieldset);
  }
  return f;
}
