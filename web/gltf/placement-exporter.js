// GLTFExporter plugin writing the SNUG_placement extension (docs/gltf-extension.md) from a Placement: the label
// table, its order and the settings at the root, each object's surfaces, orientation and bindings on its node.
//
//   new GLTFExporter().register((writer) => new PlacementExporterPlugin(writer, placement))
//
// placement: { labels, order, settings, nodes: Map<Object3D, { surfaces, orientation, bindings: [{ binding,
// supporter: Object3D, offer }] }> } (what placementFromScene returns, or what PlacementLoaderPlugin read).
// Everything is written once every node has its index (afterParse), then checked by the reader's own rules, so an
// export either gives a file that reads back or throws.
import { EXTENSION, PlacementError, parsePlacement, rootJson, nodeJson } from './placement-format.js';

const named = (object) => (object.name ? `"${object.name}"` : `(unnamed ${object.type})`);

export class PlacementExporterPlugin {
  constructor(writer, placement) {
    this.writer = writer;
    this.name = EXTENSION;
    this.placement = placement;
  }

  afterParse() {
    const { json, nodeMap, extensionsUsed } = this.writer;
    const { placement } = this;
    if (!placement) return;
    // Objects left out of this export (invisible, or not under the input) take their data with them; a binding to
    // one of them from an object in the file would dangle, which is refused.
    const written = [...placement.nodes].filter(([object]) => nodeMap.has(object));
    const nodeOf = (object, what) => {
      const i = nodeMap.get(object);
      if (i === undefined) throw new PlacementError('nodes', `${what} is not part of this export`);
      return i;
    };
    for (const [object, data] of written) {
      // three writes an object with a pivot as two nodes; its geometry's frame is the inner one, not its node's
      if (object.pivot) throw new PlacementError('nodes', `object ${named(object)} has a pivot; placement needs objects without one`);
      const node = json.nodes[nodeOf(object, `object ${named(object)}`)];
      node.extensions ??= {};
      node.extensions[EXTENSION] = nodeJson(data, (supporter) =>
        nodeOf(supporter, `the supporter ${named(supporter)} of ${named(object)}`));
    }
    json.extensions ??= {};
    json.extensions[EXTENSION] = rootJson(placement);
    extensionsUsed[EXTENSION] = true;
    parsePlacement(json.extensions[EXTENSION], json.nodes);
  }
}
