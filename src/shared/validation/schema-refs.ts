// Walking a bundled form schema (shared definitions copied into its own $defs, so every $ref
// is local): following refs, and reading a keyword from a node or what it refers to.
import type { JsonObject } from './schema-bundle.ts';
export type { JsonObject };

export const isObject = (v: unknown): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

export function resolveLocal(root: JsonObject, ref: string): JsonObject {
  if (!ref.startsWith('#/')) throw new Error(`Only local refs are expected after bundling: ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), root);
  if (!isObject(target)) throw new Error(`Unresolved $ref ${ref}`);
  return target;
}

/** The node and everything it `$ref`s, nearest first. */
export function refChain(root: JsonObject, node: JsonObject): JsonObject[] {
  const chain = [node];
  for (let current = node; typeof current.$ref === 'string'; ) {
    current = resolveLocal(root, current.$ref);
    if (chain.includes(current)) throw new Error(`$ref cycle at ${String(node.$ref)}`);
    chain.push(current);
  }
  return chain;
}

/** The ref chain plus the parts of every `allOf` in it (where a field's rules may sit). */
export function ruleNodes(root: JsonObject, node: JsonObject): JsonObject[] {
  return refChain(root, node).flatMap((n) => [n, ...(Array.isArray(n.allOf) ? n.allOf.filter(isObject).flatMap((part) => ruleNodes(root, part)) : [])]);
}

/** The first value of `keyword` along the node's ref chain (the nearest node wins). */
export function firstOf(root: JsonObject, node: JsonObject, keyword: string): unknown {
  return refChain(root, node).find((n) => n[keyword] !== undefined)?.[keyword];
}

/** The nodes with a pattern that a `not` refuses: its own, what it refers to, each of its anyOf. */
export function refusedPatterns(root: JsonObject, refused: JsonObject): JsonObject[] {
  return refChain(root, refused).flatMap((n) => [
    ...(n.pattern !== undefined ? [n] : []),
    ...(Array.isArray(n.anyOf) ? n.anyOf.filter(isObject).flatMap((part) => refusedPatterns(root, part)) : []),
  ]);
}
