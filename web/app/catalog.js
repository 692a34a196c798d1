// The catalog: what can be put in the room. Built-in items come from ../catalog/ ({ id, name, category,
// make() -> { geometry, surfaces, upright, color } }); imported glTF files join as items of the category
// "imported". Each item is made once into a prototype that every object of the item shares (geometry and its snug
// mesh), as IConS's instances share their model.
import { EventDispatcher, Color } from 'three';
import { toCreasedNormals } from 'three/examples/jsm/utils/BufferGeometryUtils.js';

export const IMPORTED = 'imported';
/** The category the room shell is made of (room.js builds it): not offered for inserting. */
export const STRUCTURE = 'structure';

/**
 * What to draw for a collision geometry: the same triangles with normals creased at 30 degrees (box corners stay
 * sharp, curved meshes stay smooth; the catalog's meshes share corner vertices between faces).
 */
export function renderGeometry(geometry) {
  const g = toCreasedNormals(geometry, Math.PI / 6);
  g.computeBoundingBox();
  return g;
}

export class Catalog extends EventDispatcher {
  /** items: [{ id, name, category, make }] */
  constructor(items) {
    super();
    this._items = new Map();
    this._protos = new Map();
    this.loaded = Promise.resolve();
    for (const it of items) this._add(it);
  }

  _add(item) {
    if (this._items.has(item.id)) throw new Error(`catalog: item id ${item.id} appears twice`);
    this._items.set(item.id, item);
  }

  has(id) { return this._items.has(id); }
  get(id) {
    const it = this._items.get(id);
    if (!it) throw new Error(`catalog: no item ${id}`);
    return it;
  }
  items() { return [...this._items.values()]; }
  /** The items a user can insert (everything but the room's structure). */
  insertable() { return this.items().filter((it) => it.category !== STRUCTURE); }

  /**
   * Built-in items that arrive later (the ornaments, whose meshes load while the page starts): `items` is a promise
   * of them. loaded resolves once they are in, or once onError has been told why they never will be.
   */
  addLater(items, onError) {
    this.loaded = items.then((list) => {
      for (const item of list) {
        this._add(item);
        this.dispatchEvent({ type: 'add', item });
      }
    }).catch(onError);
    return this.loaded;
  }

  /**
   * The item's prototype, made on first use: { name, geometry (what collides; bounding box computed),
   * renderGeometry (what is drawn), surfaces, upright, color (Color), blob? (a serialized snug mesh when its
   * hierarchy was built in a worker) }.
   */
  prototype(id) {
    let p = this._protos.get(id);
    if (!p) {
      const it = this.get(id);
      const made = it.make();
      made.geometry.computeBoundingBox();
      p = { name: it.name, geometry: made.geometry, renderGeometry: renderGeometry(made.geometry), surfaces: made.surfaces ?? [],
        upright: made.upright ?? true, color: new Color(made.color), blob: made.blob ?? null };
      this._protos.set(id, p);
    }
    return p;
  }

  /**
   * Add an imported item: { id, name, geometry, color, blob?, surfaces, source } where source is what a room file
   * stores to make it again ({ positions, indices, color, name }). An id already present is kept as it is (the same
   * file imported twice). Returns the item.
   */
  addImported({ id, name, geometry, color, blob = null, surfaces, source }) {
    if (this._items.has(id)) return this._items.get(id);
    const item = { id, name, category: IMPORTED, imported: true, source, make: () => ({ geometry, surfaces, upright: true, color, blob }) };
    this._add(item);
    this.dispatchEvent({ type: 'add', item });
    return item;
  }

  /** Remove an imported item again (a room file that failed to load after adding it). */
  removeImported(id) {
    const it = this._items.get(id);
    if (!it || !it.imported) return;
    this._items.delete(id);
    this._protos.delete(id);
    this.dispatchEvent({ type: 'remove', item: it });
  }
}
