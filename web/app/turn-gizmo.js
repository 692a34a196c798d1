// The turn gizmo: a ring around the selected object, lying in the plane of the turn the object is allowed (about
// the normal of the offer it rests on, as the core reports it: result.turnAxis). Dragging the ring turns the object
// in 15 degree steps (Ctrl or Cmd held: free angles). When the core reports no allowed turn (it rests on two
// surfaces, or must stay upright against a wall) the ring turns grey with a bar across it: locked.
import { Color, CylinderGeometry, Group, Mesh, MeshBasicMaterial, Plane, Quaternion, SphereGeometry, TorusGeometry, Vector3 } from 'three';

const FREE = new Color(0x4cc9f0);
const LOCKED = new Color(0x8d99ae);
const Z = new Vector3(0, 0, 1);

export class TurnGizmo {
  constructor(viewport, placement, selection) {
    Object.assign(this, { viewport, placement, selection });
    this.id = null;          // the object it is around
    this.axes = new Map();   // object id -> the last allowed turn axis the core reported ([x, y, z] or null)
    const material = new MeshBasicMaterial({ color: FREE, transparent: true, opacity: 0.85, depthTest: false });
    this.group = new Group();
    this.group.name = 'turn gizmo';
    this.ring = new Mesh(new TorusGeometry(1, 0.012, 8, 96), material);
    this.knob = new Mesh(new SphereGeometry(0.045, 16, 8), material);
    this.knob.position.set(1, 0, 0);
    this.bar = new Mesh(new CylinderGeometry(0.012, 0.012, 2, 8).rotateZ(Math.PI / 4), material);
    // What the pointer may grab: a fat invisible ring (the drawn one is thin).
    this.grip = new Mesh(new TorusGeometry(1, 0.08, 6, 48), new MeshBasicMaterial({ visible: false }));
    for (const m of [this.ring, this.knob, this.bar]) m.renderOrder = 12;
    this.group.add(this.ring, this.knob, this.bar, this.grip);
    this.group.visible = false;
    viewport.scene.add(this.group);
    selection.addEventListener('change', ({ ids }) => this.attach(ids.length === 1 ? ids[0] : null));
    placement.addEventListener('change', (e) => {
      if (e.kind === 'remove' && e.ids.includes(this.id)) this.attach(null);
      else if (this.id && e.ids.includes(this.id)) this.update();
    });
    this._plane = new Plane();
  }

  /** Put the ring around object `id` (null: hide it). */
  attach(id) {
    this.id = id && this.placement.has(id) ? id : null;
    this.update();
  }

  /** What the core said about turning object `id`: its allowed axis, or null when it cannot turn. */
  learn(id, axis) {
    this.axes.set(id, axis);
    if (id === this.id) this.update();
  }

  get axis() { return new Vector3().fromArray(this.axes.get(this.id) ?? [0, 1, 0]); }
  get locked() { return this.axes.get(this.id) === null; }

  /** Follow the object: around its box, at its foot, in the plane of its turn. */
  update() {
    const o = this.id && this.placement.object(this.id);
    this.group.visible = !!o;
    if (o) {
      const box = o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld);
      const size = box.getSize(new Vector3());
      const axis = this.axis;
      this.group.position.set((box.min.x + box.max.x) / 2, box.min.y + 0.02, (box.min.z + box.max.z) / 2);
      if (Math.abs(axis.y) < 0.5) box.getCenter(this.group.position); // a turn about a level axis: around the middle
      this.group.quaternion.setFromUnitVectors(Z, axis);
      this.group.scale.setScalar(0.5 * Math.hypot(size.x, size.z, Math.abs(axis.y) < 0.5 ? size.y : 0) + 0.08);
      const locked = this.locked;
      this.ring.material.color.copy(locked ? LOCKED : FREE);
      this.bar.visible = locked;
      this.knob.visible = !locked;
      this.group.updateMatrixWorld(true);
    }
    this.viewport.requestRender();
  }

  /** Does the ray (three.js Ray) grab the ring? */
  hit(ray) {
    if (!this.group.visible) return false;
    this.viewport.raycaster.ray.copy(ray);
    return this.viewport.raycaster.intersectObject(this.grip, false).length > 0;
  }

  /** The angle (radians) of the ray's point on the ring's plane about the ring's centre, or null (edge-on). */
  angleAt(ray) {
    const axis = this.axis, centre = this.group.position;
    this._plane.setFromNormalAndCoplanarPoint(axis, centre);
    const p = ray.intersectPlane(this._plane, new Vector3());
    if (!p) return null;
    const q = new Quaternion().setFromUnitVectors(axis, Z);
    const d = p.sub(centre).applyQuaternion(q);
    return Math.atan2(d.y, d.x);
  }
}
