// Inserting from the catalog, two ways: click an item, then click in the room (the tool stays armed until the
// click, Escape or another item); or drag the item from the panel into the room and let go. While the pointer is
// over the room a ghost shows where the object would land (the placement seam's landing on the offer under the
// pointer) and that offer lights up.
import { EventDispatcher } from 'three';
import { PlacementError } from './placement.js';

const DRAG_START = 6; // px the pointer moves on a tile before it is a drag and not a click

export class InsertTool extends EventDispatcher {
  constructor({ viewport, placement, feedback, editor, status, catalog }) {
    super();
    Object.assign(this, { viewport, placement, feedback, editor, status, catalog });
    this.armed = null;   // item id waiting for a click in the room
    this._ghostAt = null; // { item, x, y } whose ghost the next frame shows
    viewport.canvas.addEventListener('pointermove', (ev) => {
      if (this.armed && ev.pointerType !== 'touch') this._ghost(this.armed, ev.clientX, ev.clientY);
    });
    viewport.canvas.addEventListener('pointerleave', () => { if (this.armed) this.feedback.showGhost(this.armed, null); });
  }

  /** Arm the tool with catalog item `item` (null disarms). */
  arm(item) {
    this.armed = item;
    if (!item) this._hideGhost();
    else this.status.info(`Click in the room to place the ${this.catalog.get(item).name.toLowerCase()} (Esc cancels)`);
    this.viewport.canvas.style.cursor = item ? 'copy' : '';
    this.dispatchEvent({ type: 'change', item });
  }

  /** Place the armed item at client coordinates (a click in the room). */
  place(x, y) {
    const item = this.armed;
    if (this.editor.insert(item, { ray: this.viewport.ray(x, y) })) this.arm(null);
  }

  /**
   * A press on a catalog tile: a click arms the tool, a drag carries the item into the room and inserts it where
   * it is let go (nothing happens when it is let go outside the room).
   */
  pressTile(item, ev, tile) {
    const start = { x: ev.clientX, y: ev.clientY };
    let dragging = false;
    tile.setPointerCapture(ev.pointerId);
    const move = (e) => {
      if (!dragging && Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_START) return;
      if (!dragging) {
        dragging = true;
        this.arm(null);
        document.body.classList.add('dragging-item');
      }
      if (this.viewport.contains(e.clientX, e.clientY)) this._ghost(item, e.clientX, e.clientY);
      else this.feedback.showGhost(item, null);
    };
    const finish = (e, dropped) => {
      tile.removeEventListener('pointermove', move);
      tile.removeEventListener('pointerup', up);
      tile.removeEventListener('pointercancel', cancel);
      document.body.classList.remove('dragging-item');
      this._hideGhost();
      if (!dropped) return;
      if (!dragging) this.arm(this.armed === item ? null : item);
      else if (this.viewport.contains(e.clientX, e.clientY)) this.editor.insert(item, { ray: this.viewport.ray(e.clientX, e.clientY) });
    };
    const up = (e) => finish(e, true);
    const cancel = (e) => finish(e, false);
    tile.addEventListener('pointermove', move);
    tile.addEventListener('pointerup', up);
    tile.addEventListener('pointercancel', cancel);
  }

  _hideGhost() {
    this._ghostAt = null;
    this.feedback.hideGhost();
  }

  // The ghost follows the pointer once per frame (the landing search is the costly part).
  _ghost(item, x, y) {
    const pending = this._ghostAt;
    this._ghostAt = { item, x, y };
    if (pending) return;
    requestAnimationFrame(() => {
      const at = this._ghostAt;
      this._ghostAt = null;
      if (!at) return; // hidden meanwhile
      try {
        const landed = this.placement.landing(at.item, { ray: this.viewport.ray(at.x, at.y) });
        this.feedback.showGhost(at.item, landed.pose);
        this.feedback.showOffer(landed.bindings[0].supporter, landed.bindings[0].offer);
      } catch (e) {
        if (!(e instanceof PlacementError)) throw e;
        this.feedback.showGhost(at.item, null);
        this.feedback.showOffer(null);
      }
    });
  }
}
