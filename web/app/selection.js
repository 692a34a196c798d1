// The selection: which objects the next command applies to (delete, duplicate, frame, a drag of several).
// Click replaces it, shift-click toggles one object, box select adds; objects leaving the room leave it.
import { EventDispatcher } from 'three';

export class Selection extends EventDispatcher {
  constructor(placement) {
    super();
    this._ids = new Set();
    placement.addEventListener('change', (e) => {
      if (e.kind === 'remove' && e.ids.some((id) => this._ids.has(id))) {
        for (const id of e.ids) this._ids.delete(id);
        this._changed();
      }
    });
  }

  has(id) { return this._ids.has(id); }
  get size() { return this._ids.size; }
  list() { return [...this._ids]; }

  set(ids) {
    const next = new Set(ids);
    if (next.size === this._ids.size && [...next].every((id) => this._ids.has(id))) return;
    this._ids = next;
    this._changed();
  }

  add(ids) {
    const before = this._ids.size;
    for (const id of ids) this._ids.add(id);
    if (this._ids.size !== before) this._changed();
  }

  toggle(id) {
    if (!this._ids.delete(id)) this._ids.add(id);
    this._changed();
  }

  clear() { this.set([]); }

  _changed() { this.dispatchEvent({ type: 'change', ids: this.list() }); }
}
