// The room as a .glb with the SNUG_placement extension (docs/gltf-extension.md): each object and shell part one
// node at its pose, named by its placement id, its catalog item in the node's extras, its surfaces and what it rests
// on in the extension; the scene's extras mark the file as a snug room. Any glTF viewer shows the room; this page
// opens it again as the room (the objects by their catalog items, at their poses, bound as they were).
import { Mesh, Scene } from 'three';
import { RoomFileError } from './room-file.js';

/** Whether a .glb's bytes are a snug room (its scene's extras say so), read from the JSON chunk only. */
export function isRoomGlb(buffer) {
  const view = new DataView(buffer);
  if (buffer.byteLength < 20 || view.getUint32(0, true) !== 0x46546c67 || view.getUint32(16, true) !== 0x4e4f534a) return false;
  try {
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 20, view.getUint32(12, true))));
    return json.scenes?.[json.scene ?? 0]?.extras?.snugRoom === 1;
  } catch {
    return false;
  }
}

/** The room as .glb bytes (ArrayBuffer). */
export async function writeRoomGlb(placement) {
  const [{ GLTFExporter }, { PlacementExporterPlugin, placementFromScene }] = await Promise.all([
    import('three/examples/jsm/exporters/GLTFExporter.js'), import('../gltf/placement.js'),
  ]);
  // A plain node per part (the live objects carry the page's marks as children), at the core's pose.
  const bodies = new Map();
  for (const { id, item, object, body } of placement.parts()) {
    const node = new Mesh(object.geometry, object.material);
    const p = body.getPose();
    node.quaternion.set(p[0], p[1], p[2], p[3]);
    node.position.set(p[4], p[5], p[6]);
    node.name = id;
    node.userData = { snugId: id, snugItem: item };
    bodies.set(node, body);
  }
  const data = placementFromScene(placement.scene, bodies);
  const exporter = new GLTFExporter().register((writer) => new PlacementExporterPlugin(writer, data));
  const root = new Scene();
  root.userData = { snugRoom: 1 }; // the glTF scene's extras
  root.add(...bodies.keys());
  return exporter.parseAsync(root, { binary: true, trs: true }); // poses as written, not through a matrix
}

/**
 * Read a room .glb into room records ({ id, item, pose, bindings, local: null }) for the room to open; knownItem(id)
 * says whether the catalog has an item. The shell parts are the room's own and are not among the records. Throws a
 * RoomFileError that says what is wrong.
 */
export async function readRoomGlb(buffer, knownItem) {
  const [{ GLTFLoader }, { PlacementLoaderPlugin }] = await Promise.all([
    import('three/examples/jsm/loaders/GLTFLoader.js'), import('../gltf/placement.js'),
  ]);
  let gltf;
  try {
    gltf = await new GLTFLoader().register((parser) => new PlacementLoaderPlugin(parser)).parseAsync(buffer, '');
  } catch (e) {
    throw new RoomFileError(`not a room .glb this page reads (${e.message})`);
  }
  const placement = gltf.userData.snugPlacement;
  if (!placement) throw new RoomFileError('the .glb has no SNUG_placement data');
  const records = [];
  for (const node of gltf.scene.children) {
    const { snugId: id, snugItem: item } = node.userData;
    if (typeof id !== 'string' || typeof item !== 'string') throw new RoomFileError(`node "${node.name}" has no snug id and item`);
    if (item === 'floor' || item === 'wall') continue;
    if (!knownItem(item)) throw new RoomFileError(`node "${node.name}" is of an unknown catalog item ${JSON.stringify(item)}`);
    const bindings = (placement.nodes.get(node)?.bindings ?? []).map((b) => ({ binding: b.binding, supporter: b.supporter.userData.snugId, offer: b.offer }));
    const { quaternion: q, position: p } = node;
    records.push({ id, item, pose: [q.x, q.y, q.z, q.w, p.x, p.y, p.z], bindings, local: null });
  }
  return records;
}
