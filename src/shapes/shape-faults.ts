import type { ErrorObject } from 'ajv';
import type { FieldPath } from './words.js';

/** Everything a schema says is off at one place of a body: the sentences are made from these. */
export interface ShapeFault {
  path: FieldPath;
  /** The keyword that failed there (the first by precedence: required, type, then the schema's order). */
  keyword: string;
  error: ErrorObject;
  /** The value at `path`: undefined when it is missing. */
  value: unknown;
  /** The object or array that holds `path` (the body itself for a top-level field). */
  parent: unknown;
}

function decodePointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The path of a JSON pointer, with indexes of arrays as numbers. */
function pathOf(root: unknown, pointer: string): Array<string | number> {
  const path: Array<string | number> = [];
  let node = root;
  for (const segment of decodePointer(pointer)) {
    const step = Array.isArray(node) && /^\d+$/.test(segment) ? Number(segment) : segment;
    path.push(step);
    node = valueAt(node, [step]);
  }
  return path;
}

export function valueAt(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** An error's place: a missing or extra property is the place of that property, not of the object that holds it. */
function errorPath(root: unknown, error: ErrorObject): Array<string | number> {
  const path = pathOf(root, error.instancePath);
  if (error.keyword === 'required') path.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return path;
}

const PRECEDENCE = ['required', 'type'];

function rank(keyword: string): number {
  const i = PRECEDENCE.indexOf(keyword);
  return i === -1 ? PRECEDENCE.length : i;
}

type SchemaNode = { readonly [key: string]: unknown };

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/$defs/result`); other references end the walk. */
function resolve(root: SchemaNode, node: unknown): SchemaNode | undefined {
  if (!isNode(node)) return undefined;
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (!ref.startsWith('#/')) return undefined;
  const target = decodePointer(ref.slice(1)).reduce<unknown>((n, key) => (isNode(n) ? n[key] : undefined), root);
  return resolve(root, target);
}

/**
 * Where a path comes in the schema's own order: fields in the order the schema lists its properties, items by
 * index. Sentences follow this order, so a note reads as the schema does, whatever order ajv reports in.
 */
function orderOf(schema: SchemaNode, path: FieldPath): number[] {
  const order: number[] = [];
  let node = resolve(schema, schema);
  for (const step of path) {
    if (typeof step === 'number') {
      order.push(step);
      node = resolve(schema, node?.items);
      continue;
    }
    const properties = isNode(node?.properties) ? Object.keys(node.properties) : [];
    const i = properties.indexOf(step);
    order.push(i === -1 ? properties.length : i);
    node = i === -1 ? undefined : resolve(schema, (node!.properties as SchemaNode)[step]);
  }
  return order;
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Whether an error, at its place, is the business of the rule at hand. */
export type ErrorFilter = (error: ErrorObject, path: FieldPath) => boolean;

/** ajv's errors that `keep` accepts, as one fault per place, in the schema's order. */
export function faultsOf(errors: readonly ErrorObject[], root: unknown, schema: SchemaNode, keep: ErrorFilter = () => true): ShapeFault[] {
  const byPlace = new Map<string, ShapeFault>();
  for (const error of errors) {
    const path = errorPath(root, error);
    // Filter before grouping: one place may fail in the rule's part of the schema and in another rule's part.
    if (!keep(error, path)) continue;
    const key = JSON.stringify(path);
    const known = byPlace.get(key);
    if (known && rank(known.keyword) <= rank(error.keyword)) continue;
    byPlace.set(key, { path, keyword: error.keyword, error, value: valueAt(root, path), parent: valueAt(root, path.slice(0, -1)) });
  }
  const faults = [...byPlace.values()].map((fault) => ({ fault, order: orderOf(schema, fault.path) }));
  faults.sort((a, b) => compareOrder(a.order, b.order));
  return faults.map(({ fault }) => fault);
}
