// The movers the placement benchmark compares, the anchor first (the others' ratios are to it). A mover is
// { name, anchor?, async create() -> { setup(room) -> settled?, event(e) -> { pose, blocked, moved?, violations? },
// dispose() } }: setup gets the room (bodies with kind, geometry, arrays, surfaces, upright, world pose, parent,
// local pose, isStatic, on: what it stands on) and may return [[body, pose], ...] for bodies it moved before the
// path (settled onto their offers); event gets { body, gesture, target (world pose), ray, grab } and returns the
// dragged body's world pose after the event and whether anything stopped it (moved: [[body, pose], ...] for other
// bodies it moved; violations(): the count of the mover's own consistency check, read outside the timing).
import anchor from './three-mesh-bvh.mjs';
import snugCore from './snug-core.mjs';

export const MOVERS = [anchor, snugCore];
