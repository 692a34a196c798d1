// The same drag in node, on one and two threads, and a hierarchy built in snug's worker (worker_threads).
import { Snug } from 'snug';
import { dragIntoWall } from './drag.js';

const snug = await Snug.create();
const threaded = await Snug.create({ threads: 2 });
const triangles = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1];
const result = {
  main: dragIntoWall(snug),
  threaded: { threads: threaded.threads, ...dragIntoWall(threaded) },
  builtInWorker: (await snug.buildMeshInWorker({ positions: triangles })).info().triangleCount,
};
threaded.dispose();
snug.dispose();
console.log(JSON.stringify(result));
