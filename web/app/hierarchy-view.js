// The collision hierarchy of an object, level by level (key H, a view for the curious and for debugging): the
// boxes the core's tree holds, read from its serialized mesh, drawn at the object's pose.
import { hierarchyFromBlob, HierarchyHelper } from '../helpers.js';
import { matrixFromPose } from '../snug-three.js';

export class HierarchyView {
  constructor(viewport, placement) {
    Object.assign(this, { viewport, placement });
    this.helper = null;
    this.id = null;
    this.level = -1;
    placement.addEventListener('change', (e) => {
      if (!this.helper || !e.ids.includes(this.id)) return;
      if (e.kind === 'remove') this._drop();
      else this._follow();
    });
  }

  /** Show the next level of object `id`'s hierarchy (the first level for another object; after the last, none). */
  step(id) {
    if (id !== this.id) this._drop();
    this.id = id;
    if (!this.helper) {
      const { boxes, levels } = hierarchyFromBlob(this.placement.hierarchyBlob(id));
      this.helper = new HierarchyHelper(boxes, levels);
      this.helper.matrixAutoUpdate = false;
      this.viewport.scene.add(this.helper);
    }
    this.level = this.level + 1 >= this.helper.levels.length ? -1 : this.level + 1;
    this.helper.showLevel(this.level);
    this._follow();
  }

  _follow() {
    this.helper.matrix.copy(matrixFromPose(this.placement.poseOf(this.id)));
    this.helper.matrixWorldNeedsUpdate = true;
    this.viewport.requestRender();
  }

  _drop() {
    if (this.helper) this.viewport.scene.remove(this.helper);
    this.helper = null;
    this.level = -1;
    this.viewport.requestRender();
  }
}
