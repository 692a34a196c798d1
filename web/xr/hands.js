// What the controllers do, decided once per XR frame (the rays' poses are then this frame's):
//   trigger in AR, room not placed yet   -> stand the room on the real surface the ray marks (ar-place.js)
//   trigger on the panel                 -> press that button (an item arms the insert, or Undo, Redo, Free, Exit)
//   trigger with an item armed           -> put it where the ray points (the ghost showed where)
//   trigger on an object                 -> grab it (with the selection it belongs to); hold and move: the drag
//                                           follows the ray through the placement seam; let go: one undo step
//   thumbstick left/right while grabbing -> turn in 15 degree steps about the axis the core allows
//   squeeze                              -> toggle free drags (as the desktop's Free button)
//   thumbstick forward, not grabbing     -> aim a teleport at the bare floor; let the stick go to stand there
// A controller pulses on a new contact (short, soft) and on a snap (longer, strong). Nothing here moves the view
// except a teleport the user asked for.
import { Ray } from 'three';

const PRESS = 0.7, RELEASE = 0.3; // thumbstick thresholds (hysteresis: one step per push)
export const WORK_MEASURE = 'snug.xr.work'; // user-timing name of placement work in a browser trace (+ ' <frame>')
const RAY_COLOR = { idle: 0xffffff, object: 0x8ecae6, grab: 0x2a9d8f, blocked: 0xe63946, panel: 0xf4d35e, floor: 0x4cc9f0 };
export const PULSE = { contact: [0.35, 25], snap: [0.9, 60] };

export class XrHands {
  constructor({ controllers, grab, insert, panel, teleport, arPlace, placement, actions, head }) {
    Object.assign(this, { controllers, grab, insert, panel, teleport, arPlace, placement, actions, head });
    this.owner = null;     // the controller holding the grab
    this.frameMs = [];     // placement work in each XR frame that had some (ms): grabs, drag moves and turns
    // Each piece of placement work as a user-timing measure (WORK_MEASURE), so that a trace of the browser shows
    // where it ran; tests/tools/xr-cpu.mjs sets it to tell the work's CPU time from the time other threads took.
    this.markWork = false;
    this._frame = 0;
    this._work = 0;        // the frame's placement work so far (ms)
    this._rays = controllers.map(() => new Ray());
    this._stick = controllers.map(() => ({ turn: 0, aiming: false }));
  }

  /** One XR frame. */
  frame() {
    let hover = null;
    this._frame++;
    this._work = 0;
    this.controllers.forEach((c, k) => {
      if (!c.connected) return;
      const ray = c.worldRay(this._rays[k]);
      // The panel rides on a controller: the other one points at it.
      const panelHit = c === this.owner || this.panel.mesh.parent === c.ray ? null : this.panel.hit(ray);
      hover ??= panelHit?.key ?? null;
      for (const type of c.events.splice(0)) this._event(c, type, ray, panelHit);
      if (c === this.owner) this._drive(c, k, ray);
      else this._point(c, k, ray, panelHit);
    });
    this.panel.set({ hover });
    if (this._work > 0 && this.frameMs.push(this._work) > 4000) this.frameMs.shift();
  }

  /** The session ends: a grab under way goes back, nothing stays marked. */
  end() {
    if (this.owner) this.grab.cancel();
    this.owner = null;
    this.teleport.cancel();
    this.insert.arm(null);
    for (const s of this._stick) Object.assign(s, { turn: 0, aiming: false });
  }

  // A button event of controller c.
  _event(c, type, ray, panelHit) {
    if (type === 'squeezestart') {
      this.actions.free();
      return;
    }
    if (type === 'selectend') {
      if (c !== this.owner) return;
      this.owner = null;
      this.grab.end();
      return;
    }
    // selectstart
    if (this.owner) return;
    if (this.arPlace.active) {
      this.arPlace.place(ray);
      return;
    }
    if (panelHit) {
      if (panelHit.kind === 'item') this.insert.arm(this.insert.armed === panelHit.id ? null : panelHit.id);
      else if (panelHit.kind === 'action') this.actions[panelHit.id]();
      return;
    }
    if (this.insert.armed) {
      this.insert.place(ray);
      return;
    }
    if (this._timed(() => this.grab.begin(ray, this._mode()))) this.owner = c;
  }

  // The controller holding the grab: the drag follows its ray, its stick turns.
  _drive(c, k, ray) {
    const mode = this._mode();
    const felt = this.grab.still(ray, mode) ? null : this._timed(() => this.grab.update(ray, mode));
    const s = this._stick[k], x = c.stick().x;
    let turned = null;
    if (s.turn === 0 && Math.abs(x) > PRESS) {
      s.turn = Math.sign(x);
      turned = this._timed(() => this.grab.turn(-s.turn)); // stick right: clockwise seen from above
    } else if (Math.abs(x) < RELEASE) {
      s.turn = 0;
    }
    for (const f of [felt, turned]) if (f) this._pulse(c, f);
    c.show(this.grab.reach(ray), this.grab.blocked ? RAY_COLOR.blocked : RAY_COLOR.grab);
  }

  // Placement work: timed into the frame's total, and marked for a trace when asked.
  _timed(work) {
    const t0 = performance.now();
    const out = work();
    const t1 = performance.now();
    this._work += t1 - t0;
    if (this.markWork) performance.measure(`${WORK_MEASURE} ${this._frame}`, { start: t0, end: t1 });
    return out;
  }

  // A controller that is not dragging: the ray shows what a trigger would do; the stick aims a teleport.
  _point(c, k, ray, panelHit) {
    if (panelHit) {
      c.show(panelHit.distance, RAY_COLOR.panel);
      if (this.insert.armed) this.insert.away();
      return;
    }
    const s = this._stick[k], y = c.stick().y;
    if (y < -PRESS) s.aiming = true;
    if (s.aiming) {
      if (y > -RELEASE) {
        s.aiming = false;
        this.teleport.go(this.head());
      } else {
        const d = this.teleport.aim(ray);
        c.show(d, d === null ? RAY_COLOR.idle : RAY_COLOR.floor);
        return;
      }
    }
    if (this.insert.armed) this.insert.aim(ray);
    const hit = this.placement.pick(ray);
    c.show(hit ? ray.origin.distanceTo(hit.point) : null, hit && !hit.shell ? RAY_COLOR.object : RAY_COLOR.idle);
  }

  _mode() { return this.actions.isFree() ? 'free' : 'constrained'; }

  _pulse(c, felt) {
    if (felt.snap) c.pulse(...PULSE.snap);
    else if (felt.contact) c.pulse(...PULSE.contact);
  }
}
