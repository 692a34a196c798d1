// Types of the SNUG_placement glTF extension's module (web/gltf/placement.js; the format: docs/gltf-extension.md).
// Kept in step with the code by hand and checked against it by tests/js/dts.test.mjs.
import type { Object3D } from 'three';
import type { Body, PlaceDef, Scene } from '../../wasm/snug.js';

export const EXTENSION: 'SNUG_placement';

/** Bad extension data; `path` points into the glTF JSON, e.g. "nodes[3].extensions.SNUG_placement.bindings[0]". */
export class PlacementError extends Error {
  readonly path: string;
}

/** A surface in a node's local frame, its label by name. */
export interface PlacementSurface {
  kind: 'offer' | 'binding';
  label: string;
  normal: number[];
  polygon: number[][];
}

export interface PlacementOrientation {
  /** Unit direction in the node's local frame. */
  local: number[];
  /** Unit direction in the world. */
  world: number[];
}

/** One node's data; T is what names the supporter: an Object3D, or a node index in the raw form. */
export interface NodePlacement<T = Object3D> {
  surfaces: PlacementSurface[];
  orientation: PlacementOrientation | null;
  bindings: { binding: number; supporter: T; offer: number }[];
}

/** The extension as plain data: the loader plugin's result (gltf.userData.snugPlacement), the exporter's input. */
export interface Placement<K = Object3D> {
  labels: string[];
  /** Pairs [lesser, greater] of label names. */
  order: [string, string][];
  settings: PlaceDef | null;
  nodes: Map<K, NodePlacement<K>>;
}

/** The extension's data of a root extension object and the nodes, checked; null when neither uses it. */
export function parsePlacement(rootExt: unknown, nodes?: unknown[]): Placement<number> | null;
/** parsePlacement of a whole glTF JSON, which must list the extension in extensionsUsed (not extensionsRequired). */
export function readPlacementJson(json: object): Placement<number> | null;
/** The root extension object of { labels, order, settings }. */
export function rootJson(placement: Pick<Placement<unknown>, 'labels' | 'order' | 'settings'>): object;
/** A node's extension object; supporterIndex maps a binding's supporter to its node index. */
export function nodeJson<T>(node: NodePlacement<T>, supporterIndex: (supporter: T) => number): object;

/** GLTFExporter plugin: `exporter.register((writer) => new PlacementExporterPlugin(writer, placement))`. */
export class PlacementExporterPlugin {
  constructor(writer: unknown, placement: Placement | null);
  readonly name: 'SNUG_placement';
  afterParse(): void;
}

/** GLTFLoader plugin: `loader.register((parser) => new PlacementLoaderPlugin(parser))`; the result's
 * userData.snugPlacement is a Placement, or undefined for a file without the extension. */
export class PlacementLoaderPlugin {
  constructor(parser: unknown);
  readonly name: 'SNUG_placement';
  beforeRoot(): Promise<void>;
  afterRoot(result: { userData: Record<string, unknown> }): Promise<void>;
}

export interface PlacementSceneOptions {
  /** The scale baked into the object's snug mesh; default worldScale (as web/snug-three.js bakes it). */
  scaleOf?: (object: Object3D) => number[];
}

/** The scene's placement for the objects in `bodies` (objects with nothing to say are left out). */
export function placementFromScene(scene: Scene, bodies: Map<Object3D, Body>, options?: PlacementSceneOptions): Placement;

/** Put a placement on the bodies made for the loaded objects: all of it or nothing (throws naming the objects). */
export function applyPlacement(placement: Placement, scene: Scene, bodies: Map<Object3D, Body>,
  options?: PlacementSceneOptions & { labels?: 'replace' | 'keep' }): void;

/** Node data through a scale (points times s; normals, directions and mirrored windings follow). */
export function scalePlacement<T>(node: NodePlacement<T>, s: number[]): NodePlacement<T>;

/** World scale of an object as Matrix4.decompose reports it (a mirror gives a negative x). */
export function worldScale(object: Object3D): number[];
