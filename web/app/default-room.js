// The room a first visit (or New) starts with: a few catalog items standing on the floor, clear of each other.
// [item, x, z, turn about the vertical in degrees]
const LAYOUT = [
  ['sofa', -1.6, -2.4, 0], ['table', 1.0, -0.4, 0], ['chair', 0.6, 0.4, 180], ['chair', 1.4, 0.4, 180],
  ['bookcase', 3.2, -2.7, 0], ['plant', -3.5, -2.5, 0], ['bunny', -2.4, 1.4, 30], ['dragon', 2.8, 1.8, -40],
  ['sculpture', -0.6, 1.7, 0],
];

/** The default room's records ({ id, item, pose }) for the catalog's prototypes. */
export function defaultRoom(catalog) {
  return LAYOUT.map(([item, x, z, deg], i) => {
    const a = (deg * Math.PI) / 360;
    const y = -catalog.prototype(item).geometry.boundingBox.min.y;
    return { id: `o${i + 1}`, item, pose: [0, Math.sin(a), 0, Math.cos(a), x, y, z] };
  });
}
