// The stats overlay (a toggle): the room's size, the last drag's work in the placement seam, picking, rendering,
// memory, and when the first drag became possible.
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
      `drag step <b>${ms(s.dragMs, 2)}</b> (${s.queries} sweeps), p99 ${ms(percentile(s.dragTimes, 0.99), 2)} of the last ${s.dragTimes.length}<br>` +
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
