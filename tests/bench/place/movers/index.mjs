// The movers the placement benchmark compares, the anchor first (the others' ratios are to it). A mover is
// { name, anchor?, async create() -> { setup(room), event(e) -> { pose, blocked, moved? }, dispose() } }:
// setup gets the room (bodies with kind, geometry, arrays, surfaces, upright, world pose, parent, local pose,
// isStatic); event gets { body, gesture, target (world pose), ray, grab } and returns the dragged body's world pose
// after the event and whether anything stopped it (moved: [[body, pose], ...] for other bodies it moved).
import anchor from './three-mesh-bvh.mjs';
import snugDrag from './snug-drag.mjs';

export const MOVERS = [anchor, snugDrag];
