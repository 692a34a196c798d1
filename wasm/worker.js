// Hierarchy build off the main thread: a module worker (browser Web Worker or node worker_threads) that creates
// the mesh in its own snug context, serializes it and posts the blob back (transferred, not copied); the main
// thread loads it with snug.meshFromBlob() without rebuilding. Started by Snug.buildMeshInWorker().
//
// Messages in:  { id, type: 'build', positions, indices, def, wasmUrl? }
// Messages out: { id, type: 'progress', stage: 'load'|'build'|'serialize'|'done', fraction }
//               { id, type: 'done', blob, info }  |  { id, type: 'error', status, message }
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

let snugPromise = null;

async function build(port, { id, positions, indices, def = {}, wasmUrl }) {
  const progress = (stage, fraction) => port.postMessage({ id, type: 'progress', stage, fraction });
  progress('load', 0);
  if (!snugPromise) snugPromise = Snug.create(wasmUrl ? { locateFile: () => wasmUrl } : {});
  const snug = await snugPromise;
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

portReady.then((port) => {
  port.onmessage = (e) => {
    const msg = e.data;
    if (!msg || msg.type !== 'build') return;
    build(port, msg).catch((err) => {
      port.postMessage({
        id: msg.id, type: 'error', status: err instanceof SnugError ? err.status : 'Error', code: err.code ?? -1,
        message: err.message,
      });
    });
  };
});
