// A controller's drag of a room object: the same placement seam as the mouse (app/placement.js beginDrag, then one
// drag.move per XR frame with the controller's ray and the grabbed point), so snapping, sliding, stopping at contact,
// constraints and groups are the core's, as on the desktop. The feedback shows as it does there (red blockers, the
// offer it rests on, the ghost of a free drag's seat); release is one undo step, as a mouse drag's.
import { Ray, Vector3 } from 'three';

const STEP = Math.PI / 12; // a thumbstick step: 15 degrees

export class XrGrab {
  constructor({ placement, selection, editor, feedback }) {
    Object.assign(this, { placement, selection, editor, feedback });
    this.drag = null;
    this.last = null;      // the last feedback of the drag (null before its first move)
    this._ray = null;      // the ray of the last move: a still controller costs nothing
    this._mode = null;
    this._blockers = new Set();
    this._grabbed = null;  // the grabbed object's id
    this._local = null;    // the grabbed point in that object's frame (where the ray ends while dragging)
  }

  get active() { return this.drag !== null; }
  /** Whether something blocks the drag now. */
  get blocked() { return (this.last?.blockers.length ?? 0) > 0; }

  /**
   * Grab the object the ray (three.js Ray) points at, with the selection it belongs to as on the desktop, in drag
   * mode `mode`. Returns the picked object's id, or null when the ray meets no object (a shell part or nothing).
   * Nothing moves until the ray or the mode does (the grab's frame pays for the drag's start).
   */
  begin(ray, mode) {
    const hit = this.placement.pick(ray);
    if (!hit || hit.shell) return null;
    if (!this.selection.has(hit.id)) this.selection.set([hit.id]);
    this._start(this.selection.list(), hit.id, hit.point, ray, mode);
    return hit.id;
  }

  /**
   * A grab rehearsed before the session's first frame: the room's first object grabbed at its origin, moved in place,
   * turned a step and put back (cancel: the core's snapshot, bit for bit). V8 compiles this file's code at its first
   * use, which cost the session's first thumbstick turn 0.3-0.4 ms more (the XR test's frames); Placement.warmUp
   * does the same for the desktop's drag.
   */
  warmUp() {
    const id = this.placement.ids()[0];
    if (id === undefined) return;
    const at = new Vector3().fromArray(this.placement.poseOf(id), 4);
    const ray = new Ray(at.clone().setY(at.y + 1), new Vector3(0, -1, 0));
    this._start([id], id, at, ray, 'constrained');
    this.update(ray, 'constrained');
    this.turn(1);
    this.cancel();
    this.placement.resetStats();
  }

  _start(ids, id, point, ray, mode) {
    this.drag = this.placement.beginDrag(ids, id, point);
    const o = this.placement.object(id);
    o.updateWorldMatrix(true, false);
    this._grabbed = id;
    this._local = o.worldToLocal(point.clone());
    this._ray = ray.clone();
    this._mode = mode;
    this.last = null;
    this._blockers.clear();
  }

  /** Whether neither the ray nor the mode changed since the drag last moved: a still controller costs nothing. */
  still(ray, mode) { return mode === this._mode && ray.equals(this._ray); }

  /**
   * One XR frame of the drag: the grabbed point follows `ray` (mode 'free' or 'constrained'). Returns what the
   * controller should feel, { contact, snap }.
   */
  update(ray, mode) {
    const f = this.drag.move(ray, { mode });
    if (f) this.feedback.show(f);
    this._ray.copy(ray);
    this._mode = mode;
    return this._felt(f);
  }

  /** A thumbstick step about the axis the core allows (sign +1 or -1). Returns { contact, snap }. */
  turn(sign) {
    const f = this.drag.turn(sign * STEP);
    if (f) {
      this.feedback.show(f);
      this.editor.explainTurn(f);
    }
    return this._felt(f);
  }

  /** How far along `ray` the grabbed point is now (the ray is drawn to it). */
  reach(ray) {
    const o = this.placement.object(this._grabbed);
    o.updateWorldMatrix(true, false);
    return ray.origin.distanceTo(o.localToWorld(this._local.clone()));
  }

  /** Let go: the move is one undo step (a free drag takes the seat its ghost showed, or goes back). */
  end() {
    const drag = this.drag;
    this.drag = this.last = null;
    this.feedback.clear();
    this.editor.commitMove(drag.end(), 'Move');
  }

  /** Everything back to where the drag began (the session ended under it). */
  cancel() {
    if (!this.drag) return;
    this.drag.cancel();
    this.drag = this.last = null;
    this.feedback.clear();
  }

  // A contact is a blocker that was not blocking the move before; a snap a new binding (snapped onto an offer, or
  // reseated onto another one).
  _felt(f) {
    if (f) this.last = f;
    const blockers = f?.blockers ?? [];
    const contact = blockers.some((id) => !this._blockers.has(id));
    this._blockers = new Set(blockers);
    const snap = !!f && (f.reasons.includes('snapped') || f.reasons.includes('reseated'));
    return { contact, snap };
  }
}
