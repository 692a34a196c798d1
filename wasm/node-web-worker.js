// The Web Worker API in node, just enough for Emscripten's pthread workers (the threaded module, snug-mt, is built
// for web and worker: its glue calls `new Worker(url)` and its worker script uses `self.onmessage` and
// `postMessage`). Node has worker_threads instead; this file is both sides of the bridge:
//  - main side (installNodeWorker): globalThis.Worker becomes a class over node's Worker with onmessage, onerror,
//    postMessage and terminate, which starts this same file as the worker;
//  - worker side (this file run by worker_threads): it makes the worker look like a Web Worker (self, postMessage),
//    queues the messages that arrive before the worker script has set self.onmessage, then imports the script.
// Only snug.js installs it, only in node and only when it loads the threaded module.

const WORKER_THREADS = 'node:worker_threads'; // a variable keeps bundlers from resolving a node module for the web

/** Set globalThis.Worker (node only) unless one exists; returns the set of live node workers (tests watch it). */
export async function installNodeWorker() {
  if (typeof globalThis.Worker === 'function') return live;
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ WORKER_THREADS);
  globalThis.Worker = class Worker {
    constructor(url) {
      this.onmessage = null;
      this.onerror = null;
      const script = String(url instanceof URL ? url.href : url);
      this._w = new NodeWorker(new URL(import.meta.url), { workerData: { snugWorkerScript: script } });
      live.add(this._w);
      this._w.on('exit', () => live.delete(this._w));
      this._w.on('message', (data) => { if (this.onmessage) this.onmessage({ data }); });
      // Emscripten's onerror reads filename, lineno and message of a browser ErrorEvent.
      this._w.on('error', (e) => {
        if (this.onerror) this.onerror({ message: e && e.message, filename: script, lineno: 0, error: e });
        else throw e;
      });
    }
    postMessage(message, transfer) { this._w.postMessage(message, transfer); }
    terminate() { return this._w.terminate(); }
  };
  return live;
}

const live = new Set();

// Worker side: runs when worker_threads starts this file with a script to host.
async function hostWorkerScript() {
  if (typeof process === 'undefined' || !process.versions || !process.versions.node) return;
  const { isMainThread, parentPort, workerData } = await import(/* @vite-ignore */ WORKER_THREADS);
  if (isMainThread || !workerData || !workerData.snugWorkerScript) return;
  globalThis.self = globalThis;
  globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
  // The main thread posts 'load' right away; the script sets self.onmessage only once it has been imported.
  const queued = [];
  parentPort.on('message', (data) => {
    if (typeof globalThis.onmessage === 'function' && queued.length === 0) globalThis.onmessage({ data });
    else queued.push(data);
  });
  await import(workerData.snugWorkerScript);
  while (queued.length && typeof globalThis.onmessage === 'function') globalThis.onmessage({ data: queued.shift() });
}

await hostWorkerScript();
