// Each hand-written .d.ts matches its module: the same exports, and per class the same public methods and
// accessors. A module with types gets one line in MODULES. The JS API's unions of enum names are the C headers'.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as snugApi from '../../wasm/snug.js';
import { STEP_MODES, APPROX } from '../../wasm/internal.js';

const MODULES = [
  ['wasm/snug.d.ts', '../../wasm/snug.js'],
  ['web/snug-three.d.ts', '../../web/snug-three.js'],
  ['web/gltf/placement.d.ts', '../../web/gltf/placement.js'],
];

// Names a .d.ts exports: declared classes, consts and functions, `export { a, b as c } from` lists, and default.
function declaredExports(dts) {
  const names = new Set([...dts.matchAll(/^export (?:declare )?(?:class|const|function) (\w+)/gm)].map((m) => m[1]));
  for (const [, list] of dts.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const item of list.split(',')) if (item.trim()) names.add(item.trim().split(/\s+as\s+/).pop());
  }
  if (/^export default/m.test(dts)) names.add('default');
  return names;
}

for (const [dtsFile, modulePath] of MODULES) {
  const dts = readFileSync(new URL(`../../${dtsFile}`, import.meta.url), 'utf8');
  const api = await import(modulePath);

  test(`${dtsFile}: every export is declared and every declaration is exported`, () => {
    assert.deepEqual([...declaredExports(dts)].sort(), Object.keys(api).sort());
  });

  test(`${dtsFile}: classes: declared methods and accessors exist, public ones are declared`, () => {
    const classes = [...dts.matchAll(/^export class (\w+)[^{]*\{([\s\S]*?)^\}/gm)];
    assert.ok(classes.length > 0, 'no class found: the parser and the file disagree');
    for (const [, name, body] of classes) {
      const cls = api[name];
      assert.equal(typeof cls, 'function', name);
      const methods = new Set([...body.matchAll(/^ {2}(?:static )?(\w+)\(/gm)].map((m) => m[1]).filter((m) => m !== 'constructor'));
      const proto = Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== 'constructor' && !n.startsWith('_'));
      const statics = Object.getOwnPropertyNames(cls).filter((n) => !['length', 'name', 'prototype'].includes(n));
      for (const m of methods) assert.ok(proto.includes(m) || statics.includes(m), `${name}.${m} declared but missing`);
      for (const p of proto) {
        const isGetter = !!Object.getOwnPropertyDescriptor(cls.prototype, p).get;
        if (isGetter) assert.match(body, new RegExp(`^  readonly ${p}[?]?:`, 'm'), `${name}.${p} accessor not declared`);
        else assert.ok(methods.has(p), `${name}.${p} exists but is not declared`);
      }
    }
  });
}

test('declaredExports reads every export form', () => {
  const names = declaredExports('export class A {\n}\nexport const B: 1;\nexport function c(): void;\n' +
    "export { d, e as f } from './x.js';\nexport default A;\ninterface G {}\n");
  assert.deepEqual([...names].sort(), ['A', 'B', 'c', 'd', 'default', 'f']);
});

test('wasm/snug.d.ts: the unions of enum names are the tables generated from the C headers', () => {
  const dts = readFileSync(new URL('../../wasm/snug.d.ts', import.meta.url), 'utf8');
  const tables = {
    StatusName: snugApi.STATUS_NAMES, BvType: snugApi.BV_TYPES, Splitter: snugApi.SPLITTERS, Measure: snugApi.MEASURES,
    Traversal: snugApi.TRAVERSALS, ToiMode: snugApi.TOI_MODES, RootFinder: snugApi.ROOT_FINDERS,
    Feature: snugApi.FEATURES, StepMode: STEP_MODES, Approx: APPROX,
  };
  for (const [type, names] of Object.entries(tables)) {
    const m = new RegExp(`^export type ${type} =([^;]*);`, 'm').exec(dts);
    assert.ok(m, `${type} is declared`);
    assert.deepEqual([...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]), [...names], type);
  }
});
