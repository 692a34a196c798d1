// glTF import: a dropped .glb (or .gltf with its files) becomes a catalog item. The file's meshes are merged into
// one geometry in the file's units (meters), stood on its lowest point and centered; a model bigger than the room
// is scaled down to fit. Big meshes build their collision hierarchy in a worker (snug.buildMeshInWorker) so the
// page keeps responding; the progress reports the bytes read, the parse and the worker's stages.
import { BufferAttribute, BufferGeometry, Color, LoadingManager, Vector3, Box3 } from 'three';

/** From this many triangles the hierarchy is built in a worker. */
export const WORKER_TRIANGLES = 20000;

export class ImportError extends Error {
  constructor(message) { super(message); this.name = 'ImportError'; }
}

/** Whether a file name is a glTF file this importer reads. */
export const isGltf = (name) => /\.(glb|gltf)$/i.test(name);

/**
 * Import dropped files (one .glb or .gltf, plus the files a .gltf refers to). options: { snug, wasmUrl,
 * interior (the room, to fit big models), onProgress(label, fraction) }. Returns the item definition for
 * Catalog.addImported.
 */
export async function importGltf(files, { snug, wasmUrl, interior, onProgress = () => {} }) {
  const main = files.find((f) => isGltf(f.name));
  if (!main) throw new ImportError('drop a .glb or .gltf file');
  const name = main.name.replace(/\.(glb|gltf)$/i, '');
  const buffer = await readFile(main, (f) => onProgress(`reading ${main.name}`, 0.3 * f));
  onProgress(`parsing ${main.name}`, 0.3);
  // A .gltf's buffers and images come from the other dropped files, by name.
  const urls = new Map(files.filter((f) => f !== main).map((f) => [f.name, URL.createObjectURL(f)]));
  const manager = new LoadingManager();
  manager.setURLModifier((url) => urls.get(decodeURIComponent(url.split('/').pop())) ?? url);
  // The loader is fetched with the first import, so it does not weigh on the page's start.
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  let gltf;
  try {
    gltf = await new GLTFLoader(manager).parseAsync(buffer, '');
  } catch (e) {
    throw new ImportError(`${main.name} is not a glTF file this page can read (${e.message})`);
  } finally {
    for (const u of urls.values()) URL.revokeObjectURL(u);
  }
  const { positions, indices, color } = mergeMeshes(gltf.scene, main.name);
  fitToRoom(positions, interior);
  const id = `import:${name.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${hash(positions, indices)}`;
  return makeImportedItem({ id, name, color, positions, indices }, { snug, wasmUrl, onProgress });
}

/**
 * The catalog item definition of imported triangles (from a file just read, or from a room file):
 * source { id, name, color '#rrggbb', positions, indices } -> { id, name, geometry, color, blob, surfaces, source }.
 * Its placement surfaces are the ones the core finds on the triangles (mesh.findSurfaces: offers on flat tops, the
 * base it rests on), so it stands on what fits and carries what fits.
 */
export async function makeImportedItem(source, { snug, wasmUrl, onProgress = () => {} }) {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(source.positions, 3));
  if (source.indices) geometry.setIndex(new BufferAttribute(source.indices, 1));
  const triangles = source.indices ? source.indices.length / 3 : source.positions.length / 9;
  let blob = null, mesh;
  if (triangles >= WORKER_TRIANGLES) {
    const label = `building the collision hierarchy of ${source.name} (${triangles.toLocaleString('en')} triangles) in a worker`;
    onProgress(label, 0.4);
    mesh = await snug.buildMeshInWorker({ positions: source.positions, indices: source.indices }, {
      wasmUrl, label: source.id, onProgress: (stage, f) => onProgress(`${label}: ${stage}`, 0.4 + 0.6 * f),
    });
    blob = mesh.serialize();
  } else {
    mesh = snug.createMesh({ positions: source.positions, indices: source.indices, label: source.id });
  }
  let surfaces;
  try {
    surfaces = mesh.findSurfaces();
  } finally {
    mesh.dispose();
  }
  onProgress(`${source.name} is in the catalog`, 1);
  return { id: source.id, name: source.name, geometry, color: new Color(source.color), blob, surfaces, source };
}

async function readFile(file, onProgress) {
  const out = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value, at);
    at += value.length;
    onProgress(file.size ? at / file.size : 1);
  }
  return out.buffer;
}

// Every triangle mesh of the scene in world coordinates, as one indexed list; the first material's color.
function mergeMeshes(scene, fileName) {
  scene.updateMatrixWorld(true);
  const parts = [];
  let color = null;
  scene.traverse((o) => {
    if (!o.isMesh || o.isSkinnedMesh || !o.geometry.getAttribute('position')) return;
    if ((o.geometry.index ? o.geometry.index.count : o.geometry.getAttribute('position').count) < 3) return;
    parts.push(o);
    const m = Array.isArray(o.material) ? o.material[0] : o.material;
    if (!color && m?.color) color = `#${m.color.getHexString()}`;
  });
  if (!parts.length) throw new ImportError(`${fileName} has no triangle meshes`);
  let vertexCount = 0, indexCount = 0;
  for (const o of parts) {
    vertexCount += o.geometry.getAttribute('position').count;
    indexCount += o.geometry.index ? o.geometry.index.count : o.geometry.getAttribute('position').count;
  }
  const positions = new Float32Array(3 * vertexCount);
  const indices = new Uint32Array(indexCount - (indexCount % 3));
  const v = new Vector3();
  let vAt = 0, iAt = 0;
  for (const o of parts) {
    const pos = o.geometry.getAttribute('position');
    for (let i = 0; i < pos.count; i++) {
      v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
      positions[3 * (vAt + i)] = v.x; positions[3 * (vAt + i) + 1] = v.y; positions[3 * (vAt + i) + 2] = v.z;
    }
    const n = o.geometry.index ? o.geometry.index.count : pos.count;
    for (let k = 0; k + 2 < n && iAt + 2 < indices.length; k += 3) {
      for (let c = 0; c < 3; c++) indices[iAt++] = vAt + (o.geometry.index ? o.geometry.index.getX(k + c) : k + c);
    }
    vAt += pos.count;
  }
  for (const x of positions) if (!Number.isFinite(x)) throw new ImportError(`${fileName} has vertices that are not finite`);
  return { positions, indices: indices.subarray(0, iAt), color: color ?? '#b0b0b0' };
}

// Stand the model on y = 0, center it on x and z, and scale it down if it would not fit the room.
function fitToRoom(positions, interior) {
  const box = new Box3();
  const v = new Vector3();
  for (let i = 0; i < positions.length; i += 3) box.expandByPoint(v.fromArray(positions, i));
  const size = box.getSize(new Vector3());
  // (A flat model divides by zero: Infinity, which min ignores.)
  const s = Math.min(1, (0.8 * (interior.maxX - interior.minX)) / size.x, (0.8 * (interior.maxZ - interior.minZ)) / size.z,
    (0.9 * interior.height) / size.y);
  const cx = (box.min.x + box.max.x) / 2, cz = (box.min.z + box.max.z) / 2;
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = (positions[i] - cx) * s;
    positions[i + 1] = (positions[i + 1] - box.min.y) * s;
    positions[i + 2] = (positions[i + 2] - cz) * s;
  }
}

// FNV-1a over the triangles' bytes: the same model imported twice is the same item.
function hash(positions, indices) {
  let h = 0x811c9dc5;
  for (const a of [positions, indices]) {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
