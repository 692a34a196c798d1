// The page: the drag into a wall and the one onto a table on the main thread; the drag into the wall on two threads
// (when the page is cross-origin isolated) and in a worker of the app's own; a hierarchy built in snug's worker; a
// box's surfaces found in snug's worker on the tools module.
import { BoxGeometry } from 'three';
import { Snug } from 'snug';
import { dragIntoWall, dragOntoTable } from './drag.js';

const snug = await Snug.create();
const threaded = globalThis.crossOriginIsolated
  ? await Snug.create({ threads: 2, threadedModuleUrl: new URL('snug-mt/snug-mt.mjs', location.href) })
  : null;
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const fine = new BoxGeometry(1, 1, 1, 8, 8, 8).toNonIndexed().getAttribute('position').array;
window.result = {
  main: dragIntoWall(snug),
  threaded: threaded && { threads: threaded.threads, ...dragIntoWall(threaded) },
  worker: await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); }),
  builtInWorker: (await snug.buildMeshInWorker({ positions: fine })).info().triangleCount,
  snapped: dragOntoTable(snug),
  found: await snug.findSurfaces({ positions: fine }),
};
