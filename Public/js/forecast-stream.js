// The tenant's event stream while the forecast page is shown, for the forecasts' progress: `forecast.progress` is a
// transient event (no `id:`, never replayed), `{forecastId, state, progress}`, about every 1 % and once at the end.
// Reopened after 3 s when the browser gives up on it; the forecast followed is also polled (forecast.js), so a
// stream that cannot be had only slows the progress bar down.
import { enc } from "./api.js";

export class ForecastStream {
  /** `onProgress(data)` gets each event's data. */
  constructor(onProgress) {
    this.onProgress = onProgress;
    this.source = null;
    this.timer = null;
    this.events = 0;   // how many progress events arrived (for the browser tests)
  }

  /** Whether the stream is open. */
  get live() { return Boolean(this.source && this.source.readyState === EventSource.OPEN); }

  open(api) {
    this.close();
    // `type=forecast.` keeps the devices' events off this stream.
    const source = new EventSource(`/v1/events?type=forecast.&access_token=${enc(api.key)}`);
    this.source = source;
    source.addEventListener("forecast.progress", (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (!data || typeof data.forecastId !== "string") return;
      this.events += 1;
      this.onProgress(data);
    });
    source.onerror = () => {
      if (source !== this.source || source.readyState !== EventSource.CLOSED) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { if (source === this.source) this.open(api); }, 3000);
    };
  }

  close() {
    clearTimeout(this.timer);
    if (this.source) { this.source.close(); this.source = null; }
  }
}
