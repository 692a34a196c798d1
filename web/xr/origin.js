// Where the room lies in the headset's tracking space. The room is in metres and stays where it is in the scene
// (its bodies in the core never move for the view); what changes is the reference space the session renders from:
// an offset of the session's floor-level space. `matrix` is world-from-device: a point the headset tracks at d is at
// matrix * d in the room. It changes only on the user's input (the start of a session, a teleport, an AR placement);
// nothing else moves the view.
import { Matrix4, Quaternion, Vector3 } from 'three';

const UP = new Vector3(0, 1, 0);
const FORWARD = new Vector3(0, 0, -1);
const _p = new Vector3();
const _q = new Quaternion();
const _s = new Vector3();
const _m = new Matrix4();

export class XrOrigin {
  constructor(xr) {
    this.xr = xr;             // three's WebXRManager
    this.matrix = new Matrix4();
    this._base = null;
  }

  /**
   * A session began: its floor-level space is the base, and the user's tracking origin goes to `position` in the
   * room, facing -z turned by `yaw` about up.
   */
  begin(position, yaw) {
    this._base = this.xr.getReferenceSpace();
    this._set(_m.compose(_p.copy(position), _q.setFromAxisAngle(UP, yaw), _s.set(1, 1, 1)));
  }

  end() {
    this._base = null;
    this.xr.setReferenceSpace(null);
  }

  /** Teleport: the user's feet (under the head at `head`, a room point) go to room point `to` on the floor. */
  moveUserTo(to, head) {
    this._set(_m.makeTranslation(to.x - head.x, 0, to.z - head.z).multiply(this.matrix));
  }

  /**
   * AR: the room's origin (the middle of its floor) goes to the tracked point now at room point `point` (a plane the
   * headset found), its -z along `facing` (a room direction, made level): the room stands on that plane, at real
   * scale, ahead of the user.
   */
  placeRoomAt(point, facing) {
    const inv = _m.copy(this.matrix).invert();
    const d = point.clone().applyMatrix4(inv);
    const f = facing.clone().transformDirection(inv).setY(0);
    if (f.lengthSq() < 1e-8) f.copy(FORWARD);
    const turn = new Quaternion().setFromUnitVectors(f.normalize(), FORWARD);
    this._set(new Matrix4().makeRotationFromQuaternion(turn).multiply(new Matrix4().makeTranslation(-d.x, -d.y, -d.z)));
  }

  /** The device-space point of room point `p` (a new Vector3). */
  toDevice(p) { return new Vector3().copy(p).applyMatrix4(_m.copy(this.matrix).invert()); }

  /** The device-space pose that stands at room point `from` and points its -z at room point `to`: { position, quaternion }. */
  aim(from, to) {
    const world = new Matrix4().lookAt(new Vector3().copy(from), new Vector3().copy(to), UP).setPosition(from.x, from.y, from.z);
    const device = new Matrix4().copy(this.matrix).invert().multiply(world);
    const position = new Vector3(), quaternion = new Quaternion();
    device.decompose(position, quaternion, _s);
    return { position: position.toArray(), quaternion: quaternion.toArray() };
  }

  // The session renders from the base space offset by device-from-world (a pose in the offset space is the offset's
  // inverse times the pose in the base space, so world = matrix * device).
  _set(matrix) {
    this.matrix.copy(matrix);
    _m.copy(matrix).invert().decompose(_p, _q, _s);
    const offset = new XRRigidTransform({ x: _p.x, y: _p.y, z: _p.z }, { x: _q.x, y: _q.y, z: _q.z, w: _q.w });
    this.xr.setReferenceSpace(this._base.getOffsetReferenceSpace(offset));
  }
}
