// The room shell: a floor and four walls, so nothing can be dragged out of the room. A wall between the camera and
// the room is cut down to a low stub for the view (it still blocks), since a room seen from outside is otherwise
// hidden behind its own walls.
import { BoxGeometry, Mesh, MeshStandardMaterial, Vector3 } from 'three';

const THICK = 0.12;
const STUB = 0.08; // height of a cut-down wall

/** Interior of the default room in meters (floor top at y = 0). */
export const INTERIOR = { minX: -4, maxX: 4, minZ: -3, maxZ: 3, height: 2.6 };

// Offer surfaces in ../notes' format (local frame = world frame here: the shell is never moved).
function rect(y, x0, x1, z0, z1) { return [[x0, y, z1], [x1, y, z1], [x1, y, z0], [x0, y, z0]]; }

/** Build the shell and register its parts with the placement seam. Returns { walls, fade(camera) }. */
export function buildRoom(placement, I = INTERIOR) {
  const w = I.maxX - I.minX, d = I.maxZ - I.minZ, h = I.height;
  const cx = (I.minX + I.maxX) / 2, cz = (I.minZ + I.maxZ) / 2;
  const floor = new Mesh(new BoxGeometry(w + 2 * THICK, 0.1, d + 2 * THICK).translate(cx, -0.05, cz),
    new MeshStandardMaterial({ color: 0xb08d6e, roughness: 0.9 }));
  floor.receiveShadow = true;
  floor.name = 'floor';
  placement.addShell('floor', floor, {
    floor: true,
    surfaces: [{ kind: 'offer', label: 'onFloor', normal: [0, 1, 0], polygon: rect(0, I.minX, I.maxX, I.minZ, I.maxZ) }],
  });

  // Each wall: its box, the outward normal of the room side and the wall front polygon (offer onWall, facing in).
  const specs = [
    { id: 'wall-back', size: [w + 2 * THICK, h, THICK], at: [cx, h / 2, I.minZ - THICK / 2], out: [0, 0, -1],
      front: [[I.minX, 0, I.minZ], [I.maxX, 0, I.minZ], [I.maxX, h, I.minZ], [I.minX, h, I.minZ]] },
    { id: 'wall-front', size: [w + 2 * THICK, h, THICK], at: [cx, h / 2, I.maxZ + THICK / 2], out: [0, 0, 1],
      front: [[I.maxX, 0, I.maxZ], [I.minX, 0, I.maxZ], [I.minX, h, I.maxZ], [I.maxX, h, I.maxZ]] },
    { id: 'wall-left', size: [THICK, h, d], at: [I.minX - THICK / 2, h / 2, cz], out: [-1, 0, 0],
      front: [[I.minX, 0, I.maxZ], [I.minX, 0, I.minZ], [I.minX, h, I.minZ], [I.minX, h, I.maxZ]] },
    { id: 'wall-right', size: [THICK, h, d], at: [I.maxX + THICK / 2, h / 2, cz], out: [1, 0, 0],
      front: [[I.maxX, 0, I.minZ], [I.maxX, 0, I.maxZ], [I.maxX, h, I.maxZ], [I.maxX, h, I.minZ]] },
  ];
  const walls = specs.map((s) => {
    const mesh = new Mesh(new BoxGeometry(...s.size).translate(...s.at), new MeshStandardMaterial({ color: 0xe9e4da, roughness: 0.95 }));
    mesh.name = s.id;
    mesh.receiveShadow = true;
    const stub = new Mesh(new BoxGeometry(s.size[0], STUB, s.size[2]).translate(s.at[0], STUB / 2, s.at[2]), mesh.material.clone());
    stub.receiveShadow = true;
    stub.visible = false;
    mesh.add(stub);
    placement.addShell(s.id, mesh, {
      surfaces: [{ kind: 'offer', label: 'onWall', normal: s.out.map((v) => -v), polygon: s.front }],
    });
    // A point on the room side and the outward normal: the camera is behind the wall when it is past that plane.
    return { id: s.id, mesh, stub, inner: new Vector3(...s.at).addScaledVector(new Vector3(...s.out), -THICK / 2), out: new Vector3(...s.out) };
  });

  const _d = new Vector3();
  /** Cut down the walls the camera is behind, and pick through them (before each frame). */
  function fade(camera) {
    for (const wall of walls) {
      const behind = _d.subVectors(camera.position, wall.inner).dot(wall.out) > 0;
      if (wall.stub.visible === behind) continue;
      wall.stub.visible = behind;
      wall.mesh.material.visible = !behind;
      placement.setPickable(wall.id, !behind);
    }
  }
  return { walls: walls.map((x) => x.mesh), fade, interior: I };
}
