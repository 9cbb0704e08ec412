// The schema is the one contract (docs/decisions/012): an API payload schema states nothing a
// form already states, every number a text states is the number of the rule it describes, and
// a field's normalisers and option list are said once along its $ref chain.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes, walkNodes } from '../../src/shared/validation/schema-nodes';
import { hasUnfilledParams } from '../../src/shared/validation/message-params';
import { ruleNumbers, statedNumbers, textContradictions } from '../../src/shared/validation/text-checks';
import reviewTexts from '../../messages/form-review.ja.json';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { schemaFiles } from '../support/schema-walk';

const files = schemaFiles();
const set = loadSchemaSet();

describe('schemas/api keeps no copy of what a form states', () => {
  const RULES = ['minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minimum', 'maximum', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', 'contains'];
  const apiFiles = files.filter((f) => f.kind === 'api');

  it.each(apiFiles.map((f) => [f.file, f.schema] as const))('%s', (_file, schema) => {
    const forms = (schema['x-forms'] as string[] | undefined) ?? [];
    const formFields = new Set(forms.flatMap((name) => Object.keys(fieldNodes(set.forms[name].schema))));
    const problems: string[] = [];
    // No rule keyword anywhere in a payload schema's own nodes, except inside the definitions it
    // refers to; and no property the form already has.
    for (const name of Object.keys((schema.properties as JsonObject | undefined) ?? {})) {
      if (formFields.has(name)) problems.push(`property "${name}" is already a field of ${forms.join(', ')}`);
    }
    for (const keyword of ['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf']) if (keyword in schema) problems.push(`a root "${keyword}": conditions belong to the form`);
    walkNodes(schema, (node) => {
      if (node === schema) return;
      for (const keyword of RULES) {
        if (keyword in node && (node.$ref === undefined || typeof node.$ref !== 'string') && !isOwnParameter(schema, node)) {
          problems.push(`"${keyword}" in ${JSON.stringify(node).slice(0, 80)}`);
        }
      }
    });
    expect(problems).toEqual([]);
  });

  it('no payload schema refers into a form by position or path (forms are named in x-forms)', () => {
    for (const { file, schema } of apiFiles) expect(JSON.stringify(schema), file).not.toMatch(/"\$ref":"form\./);
  });
});

/** Rules a payload schema may state: those of fields no form has (query strings, the second
 *  address that must stay empty). They are its own, not copies. */
function isOwnParameter(root: JsonObject, node: JsonObject): boolean {
  const props = Object.values((root.properties as Record<string, JsonObject> | undefined) ?? {});
  return props.includes(node);
}

// ---------------------------------------------------------------------------------------------
// Numbers in texts

describe('every number a message, placeholder or help text states is its rule\'s number', () => {
  it.each(Object.keys(set.forms))('form %s (schema messages, titles, placeholders, help texts)', (name) => {
    const { schema, uiSchema } = set.forms[name];
    const problems: string[] = [];
    walkNodes(schema, (node) => {
      const numbers = ruleNumbers(node);
      const texts: string[] = [];
      if (typeof node.title === 'string') texts.push(node.title);
      if (node.errorMessage && typeof node.errorMessage === 'object') {
        for (const [keyword, text] of Object.entries(node.errorMessage as JsonObject)) if (typeof text === 'string' && keyword !== 'not') texts.push(text);
      }
      for (const text of texts) {
        if (hasUnfilledParams(text)) problems.push(`unfilled: ${text}`);
        for (const n of statedNumbers(text)) if (!numbers.has(n)) problems.push(`"${text}" states ${n}; the node says ${[...numbers].join(', ') || 'no number'}`);
      }
    });
    const fields = fieldNodes(schema);
    for (const [field, ui] of Object.entries(uiSchema)) {
      if (field.startsWith('ui:') || !ui || typeof ui !== 'object') continue;
      const numbers = ruleNumbers(fields[field] ?? {});
      for (const key of ['ui:title', 'ui:placeholder', 'ui:help', 'ui:description']) {
        const text = (ui as JsonObject)[key];
        if (typeof text !== 'string') continue;
        if (hasUnfilledParams(text)) problems.push(`${field} ${key} unfilled: ${text}`);
        for (const n of statedNumbers(text)) if (!numbers.has(n)) problems.push(`${field} ${key} "${text}" states ${n}; the field says ${[...numbers].join(', ') || 'no number'}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the check itself catches a stale number and passes a filled one', () => {
    expect(statedNumbers('80文字以内で入力してください')).toEqual([80]);
    expect(statedNumbers('20〜80文字で入力してください')).toEqual([20, 80]);
    expect(statedNumbers('1〜8個まで選択できます')).toEqual([1, 8]);
    expect(statedNumbers('例：1990年01月01日')).toEqual([]);
    expect(ruleNumbers({ maxLength: 80, minLength: 20 })).toEqual(new Set([80, 20]));
    expect(ruleNumbers({ pattern: '^[0-9]{8,11}$' })).toEqual(new Set([8, 11]));
  });
});

describe('no text calls a field optional that its form requires, or states a number its rules lack', () => {
  it.each(Object.keys(set.forms))('form %s (placeholders, help, descriptions, patterns in words)', (name) => {
    const { schema, uiSchema } = set.forms[name];
    expect(textContradictions(schema, uiSchema, reviewTexts.optionalWording)).toEqual([]);
  });

  it('the check itself catches optional wording left on a field made required', () => {
    const schema = { type: 'object', required: ['amc'], properties: { amc: { type: 'string', pattern: '^([0-9]{10})?$', 'x-pattern-description': '半角数字10桁（空欄のままでも可）' } } };
    const ui = { amc: { 'ui:help': 'お持ちの方のみ、半角数字10桁で入力してください', 'ui:placeholder': '12桁' } };
    expect(textContradictions(schema, ui, reviewTexts.optionalWording).map((c) => `${c.where} ${c.kind} ${c.found}`)).toEqual([
      'ui:placeholder number 12',
      'ui:help optional お持ちの方のみ',
      'x-pattern-description optional 空欄のままでも可',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// x- keywords

describe('x-normalise and x-master are said once along a field\'s $ref chain', () => {
  it.each(Object.keys(set.forms))('form %s', (name) => {
    const schema = set.forms[name].schema;
    const defs = (schema.$defs as Record<string, JsonObject> | undefined) ?? {};
    const problems: string[] = [];
    walkNodes(schema, (node) => {
      for (const keyword of ['x-normalise', 'x-master']) {
        let count = keyword in node ? 1 : 0;
        let next = node;
        const seen = new Set<JsonObject>();
        while (typeof next.$ref === 'string' && !seen.has(next)) {
          seen.add(next);
          next = defs[next.$ref.replace('#/$defs/', '')] ?? {};
          if (keyword in next) count += 1;
        }
        if (count > 1) problems.push(`${keyword} stated ${count} times along ${JSON.stringify(node).slice(0, 60)}`);
      }
    });
    expect(problems).toEqual([]);
  });
});
