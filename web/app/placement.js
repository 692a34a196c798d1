// The placement seam: every move, insert and delete of a room object goes through this file, on the core's placement
// engine through the three.js layer (../snug-three.js): objects are bodies whose meshes carry the catalog's
// authored surfaces, each bound to what it stands on (body.bind), and a drag is one body.move per pointer event.
// Inserts and duplicates land by the core's scene.insert, deletes follow the core's scene.delete policies; this file
// only maps ids, records and three.js objects to the core's bodies.
//
// Objects are named by string ids that stay the same across undo, redo, save and load; the room's shell parts
// (floor, walls) have ids too. A record is { id, item, pose, bindings, local }: pose is the world pose [qx, qy, qz,
// qw, px, py, pz] (the app's objects are children of an unmoved root), bindings what it rests on, [{ binding,
// supporter, offer }] with the surface indices of the two catalog items and the supporter's id, local its pose
// relative to that supporter (null for none), which gives the world pose back to the bit.
import { EventDispatcher, Matrix4, Mesh, MeshStandardMaterial, Quaternion, Ray, Vector3 } from 'three';
import { SnugSync, SnugDrag, geometryArrays } from '../snug-three.js';

/** A placement request the room cannot satisfy (no surface there, no room, bad pose): the message says why. */
export class PlacementError extends Error {
  constructor(message) { super(message); this.name = 'PlacementError'; }
}

const _v = new Vector3();
const _q = new Quaternion();
const _m = new Matrix4();
// Body layers: rays pick what is on the PICK layer; a wall the view sees through goes to SEE_THROUGH (it still
// collides: the mover and the check use the mask, which stays all).
const PICK = 1, SEE_THROUGH = 2;
// Drag events whose times the stats keep (for percentiles).
const KEEP_TIMES = 2000;
// What the default labels offer, for messages (a binding fits the offers whose label is at least its own).
const PLACES = {
  onFloor: 'the floor', onWall: 'a wall', onWorkspace: 'a table or desk top', onStore: 'a shelf', onSeat: 'a seat',
  onCeiling: 'the ceiling', inFrontOfTable: 'the side of a table',
};

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
    this.sync = new SnugSync(snug);
    this.scene = this.sync.scene;
    this._objects = new Map();   // id -> { id, item, object, entry }
    this._shell = new Map();     // id -> { id, object, entry, surfaces }
    this._meshes = new Map();    // item id -> snug Mesh with the item's surfaces, shared by its objects
    this._nextId = 1;
    catalog.addEventListener('remove', ({ item }) => this._dropMesh(item.id));
    // The last drag event's times (null before the first): the core's body.move, and the seam's whole work for
    // the event (the core call and the scene update); their recent history; the last pick and insert search.
    this.resetStats();
  }

  // ---------------------------------------------------------------- the room shell
  /**
   * Register a part of the room (floor, wall): static, never moved, selected, deleted or saved. item: its catalog
   * item; geometry is what collides (when the drawn one differs), surfaces its offers and bindings in its local frame.
   */
  addShell(id, object, { item, geometry = object.geometry, surfaces = [] } = {}) {
    this.root.add(object);
    object.userData.placementId = id;
    object.userData.baseColor = object.material.color.clone();
    const entry = this.sync.add(object, { geometry, isStatic: true, label: id, surfaces });
    entry.mesh.info(); // the edge adjacency the mover's sweeps use, built now (see _mesh)
    this._shell.set(id, { id, item, object, entry, surfaces, shell: true });
  }

  /** Whether rays pick a shell part (a wall faded for the view is picked through). */
  setPickable(id, on) { this._shell.get(id).entry.body.setFilter(on ? PICK : SEE_THROUGH, 0xffffffff); }

  // ---------------------------------------------------------------- objects
  has(id) { return this._objects.has(id); }
  ids() { return [...this._objects.keys()]; }
  object(id) { return this._part(id)?.object ?? null; }
  itemOf(id) { return this._record(id).item; }
  poseOf(id) { return Array.from(this._record(id).entry.body.getPose()); }

  /**
   * { id, item, pose, bindings, local } of an object: what undo, duplicate and the room file keep. local is its pose
   * relative to what it rests on (null for none), which gives its world pose back to the bit.
   */
  record(id) {
    const r = this._record(id);
    const [state] = this.sync.capture([r.entry]).values();
    const bindings = state.bindings.map((b) => ({ binding: b.binding, supporter: idOfObject(b.supporter.object), offer: b.offer }));
    return { id: r.id, item: r.item, pose: Array.from(state.pose), bindings, local: state.local && Array.from(state.local) };
  }

  /** Every object's record, in insertion order. */
  snapshot() { return this.ids().map((id) => this.record(id)); }

  _record(id) {
    const r = this._objects.get(id);
    if (!r) throw new PlacementError(`no object ${id} in the room`);
    return r;
  }

  _part(id) { return this._objects.get(id) ?? this._shell.get(id) ?? null; }

  /** The placement surfaces of an object or shell part, in its local frame. */
  surfacesOf(id) {
    const shell = this._shell.get(id);
    return shell ? shell.surfaces : this.catalog.prototype(this._record(id).item).surfaces;
  }

  /** A fresh object id (commands take theirs before they run, so redo gives the object the same id). */
  newId() {
    while (this._objects.has(`o${this._nextId}`)) this._nextId++;
    return `o${this._nextId++}`;
  }

  // The item's snug mesh with its surfaces, made once: a hierarchy built elsewhere (a worker, for big imports) is
  // loaded instead of rebuilt.
  _mesh(item) {
    let mesh = this._meshes.get(item);
    if (!mesh) {
      const proto = this.catalog.prototype(item);
      mesh = proto.blob ? this.snug.meshFromBlob(proto.blob, item) : this.snug.createMesh({ ...geometryArrays(proto.geometry), label: item });
      if (proto.surfaces.length) mesh.setSurfaces(proto.surfaces);
      // The edge adjacency the mover's sweeps use, built now: else the first drag event that touches the mesh pays
      // for it (2-7 ms for the 48k dragon, measured in node).
      mesh.info();
      this._meshes.set(item, mesh);
    }
    return mesh;
  }

  _dropMesh(item) {
    const mesh = this._meshes.get(item);
    if (!mesh || this.ids().some((id) => this._objects.get(id).item === item)) return;
    mesh.dispose();
    this._meshes.delete(item);
  }

  /**
   * Put objects at their records' poses and bind them as recorded (no search: undo, redo and loading restore
   * records that were valid). A record without an id gets a new one. All or nothing: a binding that does not hold
   * takes every new object out again and throws a PlacementError. Returns the ids.
   */
  insert(records) {
    const made = [];
    try {
      for (const record of records) made.push(this._add(record));
      const failed = this.sync.restore(this._state(records.map((r, k) => ({ ...r, id: made[k].id }))));
      if (failed.length) throw new PlacementError(`cannot rest as recorded: ${failed.join('; ')}`);
    } catch (e) {
      this._delete(made.map((r) => r.id));
      throw e;
    }
    const ids = made.map((r) => r.id);
    this.dispatchEvent({ type: 'change', kind: 'insert', ids });
    return ids;
  }

  // Records as the three.js layer's state (entries with poses and bindings).
  _state(records) {
    return new Map(records.map((r) => [this._record(r.id).entry, {
      pose: unitPose(r.pose),
      local: r.local ? unitPose(r.local) : null,
      bindings: r.bindings.map((b) => {
        const supporter = this._part(b.supporter);
        if (!supporter) throw new PlacementError(`${r.id} rests on ${b.supporter}, which is not in the room`);
        return { binding: b.binding, supporter: supporter.entry, offer: b.offer };
      }),
    }]));
  }

  _add({ id, item, pose, bindings }) {
    const proto = this.catalog.prototype(item);
    pose = unitPose(pose);
    if (!Array.isArray(bindings)) throw new PlacementError('a record lists what the object rests on (bindings)');
    id = id ?? this.newId();
    if (this._part(id)) throw new PlacementError(`object id ${id} is taken`);
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
    const entry = this.sync.add(object, { geometry: proto.geometry, mesh: this._mesh(item), upright: proto.upright, label: id });
    const r = { id, item, object, entry };
    this._objects.set(id, r);
    return r;
  }

  /**
   * Delete objects by the core's policy (scene.delete): 'drop', what rested on them falls onto the next compatible
   * offer below (and goes with them when it finds none); 'with-dependents', what rests on them, transitively, goes
   * with them. Returns the ids of every object deleted (the undo stack puts them back from its snapshot).
   */
  remove(ids, policy = 'drop') {
    const gone = [];
    for (const id of ids) {
      if (gone.includes(id)) continue; // went with one deleted before it
      for (const body of this.scene.delete(this._record(id).entry.body, policy)) gone.push(idOf(body));
    }
    this._delete(gone);
    this.sync.push(); // what fell
    this.dispatchEvent({ type: 'change', kind: 'remove', ids: gone });
    return gone;
  }

  // Forget objects (sync.remove disposes a body the core has not already deleted).
  _delete(ids) {
    for (const id of ids) {
      const r = this._objects.get(id);
      this.sync.remove(r.object);
      this.root.remove(r.object);
      r.object.material.dispose();
      this._objects.delete(id);
    }
  }

  /**
   * Put objects back to their records' poses and bindings (undo and redo of moves and turns): what changed gets its
   * pose and its bindings as they stand there, to the bit. (A core scene.snapshot per undo step would keep the
   * whole scene, some kilobytes a step, where a move's records are those of what it moved; the IConS browser test
   * prints both.)
   */
  put(records) {
    try {
      const failed = this.sync.restore(this._state(records));
      if (failed.length) throw new PlacementError(`cannot rest as recorded: ${failed.join('; ')}`);
    } finally {
      this.dispatchEvent({ type: 'change', kind: 'move', ids: records.map((r) => r.id) });
    }
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
    if (this._objects.size) this.remove(this.ids(), 'with-dependents');
    if (records.length) this.insert(records);
  }

  _checkInside(item, pose) {
    const proto = this.catalog.prototype(item);
    const box = proto.geometry.boundingBox.clone().applyMatrix4(_m.compose(_v.set(pose[4], pose[5], pose[6]), _q.fromArray(pose), new Vector3(1, 1, 1)));
    const I = this.interior, eps = 1e-3;
    if (box.min.x < I.minX - eps || box.max.x > I.maxX + eps || box.min.z < I.minZ - eps || box.max.z > I.maxZ + eps ||
      box.min.y < -eps || box.max.y > I.height + eps) {
      throw new PlacementError(`${proto.name} at (${pose[4].toFixed(2)}, ${pose[5].toFixed(2)}, ${pose[6].toFixed(2)}) is outside the room`);
    }
  }

  /**
   * What is wrong in the room, by the core's consistency check (interpenetration, bindings that do not hold,
   * orientation): [{ kind, ids, message }].
   */
  violations() {
    return this.scene.check().map((v) => {
      const ids = [idOf(v.body), idOf(v.other)].filter(Boolean);
      return { kind: v.kind, ids, message: `${ids.join(' and ')}: ${v.kind} (${v.amount.toPrecision(3)})` };
    });
  }

  /** Every shell part and object as { id, item, object, body } (what an export writes), shell parts first. */
  parts() {
    return [...this._shell.values(), ...this._objects.values()].map((p) => ({ id: p.id, item: p.item, object: p.object, body: p.entry.body }));
  }

  /**
   * The binding graph as the core holds it, for the outliner: for each shell part and object, { id, item (null for a
   * shell part), parent: the id of what it stands on (the core's hierarchy: a body is its main supporter's child;
   * null for none), also: ids of anything else it rests on }, shell parts first, then objects in insertion order.
   */
  graph() {
    return [...this._shell.values(), ...this._objects.values()].map((part) => {
      const body = part.entry.body, parent = idOf(body.parent);
      return { id: part.id, item: part.shell ? null : part.item, parent, also: body.supporters().map(idOf).filter((s) => s !== parent) };
    });
  }

  // ---------------------------------------------------------------- picking
  /** The closest object or shell part on a ray (three.js Ray): { id, point: Vector3, shell } or null. */
  pick(ray) {
    const t0 = performance.now();
    const h = this.scene.raycast(ray.origin, ray.direction, Infinity, PICK);
    this.stats.pickMs = performance.now() - t0;
    if (!h || !h.body) return null;
    const id = idOf(h.body);
    return { id, point: new Vector3().fromArray(h.point), shell: this._shell.has(id) };
  }

  /**
   * The centre of the bottom of object `id`'s box and the point straight under it where something is: { from, to }
   * (Vector3s), or null over nothing (a depth guide).
   */
  below(id) {
    const o = this.object(id);
    const box = o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld);
    const from = new Vector3((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
    const at = [from.x, from.y + 1e-3, from.z]; // just above: what it rests on is level with its bottom
    for (let hop = 0; hop < 8; hop++) {
      const h = this.scene.raycast(at, [0, -1, 0], Infinity, PICK);
      if (!h || !h.body) return null;
      if (idOf(h.body) !== id) return { from, to: new Vector3().fromArray(h.point) };
      at[1] = h.point[1] - 1e-4; // through its own bottom
    }
    return null;
  }

  /** The corners of offer `offer` of an object or shell part, in world coordinates (a highlight). */
  offerPolygon(id, offer) {
    const part = this._part(id);
    const s = part && this.surfacesOf(id)[offer];
    if (!s) return null;
    part.object.updateWorldMatrix(true, false);
    return s.polygon.map((p) => new Vector3().fromArray(p).applyMatrix4(part.object.matrixWorld));
  }

  // ---------------------------------------------------------------- insert search
  /**
   * Where a new object of `item` lands for the pointer `ray` (three.js Ray), by the core's scene.insert: on the first
   * offer along the ray that one of its bindings fits, at the free snapped spot nearest the point the ray meets,
   * turned about the vertical by `quaternion`. Returns { pose, bindings } or throws a PlacementError that says where
   * it can go.
   */
  landing(item, { ray, quaternion = [0, 0, 0, 1] }) {
    const t0 = performance.now();
    const landed = this._inserted(item, { origin: ray.origin.toArray(), dir: ray.direction.toArray() }, quaternion);
    this.stats.insertMs = performance.now() - t0;
    return landed;
  }

  /**
   * Where a copy of object `id` lands: the core's insert with a ray onto what the original rests on, one
   * object-width to its right (along its own x), at the free spot nearest there; the copy keeps its turn.
   */
  landingBeside(id) {
    const r = this._record(id);
    const parent = idOf(r.entry.body.parent);
    const main = r.entry.body.bindings().find((b) => idOf(b.supporter) === parent) ?? r.entry.body.bindings()[0];
    const name = this.catalog.get(r.item).name;
    if (!main) throw new PlacementError(`${name} rests on nothing to put a copy on`);
    const supporter = this._part(idOf(main.supporter)).object;
    const n = new Vector3().fromArray(this.surfacesOf(idOf(main.supporter))[main.offer].normal)
      .applyQuaternion(supporter.getWorldQuaternion(new Quaternion()));
    const box = this.catalog.prototype(r.item).geometry.boundingBox;
    const size = box.getSize(new Vector3());
    const pose = this.poseOf(id);
    const right = new Vector3(1, 0, 0).applyQuaternion(_q.fromArray(pose));
    const at = new Vector3(pose[4], pose[5], pose[6]).addScaledVector(right, size.x + 0.1).addScaledVector(n, size.length());
    return this._inserted(r.item, { origin: at.toArray(), dir: n.negate().toArray() }, pose.slice(0, 4));
  }

  // The core's insert of a body of `item` for `ray` with the turn `quaternion`, read back and taken out again: the
  // record's pose and binding (the undo stack puts the object in).
  _inserted(item, ray, quaternion) {
    const name = this.catalog.get(item).name.toLowerCase();
    let made;
    try {
      made = this.scene.insert({ mesh: this._mesh(item), ray, pose: [...quaternion, 0, 0, 0] });
    } catch (e) {
      if (e.name !== 'SnugError') throw e;
      throw new PlacementError(/\(full\)/.test(e.message) ? `no room for the ${name} there` : `point at ${this._places(this.catalog.prototype(item))}`);
    }
    const { body, binding } = made;
    const pose = Array.from(body.getPose());
    body.dispose();
    return { pose, bindings: [{ binding: binding.binding, supporter: idOf(binding.supporter), offer: binding.offer }] };
  }

  // Where an item can go, in words: the places its bindings fit.
  _places(proto) {
    const labels = this.scene.labels();
    const fits = new Set();
    for (const s of proto.surfaces) {
      if (s.kind !== 'binding') continue;
      for (const l of labels) if (this.scene.labelFits(s.label, l)) fits.add(PLACES[l] ?? l);
    }
    const list = [...fits];
    if (!list.length) return 'nothing: it has no surface to rest with';
    return list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
  }

  // ---------------------------------------------------------------- drags
  /**
   * Start dragging objects `ids` as one group, grabbed on `grabbed` at world `point`. The lead is the grabbed
   * object (or its highest selected supporter); the rest of the selection is carried by it with what stands on
   * them. Returns a drag:
   *   move(ray, { mode })   one body.move per pointer event: the grabbed point follows the ray on the plane of what
   *                         the lead rests on, sliding, stopping at contact and at offers' edges, re-seating onto the
   *                         offer under the pointer; mode 'free' lifts it off and reports the seat it would take.
   *   turn(angle, { free }) turn about the allowed axis (15 degree steps unless free)
   *   turnTo(total, { free }) a ring gesture: turned by `total` since the drag began
   *   end()                 { from, to } records of what changed (for the undo stack), or { cancelled } when a
   *                         free drag found nothing to land on (everything went back)
   *   cancel()              everything back to where the drag started, bindings included
   * move and the turns return the feedback { lead, group, blockers, contacts, rests, candidate, turnAxis,
   * reasons, mode } with ids for objects.
   */
  beginDrag(ids, grabbed, point) {
    let lead = this._record(grabbed);
    for (let b = lead.entry.body.parent; b; b = b.parent) if (ids.includes(idOf(b))) lead = this._record(idOf(b));
    // The rest of the selection is carried by the lead for the drag.
    const carry = ids.filter((id) => id !== lead.id).map((id) => this._record(id));
    // The records the drag can change, kept for its undo step (what it reaches, not the whole room).
    const scope = this.sync.reach([lead, ...carry].map((r) => r.entry)).map((e) => idOfObject(e.object)).filter((id) => this._objects.has(id));
    const before = scope.map((id) => this.record(id));
    const drag = new SnugDrag(this.sync, lead.object, point, { carry: carry.map((r) => r.object) });
    const group = drag.moved.map((e) => idOfObject(e.object)).filter((id) => id !== lead.id && this._objects.has(id));
    const changed = () => this.dispatchEvent({ type: 'change', kind: 'move', ids: [lead.id, ...group] });
    let live = true, mode = 'constrained';
    const STEP = Math.PI / 12;

    const report = (f) => f && ({
      lead: lead.id, item: lead.item, group, mode, reasons: f.reasons, turnAxis: f.turnAxis,
      blockers: [...new Set(f.blockers.map((b) => idOfObject(b.object)).filter(Boolean))],
      contacts: f.blockers.map((b) => ({ point: b.point, normal: b.normal })),
      rests: f.rests.map((r) => ({ id: idOfObject(r.object), offer: r.offer })),
      candidate: f.candidate && { id: idOfObject(f.candidate.object), offer: f.candidate.offer, pose: Array.from(f.candidate.pose) },
    });
    const timed = (call) => {
      if (!live) return null;
      const t0 = performance.now();
      const f = call();
      const s = this.stats;
      s.pageMs = performance.now() - t0;
      s.coreMs = drag.coreMs;
      if (s.pageTimes.push(s.pageMs) > KEEP_TIMES) s.pageTimes.shift();
      if (s.coreTimes.push(s.coreMs) > KEEP_TIMES) s.coreTimes.shift();
      if (f) changed();
      return report(f);
    };
    return {
      lead: lead.id,
      get mode() { return mode; },
      move: (ray, options = {}) => timed(() => drag.move(ray, { mode: (mode = options.mode ?? 'constrained') })),
      turn: (angle, { free = false } = {}) => timed(() => drag.turn(angle, { mode, angleStep: free ? 0 : STEP })),
      turnTo: (total, { free = false } = {}) => timed(() => drag.turnTo(total, { mode, angleStep: free ? 0 : STEP })),
      end: () => {
        if (!live) return null;
        live = false;
        const landed = mode !== 'free' || drag.drop();
        // A free drag takes the seat its ghost showed; where nothing takes it, it goes back (body.drop would leave it
        // floating where it was let go when no offer below fits, as IConS's pseudo-gravity did).
        if (landed) drag.release();
        else drag.cancel();
        changed();
        if (!landed) return { cancelled: true };
        const after = new Map(scope.map((id) => [id, this.record(id)]));
        const moved = before.filter((r) => !sameRecord(r, after.get(r.id)));
        return { from: moved, to: moved.map((r) => after.get(r.id)) };
      },
      cancel: () => {
        if (!live) return;
        live = false;
        drag.cancel();
        changed();
      },
    };
  }

  /**
   * A drag of the first object, moved in place and turned, each feedback passed to `show`, then cancelled (the
   * core's snapshot gives everything back bit for bit). V8 compiles and optimizes the page's JS at its first use:
   * without this a session's first grab and first turn cost 0.5-1 ms more (the XR test's frames); snug.warmUp()
   * does the same for the core's code.
   */
  warmUp(show = () => {}) {
    const id = this.ids()[0];
    if (id === undefined) return;
    const at = new Vector3().fromArray(this.poseOf(id), 4);
    const drag = this.beginDrag([id], id, at);
    show(drag.move(new Ray(at.clone().setY(at.y + 1), new Vector3(0, -1, 0))));
    show(drag.turn(0.2));
    show(drag.turn(-0.2, { free: true }));
    drag.cancel();
    this.resetStats();
  }

  /** Forget the drag timings (stats): a rehearsal's are not the user's gestures. */
  resetStats() { this.stats = { coreMs: null, pageMs: null, coreTimes: [], pageTimes: [], pickMs: null, insertMs: null }; }

  // ---------------------------------------------------------------- for the debug views and tests
  /** The core's serialized mesh of an object, hierarchy included (the H view reads its boxes). */
  hierarchyBlob(id) { return this._record(id).entry.mesh.serialize(); }

  /** Whether two objects (or shell parts) interpenetrate or touch (core overlap test). */
  overlaps(a, b) {
    const ea = this._part(a).entry, eb = this._part(b).entry;
    return this.snug.overlap(ea.mesh, ea.body.getPose(), eb.mesh, eb.body.getPose());
  }

  /** Triangles in the room. */
  triangleCount() {
    let n = 0;
    for (const { geometry: g } of this.sync.entries) n += (g.index ? g.index.count : g.getAttribute('position').count) / 3;
    return n;
  }
}

// The placement id of an Object3D, or of a body's Object3D (null for none).
function idOfObject(object) { return object?.userData.placementId ?? null; }
function idOf(body) { return idOfObject(body?.userData); }

function sameRecord(a, b) {
  return b && a.pose.every((x, k) => x === b.pose[k]) && String(a.local) === String(b.local) && a.bindings.length === b.bindings.length &&
    a.bindings.every((x) => b.bindings.some((y) => x.binding === y.binding && x.supporter === y.supporter && x.offer === y.offer));
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
