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
    this.root.innerHTML =
      `<b>${this.placement.triangleCount().toLocaleString('en')}</b> triangles, <b>${this.placement.ids().length}</b> objects<br>` +
      `drag <b>${s.dragMs.toFixed(2)} ms</b> (${s.queries} sweeps) · pick ${(s.pickMs * 1000).toFixed(0)} µs<br>` +
      `insert search ${s.insertMs.toFixed(1)} ms · render ${this.viewport.renderMs.toFixed(1)} ms<br>` +
      `core ${mb(this.snug.allocatedBytes())} MB of ${mb(this.snug.heapBytes)} MB · ${this.snug.threads} thread${this.snug.threads > 1 ? 's' : ''}<br>` +
      `first drag possible at ${(this.readyMs / 1000).toFixed(2)} s`;
  }
}
