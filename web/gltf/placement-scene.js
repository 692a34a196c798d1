// Between a Placement (the SNUG_placement extension as plain data, see placement-format.js) and a snug scene:
// placementFromScene reads a scene's labels, order, settings, surfaces, orientations and bindings for export;
// applyPlacement puts a loaded one on the bodies made for the loaded objects, all of it or nothing.
//
// `bodies` is a Map<Object3D, Body>: which body mirrors which object (the page's sync knows). Frames: the file holds
// each node's data in its local frame (its mesh's positions); the snug mesh of an object holds its geometry scaled
// by the object's world scale (web/snug-three.js bakes it so), so surfaces are scaled on the way in and out.
// scaleOf(object) gives that scale ([x, y, z]); the default reads it from matrixWorld as three's decompose does.
import { DEFAULT_LABELS } from '../../wasm/snug.js';
import { EXTENSION } from './placement-format.js';

const named = (object) => (object.name ? `"${object.name}"` : `(unnamed ${object.type})`);

/** World scale of an object as Matrix4.decompose reports it (a mirroring matrix gives a negative x). */
export function worldScale(object) {
  object.updateWorldMatrix(true, false);
  const e = object.matrixWorld.elements;
  const sign = object.matrixWorld.determinant() < 0 ? -1 : 1;
  return [sign * Math.hypot(e[0], e[1], e[2]), Math.hypot(e[4], e[5], e[6]), Math.hypot(e[8], e[9], e[10])];
}

const normalize = (v) => { const l = Math.hypot(v[0], v[1], v[2]); return [v[0] / l, v[1] / l, v[2] / l]; };

/**
 * Node data mapped through the scale s (points times s): normals by the inverse transpose, directions by s, and a
 * mirroring scale reverses each polygon so that it stays counter-clockwise seen from its normal's tip.
 */
export function scalePlacement(node, s) {
  if (s[0] === 1 && s[1] === 1 && s[2] === 1) return node;
  const mirror = s[0] * s[1] * s[2] < 0;
  const point = (p) => [p[0] * s[0], p[1] * s[1], p[2] * s[2]];
  return {
    ...node,
    surfaces: node.surfaces.map((f) => {
      const polygon = f.polygon.map(point);
      return { ...f, normal: normalize([f.normal[0] / s[0], f.normal[1] / s[1], f.normal[2] / s[2]]),
        polygon: mirror ? polygon.reverse() : polygon };
    }),
    orientation: node.orientation && { local: normalize(point(node.orientation.local)), world: [...node.orientation.world] },
  };
}

const inverse = (s) => [1 / s[0], 1 / s[1], 1 / s[2]];

// The core keeps floats: the shortest decimal that reads back as the same float keeps files short and stable.
function shortest(x) {
  for (let digits = 1; digits < 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === x) return y;
  }
  return Number(x.toPrecision(9)); // always enough for a float
}
const short3 = (v) => v.map(shortest);
// Unscaled from the mesh's frame, a float becomes a double with no more meaning than the float's 9 digits (and the
// shortest forms above have at most 9: for them this changes nothing).
const digits9 = (v) => v.map((x) => Number(x.toPrecision(9)));
function rounded(node) {
  return {
    ...node,
    surfaces: node.surfaces.map((f) => ({ ...f, normal: digits9(f.normal), polygon: f.polygon.map(digits9) })),
    orientation: node.orientation && { local: digits9(node.orientation.local), world: node.orientation.world },
  };
}

// A label of mesh.surfaces() (a default name for the first indices, else the index) as the scene's label index.
const labelIndex = (label) => (typeof label === 'number' ? label : DEFAULT_LABELS.indexOf(label));

/** The order's covering pairs (the Hasse diagram): every pair the scene's order has, none implied by two others. */
function coveringPairs(scene, labels) {
  const fits = labels.map((_, a) => labels.map((__, b) => a !== b && scene.labelFits(a, b)));
  const pairs = [];
  for (let a = 0; a < labels.length; a++) {
    for (let b = 0; b < labels.length; b++) {
      if (fits[a][b] && !labels.some((_, c) => fits[a][c] && fits[c][b])) pairs.push([labels[a], labels[b]]);
    }
  }
  return pairs;
}

/**
 * A Placement of the scene's state for the objects in `bodies`: { labels, order, settings, nodes: Map<Object3D,
 * { surfaces, orientation, bindings: [{ binding, supporter: Object3D, offer }] }> } (objects with no surface,
 * orientation or binding are left out). Throws when a body rests on a body that has no object in `bodies`.
 */
export function placementFromScene(scene, bodies, { scaleOf = worldScale } = {}) {
  const labels = scene.labels();
  const def = scene.placeDef();
  const settings = {
    up: short3(def.up), skin: shortest(def.skin), overhang: shortest(def.overhang), snapRange: shortest(def.snapRange),
    maxSlides: def.maxSlides,
  };
  const objectOf = new Map([...bodies].map(([object, body]) => [body, object]));
  const nodes = new Map();
  for (const [object, body] of bodies) {
    const surfaces = body.mesh.surfaces().map((s) => ({
      kind: s.kind, label: labels[labelIndex(s.label)], normal: short3(s.normal), polygon: s.polygon.map(short3),
    }));
    const o = body.orientation();
    const bindings = body.bindings().map((b) => {
      const supporter = objectOf.get(b.supporter);
      if (!supporter) throw new Error(`${EXTENSION}: ${named(object)} rests on a body that has no object here`);
      return { binding: b.binding, supporter, offer: b.offer };
    });
    if (!surfaces.length && !o && !bindings.length) continue;
    const orientation = o && { local: short3(o.local), world: short3(o.world) };
    nodes.set(object, rounded(scalePlacement({ surfaces, orientation, bindings }, inverse(scaleOf(object)))));
  }
  return { labels, order: coveringPairs(scene, labels), settings, nodes };
}

/**
 * Put a Placement on a scene: labels, order and settings (labels: 'replace', for a room's file) or the scene's own
 * table, which must have every label the file names (labels: 'keep', for things added to a room); then each
 * object's surfaces on its body's mesh, its orientation, and its bindings, restored as they stand (body.setBindings:
 * nothing moves). The bodies must stand where the file put them, and the result must pass the consistency check
 * for them. Atomic: any failure throws an Error naming the objects, and the scene and the meshes are as they were.
 */
export function applyPlacement(placement, scene, bodies, { labels = 'replace', scaleOf = worldScale } = {}) {
  if (labels !== 'replace' && labels !== 'keep') throw new Error(`${EXTENSION}: labels must be "replace" or "keep", not "${labels}"`);
  // Everything that can be known beforehand is checked before the first change.
  const table = labels === 'replace' ? placement.labels : scene.labels();
  const items = [...placement.nodes].map(([object, data]) => {
    const body = bodies.get(object);
    if (!body) throw new Error(`${EXTENSION}: ${named(object)} has placement data but no body`);
    const node = scalePlacement(data, scaleOf(object));
    const surfaces = node.surfaces.map((s, k) => {
      const label = table.indexOf(s.label);
      if (label < 0) throw new Error(`${EXTENSION}: surface ${k} of ${named(object)}: the scene has no label "${s.label}"`);
      return { ...s, label };
    });
    const bindings = data.bindings.map((b) => {
      const supporter = bodies.get(b.supporter);
      if (!supporter) throw new Error(`${EXTENSION}: ${named(object)} rests on ${named(b.supporter)}, which has no body`);
      return { binding: b.binding, supporter, offer: b.offer };
    });
    return { object, body, surfaces, orientation: node.orientation, bindings };
  });
  const perMesh = new Map();
  for (const it of items) {
    const other = perMesh.get(it.body.mesh);
    if (other && JSON.stringify(other.surfaces) !== JSON.stringify(it.surfaces)) {
      throw new Error(`${EXTENSION}: ${named(other.object)} and ${named(it.object)} share a snug mesh but not their surfaces`);
    }
    perMesh.set(it.body.mesh, it);
  }
  const objectOf = new Map([...bodies].map(([object, body]) => [body, object]));
  const name = (body) => (objectOf.has(body) ? named(objectOf.get(body)) : 'a body');

  const snapshot = scene.snapshot();
  const before = new Map([...perMesh.keys()].map((mesh) => [mesh, mesh.surfaces()]));
  let step = 'the label table';
  try {
    if (labels === 'replace') {
      scene.setLabels(placement.labels, placement.order);
      step = 'the settings';
      if (placement.settings) scene.setPlaceDef(placement.settings);
    }
    for (const [mesh, it] of perMesh) {
      step = `the surfaces of ${named(it.object)}`;
      mesh.setSurfaces(it.surfaces);
    }
    for (const it of items) {
      step = `the orientation of ${named(it.object)}`;
      it.body.setOrientation(it.orientation?.local ?? null, it.orientation?.world ?? null);
      step = `the bindings of ${named(it.object)}`;
      it.body.setBindings(it.bindings);
    }
    step = 'the consistency check';
    const placed = new Set(items.map((it) => it.body));
    const wrong = scene.check().filter((v) => placed.has(v.body) || placed.has(v.other));
    if (wrong.length) {
      throw new Error(wrong.slice(0, 4).map((v) => `${v.kind}: ${name(v.body)}${v.other ? ` and ${name(v.other)}` : ''}`)
        .join('; ') + (wrong.length > 4 ? `; ${wrong.length - 4} more` : ''));
    }
  } catch (e) {
    for (const [mesh, list] of before) mesh.setSurfaces(list);
    scene.restore(snapshot);
    throw new Error(`${EXTENSION}: ${step}: ${e.message}`, { cause: e });
  }
}
