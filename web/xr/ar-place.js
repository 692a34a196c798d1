// AR: put the room on a real surface. Until it is placed, each controller's ray asks the headset's hit test where it
// meets a real plane (a floor, a table), a ring marks the spot, and the trigger stands the room's floor there, its
// far wall ahead of the user (XrOrigin.placeRoomAt). Afterwards the controllers edit the room as in VR.
import { Mesh, MeshBasicMaterial, RingGeometry, Vector3 } from 'three';

export class XrArPlace {
  constructor({ origin, scene }) {
    this.origin = origin;
    this.reticle = new Mesh(new RingGeometry(0.1, 0.13, 40).rotateX(-Math.PI / 2),
      new MeshBasicMaterial({ color: 0xf4d35e, transparent: true, opacity: 0.9 }));
    this.reticle.name = 'ar reticle';
    this.reticle.matrixAutoUpdate = false;
    this.reticle.visible = false;
    scene.add(this.reticle);
    this.active = false;
    this._sources = new Map(); // XRInputSource -> XRHitTestSource
    this.point = null;         // the room point of the last hit (Vector3) or null
  }

  /** A session in AR mode began: the room waits to be placed. */
  begin() {
    this.active = true;
  }

  /** A controller connected: its ray gets a hit-test source. */
  async watch(session, source) {
    if (!this.active || this._sources.has(source)) return;
    this._sources.set(source, null);
    let hits;
    try {
      hits = await session.requestHitTestSource({ space: source.targetRaySpace });
    } catch {
      // No hit test on this headset: the room stays where the session put it, around the user, as in VR.
      this.end();
      return;
    }
    if (this.active) this._sources.set(source, hits);
    else hits.cancel();
  }

  /** One XR frame: the reticle goes where a controller's ray meets a real surface. */
  frame(xrFrame, space) {
    if (!this.active) return;
    this.point = null;
    for (const hits of this._sources.values()) {
      const pose = hits && xrFrame.getHitTestResults(hits)[0]?.getPose(space);
      if (!pose) continue;
      this.reticle.matrix.fromArray(pose.transform.matrix);
      this.point = new Vector3().setFromMatrixPosition(this.reticle.matrix);
      break;
    }
    this.reticle.visible = this.point !== null;
  }

  /** The trigger: stand the room on the marked spot, facing along `ray`. Returns whether it was placed. */
  place(ray) {
    if (!this.point) return false;
    this.origin.placeRoomAt(this.point, ray.direction);
    this.end();
    return true;
  }

  end() {
    this.active = false;
    for (const hits of this._sources.values()) hits?.cancel();
    this._sources.clear();
    this.point = null;
    this.reticle.visible = false;
    this.reticle.matrix.identity();
  }
}
