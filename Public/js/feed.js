// A virtualized list of events: only the rows in (or near) the viewport exist in the DOM, whatever the length.
import { formatVirtual, shortId } from "./format.js";
import { summarize } from "./summaries.js";

const ROW_HEIGHT = 24;
const OVERSCAN = 10;

export class Feed {
  constructor(container, spacer, { onSelect, onNearTop, onFollowChange } = {}) {
    this.container = container;
    this.spacer = spacer;
    this.events = [];          // oldest first
    this.follow = true;
    this.selectedId = null;
    this.onSelect = onSelect;
    this.onNearTop = onNearTop;
    this.onFollowChange = onFollowChange;
    this.rows = new Map();     // index -> element, the rendered window
    this.scheduled = false;
    this.placedTop = null;     // the scrollTop the feed itself set, until its scroll event arrives
    container.addEventListener("scroll", () => {
      this.scrolled();
      this.schedule();
      if (this.container.scrollTop < ROW_HEIGHT * 20 && this.onNearTop) this.onNearTop();
    }, { passive: true });
    container.addEventListener("click", (e) => {
      const row = e.target.closest(".feed-row");
      if (row) this.select(Number(row.dataset.id));
    });
    container.addEventListener("keydown", (e) => this.key(e));
    new ResizeObserver(() => this.schedule()).observe(container);
  }

  reset() {
    this.events = [];
    this.selectedId = null;
    for (const el of this.rows.values()) el.remove();
    this.rows.clear();
    this.placeTop(0);
    this.schedule();
  }

  /** Appends events that are newer than every event held (the caller de-duplicates). */
  append(events) {
    if (!events.length) return;
    for (const e of events) this.events.push(e);
    this.schedule();
  }

  /** Puts older events in front (paging backwards), keeping what the reader sees in place. */
  prepend(events) {
    if (!events.length) return;
    this.events = events.concat(this.events);
    // Indices shift: drop the window and keep the viewport on the same rows.
    for (const el of this.rows.values()) el.remove();
    this.rows.clear();
    this.spacer.style.height = `${this.events.length * ROW_HEIGHT}px`;
    this.placeTop(this.container.scrollTop + events.length * ROW_HEIGHT);
    this.schedule();
  }

  /** Following stops when the reader moves away from the live end by any means (wheel, scrollbar, touch, keys, or
   * a row scrolled into view to be clicked) and resumes when they come back to it. A scroll the feed made itself
   * (following, or keeping the rows in place as older ones are put in front) changes nothing. */
  scrolled() {
    const top = this.container.scrollTop;
    const ours = this.placedTop !== null && Math.abs(top - this.placedTop) < 1;
    this.placedTop = null;
    if (top + this.container.clientHeight >= this.container.scrollHeight - 2) this.setFollow(true);
    else if (!ours) this.setFollow(false);
  }

  setFollow(follow) {
    if (follow === this.follow) return;
    this.follow = follow;
    if (this.onFollowChange) this.onFollowChange(follow);
    this.schedule();
  }

  /** Scrolls to `top`, noting it when it moves the feed, so that the scroll event it fires is known as the feed's. */
  placeTop(top) {
    const before = this.container.scrollTop;
    this.container.scrollTop = top;
    if (this.container.scrollTop !== before) this.placedTop = this.container.scrollTop;
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.render(); });
  }

  render() {
    const n = this.events.length;
    this.spacer.style.height = `${n * ROW_HEIGHT}px`;
    if (this.follow) this.placeTop(this.container.scrollHeight);
    const top = this.container.scrollTop;
    const height = this.container.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(n - 1, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    for (const [i, el] of this.rows) {
      if (i < first || i > last) { el.remove(); this.rows.delete(i); }
    }
    for (let i = first; i <= last; i++) {
      let el = this.rows.get(i);
      const event = this.events[i];
      if (!el || Number(el.dataset.id) !== event.id) {
        if (el) el.remove();
        el = this.row(event, i);
        this.rows.set(i, el);
        this.container.appendChild(el);
      }
      el.setAttribute("aria-selected", String(event.id === this.selectedId));
    }
  }

  row(event, index) {
    const el = document.createElement("div");
    el.className = "feed-row";
    el.setAttribute("role", "option");
    el.dataset.id = String(event.id);
    el.id = `evt-${event.id}`;
    el.dataset.type = event.type;
    el.style.top = `${index * ROW_HEIGHT}px`;
    const [family, verb] = event.type.split(".");
    const summary = summarize(event);
    const cells = [
      ["id", String(event.id)],
      ["at", formatVirtual(event.at)],
      [`type t-${family} t-${verb || ""}`, event.type],
      ["app", event.bundleId ? shortId(event.bundleId, 20) : "—", event.bundleId],
      ["summary", summary, summary],
    ];
    for (const [cls, text, title] of cells) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      if (title) span.title = title;
      el.appendChild(span);
    }
    return el;
  }

  select(id) {
    this.selectedId = id;
    this.container.setAttribute("aria-activedescendant", `evt-${id}`);
    const event = this.events.find((e) => e.id === id);
    this.schedule();
    if (event && this.onSelect) this.onSelect(event);
  }

  key(e) {
    if (!this.events.length) return;
    let index = this.events.findIndex((ev) => ev.id === this.selectedId);
    if (e.key === "ArrowDown") index = Math.min(this.events.length - 1, index + 1);
    else if (e.key === "ArrowUp") index = Math.max(0, index < 0 ? this.events.length - 1 : index - 1);
    else if (e.key === "End") index = this.events.length - 1;
    else if (e.key === "Home") index = 0;
    else return;
    e.preventDefault();
    if (e.key === "ArrowUp" || e.key === "Home") this.setFollow(false);
    const y = index * ROW_HEIGHT;
    if (y < this.container.scrollTop) this.container.scrollTop = y;
    else if (y + ROW_HEIGHT > this.container.scrollTop + this.container.clientHeight) {
      this.container.scrollTop = y + ROW_HEIGHT - this.container.clientHeight;
    }
    this.select(this.events[index].id);
  }
}
