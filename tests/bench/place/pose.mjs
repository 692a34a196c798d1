// Rigid poses for the placement benchmark, in double precision: [qx, qy, qz, qw, px, py, pz] as in the snug API
// (world = rotate(q, local) + p). Only what the room, the path and the movers share.

export const identity = () => [0, 0, 0, 1, 0, 0, 0];

/** A pose turned by `yaw` radians about +y, at position p. */
export const yawPose = (yaw, [x, y, z]) => [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2), x, y, z];

/** The angle about +y of an upright pose (rotation about y only). */
export const yawOf = (pose) => 2 * Math.atan2(pose[1], pose[3]);

export function rotate(q, [vx, vy, vz]) {
  const [x, y, z, w] = q;
  const cx = y * vz - z * vy, cy = z * vx - x * vz, cz = x * vy - y * vx;
  const ccx = y * cz - z * cy, ccy = z * cx - x * cz, ccz = x * cy - y * cx;
  return [vx + 2 * (w * cx + ccx), vy + 2 * (w * cy + ccy), vz + 2 * (w * cz + ccz)];
}

export const transformPoint = (pose, v) => {
  const r = rotate(pose, v);
  return [r[0] + pose[4], r[1] + pose[5], r[2] + pose[6]];
};

export function quatMultiply(a, b) {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

/** a then b: the pose of a frame given in a's frame by b (a child's world pose = compose(parent, local)). */
export function compose(a, b) {
  return [...quatMultiply(a, b), ...transformPoint(a, [b[4], b[5], b[6]])];
}

export function inverse(a) {
  const q = [-a[0], -a[1], -a[2], a[3]];
  const p = rotate(q, [a[4], a[5], a[6]]);
  return [...q, -p[0], -p[1], -p[2]];
}

/** The pose turned by `angle` about the vertical axis through `pivot` (world). */
export function turnAbout(pose, pivot, angle) {
  const r = [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)];
  const p = rotate(r, [pose[4] - pivot[0], pose[5] - pivot[1], pose[6] - pivot[2]]);
  return [...quatMultiply(r, pose), p[0] + pivot[0], p[1] + pivot[1], p[2] + pivot[2]];
}

export const translated = (pose, d) => [pose[0], pose[1], pose[2], pose[3], pose[4] + d[0], pose[5] + d[1], pose[6] + d[2]];

/** Signed angle in (-pi, pi]. */
export function wrapAngle(a) {
  const t = a % (2 * Math.PI);
  return t > Math.PI ? t - 2 * Math.PI : t <= -Math.PI ? t + 2 * Math.PI : t;
}

/** World AABB of a local box [lo, hi] at a pose. */
export function worldBox(pose, lo, hi) {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let c = 0; c < 8; c++) {
    const w = transformPoint(pose, [c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]]);
    for (let a = 0; a < 3; a++) { min[a] = Math.min(min[a], w[a]); max[a] = Math.max(max[a], w[a]); }
  }
  return { min, max };
}

export const boxesMeet = (a, b, margin = 0) => a.min[0] <= b.max[0] + margin && b.min[0] <= a.max[0] + margin &&
  a.min[1] <= b.max[1] + margin && b.min[1] <= a.max[1] + margin && a.min[2] <= b.max[2] + margin && b.min[2] <= a.max[2] + margin;
