// Shared pieces of the glTF placement tests: a small room of catalog items mirrored as snug bodies (with bindings,
// an orientation and a scaled rug), three's exporter and loader with and without the SNUG_placement plugins, and
// GLB bytes taken apart and put back together (to tamper with the JSON).
import { Scene, Mesh, MeshStandardMaterial, Vector3, Quaternion } from 'three';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { catalogItems } from '../../web/catalog/furniture.js';
import { PlacementExporterPlugin, PlacementLoaderPlugin, scalePlacement, worldScale } from '../../web/gltf/placement.js';

// GLTFExporter reads its Blobs with the browser's FileReader, which node lacks; node's Blob does the reading.
globalThis.FileReader ??= class FileReader {
  readAsArrayBuffer(blob) { blob.arrayBuffer().then((b) => { this.result = b; this.onloadend?.(); }); }
  readAsDataURL(blob) {
    blob.arrayBuffer().then((b) => {
      this.result = `data:application/octet-stream;base64,${Buffer.from(b).toString('base64')}`;
      this.onloadend?.();
    });
  }
};

const ITEMS = Object.fromEntries(catalogItems().map((it) => [it.id, it]));
const Y180 = [0, 1, 0, 0];
const ID = [0, 0, 0, 1];

// name, catalog id, make() options, start pose (near where it belongs), scale, static
const ROOM = [
  ['floor', 'floor', { width: 6, depth: 5 }, [...ID, 0, 0, 0], [1, 1, 1], true],
  ['wall', 'wall', { width: 6 }, [...ID, 0, 0, -2.4], [1, 1, 1], true],
  ['table', 'table', {}, [...ID, 0, 0.05, 0], [1, 1, 1], false],
  ['chair', 'chair', {}, [...Y180, 0.3, 0.05, 0.75], [1, 1, 1], false],
  ['lamp', 'lamp', {}, [...ID, -0.4, 0.8, 0], [1, 1, 1], false],
  ['bookcase', 'bookcase', {}, [...ID, 2, 0.05, -2.1], [1, 1, 1], false],
  ['books', 'books', {}, [...ID, 2, 0.5, -2.1], [1, 1, 1], false],
  ['picture', 'picture', {}, [...ID, -1.5, 1.5, -2.3], [1, 1, 1], false],
  ['rug', 'rug', {}, [...ID, -1.5, 0.02, 1.2], [1.2, 1, 0.8], false],
  ['floorLamp', 'floor-lamp', {}, [...ID, -1.5, 0.1, 1.2], [1, 1, 1], false],
];

// body name, its binding surface, supporter name, the supporter's offer (catalog surface indices)
export const ROOM_BINDINGS = [
  ['wall', 1, 'floor', 0],
  ['table', 3, 'floor', 0],
  ['chair', 1, 'floor', 0],
  ['chair', 2, 'table', 1],
  ['lamp', 0, 'table', 0],
  ['bookcase', 5, 'floor', 0],
  ['bookcase', 6, 'wall', 0],
  ['books', 0, 'bookcase', 1],
  ['picture', 0, 'wall', 0],
  ['rug', 0, 'floor', 0],
  ['floorLamp', 0, 'rug', 1],
];

/** A snug mesh of an object's geometry at its world scale (as web/snug-three.js makes them). */
export function meshOf(snug, object) {
  const s = worldScale(object);
  const src = object.geometry.getAttribute('position').array;
  const positions = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) positions[i] = src[i] * s[i % 3];
  return snug.createMesh({ positions, indices: object.geometry.index.array, label: object.name });
}

/** World pose [qx, qy, qz, qw, px, py, pz] of an object (scale dropped). */
export function poseOf(object) {
  object.updateWorldMatrix(true, false);
  const p = new Vector3(), q = new Quaternion(), s = new Vector3();
  object.matrixWorld.decompose(p, q, s);
  return [q.x, q.y, q.z, q.w, p.x, p.y, p.z];
}

/** Put the object where the body is (a root object: world = local). */
export function follow(object, body) {
  const p = body.getPose();
  object.position.set(p[4], p[5], p[6]);
  object.quaternion.set(p[0], p[1], p[2], p[3]);
  object.updateMatrixWorld(true);
}

/**
 * The room in a three.js Scene and a snug scene: each catalog item a Mesh and a body whose mesh carries the item's
 * surfaces, bound as ROOM_BINDINGS says, the chair upright; the objects then follow their bodies.
 */
export function buildRoom(snug) {
  const root = new Scene();
  const scene = snug.createScene();
  const bodies = new Map(), byName = new Map();
  for (const [name, id, options, pose, scale, isStatic] of ROOM) {
    const made = ITEMS[id].make(options);
    const object = new Mesh(made.geometry, new MeshStandardMaterial({ color: made.color }));
    object.name = name;
    object.scale.fromArray(scale);
    root.add(object);
    const mesh = meshOf(snug, object);
    mesh.setSurfaces(scalePlacement({ surfaces: made.surfaces, orientation: null }, scale).surfaces);
    const body = scene.createBody({ mesh, pose, isStatic });
    bodies.set(object, body);
    byName.set(name, { object, body, surfaces: made.surfaces });
  }
  for (const [name, binding, supporter, offer] of ROOM_BINDINGS) {
    byName.get(name).body.bind(binding, byName.get(supporter).body, offer);
  }
  byName.get('chair').body.setOrientation([0, 1, 0], [0, 1, 0]);
  for (const [object, body] of bodies) follow(object, body);
  return { root, scene, bodies, byName };
}

export function disposeRoom(room) {
  const meshes = new Set([...room.bodies.values()].map((b) => b.mesh));
  room.scene.dispose();
  for (const m of meshes) m.dispose();
}

// Which room objects are static (the loaded ones are told by name).
const STATIC = new Set(ROOM.filter((r) => r[5]).map((r) => r[0]));

/** A second room from a loaded file: a body per loaded object at its world pose (no placement applied yet). */
export function roomFromGltf(snug, gltf) {
  const scene = snug.createScene();
  const bodies = new Map();
  for (const object of gltf.scene.children) {
    bodies.set(object, scene.createBody({ mesh: meshOf(snug, object), pose: poseOf(object), isStatic: STATIC.has(object.name) }));
  }
  return { scene, bodies };
}

/** GLB bytes of a three.js object, with the placement plugin when a placement is given. */
export function exportGlb(input, placement) {
  const exporter = new GLTFExporter();
  if (placement) exporter.register((writer) => new PlacementExporterPlugin(writer, placement));
  return exporter.parseAsync(input, { binary: true });
}

/** GLTFLoader's result for GLB bytes, with the placement plugin unless plain. */
export function loadGlb(bytes, { plain = false } = {}) {
  const loader = new GLTFLoader();
  if (!plain) loader.register((parser) => new PlacementLoaderPlugin(parser));
  return loader.parseAsync(bytes, '');
}

const GLB_MAGIC = 0x46546c67, CHUNK_JSON = 0x4e4f534a;

/** The JSON chunk of GLB bytes. */
export function glbJson(bytes) {
  const view = new DataView(bytes);
  return JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 20, view.getUint32(12, true))));
}

/** The same GLB with another JSON chunk (the binary chunk kept as it is). */
export function glbWithJson(bytes, json) {
  const view = new DataView(bytes);
  const bin = new Uint8Array(bytes, 20 + view.getUint32(12, true));
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = (text.length + 3) & ~3;
  const out = new Uint8Array(20 + padded + bin.length);
  const o = new DataView(out.buffer);
  o.setUint32(0, GLB_MAGIC, true);
  o.setUint32(4, 2, true);
  o.setUint32(8, out.length, true);
  o.setUint32(12, padded, true);
  o.setUint32(16, CHUNK_JSON, true);
  out.fill(0x20, 20, 20 + padded);
  out.set(text, 20);
  out.set(bin, 20 + padded);
  return out.buffer;
}
