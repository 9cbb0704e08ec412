// Valid sample data for a form, derived from its bundled schema: a field's `const`, `default`
// or `examples` where it has them, else the first option of its list, else a string built to
// fit its length limits and patterns. Used by the form review page (/user/_forms, dev only);
// tests check that every form's sample passes the form's own validator.
import { firstOf, isObject, refChain, refusedPatterns, ruleNodes, type JsonObject } from './validation/schema-refs';

export interface SampleOptions {
  /** The option values of each master list, by master name. */
  masters?: Record<string, Array<{ value: string }> | undefined>;
  /** The master a field draws from (x-master on the schema, or the UI schema's ui:options.master). */
  masterOf?: (field: string) => string | undefined;
}

const FILLERS = ['\u3042', 'a', 'A', '1'];

function stringLimits(nodes: JsonObject[]) {
  const numbers = (keyword: string) => nodes.map((n) => n[keyword]).filter((v): v is number => typeof v === 'number');
  const min = Math.max(1, ...numbers('minLength'));
  const max = Math.min(Number.MAX_SAFE_INTEGER, ...numbers('maxLength'));
  return { min, max };
}

/** A string of fitting length that every pattern accepts and no `not` pattern matches. */
function fittingString(root: JsonObject, nodes: JsonObject[]): string | undefined {
  const { min, max } = stringLimits(nodes);
  const patterns = nodes.map((n) => n.pattern).filter((p): p is string => typeof p === 'string').map((p) => new RegExp(p, 'u'));
  const refused = nodes
    .flatMap((n) => (isObject(n.not) ? refusedPatterns(root, n.not) : []))
    .map((n) => n.pattern)
    .filter((p): p is string => typeof p === 'string')
    .map((p) => new RegExp(p, 'u'));
  for (const filler of FILLERS) {
    const text = filler.repeat(Math.min(min, max));
    if (patterns.every((p) => p.test(text)) && !refused.some((p) => p.test(text))) return text;
  }
  return undefined;
}

function fieldValue(root: JsonObject, name: string, node: JsonObject, options: SampleOptions, avoid?: unknown): unknown {
  const nodes = ruleNodes(root, node);
  const constant = firstOf(root, node, 'const');
  if (constant !== undefined) return constant;
  const examples = firstOf(root, node, 'examples');
  const defaultValue = firstOf(root, node, 'default');
  const candidates = [defaultValue, ...(Array.isArray(examples) ? examples : [])].filter((v) => v !== undefined && v !== avoid);
  if (candidates.length > 0) return candidates[0];
  const enumValues = firstOf(root, node, 'enum');
  if (Array.isArray(enumValues) && enumValues.length > 0) return enumValues[0];
  const master = options.masterOf?.(name) ?? (firstOf(root, node, 'x-master') as string | undefined);
  const list = master ? options.masters?.[master] : undefined;
  const type = firstOf(root, node, 'type');
  if (type === 'array') {
    const items = firstOf(root, node, 'items');
    const count = Math.max(1, ...nodes.map((n) => n.minItems).filter((v): v is number => typeof v === 'number'));
    if (list) return list.slice(0, count).map((o) => o.value);
    return isObject(items) ? [fieldValue(root, name, items, options)] : [];
  }
  if (list?.length) return list[0].value;
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return firstOf(root, node, 'minimum') ?? 0;
  const format = firstOf(root, node, 'format');
  if (format === 'email') return 'sample@example.jp';
  if (format === 'date') return '2000-01-01';
  return fittingString(root, nodes);
}

const holds = (condition: JsonObject, data: JsonObject): boolean => {
  const required = Array.isArray(condition.required) ? condition.required.map(String) : [];
  if (required.some((name) => data[name] === undefined)) return false;
  return Object.entries(isObject(condition.properties) ? condition.properties : {}).every(([name, rule]) => {
    if (!isObject(rule) || data[name] === undefined) return true;
    if (rule.const !== undefined) return data[name] === rule.const;
    if (Array.isArray(rule.enum)) return rule.enum.includes(data[name]);
    if (isObject(rule.contains) && rule.contains.const !== undefined) return Array.isArray(data[name]) && (data[name] as unknown[]).includes(rule.contains.const);
    return true;
  });
};

/** Sample data for an object schema: required fields, fields with examples, and the fields a
 *  condition (allOf if/then) requires once the data meets it. */
export function sampleData(root: JsonObject, options: SampleOptions = {}): JsonObject {
  const data: JsonObject = {};
  const fill = (node: JsonObject) => {
    for (const current of refChain(root, node)) {
      const required = new Set(Array.isArray(current.required) ? current.required.map(String) : []);
      const properties = isObject(current.properties) ? current.properties : {};
      for (const [name, sub] of Object.entries(properties)) {
        if (!isObject(sub) || data[name] !== undefined) continue;
        if (!required.has(name) && firstOf(root, sub, 'examples') === undefined) continue;
        const other = firstOf(root, sub, 'differentFrom');
        const value = fieldValue(root, name, sub, options, typeof other === 'string' ? data[other] : undefined);
        if (value !== undefined) data[name] = value;
      }
      for (const [name, sub] of Object.entries(properties)) {
        const same = isObject(sub) ? firstOf(root, sub, 'sameAs') : undefined;
        if (typeof same === 'string') data[name] = data[same];
      }
      for (const part of Array.isArray(current.allOf) ? current.allOf : []) {
        if (!isObject(part)) continue;
        if (isObject(part.if) && isObject(part.then) && holds(part.if, data)) fill(part.then);
        else if (!isObject(part.if)) fill(part);
      }
    }
  };
  fill(root);
  return data;
}
