// Drag a box 3 units to the right, into a wall: snug stops it where it touches the wall (x = 1.4).
// Then drag a book from the floor's edge over a table: it snaps onto the table top (y = 0.75) and is bound there.
import { BoxGeometry, Mesh, Ray, Vector3 } from 'three';
import { SnugSync, SnugDrag } from 'snug/three';

export function dragIntoWall(snug) {
  const sync = new SnugSync(snug, { scene: true });
  const box = sync.add(new Mesh(new BoxGeometry(1, 1, 1)));
  const wall = new Mesh(new BoxGeometry(0.2, 3, 3));
  wall.position.x = 2;
  const blocker = sync.add(wall, { isStatic: true });
  const r = snug.sweep(box.mesh, box.pose, [3, 0, 0], blocker.mesh, blocker.pose);
  const result = { blocked: r.hit, stoppedAt: r.t * 3 };
  sync.dispose();
  return result;
}

// Surfaces of a box standing on y = 0: a resting polygon under it, an offer on its top (counter-clockwise from above).
const square = (s, y) => [[-s, y, -s], [-s, y, s], [s, y, s], [s, y, -s]];
const surfaces = (s, h, rests, offers) => [
  ...(rests ? [{ kind: 'binding', label: rests, normal: [0, 1, 0], polygon: square(s, 0) }] : []),
  ...(offers ? [{ kind: 'offer', label: offers, normal: [0, 1, 0], polygon: square(s, h) }] : []),
];

// A book on one table, dragged with the pointer over the other: it re-seats onto that table's top, bound to it.
export function dragOntoTable(snug) {
  const sync = new SnugSync(snug);
  const add = (s, h, x, rests, offers, on) => {
    const m = new Mesh(new BoxGeometry(2 * s, h, 2 * s).translate(0, h / 2, 0));
    m.position.set(x, rests ? 0 : -h, 0); // the floor's top at y = 0
    const e = sync.add(m, { surfaces: surfaces(s, h, rests, offers), isStatic: !rests, upright: true });
    if (on) e.body.bind(0, on.body, on === floor ? 0 : 1);
    return e;
  };
  const floor = add(4, 0.02, 0, null, 'onFloor');
  const tableA = add(0.5, 0.75, -1, 'onFloor', 'onWorkspace', floor);
  const tableB = add(0.5, 0.75, 1, 'onFloor', 'onWorkspace', floor);
  const book = add(0.1, 0.04, -1, 'onStore', null, tableA);
  sync.push();
  const drag = new SnugDrag(sync, book.object, [-1, 0.79, 0]);
  let f = null;
  for (let x = -0.95; x <= 1.0; x += 0.05) f = drag.move(new Ray(new Vector3(x, 3, 0), new Vector3(0, -1, 0)));
  drag.release();
  const result = {
    reasons: f.reasons,
    onTableB: book.body.bindings()[0]?.supporter === tableB.body,
    y: Math.round(book.object.position.y * 1e6) / 1e6,
    violations: sync.scene.check().length,
  };
  sync.dispose();
  return result;
}
