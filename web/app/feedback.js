// What a drag and an insert show while they happen: the objects blocking a drag turn red (only while they block),
// contact points and normals show in yellow, the objects carried along with the grabbed one (the rest of the
// selection and what stands on them) glow amber, the offer of a piece of furniture the object rests on (or would
// land on) lights up, a vertical guide drops from the dragged object to what is under it (depth), and a ghost
// shows where a free drag or an insert would land.
import {
  BufferAttribute, BufferGeometry, Color, Group, Line, LineBasicMaterial, Mesh, MeshBasicMaterial, MeshStandardMaterial,
  RingGeometry, Vector3,
} from 'three';
import { ContactHelper, SurfaceHelper } from '../helpers.js';

export const BLOCKED = new Color(0xe63946);
const GROUP_GLOW = new Color(0x6b4a00);
const NO_GLOW = new Color(0x000000);
const GUIDE_COLOR = 0xf1faee;

export class Feedback {
  constructor(viewport, placement) {
    this.viewport = viewport;
    this.placement = placement;
    this.contacts = new ContactHelper({ normalLength: 0.3 });
    this.offer = new SurfaceHelper();
    this.offer.name = 'offer highlight';
    this.guide = guideLine();
    viewport.scene.add(this.contacts, this.offer, this.guide);
    this.blockers = [];
    this.group = [];
    this.ghost = null;
    this.offerShown = null; // { id, offer } lit up, or null
    this.last = null;       // the last drag feedback shown (null after clear)
  }

  /**
   * Show a drag's feedback (from the placement seam): { lead, item, mode, blockers, contacts, group, rests,
   * candidate }. A free drag shows the seat it would take (ghost and offer); a constrained one the offer it rests on.
   */
  show(feedback) {
    const { lead = null, item = null, mode = 'constrained', blockers, contacts, group, rests = [], candidate = null } = feedback;
    this.last = lead ? feedback : null;
    this._paint(this.blockers, (o) => o.material.color.copy(o.userData.baseColor));
    this.blockers = blockers.filter((id) => this.placement.object(id)?.userData.baseColor);
    this._paint(this.blockers, (o) => o.material.color.copy(BLOCKED));
    this._paint(this.group, (o) => o.material.emissive.copy(NO_GLOW));
    this.group = group;
    this._paint(this.group, (o) => o.material.emissive.copy(GROUP_GLOW));
    this.contacts.set(contacts);
    const seat = mode === 'free' ? candidate : rests[0];
    this.showOffer(seat?.id ?? null, seat?.offer);
    this.showGhost(item, mode === 'free' && candidate ? candidate.pose : null);
    this._guide(lead);
    this.viewport.requestRender();
  }

  /** Remove every drag mark (the drag ended or was cancelled). */
  clear() {
    this.show({ blockers: [], contacts: [], group: [] });
    this.hideGhost();
  }

  _paint(ids, fn) {
    for (const id of ids) {
      const o = this.placement.object(id);
      if (o) fn(o);
    }
  }

  /**
   * Light up offer `offer` of object `id` (null: none). The room's floor and walls are not lit: they are as big as
   * the room and always there to stand on.
   */
  showOffer(id, offer) {
    const lit = id !== null && this.placement.has(id);
    this.offerShown = lit ? { id, offer } : null;
    this.offer.set(lit ? this.placement.offerPolygon(id, offer) : null);
    this.viewport.requestRender();
  }

  // The vertical guide from the bottom of object `id` down to what is under it (hidden when it rests there).
  _guide(id) {
    const o = id && this.placement.object(id);
    const below = o && this.placement.below(id);
    if (!below || below.from.y - below.to.y < 0.01) {
      this.guide.visible = false;
      return;
    }
    const p = this.guide.line.geometry.attributes.position;
    p.setXYZ(0, below.from.x, below.from.y, below.from.z);
    p.setXYZ(1, below.to.x, below.to.y, below.to.z);
    p.needsUpdate = true;
    this.guide.line.geometry.computeBoundingSphere();
    this.guide.foot.position.copy(below.to).add(new Vector3(0, 0.003, 0));
    this.guide.visible = true;
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
      this.ghost.name = 'ghost';
      this.viewport.scene.add(this.ghost);
    }
    this.ghost.visible = true;
    this.ghost.quaternion.set(pose[0], pose[1], pose[2], pose[3]);
    this.ghost.position.set(pose[4], pose[5], pose[6]);
    this.viewport.requestRender();
  }

  /** Take the ghost and the offer highlight away. */
  hideGhost() {
    this.showOffer(null);
    if (!this.ghost) return;
    this.viewport.scene.remove(this.ghost);
    this.ghost.material.dispose();
    this.ghost = null;
    this.viewport.requestRender();
  }
}

// A vertical line with a ring where it lands, drawn over everything.
function guideLine() {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
  const line = new Line(g, new LineBasicMaterial({ color: GUIDE_COLOR, transparent: true, opacity: 0.8, depthTest: false }));
  const foot = new Mesh(new RingGeometry(0.03, 0.045, 24).rotateX(-Math.PI / 2),
    new MeshBasicMaterial({ color: GUIDE_COLOR, transparent: true, opacity: 0.8, depthTest: false }));
  line.frustumCulled = false;
  line.renderOrder = foot.renderOrder = 11;
  const group = new Group();
  group.name = 'depth guide';
  group.add(line, foot);
  group.line = line;
  group.foot = foot;
  group.visible = false;
  return group;
}
