// The room a first visit (or New) starts with: a few catalog items standing on the floor, clear of each other (no
// ornaments: their meshes arrive after the first frame).
// [item, x, z, turn about the vertical in degrees]
// Chairs face the table across its front (their front strips on its inFrontOfTable offers, 5 cm out), the sofa and
// the bookcase stand with their backs near the back wall, the desk with its back to the left wall.
const LAYOUT = [
  ['sofa', -1.4, -2.5, 0], ['table', 1.0, -0.3, 0], ['chair', 0.6, 0.425, 180], ['chair', 1.4, 0.425, 180],
  ['bookcase', 3.2, -2.8, 0], ['desk', -3.6, -0.6, 90], ['floor-lamp', 3.6, -1.8, 0], ['plant', 3.5, 2.5, 0],
];

/** The default room's records ({ id, item, pose }) for the catalog's prototypes. */
export function defaultRoom(catalog) {
  return LAYOUT.map(([item, x, z, deg], i) => {
    const a = (deg * Math.PI) / 360;
    const y = -catalog.prototype(item).geometry.boundingBox.min.y;
    return { id: `o${i + 1}`, item, pose: [0, Math.sin(a), 0, Math.cos(a), x, y, z] };
  });
}
