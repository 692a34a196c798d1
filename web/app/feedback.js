// What a drag and an insert show while they happen: the objects blocking a drag turn red (only while they block),
// contact points and normals show in yellow, the objects carried along with the grabbed one (the rest of the
// selection; with the core, also what stands on them) glow amber, and an insert shows a ghost of the object where
// it would land.
import { Color, Mesh, MeshStandardMaterial } from 'three';
import { ContactHelper } from '../helpers.js';

export const BLOCKED = new Color(0xe63946);
const GROUP_GLOW = new Color(0x6b4a00);
const NO_GLOW = new Color(0x000000);

export class Feedback {
  constructor(viewport, placement) {
    this.viewport = viewport;
    this.placement = placement;
    this.contacts = new ContactHelper({ normalLength: 0.3 });
    viewport.scene.add(this.contacts);
    this.blockers = [];
    this.group = [];
    this.ghost = null;
  }

  /** Show a drag's feedback ({ blockers, contacts, group } from the placement seam). */
  show({ blockers, contacts, group }) {
    this._paint(this.blockers, (o) => o.material.color.copy(o.userData.baseColor));
    this.blockers = blockers.filter((id) => this.placement.object(id)?.userData.baseColor);
    this._paint(this.blockers, (o) => o.material.color.copy(BLOCKED));
    this._paint(this.group, (o) => o.material.emissive.copy(NO_GLOW));
    this.group = group;
    this._paint(this.group, (o) => o.material.emissive.copy(GROUP_GLOW));
    this.contacts.set(contacts);
    this.viewport.requestRender();
  }

  /** Remove every drag mark (the drag ended or was cancelled). */
  clear() { this.show({ blockers: [], contacts: [], group: [] }); }

  _paint(ids, fn) {
    for (const id of ids) {
      const o = this.placement.object(id);
      if (o) fn(o);
    }
  }

  /** Show the ghost of catalog `item` at `pose`, or hide it (pose null). */
  showGhost(item, pose) {
    if (!pose) {
      if (this.ghost) this.ghost.visible = false;
      this.viewport.requestRender();
      return;
    }
    const proto = this.placement.catalog.prototype(item);
    if (!this.ghost || this.ghost.userData.item !== item) {
      this.hideGhost();
      this.ghost = new Mesh(proto.renderGeometry, new MeshStandardMaterial({ color: proto.color, transparent: true, opacity: 0.55, depthWrite: false }));
      this.ghost.userData.item = item;
      this.ghost.name = 'insert ghost';
      this.viewport.scene.add(this.ghost);
    }
    this.ghost.visible = true;
    this.ghost.quaternion.set(pose[0], pose[1], pose[2], pose[3]);
    this.ghost.position.set(pose[4], pose[5], pose[6]);
    this.viewport.requestRender();
  }

  hideGhost() {
    if (!this.ghost) return;
    this.viewport.scene.remove(this.ghost);
    this.ghost.material.dispose();
    this.ghost = null;
    this.viewport.requestRender();
  }
}
