// The warm-up: a small placement scene driven through the gestures of a session (drags into walls and wedges,
// slides, pointer drags that re-seat, turns into contact, a carried group, insert, delete, undo), run once after
// loading. Browsers compile WebAssembly lazily, each function at its first call and with a baseline compiler first,
// so the first drag into a corner paid for compiling the sweeps and contacts it reached: 10 ms in Chromium, where
// the same event takes 0.5 ms once compiled. Here that cost is paid before anyone drags.

// Closed boxes [x0, y0, z0, x1, y1, z1], merged into one mesh, counter-clockwise outward.
const BOX_INDICES = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
function boxMesh(snug, parts, surfaces) {
  const positions = [], indices = [];
  for (const [x0, y0, z0, x1, y1, z1] of parts) {
    const base = positions.length / 3;
    for (let v = 0; v < 8; v++) positions.push((v & 1) ^ ((v >> 1) & 1) ? x1 : x0, v & 2 ? y1 : y0, v & 4 ? z1 : z0);
    for (const i of BOX_INDICES) indices.push(base + i);
  }
  const mesh = snug.createMesh({ positions: Float32Array.from(positions), indices: Uint32Array.from(indices) });
  mesh.setSurfaces(surfaces);
  return mesh;
}

// An upward rectangle at height y, as an offer or a binding with a label.
const rect = (kind, label, x0, x1, y, z0, z1) => ({
  kind, label, normal: [0, 1, 0], polygon: [[x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]],
});

// A rectangle in the plane z = z facing +z (nz 1) or -z (nz -1).
const rectZ = (kind, label, nz, z, x0, x1, y0, y1) => {
  const polygon = [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]];
  return { kind, label, normal: [0, 0, nz], polygon: nz > 0 ? polygon : polygon.reverse() };
};

/**
 * Runs the warm-up scene in a scene of its own and frees it. Returns { moves, reasons } (the body.move calls made
 * and the reasons they reported, which tests check so that the scene keeps reaching what it is for).
 */
export function warmUp(snug) {
  const meshes = [];
  const mesh = (parts, surfaces) => { const m = boxMesh(snug, parts, surfaces); meshes.push(m); return m; };
  const floor = mesh([[-3, -0.1, -3, 3, 0, 3]], [rect('offer', 'onFloor', -3, 3, 0, -3, 3)]);
  const wall = mesh([[2, 0, -3, 2.2, 2.5, 3]], []);
  const leg = (x, z) => [x, 0, z, x + 0.06, 0.72, z + 0.06];
  const table = mesh([[-0.8, 0.72, -0.45, 0.8, 0.78, 0.45], leg(-0.8, -0.45), leg(0.74, -0.45), leg(-0.8, 0.39), leg(0.74, 0.39)],
    [rect('offer', 'onWorkspace', -0.8, 0.8, 0.78, -0.45, 0.45), rect('binding', 'onFloor', -0.8, 0.8, 0, -0.45, 0.45),
      rectZ('offer', 'inFrontOfTable', 1, 0.5, -0.8, 0.8, 0, 0.78), rectZ('offer', 'inFrontOfTable', -1, -0.5, -0.8, 0.8, 0, 0.78)]);
  // facing +z, with its front strip binding to a table's inFrontOfTable offers
  const chair = mesh([[-0.22, 0, -0.22, 0.22, 0.45, 0.22], [-0.22, 0.45, -0.22, 0.22, 0.95, -0.16]],
    [rect('binding', 'onFloor', -0.22, 0.22, 0, -0.22, 0.22), rectZ('binding', 'inFrontOfTable', -1, 0.22, -0.22, 0.22, 0.43, 0.45)]);
  const book = mesh([[-0.08, 0, -0.11, 0.08, 0.04, 0.11]], [rect('binding', 'onStore', -0.08, 0.08, 0, -0.11, 0.11)]);

  const scene = snug.createScene();
  const reasons = new Set();
  let moves = 0;
  try {
    scene.createBody({ mesh: floor, isStatic: true });
    scene.createBody({ mesh: wall, isStatic: true });
    const at = (m, x, y, z) => scene.createBody({ mesh: m, pose: [0, 0, 0, 1, x, y, z] });
    const desk = at(table, 0, 0.02, 0), side = at(table, -1.9, 0.02, 0), seat = at(chair, 1.2, 0.02, 0.2);
    const novel = at(book, 0.3, 0.85, 0);
    for (const b of [desk, side, seat, novel]) b.drop();
    const before = scene.snapshot();
    const move = (body, def) => {
      const r = body.move({ mode: 'constrained', ...def });
      moves++;
      for (const reason of r.reasons) reasons.add(reason);
      return r;
    };
    const to = (body, x, z) => move(body, { target: [0, 0, 0, 1, x, body.getPose()[5], z] });
    // the chair into the wall, along it, into the wedge of wall and table, and pushed on there
    for (const [x, z] of [[1.6, 0.2], [1.9, 0.3], [2.1, 0.6], [2.1, 0.1], [1.5, 0.1], [0.9, 0.1], [0.7, 0.2], [0.6, 0.4], [0.6, 0.5]]) {
      to(seat, x, z);
    }
    // turned into the table, in steps and freely
    for (let i = 0; i < 4; i++) move(seat, { turn: 0.4, angleStep: Math.PI / 12 });
    move(seat, { turn: -1.2 });
    // a chair facing the table pushed by a pointer to its long side, where it binds in front of it, and slid along
    const guest = scene.createBody({ mesh: chair, pose: [0, 1, 0, 0, -0.2, 0.02, 1.4] });
    guest.drop();
    const push = (x, z) => ({ ray: { origin: [x, 3, z + 2], dir: [0, -0.83, -0.55] }, grab: [0, 0.45, 0] });
    for (const [x, z] of [[-0.2, 1.1], [-0.2, 0.9], [-0.2, 0.75], [-0.2, 0.6], [0.1, 0.6], [0.5, 0.55], [0.5, 0.9]]) {
      move(guest, push(x, z));
    }
    // the book dragged by a pointer across the table, against its edge, over to the other table, and in free mode
    const ray = (x, z) => ({ ray: { origin: [x, 3, z + 1], dir: [0, -0.95, -0.31] }, grab: [0, 0.04, 0] });
    for (const [x, z] of [[0.4, 0], [0.2, 0.5], [0.1, 0.6], [-0.4, 0.1], [-0.9, 0], [-1.3, 0], [-1.6, 0.1], [-1.2, 0]]) move(novel, ray(x, z));
    move(novel, { mode: 'free', ...ray(-1.5, 0) });
    move(novel, ray(-1.6, 0));
    // the table, carrying what stands on it, into the chair and the wall, and turned
    for (const [x, z] of [[0.3, 0], [0.8, 0], [1.4, -0.2]]) to(desk, x, z);
    move(desk, { turn: 0.6 });
    // an insert under a pointer, a delete that drops what stood on the table, the check, and undo
    scene.insert({ mesh: chair, ray: { origin: [-1, 2, -1], dir: [0, -1, 0] } });
    scene.delete(desk, 'drop');
    scene.check();
    scene.restore(before);
  } finally {
    scene.dispose();
    for (const m of meshes) m.dispose();
  }
  return { moves, reasons: [...reasons] };
}
