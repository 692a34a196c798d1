// Work off the main thread, in a module worker (browser Web Worker or node worker_threads):
//  - build: creates the mesh in its own snug context, serializes it and posts the blob back (transferred, not
//    copied); the main thread loads it with snug.meshFromBlob() without rebuilding. Started by
//    Snug.buildMeshInWorker().
//  - find: finds a mesh's surfaces on the tools module (the plain module leaves the finder out) and posts them back.
//    Started by Snug.findSurfaces().
//
// Messages in:  { id, type: 'build', positions, indices, def, wasmUrl? }
//               { id, type: 'find', blob | positions + indices + def, find (the finder's def), wasmUrl? }
// Messages out: { id, type: 'progress', stage, fraction } (build: load, build, serialize, done; find: load, mesh,
//               find, done)
//               { id, type: 'done', blob, info } (build) | { id, type: 'done', surfaces } (find)
//               { id, type: 'error', status, message }
import { Snug, SnugError } from './snug.js';

// The message port: the worker's own scope in a browser, worker_threads' parentPort in node. No top-level await here:
// bundlers build workers as classic scripts unless told otherwise (Vite's default worker.format is 'iife'), and a
// classic script cannot have one.
const WORKER_THREADS = 'node:worker_threads'; // a variable keeps bundlers from resolving a node module for the web
const portReady = typeof self !== 'undefined' && typeof self.postMessage === 'function'
  ? Promise.resolve(self)
  : import(/* @vite-ignore */ WORKER_THREADS).then(({ parentPort }) => ({
    postMessage: (m, transfer) => parentPort.postMessage(m, transfer),
    set onmessage(fn) { parentPort.on('message', (data) => fn({ data })); },
  }));

// One context per module, loaded by the first job that needs it.
const contexts = { plain: null, tools: null };
function context(tools, wasmUrl) {
  const key = tools ? 'tools' : 'plain';
  if (!contexts[key]) contexts[key] = Snug.create({ tools, ...(wasmUrl ? { locateFile: () => wasmUrl } : {}) });
  return contexts[key];
}

async function build(port, { id, positions, indices, def = {}, wasmUrl }) {
  const progress = (stage, fraction) => port.postMessage({ id, type: 'progress', stage, fraction });
  progress('load', 0);
  const snug = await context(false, wasmUrl);
  progress('build', 0.1);
  const mesh = snug.createMesh({ ...def, positions, indices });
  try {
    progress('serialize', 0.9);
    const blob = mesh.serialize();
    const info = mesh.info();
    progress('done', 1);
    port.postMessage({ id, type: 'done', blob, info }, [blob.buffer]);
  } finally {
    mesh.dispose();
  }
}

async function find(port, { id, blob, positions, indices, def = {}, find: findDef = {}, wasmUrl }) {
  const progress = (stage, fraction) => port.postMessage({ id, type: 'progress', stage, fraction });
  progress('load', 0);
  const snug = await context(true, wasmUrl);
  progress('mesh', 0.1);
  const mesh = blob ? snug.meshFromBlob(blob) : snug.createMesh({ ...def, positions, indices });
  try {
    progress('find', 0.5);
    const surfaces = mesh.findSurfaces(findDef);
    progress('done', 1);
    port.postMessage({ id, type: 'done', surfaces });
  } finally {
    mesh.dispose();
  }
}

const JOBS = { build, find };

portReady.then((port) => {
  port.onmessage = (e) => {
    const msg = e.data;
    const job = msg && Object.hasOwn(JOBS, msg.type) && JOBS[msg.type];
    if (!job) return;
    job(port, msg).catch((err) => {
      port.postMessage({
        id: msg.id, type: 'error', status: err instanceof SnugError ? err.status : 'Error', code: err.code ?? -1,
        message: err.message,
      });
    });
  };
});
