// Teleport, the only way the view moves besides the user's own head: push a thumbstick forward and point at the bare
// floor (the core's pick: the floor and nothing standing on it), a ring marks the spot; let the stick go and the
// user stands there (XrOrigin.moveUserTo). Pointing anywhere else marks nothing and letting go does nothing.
import { Mesh, MeshBasicMaterial, RingGeometry } from 'three';

export class XrTeleport {
  constructor({ placement, origin, scene }) {
    Object.assign(this, { placement, origin });
    this.marker = new Mesh(new RingGeometry(0.18, 0.24, 40).rotateX(-Math.PI / 2),
      new MeshBasicMaterial({ color: 0x4cc9f0, transparent: true, opacity: 0.85 }));
    this.marker.name = 'teleport marker';
    this.marker.visible = false;
    scene.add(this.marker);
    this.target = null;  // the floor point aimed at (Vector3), or null
  }

  /** Aim along `ray`; returns the distance to the floor point, or null. */
  aim(ray) {
    const hit = this.placement.pick(ray);
    this.target = hit && hit.id === 'floor' ? hit.point : null;
    this.marker.visible = this.target !== null;
    if (this.target) this.marker.position.copy(this.target).setY(this.target.y + 0.005);
    return this.target ? ray.origin.distanceTo(this.target) : null;
  }

  /** Go to the aimed point (the user's head at `head`, a room point); returns whether the user moved. */
  go(head) {
    const to = this.target;
    this.cancel();
    if (!to) return false;
    this.origin.moveUserTo(to, head);
    return true;
  }

  cancel() {
    this.target = null;
    this.marker.visible = false;
  }
}
