// The pointer router: decides for each press what it is, so object drags and the camera never fight.
//   left press on the turn ring of the selection        -> turn it (15 degree steps; Ctrl/Cmd: free angles)
//   left press (mouse, pen, one finger) on an object   -> drag it (with the selection it belongs to); Alt held or the
//                                                          Free toggle on: a free drag (it leaves its surface and
//                                                          lands on the one under it when let go)
//   left press on empty space                           -> the orbit controls (a press without motion clears the selection)
//   shift + left press on empty space (mouse, pen)      -> box select
//   shift + left click on an object                     -> toggle it in the selection
//   right or middle press                               -> the orbit controls (pan, zoom), also on objects
//   a second finger                                     -> the orbit controls (orbit, pinch); a one-finger drag under way
//                                                          goes back to where it started
// It listens in the capture phase on the canvas, before the orbit controls' own listener, and keeps the presses
// it takes from them.
const THRESHOLD = { mouse: 3, pen: 4, touch: 8 };
const STEP = Math.PI / 12; // a key's turn

export class PointerInput {
  constructor({ viewport, placement, selection, editor, feedback, boxSelect, insertTool, gizmo }) {
    Object.assign(this, { viewport, placement, selection, editor, feedback, boxSelect, insertTool, gizmo });
    this.free = false;        // the Free toggle: every drag is free
    this.canvas = viewport.canvas;
    this.state = null;        // the press this router took: { kind: 'pending'|'drag'|'box'|'click', pointerId, ... }
    this.emptyPress = null;   // a press on empty space left to the controls: { pointerId, x, y, moved }
    this.touches = new Map(); // pointerId -> { x, y } of every finger down on the canvas
    this.lastDragged = null;
    this._handover = new WeakSet();
    this.canvas.addEventListener('pointerdown', (e) => this._down(e), { capture: true });
    window.addEventListener('pointermove', (e) => this._move(e));
    window.addEventListener('pointerup', (e) => this._up(e));
    window.addEventListener('pointercancel', (e) => this._lost(e));
  }

  _take(ev) {
    ev.stopImmediatePropagation();
    ev.preventDefault();
    this.canvas.setPointerCapture(ev.pointerId);
  }

  _down(ev) {
    if (this._handover.has(ev)) return;
    if (ev.pointerType === 'touch') this.touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (ev.pointerType === 'touch' && this.touches.size > 1) {
      // A second finger: the gesture belongs to the camera. A one-finger drag under way goes back and its finger
      // is handed to the controls, which never saw it go down.
      const first = this.state;
      if (first && first.pointerType === 'touch') {
        this.cancel();
        this._handOver(first.pointerId);
      }
      return;
    }
    if (this.state) return;
    if (this.insertTool.armed && ev.button === 0) {
      this._take(ev);
      this.insertTool.place(ev.clientX, ev.clientY);
      this.canvas.releasePointerCapture(ev.pointerId);
      return;
    }
    if (ev.button !== 0) return;
    const ray = this.viewport.ray(ev.clientX, ev.clientY);
    const base = { pointerId: ev.pointerId, pointerType: ev.pointerType, x: ev.clientX, y: ev.clientY };
    if (!ev.shiftKey && this.gizmo.hit(ray)) {
      this._take(ev);
      this._beginTurn(base, ray);
      return;
    }
    const hit = this.placement.pick(ray);
    if (hit && !hit.shell) {
      this._take(ev);
      if (ev.shiftKey) {
        this.selection.toggle(hit.id);
        if (!this.selection.has(hit.id)) {
          this.state = { ...base, kind: 'click' };
          return;
        }
      } else if (!this.selection.has(hit.id)) {
        this.selection.set([hit.id]);
      }
      this.state = { ...base, kind: 'pending', id: hit.id, point: hit.point, shift: ev.shiftKey };
    } else if (ev.shiftKey && ev.pointerType !== 'touch') {
      this._take(ev);
      this.state = { ...base, kind: 'box' };
      this.boxSelect.begin(ev.clientX, ev.clientY);
    } else {
      this.emptyPress = { pointerId: ev.pointerId, x: ev.clientX, y: ev.clientY, moved: false };
    }
  }

  _move(ev) {
    const t = this.touches.get(ev.pointerId);
    if (t) { t.x = ev.clientX; t.y = ev.clientY; }
    const far = (p) => Math.hypot(ev.clientX - p.x, ev.clientY - p.y) > (THRESHOLD[ev.pointerType] ?? 3);
    if (this.emptyPress && this.emptyPress.pointerId === ev.pointerId && far(this.emptyPress)) this.emptyPress.moved = true;
    const s = this.state;
    if (!s || s.pointerId !== ev.pointerId) {
      if (!s && ev.pointerType !== 'touch' && ev.target === this.canvas) this._hover(ev);
      return;
    }
    if (s.kind === 'pending' && far(s)) {
      const ids = this.selection.has(s.id) ? this.selection.list() : [s.id];
      s.kind = 'drag';
      s.drag = this.placement.beginDrag(ids, s.id, s.point);
      this.lastDragged = s.id;
      this.canvas.style.cursor = 'grabbing';
    }
    if (s.kind === 'drag') {
      // One placement call per pointer event (the coalesced ones included, so fast motion keeps every step).
      const events = typeof ev.getCoalescedEvents === 'function' ? ev.getCoalescedEvents() : [];
      const mode = this.free || ev.altKey ? 'free' : 'constrained';
      let f = null;
      for (const e of events.length ? events : [ev]) f = s.drag.move(this.viewport.ray(e.clientX, e.clientY), { mode }) ?? f;
      this._show(f);
    } else if (s.kind === 'turn') {
      const angle = this.gizmo.angleAt(this.viewport.ray(ev.clientX, ev.clientY));
      if (angle === null || s.locked) return;
      s.total += wrap(angle - s.angle);
      s.angle = angle;
      this._show(s.drag.turnTo(s.total, { free: ev.ctrlKey || ev.metaKey }));
    } else if (s.kind === 'box') {
      this.boxSelect.update(ev.clientX, ev.clientY);
    }
  }

  _hover(ev) {
    const ray = this.viewport.ray(ev.clientX, ev.clientY);
    if (!this.insertTool.armed && this.gizmo.hit(ray)) {
      this.canvas.style.cursor = this.gizmo.locked ? 'not-allowed' : 'grab';
      return;
    }
    const hit = this.insertTool.armed ? null : this.placement.pick(ray);
    this.canvas.style.cursor = this.insertTool.armed ? 'copy' : hit && !hit.shell ? 'grab' : '';
  }

  // A press on the turn ring: the selection turns with the ring, about the axis the core allows.
  _beginTurn(base, ray) {
    const id = this.gizmo.id;
    const drag = this.placement.beginDrag(this.selection.list(), id, this.placement.poseOf(id).slice(4));
    const f = drag.turn(0); // asks the core which axis the turn may use
    this.gizmo.learn(f.lead, f.turnAxis);
    this.state = { ...base, kind: 'turn', drag, angle: this.gizmo.angleAt(ray) ?? 0, total: 0, locked: !f.turnAxis };
    this.lastDragged = id;
    if (!f.turnAxis) this.editor.explainTurn({ ...f, reasons: ['turn-locked'] });
    this.canvas.style.cursor = f.turnAxis ? 'grabbing' : 'not-allowed';
  }

  _show(f) {
    if (!f) return;
    this.feedback.show(f);
    this.gizmo.learn(f.lead, f.turnAxis);
  }

  /** A key's turn (R, Shift+R) of the drag under way; returns whether there was one. */
  turn(sign) {
    const s = this.state;
    if (!s || (s.kind !== 'drag' && s.kind !== 'turn')) return false;
    const f = s.drag.turn(sign * STEP);
    this._show(f);
    this.editor.explainTurn(f);
    return true;
  }

  _up(ev) {
    this.touches.delete(ev.pointerId);
    if (this.emptyPress && this.emptyPress.pointerId === ev.pointerId) {
      if (!this.emptyPress.moved) this.selection.clear();
      this.emptyPress = null;
    }
    const s = this.state;
    if (!s || s.pointerId !== ev.pointerId) return;
    this.state = null;
    this.canvas.style.cursor = '';
    if (this.canvas.hasPointerCapture(ev.pointerId)) this.canvas.releasePointerCapture(ev.pointerId);
    if (s.kind === 'drag' || s.kind === 'turn') {
      this.feedback.clear();
      this.editor.commitMove(s.drag.end(), s.kind === 'turn' ? 'Turn' : 'Move');
      this.gizmo.update();
    } else if (s.kind === 'pending' && !s.shift) {
      this.selection.set([s.id]);
    } else if (s.kind === 'box') {
      this.selection.add(this.boxSelect.end());
    }
  }

  _lost(ev) {
    this.touches.delete(ev.pointerId);
    if (this.emptyPress && this.emptyPress.pointerId === ev.pointerId) this.emptyPress = null;
    if (this.state && this.state.pointerId === ev.pointerId) this.cancel();
  }

  /** Escape: a drag goes back to where it started, a box select ends selecting nothing. Returns whether one did. */
  cancel() {
    const s = this.state;
    if (!s) return false;
    this.state = null;
    this.canvas.style.cursor = '';
    if (s.kind === 'drag' || s.kind === 'turn') {
      s.drag.cancel();
      this.feedback.clear();
      this.gizmo.update();
    } else if (s.kind === 'box') {
      this.boxSelect.cancel();
    }
    return true;
  }

  // Tell the orbit controls about a finger that is already down (they track fingers from their pointerdown).
  _handOver(pointerId) {
    const p = this.touches.get(pointerId);
    const ev = new PointerEvent('pointerdown', {
      pointerId, pointerType: 'touch', isPrimary: true, clientX: p.x, clientY: p.y, button: 0, buttons: 1,
      bubbles: true, cancelable: true,
    });
    this._handover.add(ev);
    this.canvas.dispatchEvent(ev);
  }
}

// An angle difference in (-pi, pi].
function wrap(a) { return a - 2 * Math.PI * Math.round(a / (2 * Math.PI)); }
