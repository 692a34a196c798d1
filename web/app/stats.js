// The stats overlay (a toggle): the room's size, the last drag event's work (the core's body.move, and the page's
// whole work for the event: that call and the scene update) with the p99 of the recent ones, picking, the insert
// search, rendering, memory, and when the first drag became possible.
export class Stats {
  constructor(root, { viewport, placement, snug }) {
    Object.assign(this, { root, viewport, placement, snug });
    this.readyMs = 0;
    this._timer = 0;
  }

  get visible() { return !this.root.hidden; }

  toggle(on = !this.visible) {
    this.root.hidden = !on;
    clearInterval(this._timer);
    if (on) {
      this.draw();
      this._timer = setInterval(() => this.draw(), 250);
    }
  }

  draw() {
    const s = this.placement.stats;
    const mb = (b) => (b / 1048576).toFixed(1);
    const ms = (x, digits) => (x === null ? '—' : `${x.toFixed(digits)} ms`);
    this.root.innerHTML =
      `<b>${this.placement.triangleCount().toLocaleString('en')}</b> triangles, <b>${this.placement.ids().length}</b> objects<br>` +
      `drag event: core <b>${ms(s.coreMs, 2)}</b> (body.move), page <b>${ms(s.pageMs, 2)}</b><br>` +
      `p99 of the last ${s.pageTimes.length}: core ${ms(percentile(s.coreTimes, 0.99), 2)}, page ${ms(percentile(s.pageTimes, 0.99), 2)}<br>` +
      `pick ${s.pickMs === null ? '—' : `${(s.pickMs * 1000).toFixed(0)} µs`} · ` +
      `insert search ${ms(s.insertMs, 1)} · render ${this.viewport.renderMs.toFixed(1)} ms<br>` +
      `core ${mb(this.snug.allocatedBytes())} MB of ${mb(this.snug.heapBytes)} MB · ${this.snug.threads} thread${this.snug.threads > 1 ? 's' : ''}<br>` +
      `first drag possible at ${(this.readyMs / 1000).toFixed(2)} s`;
  }
}

/** The q-quantile of a list of numbers (nearest rank), or null for an empty list. */
function percentile(list, q) {
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
