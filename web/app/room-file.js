// The room file: a JSON document with the room's objects ({ id, item, pose, bindings, local } through the placement
// seam: what each rests on, by surface indices, and its pose relative to that) and the imported items they use
// (their triangles, so the file opens anywhere). The core's scene file (scene.save/load, to move to) would replace
// the payload; this file then only wraps it.
// Reading checks everything it can before the room is touched; whether the bindings hold is the room's to say.
// Version 1 files had no bindings: their objects open unbound (a drag snaps them onto what is under them).
export const FORMAT = 'snug-room';
export const VERSION = 2;

export class RoomFileError extends Error {
  constructor(message) { super(message); this.name = 'RoomFileError'; }
}

/**
 * The text of a room file. records: [{ id, item, pose, bindings: [{ binding, supporter, offer }], local }]; imported:
 * [{ id, name, color, positions, indices }].
 */
export function writeRoom(records, imported) {
  return JSON.stringify({
    format: FORMAT, version: VERSION,
    items: records.map((r) => ({ id: r.id, item: r.item, pose: Array.from(r.pose), bindings: r.bindings, local: r.local })),
    imported: imported.map((s) => ({
      id: s.id, name: s.name, color: s.color,
      positions: toBase64(s.positions), indices: s.indices ? toBase64(s.indices) : null,
    })),
  });
}

const MAX_TRIANGLES = 4_000_000;

/**
 * Parse and check a room file. knownItem(id) says whether the catalog has an item. Returns { records, imported }
 * with typed arrays, or throws a RoomFileError that says what is wrong.
 */
export function readRoom(text, knownItem) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new RoomFileError(`not a room file (not JSON: ${e.message})`);
  }
  if (!doc || typeof doc !== 'object' || doc.format !== FORMAT) throw new RoomFileError('not a snug room file');
  if (!Number.isInteger(doc.version) || doc.version < 1) throw new RoomFileError(`bad room file version ${doc.version}`);
  if (doc.version > VERSION) throw new RoomFileError(`the room file is version ${doc.version}, newer than this page reads (${VERSION})`);
  if (!Array.isArray(doc.items)) throw new RoomFileError('the room file has no item list');
  if (!Array.isArray(doc.imported)) throw new RoomFileError('the room file has no imported list');

  const imported = doc.imported.map((s, i) => {
    const where = `imported item ${i + 1}`;
    if (!s || typeof s.id !== 'string' || !s.id.startsWith('import:')) throw new RoomFileError(`${where} has no import: id`);
    if (typeof s.name !== 'string') throw new RoomFileError(`${where} has no name`);
    if (typeof s.color !== 'string' || !/^#[0-9a-f]{6}$/i.test(s.color)) throw new RoomFileError(`${where} has a bad color`);
    const positions = new Float32Array(fromBase64(s.positions, where));
    const whole = s.indices === null ? positions.length % 9 === 0 : positions.length % 3 === 0;
    if (positions.length === 0 || !whole) {
      throw new RoomFileError(`${where}: ${positions.length} position values do not make vertices and triangles`);
    }
    for (const x of positions) if (!Number.isFinite(x)) throw new RoomFileError(`${where} has a vertex that is not finite`);
    let indices = null;
    if (s.indices === null) {
      if (positions.length / 9 > MAX_TRIANGLES) throw new RoomFileError(`${where} has more than ${MAX_TRIANGLES} triangles`);
    } else {
      indices = new Uint32Array(fromBase64(s.indices, where));
      const n = positions.length / 3;
      if (indices.length === 0 || indices.length % 3) throw new RoomFileError(`${where}: ${indices.length} indices do not make triangles`);
      if (indices.length / 3 > MAX_TRIANGLES) throw new RoomFileError(`${where} has more than ${MAX_TRIANGLES} triangles`);
      for (const k of indices) if (k >= n) throw new RoomFileError(`${where}: index ${k} is past its ${n} vertices`);
    }
    return { id: s.id, name: s.name, color: s.color, positions, indices };
  });

  const ids = new Set(imported.map((s) => s.id));
  const seen = new Set();
  const records = doc.items.map((r, i) => {
    const where = `item ${i + 1}`;
    if (!r || typeof r.id !== 'string' || !r.id) throw new RoomFileError(`${where} has no id`);
    if (seen.has(r.id)) throw new RoomFileError(`${where}: id ${r.id} appears twice`);
    seen.add(r.id);
    if (typeof r.item !== 'string' || !(knownItem(r.item) || ids.has(r.item))) {
      throw new RoomFileError(`${where} (${r.id}) is of an unknown catalog item ${JSON.stringify(r.item)}`);
    }
    if (!Array.isArray(r.pose) || r.pose.length !== 7 || !r.pose.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new RoomFileError(`${where} (${r.id}) has no pose of 7 finite numbers`);
    }
    const bindings = doc.version === 1 ? [] : r.bindings;
    const index = (x) => Number.isInteger(x) && x >= 0;
    if (!Array.isArray(bindings) || !bindings.every((b) => b && index(b.binding) && index(b.offer) && typeof b.supporter === 'string')) {
      throw new RoomFileError(`${where} (${r.id}) has no list of what it rests on ({ binding, supporter, offer })`);
    }
    const local = r.local ?? null;
    if (local !== null && !(Array.isArray(local) && local.length === 7 && local.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
      throw new RoomFileError(`${where} (${r.id}) has a local pose that is not 7 finite numbers`);
    }
    return { id: r.id, item: r.item, pose: r.pose, local, bindings: bindings.map((b) => ({ binding: b.binding, supporter: b.supporter, offer: b.offer })) };
  });
  return { records, imported };
}

function toBase64(array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text, where) {
  if (typeof text !== 'string') throw new RoomFileError(`${where} has no triangle data`);
  let s;
  try {
    s = atob(text);
  } catch {
    throw new RoomFileError(`${where} has triangle data that is not base64`);
  }
  if (s.length % 4) throw new RoomFileError(`${where} has triangle data of ${s.length} bytes, not whole 4-byte values`);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes.buffer;
}
