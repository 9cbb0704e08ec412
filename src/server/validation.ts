// The server's validation: the same ajv configuration as the client's precompiled validators
// (src/shared/validation/ajv-setup.ts) and the same prepared schemas. A payload is turned into
// form data by its endpoint's wire adapter, normalised as its fields say, its empty form fields
// taken as not given (as the browser's inputs report them), and judged by the form's own schema
// (by name, from the API schema's x-forms) plus the API schema, which states only the fields the
// form does not have. Valid data then loses what the schema's conditions no longer bring in and
// takes its canonical form (x-canonical): what the routes store.
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../shared/validation/ajv-setup';
import { loadSchemaSet, type SchemaSet } from '../shared/validation/schema-files';
import type { JsonObject } from '../shared/validation/schema-bundle';
import { toFieldErrors, type FieldErrors } from '../shared/validation/field-errors';
import { dropInapplicable, masterFields } from '../shared/validation/conditions';
import { canonical, normalise, withoutEmpty } from '../shared/normalise';
import { wireAdapters } from '../shared/wire';

export type ParseResult = { ok: true; data: Record<string, unknown> } | { ok: false; fields: FieldErrors | null };

export function formsOf(api: JsonObject): string[] {
  return Array.isArray(api['x-forms']) ? (api['x-forms'] as string[]) : [];
}

export function createServerValidation(set: SchemaSet = loadSchemaSet(), fallbackMessage = '') {
  const ajv = createAjv();
  for (const [name, form] of Object.entries(set.forms)) ajv.addSchema(form.schema, `form.${name}.json`);
  for (const schema of Object.values(set.api)) ajv.addSchema(schema);

  const conditions = new WeakMap<JsonObject, ValidateFunction>();
  const test = (condition: JsonObject, data: unknown, root: JsonObject) => {
    let validate = conditions.get(condition);
    if (!validate) conditions.set(condition, (validate = ajv.compile({ $defs: root.$defs, ...condition })));
    return validate(data) === true;
  };
  const validator = (id: string) => {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`No schema ${id}`);
    return validate;
  };

  /** Payload → validated, normalised form data, or the field errors in the payload's names
   *  (`fields: null` when the body is not an object at all). */
  function parse(apiId: string, raw: unknown): ParseResult {
    const api = set.api[apiId];
    if (!api) throw new Error(`No API schema ${apiId}`);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, fields: null };
    const adapter = wireAdapters[apiId];
    const forms = formsOf(api);
    const schemaOf = (name: string) => set.forms[name].schema;
    let data = adapter ? adapter.fromWire({ ...(raw as Record<string, unknown>) }, forms.length ? schemaOf(forms[0]) : api) : { ...(raw as Record<string, unknown>) };
    for (const name of forms) data = withoutEmpty(schemaOf(name), normalise(schemaOf(name), data));
    data = normalise(api, data);

    const errors = [];
    for (const id of [...forms.map((name) => `form.${name}.json`), apiId]) {
      const validate = validator(id);
      if (!validate(data)) errors.push(...(validate.errors ?? []));
    }
    if (errors.length > 0) {
      const fields: FieldErrors = {};
      for (const [path, messages] of Object.entries(toFieldErrors(errors, fallbackMessage))) {
        const name = adapter?.wireField ? adapter.wireField(path, raw as Record<string, unknown>) : path;
        if (name === null) continue;
        const list = (fields[name] ??= []);
        for (const message of messages) if (!list.includes(message)) list.push(message);
      }
      return { ok: false, fields };
    }
    for (const name of forms) data = canonical(schemaOf(name), dropInapplicable(schemaOf(name), data, test));
    return { ok: true, data };
  }

  /** Field → option list, over every form an endpoint takes. */
  function masterFieldsOf(apiId: string): Record<string, string> {
    return Object.assign({}, ...formsOf(set.api[apiId] ?? {}).map((name) => masterFields(set.forms[name].schema)));
  }

  return { ajv, parse, masterFieldsOf, set };
}

export type ServerValidation = ReturnType<typeof createServerValidation>;
