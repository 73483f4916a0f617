// A forecast's rows downloaded as `forecast-{id}.csv`: read from the API as a Blob, saved through a temporary link,
// with what happened said on the page's status line. It knows nothing of which forecast is shown or of its state.
import { forecastRows } from "./forecast-api.js";
import { status } from "./forecast-panel.js";

/** Downloads the rows of forecast `id`. */
export async function downloadRows(id) {
  status(`Downloading the rows of ${id}…`);
  try {
    const blob = await forecastRows(id);
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `forecast-${id}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    status(`Downloaded forecast-${id}.csv (${blob.size.toLocaleString("en")} bytes).`, "good");
  } catch (error) {
    status(`Download failed: ${error.message}`, "bad");
  }
}
