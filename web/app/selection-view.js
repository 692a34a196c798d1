// The selection outline: corner brackets of each selected object's box, drawn over everything and carried by
// the object. It is a different mark from the drag feedback's tints (red for blockers, amber for a group moved
// along), which IConS's users could not tell apart from the selection when both were tints.
import { BufferAttribute, BufferGeometry, LineBasicMaterial, LineSegments, Vector3 } from 'three';

const MATERIAL = new LineBasicMaterial({ color: 0x4cc9f0, depthTest: false, transparent: true });

function brackets(box) {
  const pad = box.getSize(new Vector3()).multiplyScalar(0.03).addScalar(0.01);
  const min = box.min.clone().sub(pad), max = box.max.clone().add(pad);
  const len = max.clone().sub(min).multiplyScalar(0.25);
  const pts = [];
  for (let c = 0; c < 8; c++) {
    const x = c & 1 ? max.x : min.x, y = c & 2 ? max.y : min.y, z = c & 4 ? max.z : min.z;
    const sx = c & 1 ? -1 : 1, sy = c & 2 ? -1 : 1, sz = c & 4 ? -1 : 1;
    pts.push(x, y, z, x + sx * len.x, y, z, x, y, z, x, y + sy * len.y, z, x, y, z, x, y, z + sz * len.z);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(pts), 3));
  return g;
}

export class SelectionView {
  constructor(viewport, placement, selection) {
    this._marks = new Map(); // id -> LineSegments
    selection.addEventListener('change', ({ ids }) => {
      for (const [id, mark] of this._marks) {
        if (ids.includes(id)) continue;
        mark.removeFromParent();
        mark.geometry.dispose();
        this._marks.delete(id);
      }
      for (const id of ids) {
        if (this._marks.has(id)) continue;
        const object = placement.object(id);
        if (!object.geometry.boundingBox) object.geometry.computeBoundingBox();
        const mark = new LineSegments(brackets(object.geometry.boundingBox), MATERIAL);
        mark.name = 'selection';
        mark.renderOrder = 20;
        object.add(mark);
        this._marks.set(id, mark);
      }
      viewport.requestRender();
    });
  }
}
