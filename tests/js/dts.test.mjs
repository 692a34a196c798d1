// wasm/snug.d.ts matches the code: the same exports, per class the same public methods and accessors, and the enum
// names of the C headers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from '../../wasm/snug.js';
import { STEP_MODES, APPROX } from '../../wasm/internal.js';

const dts = readFileSync(new URL('../../wasm/snug.d.ts', import.meta.url), 'utf8');

test('every export is declared and every declaration is exported', () => {
  const declared = new Set([...dts.matchAll(/^export (?:declare )?(?:class|const|function) (\w+)/gm)].map((m) => m[1]));
  if (/^export default/m.test(dts)) declared.add('default');
  assert.deepEqual([...declared].sort(), Object.keys(api).sort());
});

test('classes: declared methods and accessors exist, public ones are declared', () => {
  for (const [, name, body] of dts.matchAll(/^export class (\w+)[^{]*\{([\s\S]*?)^\}/gm)) {
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

test('the unions of enum names are the tables generated from the C headers', () => {
  const tables = {
    StatusName: api.STATUS_NAMES, BvType: api.BV_TYPES, Splitter: api.SPLITTERS, Measure: api.MEASURES,
    Traversal: api.TRAVERSALS, ToiMode: api.TOI_MODES, RootFinder: api.ROOT_FINDERS, Feature: api.FEATURES,
    StepMode: STEP_MODES, Approx: APPROX,
  };
  for (const [type, names] of Object.entries(tables)) {
    const m = new RegExp(`^export type ${type} =([^;]*);`, 'm').exec(dts);
    assert.ok(m, `${type} is declared`);
    assert.deepEqual([...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]), [...names], type);
  }
});
