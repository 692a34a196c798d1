// The placement seam: every move, insert and delete of a room object goes through this file, so the core's
// placement calls (issues 17 and 18: the mover behind one call per pointer event, insert without overlap, the
// delete policy, transactions, scene files) replace its body and nothing else in the app changes.
//
// Until then it runs on the three.js layer (../snug-three.js): SnugSync mirrors objects as core bodies and a
// DragMover slides a drag on the horizontal plane through the grab point, stopping at contact. An insert lands on
// the floor at the free spot nearest the pointer, found with the core's broad phase and overlap test.
//
// Objects are named by string ids that stay the same across undo, redo, save and load. Poses are world poses
// [qx, qy, qz, qw, px, py, pz] (the app's objects are children of an unmoved root).
import { Box3, EventDispatcher, Matrix4, Mesh, MeshStandardMaterial, Plane, Quaternion, Vector3 } from 'three';
import { SnugSync, DragMover, geometryArrays } from '../snug-three.js';

/** A placement request the room cannot satisfy (no free spot, outside the room, bad pose): the message says why. */
export class PlacementError extends Error {
  constructor(message) { super(message); this.name = 'PlacementError'; }
}

// A selection moves as one rigid group: the mover sweeps every member with the same translation (candidates are
// everything outside the group) and the translation it applied to the grabbed member is given to the others.
// This leans on DragMover's _group, the one place it decides what moves together; the core mover (issue 18's
// grouping) takes the group as an argument and this class goes.
class GroupMover extends DragMover {
  constructor(sync, options) {
    super(sync, options);
    this.members = [];
  }

  _group() { return this.members; }

  move(entry, delta) {
    const applied = super.move(entry, delta);
    for (const m of this.members) {
      if (m === entry) continue;
      const pose = Float32Array.from(m.pose);
      pose[4] += applied.x; pose[5] += applied.y; pose[6] += applied.z;
      this.sync.setWorldPose(m.object, pose);
    }
    return applied;
  }
}

const _v = new Vector3();
const _q = new Quaternion();
const _m = new Matrix4();
const _box = new Box3();
const UP = new Vector3(0, 1, 0);
// Body layers: rays pick what is on the PICK layer; a wall the view sees through goes to SEE_THROUGH (it still
// collides: pairs and sweeps use the mask, which stays all).
const PICK = 1, SEE_THROUGH = 2;

export class Placement extends EventDispatcher {
  /**
   * snug: a Snug context. root: the three.js Object3D that holds the room (shell and objects).
   * catalog: prototypes by item id (Catalog). room: { interior: { minX, maxX, minZ, maxZ, height } }.
   */
  constructor(snug, { root, catalog, room }) {
    super();
    this.snug = snug;
    this.root = root;
    this.catalog = catalog;
    this.interior = room.interior;
    this.sync = new SnugSync(snug, { scene: true });
    this._objects = new Map();   // id -> { id, item, object, entry }
    this._shell = new Map();     // id -> { id, object, entry, surfaces }
    this._probes = new Map();    // item id -> snug Mesh used to test poses before an object exists
    this._nextId = 1;
    this._floor = null;
    this.mover = new GroupMover(this.sync, { ignore: (e) => e === this._floor });
    // The last of each (null before the first), and the times of the last drag steps (for percentiles).
    this.stats = { dragMs: null, queries: 0, pickMs: null, insertMs: null, dragTimes: [] };
  }

  // ---------------------------------------------------------------- the room shell
  /**
   * Register a part of the room (floor, wall): static, never moved, selected, deleted or saved. geometry is what
   * collides (when the drawn one differs), surfaces its offers and bindings in its local frame (kept for the core's
   * placement).
   */
  addShell(id, object, { geometry = object.geometry, floor = false, surfaces = [] } = {}) {
    this.root.add(object);
    object.userData.placementId = id;
    object.userData.baseColor = object.material.color.clone();
    const entry = this.sync.add(object, { geometry, isStatic: true, label: id });
    this._shell.set(id, { id, object, entry, surfaces });
    if (floor) this._floor = entry;
  }

  /** Whether rays pick a shell part (a wall faded for the view is picked through). */
  setPickable(id, on) { this._shell.get(id).entry.body.setFilter(on ? PICK : SEE_THROUGH, 0xffffffff); }

  // ---------------------------------------------------------------- objects
  has(id) { return this._objects.has(id); }
  ids() { return [...this._objects.keys()]; }
  object(id) { return (this._objects.get(id) || this._shell.get(id))?.object ?? null; }
  itemOf(id) { return this._record(id).item; }

  poseOf(id) { return Array.from(this._record(id).entry.pose); }

  /** { id, item, pose } of an object: what undo, duplicate and the room file keep. */
  record(id) { const r = this._record(id); return { id: r.id, item: r.item, pose: Array.from(r.entry.pose) }; }

  /** Every object's record, in insertion order. */
  snapshot() { return this.ids().map((id) => this.record(id)); }

  _record(id) {
    const r = this._objects.get(id);
    if (!r) throw new PlacementError(`no object ${id} in the room`);
    return r;
  }

  /** A fresh object id (commands take theirs before they run, so redo gives the object the same id). */
  newId() {
    while (this._objects.has(`o${this._nextId}`)) this._nextId++;
    return `o${this._nextId++}`;
  }

  /**
   * Put an object of catalog item `item` at exactly `pose` (no search: undo, redo and loading restore poses that
   * were valid). A new id is made unless one is given. Returns the id.
   */
  insert({ id, item, pose }) {
    const proto = this.catalog.prototype(item);
    pose = unitPose(pose);
    id = id ?? this.newId();
    if (this._objects.has(id) || this._shell.has(id)) throw new PlacementError(`object id ${id} is taken`);
    const n = /^o(\d+)$/.exec(id);
    if (n) this._nextId = Math.max(this._nextId, Number(n[1]) + 1);
    const object = new Mesh(proto.renderGeometry, new MeshStandardMaterial({ color: proto.color, roughness: 0.7 }));
    object.name = proto.name;
    object.castShadow = object.receiveShadow = true;
    object.userData.placementId = id;
    object.userData.baseColor = object.material.color.clone();
    object.quaternion.set(pose[0], pose[1], pose[2], pose[3]);
    object.position.set(pose[4], pose[5], pose[6]);
    this.root.add(object);
    // A hierarchy built elsewhere (a worker, for big imports) is loaded instead of rebuilt, for the first object of
    // the item (later ones share the first one's mesh in SnugSync).
    const firstOfItem = !this.ids().some((other) => this._objects.get(other).item === item);
    const mesh = proto.blob && firstOfItem ? this.snug.meshFromBlob(proto.blob, item) : undefined;
    const entry = this.sync.add(object, { geometry: proto.geometry, label: id, mesh });
    this._objects.set(id, { id, item, object, entry });
    this.dispatchEvent({ type: 'change', kind: 'insert', ids: [id] });
    return id;
  }

  /** Remove objects; returns their records (for undo). */
  remove(ids) {
    const records = ids.map((id) => this.record(id));
    for (const id of ids) {
      const r = this._objects.get(id);
      this.sync.remove(r.object);
      this.root.remove(r.object);
      r.object.material.dispose();
      this._objects.delete(id);
    }
    this.dispatchEvent({ type: 'change', kind: 'remove', ids: [...ids] });
    return records;
  }

  /** Put objects at poses without collision (undo and redo of moves restore poses that were valid). */
  setPoses(records) {
    for (const { id, pose } of records) this.sync.setWorldPose(this._record(id).object, unitPose(pose));
    this.dispatchEvent({ type: 'change', kind: 'move', ids: records.map((r) => r.id) });
  }

  /**
   * Replace every object by `records`, atomically: if a record is bad or the new room is not consistent
   * (violations()), the room is put back as it was and a PlacementError says why.
   */
  restore(records) {
    const before = this.snapshot();
    const ids = new Set();
    for (const r of records) {
      if (ids.has(r.id)) throw new PlacementError(`object id ${r.id} appears twice`);
      ids.add(r.id);
      this.catalog.prototype(r.item);
      this._checkInside(r.item, unitPose(r.pose));
    }
    try {
      this._replace(records);
      const bad = this.violations();
      if (bad.length) throw new PlacementError(`the room is not consistent: ${bad.map((v) => v.message).join('; ')}`);
    } catch (e) {
      this._replace(before);
      throw e;
    }
  }

  _replace(records) {
    if (this._objects.size) this.remove(this.ids());
    for (const r of records) this.insert(r);
  }

  /**
   * What is wrong in the room: every pair of objects (and object with the shell) that interpenetrates, by the
   * core's overlap test on the broad phase's pairs. The core's consistency check (issue 18) replaces this.
   */
  violations() {
    const out = [];
    const floor = this._floor?.body;
    for (const [a, b] of this.sync.scene.pairs()) {
      if (a === floor || b === floor) continue;
      const [ida, idb] = [a.userData.userData.placementId, b.userData.userData.placementId];
      if (this._shell.has(ida) && this._shell.has(idb)) continue; // walls meet at the corners by design
      const ea = this.sync.byObject.get(a.userData), eb = this.sync.byObject.get(b.userData);
      if (!this.snug.overlap(ea.mesh, ea.pose, eb.mesh, eb.pose)) continue;
      out.push({ kind: 'overlap', ids: [ida, idb], message: `${ida} and ${idb} interpenetrate` });
    }
    return out;
  }

  // ---------------------------------------------------------------- picking
  /** The closest object or shell part on a ray (three.js Ray): { id, point: Vector3, shell } or null. */
  pick(ray) {
    const t0 = performance.now();
    const h = this.sync.scene.raycast(ray.origin, ray.direction, Infinity, PICK);
    this.stats.pickMs = performance.now() - t0;
    if (!h || !h.body) return null;
    const id = h.body.userData.userData.placementId;
    return { id, point: new Vector3().fromArray(h.point), shell: this._shell.has(id) };
  }

  /** Where a ray meets the floor's top (y = 0) inside the room, or null. */
  floorPoint(ray) {
    const p = ray.intersectPlane(new Plane(UP, 0), new Vector3());
    if (!p) return null;
    const I = this.interior;
    return p.x > I.minX && p.x < I.maxX && p.z > I.minZ && p.z < I.maxZ ? p : null;
  }

  // ---------------------------------------------------------------- insert search
  /**
   * A free pose for a new object of `item` resting on the floor, nearest to where `ray` meets the floor (or to
   * `near`, a Vector3), turned about the vertical by `quaternion`. Throws a PlacementError when the pointer is not
   * over the floor or the room has no free spot big enough. The core's insert (issue 18) lands on the compatible
   * offer under the pointer instead.
   */
  findFreePose(item, { ray = null, near = null, quaternion = [0, 0, 0, 1] } = {}) {
    const t0 = performance.now();
    const start = near ? new Vector3().copy(near) : ray && this.floorPoint(ray);
    if (!start) throw new PlacementError('point at the floor inside the room');
    const proto = this.catalog.prototype(item);
    const q = _q.fromArray(quaternion);
    _box.copy(proto.geometry.boundingBox).applyMatrix4(_m.makeRotationFromQuaternion(q));
    const half = _box.getSize(new Vector3()).multiplyScalar(0.5);
    const centre = _box.getCenter(new Vector3());
    const I = this.interior;
    if (2 * half.x >= I.maxX - I.minX || 2 * half.z >= I.maxZ - I.minZ || 2 * half.y >= I.height) {
      throw new PlacementError(`${proto.name} is bigger than the room`);
    }
    const probe = this._probe(item);
    // Spots a quarter of the object apart (5-25 cm), a wall margin of 1 cm.
    const step = Math.min(0.25, Math.max(0.05, 0.25 * Math.min(2 * half.x, 2 * half.z)));
    const reach = Math.ceil(Math.hypot(I.maxX - I.minX, I.maxZ - I.minZ) / step);
    const margin = 0.01;
    const pose = new Float32Array([q.x, q.y, q.z, q.w, 0, -_box.min.y, 0]);
    const min = [0, 0, 0], max = [0, 2 * half.y, 0];
    for (const [i, j] of ringOrder(reach)) {
      // The box's centre goes to the candidate spot; the box stays inside the walls.
      const cx = start.x + i * step, cz = start.z + j * step;
      if (cx - half.x < I.minX + margin || cx + half.x > I.maxX - margin || cz - half.z < I.minZ + margin ||
        cz + half.z > I.maxZ - margin) continue;
      pose[4] = cx - centre.x;
      pose[6] = cz - centre.z;
      min[0] = cx - half.x; min[2] = cz - half.z; max[0] = cx + half.x; max[2] = cz + half.z;
      if (this._free(probe, pose, min, max)) {
        this.stats.insertMs = performance.now() - t0;
        return Array.from(pose);
      }
    }
    throw new PlacementError(`no free spot for ${proto.name} in the room`);
  }

  // No object (the floor aside) interpenetrates `mesh` at `pose`; [min, max] is its world box.
  _free(mesh, pose, min, max) {
    for (const body of this.sync.scene.queryBox(min, max)) {
      const e = this.sync.byObject.get(body.userData);
      if (e === this._floor) continue;
      if (this.snug.overlap(mesh, pose, e.mesh, e.pose)) return false;
    }
    return true;
  }

  _probe(item) {
    let mesh = this._probes.get(item);
    if (!mesh) {
      const proto = this.catalog.prototype(item);
      mesh = proto.blob ? this.snug.meshFromBlob(proto.blob, item) : this.snug.createMesh({ ...geometryArrays(proto.geometry), label: item });
      this._probes.set(item, mesh);
    }
    return mesh;
  }

  _checkInside(item, pose) {
    const proto = this.catalog.prototype(item);
    _box.copy(proto.geometry.boundingBox).applyMatrix4(_m.compose(_v.set(pose[4], pose[5], pose[6]), _q.fromArray(pose), new Vector3(1, 1, 1)));
    const I = this.interior, eps = 1e-3;
    if (_box.min.x < I.minX - eps || _box.max.x > I.maxX + eps || _box.min.z < I.minZ - eps || _box.max.z > I.maxZ + eps ||
      _box.min.y < -eps || _box.max.y > I.height + eps) {
      throw new PlacementError(`${proto.name} at (${pose[4].toFixed(2)}, ${pose[5].toFixed(2)}, ${pose[6].toFixed(2)}) is outside the room`);
    }
  }

  // ---------------------------------------------------------------- drags
  /**
   * Start dragging objects `ids` as one group, grabbed on `grabbed` at world `point`. Returns a drag:
   *   move(ray)  one call per pointer event: the group follows the pointer on the horizontal plane through the grab
   *              point, stopping at contact and sliding along what blocks it. Returns the feedback
   *              { blockers: ids, contacts: [{ point, normal }], group: the ids carried along with the grabbed one }
   *              (today the rest of the selection; with the core, also what stands on them).
   *   end()      { from: records, to: records } of the members (for the undo stack)
   *   cancel()   every member back to where the drag started
   */
  beginDrag(ids, grabbed, point) {
    const members = ids.map((id) => this._record(id));
    const from = members.map((r) => ({ id: r.id, pose: Array.from(r.entry.pose) }));
    const plane = new Plane(UP, -point.y);
    const lead = this._record(grabbed);
    const offset = new Vector3().setFromMatrixPosition(lead.object.matrixWorld).sub(point);
    const target = new Vector3();
    this.mover.members = members.map((r) => r.entry);
    const idOf = (entry) => entry.object.userData.placementId;
    const changed = () => this.dispatchEvent({ type: 'change', kind: 'move', ids: [...ids] });
    const group = ids.filter((id) => id !== grabbed);
    let live = true;
    return {
      move: (ray) => {
        if (!live || !ray.intersectPlane(plane, target)) return { blockers: [], contacts: [], group: [] };
        const t0 = performance.now();
        const pos = _v.setFromMatrixPosition(lead.object.matrixWorld);
        const delta = target.add(offset).sub(pos);
        delta.y = 0;
        this.mover.move(lead.entry, delta);
        this.stats.dragMs = performance.now() - t0;
        this.stats.queries = this.mover.lastQueries;
        if (this.stats.dragTimes.push(this.stats.dragMs) > 1000) this.stats.dragTimes.shift();
        changed();
        return {
          blockers: [...this.mover.blockers].map(idOf),
          contacts: this.mover.contacts.map((c) => ({ point: c.point.clone(), normal: c.normal.clone() })),
          group,
        };
      },
      end: () => {
        live = false;
        return { from, to: members.map((r) => ({ id: r.id, pose: Array.from(r.entry.pose) })) };
      },
      cancel: () => {
        live = false;
        this.setPoses(from);
      },
    };
  }

  // ---------------------------------------------------------------- for the debug views and tests
  /** The core's serialized mesh of an object, hierarchy included (the H view reads its boxes). */
  hierarchyBlob(id) { return this._record(id).entry.mesh.serialize(); }

  /** Whether two objects interpenetrate (core overlap test). */
  overlaps(a, b) {
    const ea = (this._objects.get(a) || this._shell.get(a)).entry, eb = (this._objects.get(b) || this._shell.get(b)).entry;
    return this.snug.overlap(ea.mesh, ea.pose, eb.mesh, eb.pose);
  }

  /** Triangles in the room. */
  triangleCount() {
    let n = 0;
    for (const e of this.sync.entries) n += e.arrays.indices ? e.arrays.indices.length / 3 : e.arrays.positions.length / 9;
    return n;
  }
}

// A pose checked (7 finite numbers, a quaternion of unit length within 1e-3) as a Float32Array, its quaternion
// normalized so that no rounding in a file turns into a scale. One already unit to float precision keeps its bits,
// so undo and redo give back exactly what was.
function unitPose(pose) {
  if (!pose || pose.length !== 7) throw new PlacementError('a pose has 7 numbers (quaternion xyzw, position xyz)');
  for (const x of pose) if (typeof x !== 'number' || !Number.isFinite(x)) throw new PlacementError(`pose value ${x} is not a finite number`);
  const n = Math.hypot(pose[0], pose[1], pose[2], pose[3]);
  if (Math.abs(n - 1) > 1e-3) throw new PlacementError(`pose rotation is not a unit quaternion (length ${n.toFixed(4)})`);
  const k = Math.abs(n - 1) < 1e-6 ? 1 : n;
  return Float32Array.of(pose[0] / k, pose[1] / k, pose[2] / k, pose[3] / k, pose[4], pose[5], pose[6]);
}

// Grid offsets (i, j) with |i|, |j| <= reach, nearest first (ties in a fixed order): the search visits spots
// outward from the pointer. Cached per reach.
const RINGS = new Map();
function ringOrder(reach) {
  let order = RINGS.get(reach);
  if (!order) {
    order = [];
    for (let i = -reach; i <= reach; i++) for (let j = -reach; j <= reach; j++) order.push([i, j]);
    order.sort((a, b) => a[0] * a[0] + a[1] * a[1] - (b[0] * b[0] + b[1] * b[1]) || a[0] - b[0] || a[1] - b[1]);
    RINGS.set(reach, order);
  }
  return order;
}
