// GLTFLoader plugin reading the SNUG_placement extension (docs/gltf-extension.md) into a Placement on the result:
//
//   const loader = new GLTFLoader().register((parser) => new PlacementLoaderPlugin(parser));
//   const gltf = await loader.loadAsync(url);
//   gltf.userData.snugPlacement   // { labels, order, settings, nodes: Map<Object3D, { surfaces, orientation,
//                                 //   bindings: [{ binding, supporter: Object3D, offer }] }> }, or undefined
//
// The extension's JSON is checked before anything loads: bad data rejects the load with a PlacementError that names
// the place in the file, and no scene comes out. (The polygons' geometry, planar, convex and counter-clockwise, is
// the core's to judge, when applyPlacement sets them on meshes.)
import { EXTENSION, PlacementError, readPlacementJson } from './placement-format.js';

export class PlacementLoaderPlugin {
  constructor(parser) {
    this.parser = parser;
    this.name = EXTENSION;
    this.data = null;
  }

  // async: a throw becomes the load's rejection instead of escaping GLTFLoader.parse
  async beforeRoot() {
    this.data = readPlacementJson(this.parser.json);
  }

  async afterRoot(result) {
    const { data, parser } = this;
    if (!data) return;
    // node objects are cached by the parser: these are the ones in result.scenes
    const objectOf = new Map();
    for (const i of data.nodes.keys()) objectOf.set(i, await parser.getDependency('node', i));
    const nodes = new Map();
    for (const [i, node] of data.nodes) {
      const object = objectOf.get(i);
      // three rebuilds a pivot from the two nodes GLTFExporter writes for one; the geometry's frame is not the node's
      if (object.pivot) throw new PlacementError(`nodes[${i}]`, 'became an object with a pivot; placement needs objects without one');
      nodes.set(object, {
        surfaces: node.surfaces, orientation: node.orientation,
        bindings: node.bindings.map((b) => ({ binding: b.binding, supporter: objectOf.get(b.supporter), offer: b.offer })),
      });
    }
    result.userData.snugPlacement = { labels: data.labels, order: data.order, settings: data.settings, nodes };
  }
}
