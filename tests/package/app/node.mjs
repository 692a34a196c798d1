// The same drags in node, on one and two threads, hierarchies built in snug's worker (worker_threads): one it
// starts itself, and one the app starts from the package's snug/worker and reuses; and a box's surfaces found in
// snug's worker on the tools module.
import { Worker } from 'node:worker_threads';
import { BoxGeometry } from 'three';
import { Snug } from 'snug';
import { EXTENSION, PlacementExporterPlugin } from 'snug/gltf';
import { dragIntoWall, dragOntoTable } from './drag.js';

const snug = await Snug.create();
const threaded = await Snug.create({ threads: 2 });
const triangles = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1];
const worker = new Worker(new URL(import.meta.resolve('snug/worker')));
const result = {
  main: dragIntoWall(snug),
  snapped: dragOntoTable(snug),
  gltf: [EXTENSION, typeof PlacementExporterPlugin],
  threaded: { threads: threaded.threads, ...dragIntoWall(threaded) },
  builtInWorker: (await snug.buildMeshInWorker({ positions: triangles })).info().triangleCount,
  builtInOwnWorker: [
    (await snug.buildMeshInWorker({ positions: triangles }, { worker })).info().triangleCount,
    (await snug.buildMeshInWorker({ positions: triangles.slice(0, 9) }, { worker })).info().triangleCount,
  ],
  found: await snug.findSurfaces({ positions: new BoxGeometry(1, 1, 1, 8, 8, 8).toNonIndexed().getAttribute('position').array }),
};
await worker.terminate();
threaded.dispose();
snug.dispose();
console.log(JSON.stringify(result));
