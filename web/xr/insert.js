// Inserting from the XR catalog: an item picked on the panel is armed; while a controller points into the room a
// ghost shows where it would land (the placement seam's landing on the offer under the ray, as the page's insert
// tool shows it under the pointer), and the trigger puts it there through the page's insert path (editor.insert:
// one undo step, the new object selected).
import { PlacementError } from '../app/placement.js';

export class XrInsert {
  constructor({ placement, editor, feedback, catalog }) {
    Object.assign(this, { placement, editor, feedback, catalog });
    this.armed = null;  // catalog item id
    this._ray = null;   // the ray the ghost was last found for
  }

  arm(item) {
    this.armed = item;
    this._ray = null;
    if (!item) this.feedback.hideGhost();
  }

  /** Show where the armed item lands for `ray` (when the ray moved). Returns whether it lands somewhere. */
  aim(ray) {
    if (this._ray && ray.equals(this._ray)) return this.feedback.ghost?.visible ?? false;
    this._ray = ray.clone();
    try {
      const landed = this.placement.landing(this.armed, { ray });
      this.feedback.showGhost(this.armed, landed.pose);
      this.feedback.showOffer(landed.bindings[0].supporter, landed.bindings[0].offer);
      return true;
    } catch (e) {
      if (!(e instanceof PlacementError)) throw e;
      this.feedback.showGhost(this.armed, null);
      this.feedback.showOffer(null);
      return false;
    }
  }

  /** Hide the ghost (the ray left the room, e.g. onto the panel). */
  away() {
    this._ray = null;
    this.feedback.showGhost(this.armed, null);
    this.feedback.showOffer(null);
  }

  /** Put the armed item where `ray` points. Returns the new object's id, or null (the status says why). */
  place(ray) {
    const id = this.editor.insert(this.armed, { ray });
    if (id) this.arm(null);
    return id;
  }
}
