// Drag a box 3 units to the right, into a wall: snug stops it where it touches the wall (x = 1.4).
import { BoxGeometry, Mesh } from 'three';
import { SnugSync } from 'snug/three';

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
