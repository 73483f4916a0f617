// The swimlanes' view: it keeps the range of virtual time shown (fitted to the model until the reader zooms or pans),
// turns the container's pointer drags, wheel, keys and clicks into zooms, pans and selections, and redraws at most
// once a frame into its container (the picture from lane-drawing.js, the sentence under it in `note`). It does not
// build lanes from events (lane-model.js does, and the caller feeds it) nor draw marks itself; it reads the model and
// never changes it.
import { LABEL_WIDTH, drawLanes } from "./lane-drawing.js";
import { fitRange, panRange, zoomRange } from "./lane-time.js";

export class LaneView {
  constructor(container, model, { onSelect, onRange, note } = {}) {
    this.container = container;
    this.note = note;         // an element under the lanes for a sentence about what they show
    this.model = model;
    this.onSelect = onSelect;
    this.onRange = onRange;   // (from, to, fitted) after every drawing: the app pages older events in
    this.view = null;   // [from, to] in ms; null = fit
    this.scheduled = false;
    this.drag = null;
    container.addEventListener("pointerdown", (e) => {
      if (e.target.closest(".run, .bgtask, .seg, .expiry, .unloaded, .push")) return;
      this.drag = { x: e.clientX, view: this.range() };
      container.setPointerCapture(e.pointerId);
    });
    container.addEventListener("pointermove", (e) => {
      if (!this.drag) return;
      const [a, b] = this.drag.view;
      const dt = ((e.clientX - this.drag.x) / this.plotWidth()) * (b - a);
      this.view = [a - dt, b - dt];
      this.schedule();
    });
    const end = () => { this.drag = null; };
    container.addEventListener("pointerup", end);
    container.addEventListener("pointercancel", end);
    container.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = container.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (e.clientX - rect.left - LABEL_WIDTH) / this.plotWidth()));
      this.zoom(e.deltaY < 0 ? 0.8 : 1.25, f);
    }, { passive: false });
    container.addEventListener("keydown", (e) => {
      const map = { ArrowLeft: () => this.pan(-0.2), ArrowRight: () => this.pan(0.2), "+": () => this.zoom(0.5),
                    "=": () => this.zoom(0.5), "-": () => this.zoom(2), f: () => this.fit() };
      if (map[e.key]) { e.preventDefault(); map[e.key](); }
    });
    container.addEventListener("click", (e) => {
      const el = e.target.closest("[data-kind]");
      if (el && this.onSelect) this.onSelect(el.dataset.kind, el.dataset.app, el.dataset.ref, el.dataset);
    });
    new ResizeObserver(() => this.schedule()).observe(container);
  }

  plotWidth() { return Math.max(50, (this.container.clientWidth || 800) - LABEL_WIDTH - 10); }

  fitRange() { return fitRange(this.model); }

  range() { return this.view || this.fitRange(); }
  fit() { this.view = null; this.schedule(); }
  zoom(factor, focus = 0.5) {
    this.view = zoomRange(this.range(), factor, focus);
    this.schedule();
  }
  pan(fraction) {
    this.view = panRange(this.range(), fraction);
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.render(); });
  }

  render() {
    const [a, b] = this.range();
    this.container.replaceChildren(drawLanes(this.model, [a, b], this.plotWidth()));
    const instant = this.model.instant;
    this.container.dataset.instant = String(instant);
    if (this.note) {
      const now = this.model.now ?? a;
      this.note.textContent = instant && this.model.shownLanes().length
        ? `Every event so far happened at ${new Date(now).toISOString().slice(0, 19).replace("T", " ")} (virtual time): `
          + "each app's state is drawn on from there. Advance the clock to see time pass."
        : "";
      this.note.hidden = !this.note.textContent;
    }
    if (this.onRange) this.onRange(a, b, this.view === null);
  }
}
