// Vite plugin (build side, node): a local copy of the WebXR input profiles for the controller models, so a headset
// loads them from the page's own server and never from a CDN. The page asks for xr-profiles/profilesList.json, then
// a profile.json and a <hand>.glb (three's XRControllerModelFactory, setPath('xr-profiles')).
//
// Not all 40 profiles (98 MB): the Meta controllers a Quest-class headset reports first, and generic-trigger, which
// the model factory falls back to for every other controller. The list the page reads names only these, so another
// device's own profile id is not found and it gets the generic model instead of a failed request.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const PROFILES = ['meta-quest-touch-plus', 'meta-quest-touch-plus-v2', 'meta-quest-touch-pro', 'oculus-touch-v3',
  'oculus-touch-v2', 'generic-trigger'];
const BASE = 'xr-profiles';
const TYPES = { json: 'application/json', glb: 'model/gltf-binary' };

export function controllerProfiles() {
  const require = createRequire(import.meta.url);
  const root = `${dirname(require.resolve('@webxr-input-profiles/assets/package.json'))}/dist/profiles`;
  const full = JSON.parse(readFileSync(`${root}/profilesList.json`, 'utf8'));
  const list = Object.fromEntries(PROFILES.map((id) => {
    if (!full[id]) throw new Error(`controller profiles: ${id} is not in @webxr-input-profiles/assets`);
    return [id, full[id]];
  }));
  // file name under xr-profiles/ -> contents
  const files = new Map([['profilesList.json', () => JSON.stringify(list)]]);
  for (const id of PROFILES) {
    for (const name of readdirSync(`${root}/${id}`)) files.set(`${id}/${name}`, () => readFileSync(`${root}/${id}/${name}`));
  }
  return {
    name: 'snug-controller-profiles',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = new RegExp(`^/${BASE}/([^?]+)`).exec(req.url || '')?.[1];
        if (!name || !files.has(name)) return next();
        res.setHeader('Content-Type', TYPES[name.split('.').pop()] ?? 'application/octet-stream');
        res.end(files.get(name)());
      });
    },
    generateBundle() {
      for (const [name, read] of files) this.emitFile({ type: 'asset', fileName: `${BASE}/${name}`, source: read() });
    },
  };
}
