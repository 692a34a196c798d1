// The SNUG_placement glTF extension (docs/gltf-extension.md) in one import: the exporter and loader plugins, the
// format's reader and writer, and the functions between a Placement and a snug scene.
export { EXTENSION, PlacementError, parsePlacement, readPlacementJson, rootJson, nodeJson } from './placement-format.js';
export { PlacementExporterPlugin } from './placement-exporter.js';
export { PlacementLoaderPlugin } from './placement-loader.js';
export { placementFromScene, applyPlacement, scalePlacement, worldScale } from './placement-scene.js';
