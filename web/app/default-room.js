// The room a first visit (or New) starts with: furniture standing on the floor, clear of each other, and a few
// things on it (no ornaments: their meshes arrive after the first frame). Each record says what the object rests
// on, by the labels of the catalog's authored surfaces.
//
// [item, x, z, turn about the vertical in degrees, what it rests on]; what it rests on is a list of
// [binding label, supporter (a shell part's id, or the index in LAYOUT), offer label, which offer of that label].
// Standing objects have their origin on the floor; an object on another one is placed by its supporter's offer:
// x, z are then in the supporter's frame and the height is the offer's.
// Chairs face the table across its front (their front strips on its inFrontOfTable offers, 5 cm out), the sofa and
// the bookcase stand with their backs to the back wall (the bookcase against it), the desk with its back to the left
// wall.
const FLOOR = ['onFloor', 'floor', 'onFloor', 0];
const LAYOUT = [
  ['sofa', -1.4, -2.5, 0, [FLOOR]],
  ['table', 1.0, -0.3, 0, [FLOOR]],
  ['chair', 0.6, 0.425, 180, [FLOOR, ['inFrontOfTable', 1, 'inFrontOfTable', 0]]],
  ['chair', 1.4, 0.425, 180, [FLOOR, ['inFrontOfTable', 1, 'inFrontOfTable', 0]]],
  ['bookcase', 3.2, -2.825, 0, [FLOOR, ['onWall', 'wall-back', 'onWall', 0]]],
  ['desk', -3.6, -0.6, 90, [FLOOR]],
  ['floor-lamp', 3.6, -1.8, 0, [FLOOR]],
  ['plant', 3.5, 2.5, 0, [FLOOR]],
  ['books', 0.1, 0.05, 0, [['onStore', 4, 'onStore', 1]]],
  ['lamp', 0.45, 0.15, 0, [['onStore', 5, 'onWorkspace', 0]]],
];

const index = (surfaces, kind, label, nth) => {
  const found = surfaces.map((s, i) => [s, i]).filter(([s]) => s.kind === kind && s.label === label);
  if (!found[nth]) throw new Error(`default room: no ${kind} ${label} #${nth}`);
  return found[nth][1];
};

/**
 * The default room's records ({ id, item, pose, bindings }) for the catalog's prototypes; shell(id) gives a shell
 * part's surfaces.
 */
export function defaultRoom(catalog, shell) {
  const records = [];
  LAYOUT.forEach(([item, x, z, deg, rests], i) => {
    const proto = catalog.prototype(item);
    const a = (deg * Math.PI) / 360;
    let pose = [0, Math.sin(a), 0, Math.cos(a), x, -proto.geometry.boundingBox.min.y, z];
    const bindings = rests.map(([bindingLabel, on, offerLabel, nth]) => {
      const supporter = typeof on === 'number' ? records[on] : null;
      const surfaces = supporter ? catalog.prototype(supporter.item).surfaces : shell(on);
      return { binding: index(proto.surfaces, 'binding', bindingLabel, 0), supporter: supporter ? supporter.id : on,
        offer: index(surfaces, 'offer', offerLabel, nth) };
    });
    const first = rests[0][1];
    if (typeof first === 'number') pose = onTop(records[first], catalog.prototype(records[first].item).surfaces[bindings[0].offer], x, z, deg);
    records.push({ id: `o${i + 1}`, item, pose, bindings });
  });
  return records;
}

// The pose of an object standing on an up-facing offer of a supporter at (x, z) of the supporter's frame, turned by
// `deg` beyond the supporter's turn.
function onTop(supporter, offer, x, z, deg) {
  const [, qy, , qw, px, py, pz] = supporter.pose;
  const yaw = 2 * Math.atan2(qy, qw), c = Math.cos(yaw), s = Math.sin(yaw);
  const a = yaw / 2 + (deg * Math.PI) / 360;
  return [0, Math.sin(a), 0, Math.cos(a), px + c * x + s * z, py + offer.polygon[0][1], pz - s * x + c * z];
}
