// Data generated from a form's schema: a valid sample (from each field's examples, default,
// option list or limits) and, per field, the boundary cases its rules imply (n and n+1 for every
// length and count limit, each example and counter-example, the field missing). Tests built on
// these follow a product owner's JSON edit by themselves.
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import { choiceBringing, masterOf } from '../../src/shared/validation/conditions';
import { normalise, withoutEmpty } from '../../src/shared/normalise';

export type Masters = Record<string, Array<{ value: string; label: string }>>;
/** Field errors for data, as one side shows them. */
export type Judge = (data: Record<string, unknown>) => Record<string, string[]>;

/** `n` characters of Japanese text (code points, as the schema counts them). */
export const jp = (n: number) => Array.from({ length: n }, (_, i) => 'あいうえおかきくけこ二地域居住応援'[i % 17]).join('');

/** Candidate texts of exactly `n` characters, for fields of different kinds. */
function texts(n: number): string[] {
  return [jp(n), 'A'.repeat(n), `0${'1'.repeat(Math.max(0, n - 1))}`, `${'a'.repeat(Math.max(1, n - 12))}@example.com`, 'a'.repeat(n)];
}

export interface FieldCase {
  label: string;
  field: string;
  data: Record<string, unknown>;
  /** true: the field shows no error; false: it shows at least one (`keyword`'s, if named). */
  valid: boolean;
  keyword?: string;
}

export class FormSamples {
  readonly fields: Record<string, JsonObject>;
  readonly bringing: Record<string, { field: string; value: unknown }>;

  constructor(
    readonly schema: JsonObject,
    readonly masters: Masters,
    private readonly judge: Judge,
  ) {
    this.fields = fieldNodes(schema);
    this.bringing = choiceBringing(schema);
  }

  private optionValues(node: JsonObject): string[] {
    const master = masterOf(this.schema, node);
    return master ? (this.masters[master] ?? []).map((o) => o.value) : [];
  }

  /** The values of the option list the field draws from ([] when it has none). */
  options(name: string): string[] {
    return this.optionValues(this.fields[name]);
  }

  /** A value of `node` that the field accepts, or undefined when none is found; `preferred`
   *  first when the field accepts it (and its list still offers it). */
  valueFor(name: string, data: Record<string, unknown>, preferred?: unknown): unknown {
    const node = this.fields[name];
    const candidates: unknown[] = [preferred];
    if ('const' in node) candidates.push(node.const);
    if (node.default !== undefined) candidates.push(node.default);
    for (const example of (node.examples as unknown[] | undefined) ?? []) candidates.push(example);
    const options = this.optionValues(node);
    if (node.type === 'array') candidates.push(options.slice(0, Math.max(1, (node.minItems as number | undefined) ?? 1)));
    else if (options.length) candidates.push(...options);
    if (Array.isArray(node.enum)) candidates.push(...node.enum);
    if (node.type === 'boolean') candidates.push(true);
    if (node.format === 'date') candidates.push('1990-01-01');
    if (typeof node.sameAs === 'string') candidates.push(data[node.sameAs]);
    if (node.type === 'string' || node.type === undefined) candidates.push(...texts(Math.max(1, (node.minLength as number | undefined) ?? 1, Math.min(20, (node.maxLength as number | undefined) ?? 20))));
    // A value must be one the field's list offers (the server refuses any other: MASTER_UNKNOWN).
    const offered = (value: unknown) => options.length === 0 || (Array.isArray(value) ? value.every((v) => options.includes(String(v))) : options.includes(String(value)));
    return candidates.find((value) => value !== undefined && offered(value) && !this.judge({ ...data, [name]: value })[name]);
  }

  /** A valid sample: every field the form requires (and every field with a default), then every
   *  field the form still asks for once those are there (a field a condition requires: a
   *  prefecture asked only of employees). `preferred` values are taken where the field accepts
   *  them and its list offers them, so a test's data reads like a member's without restating a
   *  rule: whatever the schema no longer accepts is replaced by what it does. */
  valid(preferred: Record<string, unknown> = {}): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    const required = new Set((this.schema.required as string[] | undefined) ?? []);
    const own = Object.keys((this.schema.properties as JsonObject | undefined) ?? {});
    // A confirmation (sameAs) last, once what it confirms is there.
    const order = own.filter((n) => required.has(n) || this.fields[n].default !== undefined || n in preferred).sort((a, b) => Number('sameAs' in this.fields[a]) - Number('sameAs' in this.fields[b]));
    for (const name of order) {
      // An optional field is given only as preferred, and only when the field accepts that.
      const optional = !required.has(name) && this.fields[name].default === undefined;
      const value = optional ? [preferred[name]].find((v) => v !== undefined && !this.judge({ ...data, [name]: v })[name]) : this.valueFor(name, data, preferred[name]);
      if (value !== undefined) data[name] = value;
    }
    return this.complete(data, preferred);
  }

  /** `data` with every field the form asks for and `data` lacks filled in (a field that a choice
   *  in `data` brings in and requires: the 「その他」 text when "other" is chosen). */
  complete(given: Record<string, unknown>, preferred: Record<string, unknown> = {}): Record<string, unknown> {
    const data = { ...given };
    for (let round = 0; round < 5; round += 1) {
      const missing = Object.keys(this.judge(data)).filter((name) => name in this.fields && data[name] === undefined);
      let filled = false;
      for (const name of missing) {
        const value = this.valueFor(name, data, preferred[name]);
        if (value !== undefined) [data[name], filled] = [value, true];
      }
      if (!filled) break;
    }
    return data;
  }

  /** What keeps `valid()` from being valid, in words a product owner can act on (empty when
   *  it is valid): the fields no value could be made for from their rules. */
  problems(form: string, labelOf: (field: string) => string = (f) => String(this.fields[f]?.title ?? f)): string[] {
    const errors = this.judge(this.valid());
    return Object.entries(errors).map(
      ([field, messages]) =>
        `${form}: the tests could not make a valid 「${labelOf(field)}」 (${field}) from its rules (the form says: ${messages.join(' / ')}). ` +
        `Give the field an "examples" entry the rules accept (schemas/shared/fields.json or the form's schema), or loosen the rule.`,
    );
  }

  /** The sample with the condition that brings `field` in made true (purpose_other: "other" chosen). */
  withField(field: string, base: Record<string, unknown>): Record<string, unknown> {
    const choice = this.bringing[field];
    if (!choice) return base;
    const current = base[choice.field];
    const value = Array.isArray(current) ? [...current.filter((v) => v !== choice.value), choice.value] : choice.value;
    const data = { ...base, [choice.field]: value };
    const filled = this.valueFor(field, data);
    return filled === undefined ? data : { ...data, [field]: filled };
  }

  /** A text of exactly `n` characters, of the kind the field takes at a length it accepts
   *  (`validLength`), so that only the length can make it fail (or undefined). */
  private textOf(name: string, n: number, validLength: number, data: Record<string, unknown>): string | undefined {
    const kind = texts(validLength).findIndex((value) => [...value].length === validLength && !this.judge({ ...data, [name]: value })[name]);
    if (kind < 0) return undefined;
    const text = texts(n)[kind];
    return [...text].length === n ? text : undefined;
  }

  /** Every boundary case of every field. */
  cases(): FieldCase[] {
    const base = this.valid();
    const out: FieldCase[] = [];
    for (const [name, node] of Object.entries(this.fields)) {
      const data = this.withField(name, base);
      const required = ((this.schema.required as string[] | undefined) ?? []).includes(name);
      if (required) {
        const { [name]: _dropped, ...without } = data;
        out.push({ label: `${name} missing`, field: name, data: without, valid: false, keyword: 'required' });
      }
      // A confirmation follows what it confirms: only its absence is its own case.
      if ('sameAs' in node) continue;
      const { minLength, maxLength, minItems, maxItems } = node as Record<string, number | undefined>;
      if (typeof maxLength === 'number' && maxLength > 0) {
        for (const [n, valid] of [[maxLength, true], [maxLength + 1, false]] as const) {
          const text = this.textOf(name, n, maxLength, data);
          if (text !== undefined) out.push({ label: `${name} of ${n} characters`, field: name, data: { ...data, [name]: text }, valid, keyword: valid ? undefined : 'maxLength' });
        }
      }
      if (typeof minLength === 'number' && minLength > 1) {
        for (const [n, valid] of [[minLength - 1, false], [minLength, true]] as const) {
          const text = this.textOf(name, n, minLength, data);
          if (text !== undefined) out.push({ label: `${name} of ${n} characters`, field: name, data: { ...data, [name]: text }, valid, keyword: valid ? undefined : 'minLength' });
        }
      }
      const options = this.optionValues(node);
      if (node.type === 'array' && options.length) {
        if (typeof maxItems === 'number' && options.length > maxItems) {
          out.push({ label: `${name} with ${maxItems} items`, field: name, data: { ...data, [name]: options.slice(0, maxItems) }, valid: true });
          out.push({ label: `${name} with ${maxItems + 1} items`, field: name, data: { ...data, [name]: options.slice(0, maxItems + 1) }, valid: false, keyword: 'maxItems' });
        }
        if (typeof minItems === 'number' && minItems > 0) out.push({ label: `${name} with ${minItems - 1} items`, field: name, data: { ...data, [name]: options.slice(0, minItems - 1) }, valid: false, keyword: 'minItems' });
      }
      // An empty example ("" for an optional number) is "not given": a case of its own only while the field is optional.
      for (const example of this.examplesOf(node, 'examples').filter((e) => !(required && e === ''))) out.push({ label: `${name} example ${JSON.stringify(example)}`, field: name, data: { ...data, [name]: example }, valid: true });
      for (const example of this.examplesOf(node, 'x-invalid-examples')) out.push({ label: `${name} counter-example ${JSON.stringify(example)}`, field: name, data: { ...data, [name]: this.padded(node, example) }, valid: false });
    }
    return out;
  }

  /** Examples along the field's whole $ref chain (a free-text field inherits its text rules'). */
  private examplesOf(node: JsonObject, key: 'examples' | 'x-invalid-examples'): unknown[] {
    const out: unknown[] = [];
    const defs = (this.schema.$defs as Record<string, JsonObject> | undefined) ?? {};
    let next: JsonObject | undefined = node;
    const seen = new Set<JsonObject>();
    while (next && !seen.has(next)) {
      seen.add(next);
      out.push(...((next[key] as unknown[] | undefined) ?? []));
      next = typeof next.$ref === 'string' ? defs[next.$ref.replace('#/$defs/', '')] : undefined;
    }
    // The field's merged node lists its chain's first examples; keep each once.
    return [...new Set(out)];
  }

  /** A counter-example long enough for the field's minLength, so it fails for what it shows. */
  private padded(node: JsonObject, example: unknown): unknown {
    const min = node.minLength as number | undefined;
    if (typeof example !== 'string' || !min || [...example].length >= min) return example;
    return jp(min) + example;
  }
}

/** The form's data as the member leaves it: every field normalised as its schema says. */
export function asLeft(schema: JsonObject, data: Record<string, unknown>): Record<string, unknown> {
  // An emptied input reaches the form's data as undefined, not '' (the engine's widgets).
  return withoutEmpty(schema, normalise(schema, data));
}
