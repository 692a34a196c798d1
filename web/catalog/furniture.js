// The furniture catalog: procedural items with authored placement surfaces. Node-safe (three.js only, no DOM).
//
// catalogItems() -> [{ id, name, category, make(options?) }]; make() -> { geometry, surfaces, upright, color }:
// - geometry: one indexed BufferGeometry (positions only), y up, meters. Standing items have their origin at the
//   footprint centre on y = 0; wall items (picture, chalkboard) at the centre of their back, which lies in z = 0
//   with the item in front of it (+z). Every part is a closed shell with counter-clockwise outward faces (the
//   core's sweeps judge pushing-in by face orientation), and parts share no vertices, so the whole mesh is closed.
//   Corners are shared by their faces, so draw it with flat shading (or toNonIndexed() then computeVertexNormals()).
// - surfaces: offers and bindings in the item's frame (web/catalog/surfaces.js). The table's inFrontOfTable offers
//   are virtual: vertical strips standing a little in front of its long sides, not on the mesh.
// - upright: the item may only rotate about up.
// Ornaments from the npm meshes are in web/catalog/ornaments.js (they need mesh data this module does not load).
import { BoxGeometry, CylinderGeometry, IcosahedronGeometry } from 'three';
import { mergeGeometries, mergeVertices } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import { offer, binding, rectY, rectZ, disc, hullXZ } from './surfaces.js';

const UP = [0, 1, 0];

// three.js splits the corners of its boxes and cylinders (per-face normals and UVs); with positions alone, merged,
// each part becomes a closed shell whose triangles share edges.
function solid(geometry) {
  geometry.deleteAttribute('normal');
  geometry.deleteAttribute('uv');
  return mergeVertices(geometry);
}

/** Box between corners [x0, y0, z0] and [x1, y1, z1]. */
function block([x0, y0, z0], [x1, y1, z1]) {
  return solid(new BoxGeometry(x1 - x0, y1 - y0, z1 - z0).translate((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2));
}

/** Upright cylinder (or frustum) from y0 to y1 around (x, z). */
function cylinder(rBottom, rTop, y0, y1, segments, [x, z] = [0, 0]) {
  return solid(new CylinderGeometry(rTop, rBottom, y1 - y0, segments).translate(x, (y0 + y1) / 2, z));
}

/** Cylinder of radius r lying along z from z0 to z1, its axis at (x, y). */
function roll(r, z0, z1, segments, [x, y]) {
  return solid(new CylinderGeometry(r, r, z1 - z0, segments).rotateX(Math.PI / 2).translate(x, y, (z0 + z1) / 2));
}

function item(parts, surfaces, { upright = true, color }) {
  const geometry = mergeGeometries(parts);
  geometry.computeBoundingBox();
  return { geometry, surfaces, upright, color };
}

/** Four legs of side s at the corners of the rectangle |x| <= hx, |z| <= hz, from the floor to height h. */
const legs = (hx, hz, s, h) => [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sz]) =>
  block([sx > 0 ? hx - s : -hx, 0, sz > 0 ? hz - s : -hz], [sx > 0 ? hx : -hx + s, h, sz > 0 ? hz : -hz + s]));

/** The resting binding of an item whose feet span |x| <= hx, |z| <= hz on y = 0. */
const feet = (label, hx, hz) => binding(label, UP, rectY(0, [-hx, -hz], [hx, hz]));

// -------------------------------------------------------------------------------------------------- structure

function floor({ width = 10, depth = 8, thickness = 0.1 } = {}) {
  const w = width / 2, d = depth / 2;
  return item([block([-w, -thickness, -d], [w, 0, d])], [offer('onFloor', UP, rectY(0, [-w, -d], [w, d]))],
    { color: 0xb08d6e });
}

// A wall stands on y = 0 with its front towards +z.
function wall({ width = 4, height = 2.6, thickness = 0.12 } = {}) {
  const w = width / 2, t = thickness / 2;
  return item([block([-w, 0, -t], [w, height, t])], [
    offer('onWall', [0, 0, 1], rectZ(t, [-w, 0], [w, height])),
    binding('onFloor', UP, rectY(0, [-w, -t], [w, t])),
  ], { color: 0xe9e4da });
}

// -------------------------------------------------------------------------------------------------- furniture

// A desk with a shelf standing on the back of its top between two side boards.
function desk() {
  const w = 0.7, d = 0.35, top = 0.76, shelf = 1.16, back = -0.1, side = 0.02;
  return item([
    block([-w, 0.72, -d], [w, top, d]),
    ...legs(w - 0.03, d - 0.03, 0.05, 0.72),
    block([-w, top, -d], [-w + side, shelf, back]), block([w - side, top, -d], [w, shelf, back]),
    block([-w, shelf, -d], [w, shelf + 0.02, back]),
  ], [
    offer('onWorkspace', UP, rectY(top, [-w + side, -d], [w - side, d])),
    offer('onStore', UP, rectY(shelf + 0.02, [-w, -d], [w, back])),
    feet('onFloor', w - 0.03, d - 0.03),
  ], { color: 0x9c6b43 });
}

// The chair's front strip binds to these offers; they stand this far in front of the long sides.
const IN_FRONT_OF_TABLE_GAP = 0.05;

function table() {
  const w = 0.8, d = 0.45, top = 0.75, g = d + IN_FRONT_OF_TABLE_GAP;
  return item([block([-w, 0.71, -d], [w, top, d]), ...legs(w - 0.05, d - 0.05, 0.07, 0.71)], [
    offer('onWorkspace', UP, rectY(top, [-w, -d], [w, d])),
    offer('inFrontOfTable', [0, 0, 1], rectZ(g, [-w, 0], [w, top])),
    offer('inFrontOfTable', [0, 0, -1], rectZ(-g, [-w, 0], [w, top])),
    feet('onFloor', w - 0.05, d - 0.05),
  ], { color: 0x8b5a3c });
}

// A chair faces +z: its front strip (on the seat's front face) binds to a table's inFrontOfTable offer.
function chair() {
  const h = 0.225, seat = 0.42, back = -h + 0.03;
  return item([
    ...legs(h, h, 0.04, seat), block([-h, seat, -h], [h, seat + 0.04, h]), block([-h, seat + 0.04, -h], [h, 0.9, back]),
  ], [
    offer('onSeat', UP, rectY(seat + 0.04, [-h, back], [h, h])),
    feet('onFloor', h, h),
    binding('inFrontOfTable', [0, 0, -1], rectZ(h, [-h, seat + 0.01], [h, seat + 0.03])),
  ], { color: 0xc9a227 });
}

// A sofa with rolled arms (cylinders resting on the arm boards).
function sofa() {
  const w = 1.0, d = 0.45, seat = 0.42, arm = 0.2, backZ = -0.25;
  const r = arm / 2;
  return item([
    block([-w, 0, -d], [w, seat, d]), block([-w, seat, -d], [w, 0.87, backZ]),
    block([-w, seat, backZ], [-w + arm, seat + 0.2, d]), block([w - arm, seat, backZ], [w, seat + 0.2, d]),
    roll(r, backZ, d, 16, [-w + r, seat + 0.2 + r]), roll(r, backZ, d, 16, [w - r, seat + 0.2 + r]),
  ], [
    offer('onSeat', UP, rectY(seat, [-w + arm, backZ], [w - arm, d])),
    feet('onFloor', w, d),
  ], { color: 0x3d5a80 });
}

// A bookcase: four boards inside, its top, a back panel. Its wall binding ends a board above the floor, so that
// sliding along a wall while standing on the floor never reads as leaving the wall (IConS's shelf, seed-002 §7.3).
function bookcase() {
  const w = 0.5, d = 0.175, h = 1.8, s = 0.02, panel = -d + 0.01, boards = [0, 0.45, 0.9, 1.35];
  return item([
    block([-w, 0, -d], [-w + s, h, d]), block([w - s, 0, -d], [w, h, d]),
    block([-w + s, 0, -d], [w - s, h - s, panel]), block([-w + s, h - s, -d], [w - s, h, d]),
    ...boards.map((y) => block([-w + s, y, panel], [w - s, y + s, d])),
  ], [
    ...boards.map((y) => offer('onStore', UP, rectY(y + s, [-w + s, panel], [w - s, d]))),
    offer('onStore', UP, rectY(h, [-w, -d], [w, d])),
    feet('onFloor', w, d),
    binding('onWall', [0, 0, 1], rectZ(-d, [-w, s], [w, h])),
  ], { color: 0x6b705c });
}

function rug() {
  const w = 1.0, d = 0.7, h = 0.01;
  return item([block([-w, 0, -d], [w, h, d])], [
    feet('onFloor', w, d),
    offer('onFloor', UP, rectY(h, [-w, -d], [w, d])),
  ], { color: 0xa23e48 });
}

function lamp({ base, stem, shade, label }) {
  const [rBase, hBase] = base, [rStem, hStem] = stem, [rLow, rHigh, hShade] = shade;
  const y1 = hBase + hStem;
  return item([
    cylinder(rBase, rBase, 0, hBase, 24), cylinder(rStem, rStem, hBase, y1, 12),
    cylinder(rLow, rHigh, y1, y1 + hShade, 24),
  ], [binding(label, UP, disc(0, rBase, 24))], { color: 0xf4d35e });
}

// A plant in a pot: small ones go on shelves and tables, tall ones on the floor.
function plant({ height = 0.35 } = {}) {
  const pot = 0.35 * height, r = 0.22 * height, leaves = 0.36 * height;
  return item([
    cylinder(0.75 * r, r, 0, pot, 20),
    solid(new IcosahedronGeometry(leaves, 1).translate(0, height - leaves, 0)),
  ], [binding(height <= 0.5 ? 'onStore' : 'onFloor', UP, disc(0, 0.75 * r, 20))], { color: 0x588157 });
}

function monitor() {
  return item([
    block([-0.11, 0, -0.08], [0.11, 0.015, 0.08]), block([-0.02, 0.015, -0.05], [0.02, 0.2, -0.02]),
    block([-0.275, 0.2, -0.05], [0.275, 0.53, -0.02]),
  ], [binding('onWorkspace', UP, rectY(0, [-0.11, -0.08], [0.11, 0.08]))], { color: 0x22223b });
}

// Five books standing side by side along x, their spines flush at the front (+z).
function books() {
  const sizes = [[0.035, 0.24, 0.17], [0.05, 0.26, 0.18], [0.03, 0.21, 0.15], [0.045, 0.23, 0.17], [0.04, 0.25, 0.16]];
  const width = sizes.reduce((s, [t]) => s + t, 0), front = 0.09;
  let x = -width / 2;
  const parts = [], corners = [];
  for (const [t, h, d] of sizes) {
    parts.push(block([x, 0, front - d], [x + t, h, front]));
    corners.push([x, front - d], [x + t, front - d], [x + t, front], [x, front]);
    x += t;
  }
  const base = hullXZ(corners).map(([px, pz]) => [px, 0, pz]);
  return item(parts, [binding('onStore', UP, base)], { color: 0x7b2cbf });
}

// Wall items: the back lies in z = 0, centred on the origin.
function picture() {
  const w = 0.3, h = 0.225, f = 0.03, depth = 0.03;
  return item([
    block([-w, h - f, 0], [w, h, depth]), block([-w, -h, 0], [w, -h + f, depth]),
    block([-w, -h + f, 0], [-w + f, h - f, depth]), block([w - f, -h + f, 0], [w, h - f, depth]),
    block([-w + f, -h + f, 0], [w - f, h - f, 0.012]),
  ], [binding('onWall', [0, 0, 1], rectZ(0, [-w, -h], [w, h]))], { color: 0xe07a5f });
}

function chalkboard() {
  const w = 0.6, h = 0.4, f = 0.03, board = 0.02, frame = 0.035;
  return item([
    block([-w, -h, 0], [w, h, board]),
    block([-w, h - f, board], [w, h, frame]), block([-w, -h, board], [w, -h + f, frame]),
    block([-w, -h + f, board], [-w + f, h - f, frame]), block([w - f, -h + f, board], [w, h - f, frame]),
    block([-0.4, -h, frame], [0.4, -h + 0.015, 0.07]),
  ], [binding('onWall', [0, 0, 1], rectZ(0, [-w, -h], [w, h]))], { color: 0x2f3e46 });
}

// ------------------------------------------------------------------------------------------------------ list

const ITEMS = [
  ['floor', 'Floor', 'structure', floor],
  ['wall', 'Wall', 'structure', wall],
  ['desk', 'Desk with shelf', 'furniture', desk],
  ['table', 'Table', 'furniture', table],
  ['chair', 'Chair', 'furniture', chair],
  ['sofa', 'Sofa', 'furniture', sofa],
  ['bookcase', 'Bookcase', 'furniture', bookcase],
  ['floor-lamp', 'Floor lamp', 'furniture', () => lamp({ base: [0.15, 0.03], stem: [0.015, 1.3], shade: [0.2, 0.12, 0.25], label: 'onFloor' })],
  ['plant', 'Plant', 'furniture', (o) => plant({ height: 1.1, ...o })],
  ['rug', 'Rug', 'decor', rug],
  ['lamp', 'Table lamp', 'decor', () => lamp({ base: [0.08, 0.02], stem: [0.01, 0.3], shade: [0.12, 0.07, 0.18], label: 'onStore' })],
  ['plant-small', 'Small plant', 'decor', (o) => plant({ height: 0.35, ...o })],
  ['monitor', 'Monitor', 'decor', monitor],
  ['books', 'Books', 'decor', books],
  ['picture', 'Picture', 'decor', picture],
  ['chalkboard', 'Chalkboard', 'decor', chalkboard],
];

/** The procedural catalog items (ornaments from mesh data: web/catalog/ornaments.js). */
export function catalogItems() {
  return ITEMS.map(([id, name, category, build]) => ({ id, name, category, make: (options) => build(options) }));
}
