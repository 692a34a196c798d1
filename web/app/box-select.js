// Box select: a rectangle dragged over the view (shift-drag on empty space) selects the objects whose centers
// fall inside it.
import { Box3, Vector3 } from 'three';

export class BoxSelect {
  constructor(element, viewport, placement) {
    Object.assign(this, { element, viewport, placement });
    this._from = null;
  }

  begin(x, y) {
    this._from = { x, y };
    this.update(x, y);
    this.element.hidden = false;
  }

  update(x, y) {
    const r = this.element.parentElement.getBoundingClientRect();
    this._to = { x, y };
    Object.assign(this.element.style, {
      left: `${Math.min(x, this._from.x) - r.left}px`, top: `${Math.min(y, this._from.y) - r.top}px`,
      width: `${Math.abs(x - this._from.x)}px`, height: `${Math.abs(y - this._from.y)}px`,
    });
  }

  /** End the box; returns the ids inside. */
  end() {
    this.element.hidden = true;
    const x0 = Math.min(this._from.x, this._to.x), x1 = Math.max(this._from.x, this._to.x);
    const y0 = Math.min(this._from.y, this._to.y), y1 = Math.max(this._from.y, this._to.y);
    const box = new Box3(), c = new Vector3();
    return this.placement.ids().filter((id) => {
      const o = this.placement.object(id);
      box.copy(o.geometry.boundingBox).applyMatrix4(o.matrixWorld).getCenter(c);
      const p = this.viewport.screenOf(c);
      return p.front && p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
    });
  }

  cancel() { this.element.hidden = true; }
}
