// The room shell: the catalog's floor and four of its walls around it, so nothing can be dragged out of the room.
// A wall between the camera and the room is cut down to a low stub for the view (it still blocks, and rays pick
// through it), since a room seen from outside is otherwise hidden behind its own walls.
import { BoxGeometry, Mesh, MeshStandardMaterial, Vector3 } from 'three';
import { renderGeometry } from './catalog.js';

const THICK = 0.12;
const STUB = 0.08; // height of a cut-down wall

/** Interior of the default room in meters (floor top at y = 0), centered on the origin. */
export const INTERIOR = { minX: -4, maxX: 4, minZ: -3, maxZ: 3, height: 2.6 };

/**
 * Build the shell from the catalog's 'floor' and 'wall' items and register its parts with the placement seam.
 * Returns { fade(camera) }.
 */
export function buildRoom(placement, catalog, I = INTERIOR) {
  const w = I.maxX - I.minX, d = I.maxZ - I.minZ, h = I.height;
  const shell = (id, item, options, position, turn) => {
    const made = catalog.get(item).make(options);
    const mesh = new Mesh(renderGeometry(made.geometry), new MeshStandardMaterial({ color: made.color, roughness: 0.92 }));
    mesh.name = id;
    mesh.receiveShadow = true;
    mesh.position.copy(position);
    mesh.rotation.y = turn;
    mesh.updateMatrixWorld();
    placement.addShell(id, mesh, { geometry: made.geometry, surfaces: made.surfaces });
    return mesh;
  };
  shell('floor', 'floor', { width: w, depth: d }, new Vector3(0, 0, 0), 0);

  // A catalog wall faces +z; each is turned to face into the room. The back and front walls cover the corners.
  const specs = [
    { id: 'wall-back', width: w + 2 * THICK, at: [0, 0, I.minZ - THICK / 2], turn: 0 },
    { id: 'wall-front', width: w + 2 * THICK, at: [0, 0, I.maxZ + THICK / 2], turn: Math.PI },
    { id: 'wall-left', width: d, at: [I.minX - THICK / 2, 0, 0], turn: Math.PI / 2 },
    { id: 'wall-right', width: d, at: [I.maxX + THICK / 2, 0, 0], turn: -Math.PI / 2 },
  ];
  const walls = specs.map((s) => {
    const mesh = shell(s.id, 'wall', { width: s.width, height: h, thickness: THICK }, new Vector3(...s.at), s.turn);
    const stub = new Mesh(new BoxGeometry(s.width, STUB, THICK).translate(0, STUB / 2, 0), mesh.material.clone());
    stub.receiveShadow = true;
    stub.visible = false;
    mesh.add(stub);
    // The room side of the wall and its outward normal: the camera is behind the wall when it is past that plane.
    const out = new Vector3(0, 0, -1).applyQuaternion(mesh.quaternion);
    return { id: s.id, mesh, stub, out, inner: mesh.position.clone().addScaledVector(out, -THICK / 2) };
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
  return { fade };
}
