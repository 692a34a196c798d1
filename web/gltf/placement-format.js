// The SNUG_placement glTF extension's JSON (docs/gltf-extension.md): reading it into plain data with every rule of
// the spec that needs no geometry checked, and writing plain data into it. No three.js and no snug here: the
// exporter and loader plugins map nodes to Object3Ds, the core judges the polygons (planar, convex, winding).
//
// Plain data: { labels: string[], order: [lesser, greater][] (names), settings: PlaceDef | null,
//   nodes: Map<node index, { surfaces: [{ kind, label (a name), normal, polygon }], orientation: { local, world } |
//   null, bindings: [{ binding, supporter: node index, offer }] }> }.

export const EXTENSION = 'SNUG_placement';

const LABEL_MAX = 64;            // labels per table (the core's SNUG_LABEL_MAX)
const LABEL_BYTES_MAX = 31;      // UTF-8 bytes per name (SNUG_LABEL_NAME_MAX without the terminator)
const VERTICES_MAX = 32;         // SNUG_SURFACE_MAX_VERTICES
const SURFACES_MAX = 4096;       // per node (the core's limit per mesh)
const BINDINGS_MAX = 4;          // SNUG_BINDINGS_MAX
const KINDS = ['offer', 'binding'];
const SETTINGS = { up: 'vec3', skin: 'number', overhang: 'number', snapRange: 'number', maxSlides: 'integer' };

/** Bad extension data: `path` points into the glTF JSON (e.g. nodes[3].extensions.SNUG_placement.bindings[0]). */
export class PlacementError extends Error {
  constructor(path, message) {
    super(`${EXTENSION}: ${path}: ${message}`);
    this.name = 'PlacementError';
    this.path = path;
  }
}

const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
const utf8Length = (s) => new TextEncoder().encode(s).length;

function object(x, path, allowed) {
  if (!isObject(x)) throw new PlacementError(path, 'must be an object');
  // extras and extensions are glTF's own places for application data; any other key is a typo or a newer version
  for (const key of Object.keys(x)) {
    if (!allowed.includes(key) && key !== 'extras' && key !== 'extensions') {
      throw new PlacementError(path, `unknown property "${key}" (allowed: ${allowed.join(', ')})`);
    }
  }
  return x;
}

function array(x, path, min, max) {
  if (!Array.isArray(x)) throw new PlacementError(path, 'must be an array');
  if (x.length < min || x.length > max) throw new PlacementError(path, `must have ${min}..${max} items, has ${x.length}`);
  return x;
}

function number(x, path) {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new PlacementError(path, 'must be a finite number');
  return x;
}

function index(x, path, count) {
  if (!Number.isInteger(x) || x < 0) throw new PlacementError(path, 'must be an integer >= 0');
  if (x >= count) throw new PlacementError(path, `is ${x}, out of range (${count} items)`);
  return x;
}

function vec3(x, path) {
  array(x, path, 3, 3).forEach((c, i) => number(c, `${path}[${i}]`));
  return [x[0], x[1], x[2]];
}

function direction(x, path) {
  const v = vec3(x, path);
  if (v[0] === 0 && v[1] === 0 && v[2] === 0) throw new PlacementError(path, 'must not be the zero vector');
  return v;
}

function readRoot(root, path) {
  object(root, path, ['labels', 'order', 'settings']);
  if (root.labels === undefined) throw new PlacementError(path, 'the label table "labels" is required');
  const labels = array(root.labels, `${path}.labels`, 1, LABEL_MAX).map((name, i) => {
    const p = `${path}.labels[${i}]`;
    if (typeof name !== 'string' || name.length === 0) throw new PlacementError(p, 'must be a non-empty string');
    if (utf8Length(name) > LABEL_BYTES_MAX) throw new PlacementError(p, `"${name}" is longer than ${LABEL_BYTES_MAX} UTF-8 bytes`);
    if (root.labels.indexOf(name) !== i) throw new PlacementError(p, `"${name}" is already labels[${root.labels.indexOf(name)}]`);
    return name;
  });
  const label = (x, p) => {
    if (typeof x !== 'string') throw new PlacementError(p, 'must be a label name (a string)');
    if (!labels.includes(x)) throw new PlacementError(p, `"${x}" is not in the label table`);
    return x;
  };
  const order = array(root.order ?? [], `${path}.order`, 0, LABEL_MAX * LABEL_MAX).map((pair, k) => {
    const p = `${path}.order[${k}]`;
    array(pair, p, 2, 2);
    const [lo, hi] = [label(pair[0], `${p}[0]`), label(pair[1], `${p}[1]`)];
    if (lo === hi) throw new PlacementError(p, `pairs a label with itself ("${lo}"); every label is <= itself already`);
    return [lo, hi];
  });
  let settings = null;
  if (root.settings !== undefined) {
    const p = `${path}.settings`;
    object(root.settings, p, Object.keys(SETTINGS));
    settings = {};
    for (const [key, type] of Object.entries(SETTINGS)) {
      const v = root.settings[key];
      if (v === undefined) continue;
      if (type === 'vec3') settings[key] = direction(v, `${p}.${key}`);
      else if (type === 'integer' && !Number.isInteger(v)) throw new PlacementError(`${p}.${key}`, 'must be an integer');
      else settings[key] = number(v, `${p}.${key}`);
    }
  }
  return { labels, order, settings, label };
}

function readSurface(s, path, label) {
  object(s, path, ['kind', 'label', 'normal', 'polygon']);
  if (!KINDS.includes(s.kind)) throw new PlacementError(`${path}.kind`, `must be "offer" or "binding", is ${JSON.stringify(s.kind)}`);
  return {
    kind: s.kind, label: label(s.label, `${path}.label`), normal: direction(s.normal, `${path}.normal`),
    polygon: array(s.polygon, `${path}.polygon`, 3, VERTICES_MAX).map((v, i) => vec3(v, `${path}.polygon[${i}]`)),
  };
}

function readNode(ext, path, label) {
  object(ext, path, ['surfaces', 'orientation', 'bindings']);
  const surfaces = array(ext.surfaces ?? [], `${path}.surfaces`, 0, SURFACES_MAX)
    .map((s, k) => readSurface(s, `${path}.surfaces[${k}]`, label));
  let orientation = null;
  if (ext.orientation !== undefined) {
    const p = `${path}.orientation`;
    object(ext.orientation, p, ['local', 'world']);
    orientation = { local: direction(ext.orientation.local, `${p}.local`), world: direction(ext.orientation.world, `${p}.world`) };
  }
  const bindings = array(ext.bindings ?? [], `${path}.bindings`, 0, BINDINGS_MAX).map((b, k) => {
    object(b, `${path}.bindings[${k}]`, ['binding', 'supporter', 'offer']);
    return b; // indices are checked once every node is read (a supporter may come later)
  });
  return { surfaces, orientation, bindings };
}

/**
 * The extension's data of a glTF JSON's root extension object and nodes, checked; null when neither uses it.
 * Throws PlacementError at the first rule broken.
 */
export function parsePlacement(rootExt, nodes = []) {
  const nodePath = (i) => `nodes[${i}].extensions.${EXTENSION}`;
  const used = [];
  nodes.forEach((n, i) => { if (isObject(n) && isObject(n.extensions) && n.extensions[EXTENSION] !== undefined) used.push(i); });
  if (rootExt === undefined) {
    if (used.length) throw new PlacementError(nodePath(used[0]), `the root has no extensions.${EXTENSION} with the label table`);
    return null;
  }
  const { labels, order, settings, label } = readRoot(rootExt, `extensions.${EXTENSION}`);
  const read = new Map(used.map((i) => [i, readNode(nodes[i].extensions[EXTENSION], nodePath(i), label)]));
  for (const [i, node] of read) {
    const seen = new Set();
    node.bindings = node.bindings.map((b, k) => {
      const p = `${nodePath(i)}.bindings[${k}]`;
      const binding = index(b.binding, `${p}.binding`, node.surfaces.length);
      if (node.surfaces[binding].kind !== 'binding') throw new PlacementError(`${p}.binding`, `surface ${binding} is an offer`);
      if (seen.has(binding)) throw new PlacementError(`${p}.binding`, `surface ${binding} is already bound by bindings[${[...seen].indexOf(binding)}]`);
      seen.add(binding);
      const supporter = index(b.supporter, `${p}.supporter`, nodes.length);
      if (supporter === i) throw new PlacementError(`${p}.supporter`, 'a node cannot rest on itself');
      const other = read.get(supporter);
      if (!other) throw new PlacementError(`${p}.supporter`, `node ${supporter} has no ${EXTENSION} surfaces`);
      const offer = index(b.offer, `${p}.offer`, other.surfaces.length);
      if (other.surfaces[offer].kind !== 'offer') throw new PlacementError(`${p}.offer`, `surface ${offer} of node ${supporter} is a binding`);
      return { binding, supporter, offer };
    });
  }
  return { labels, order, settings, nodes: read };
}

/** parsePlacement of a whole glTF JSON, which must declare the extension as used and not as required. */
export function readPlacementJson(json) {
  const data = parsePlacement(json.extensions?.[EXTENSION], Array.isArray(json.nodes) ? json.nodes : []);
  if (!data) return null;
  if (!Array.isArray(json.extensionsUsed) || !json.extensionsUsed.includes(EXTENSION)) {
    throw new PlacementError('extensionsUsed', `must list "${EXTENSION}"`);
  }
  if (Array.isArray(json.extensionsRequired) && json.extensionsRequired.includes(EXTENSION)) {
    throw new PlacementError('extensionsRequired', `must not list "${EXTENSION}" (the file stays plain glTF without it)`);
  }
  return data;
}

/** The root extension object of plain data { labels, order, settings }. */
export function rootJson({ labels, order = [], settings = null }) {
  const out = { labels: [...labels] };
  if (order.length) out.order = order.map(([lo, hi]) => [lo, hi]);
  if (settings) {
    out.settings = {};
    for (const key of Object.keys(SETTINGS)) {
      if (settings[key] !== undefined) out.settings[key] = Array.isArray(settings[key]) ? [...settings[key]] : settings[key];
    }
  }
  return out;
}

/** A node's extension object; supporterIndex maps a binding's supporter to its node index. */
export function nodeJson({ surfaces = [], orientation = null, bindings = [] }, supporterIndex) {
  const out = {};
  if (surfaces.length) {
    out.surfaces = surfaces.map((s) => ({
      kind: s.kind, label: s.label, normal: [...s.normal], polygon: s.polygon.map((v) => [v[0], v[1], v[2]]),
    }));
  }
  if (orientation) out.orientation = { local: [...orientation.local], world: [...orientation.world] };
  if (bindings.length) {
    out.bindings = bindings.map((b) => ({ binding: b.binding, supporter: supporterIndex(b.supporter), offer: b.offer }));
  }
  return out;
}
