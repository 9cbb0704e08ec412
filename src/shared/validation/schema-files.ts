// Reads the schema catalogue from disk (Node only: the build plugin, the server, the tools and
// the tests). Every loader takes the schemas folder, so a test can run the whole stack on an
// edited copy; what it returns is prepared (prepare-schema.ts): bundled, messages filled.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from './schema-bundle.ts';
import { prepareSchema, prepareUiSchema, type DefaultMessages } from './prepare-schema.ts';
import { withDerivedLimits } from './derived-limits.ts';

export const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

function readJson(path: string): JsonObject {
  return JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
}

function jsonFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort();
}

/** The shared field documents as written, keyed by $id, with the limits a field takes from
 *  another (`x-limits-from`) filled in. */
export function loadSharedSchemas(dir = SCHEMAS_DIR): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const file of jsonFiles(join(dir, 'shared'), '.json')) {
    const schema = readJson(join(dir, 'shared', file));
    if (typeof schema.$id !== 'string') throw new Error(`schemas/shared/${file} has no $id`);
    out[schema.$id] = withDerivedLimits(schema);
  }
  return out;
}

/** The keyword-wide default messages the shared documents declare ("x-default-messages"). */
export function defaultMessages(shared: Record<string, JsonObject>): DefaultMessages {
  return Object.assign({}, ...Object.values(shared).map((s) => (s['x-default-messages'] as DefaultMessages | undefined) ?? {}));
}

/** The back office's forms are named admin-* (schemas/admin-catalogue.json lists them); the rest
 *  are members' forms (schemas/catalogue.json). */
export const isBackOfficeForm = (name: string): boolean => name.startsWith('admin-');

export function formNames(dir = SCHEMAS_DIR): string[] {
  return jsonFiles(join(dir, 'forms'), '.schema.json').map((f) => f.replace(/\.schema\.json$/, ''));
}

/** A form's schema and UI schema as written (not prepared). */
export function loadForm(name: string, dir = SCHEMAS_DIR): { schema: JsonObject; uiSchema: JsonObject } {
  const schemaPath = join(dir, 'forms', `${name}.schema.json`);
  if (!existsSync(schemaPath)) throw new Error(`No form schema schemas/forms/${name}.schema.json`);
  const uiPath = join(dir, 'forms', `${name}.ui.json`);
  return { schema: readJson(schemaPath), uiSchema: existsSync(uiPath) ? readJson(uiPath) : {} };
}

/** A form as the client gets it: prepared schema and UI schema with their texts filled. */
export function loadBundledForm(name: string, dir = SCHEMAS_DIR) {
  const { schema, uiSchema } = loadForm(name, dir);
  const shared = loadSharedSchemas(dir);
  const prepared = prepareSchema(schema, shared, defaultMessages(shared));
  return { schema: prepared, uiSchema: prepareUiSchema(uiSchema, prepared) };
}

/** API payload schemas as written, keyed by their $id (e.g. "api.user-login.json"). */
export function loadApiSchemas(dir = SCHEMAS_DIR): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const file of jsonFiles(join(dir, 'api'), '.json')) {
    const schema = readJson(join(dir, 'api', file));
    if (typeof schema.$id !== 'string') throw new Error(`schemas/api/${file} has no $id`);
    out[schema.$id] = schema;
  }
  return out;
}

export function loadCatalogue(dir = SCHEMAS_DIR) {
  return readJson(join(dir, 'catalogue.json'));
}

export function loadMasterLists(dir = SCHEMAS_DIR): Record<string, Array<{ value: string; label: string }>> {
  return readJson(join(dir, 'masters', 'options.json')) as Record<string, Array<{ value: string; label: string }>>;
}

export interface SchemaSet {
  dir: string;
  /** Prepared form schemas and UI schemas by form name. */
  forms: Record<string, { schema: JsonObject; uiSchema: JsonObject }>;
  /** Prepared API payload schemas by $id. */
  api: Record<string, JsonObject>;
  catalogue: JsonObject;
}

/** Everything under a schemas folder, prepared. */
export function loadSchemaSet(dir = SCHEMAS_DIR): SchemaSet {
  const shared = loadSharedSchemas(dir);
  const defaults = defaultMessages(shared);
  const forms = Object.fromEntries(formNames(dir).map((name) => [name, loadBundledForm(name, dir)]));
  const api = Object.fromEntries(Object.entries(loadApiSchemas(dir)).map(([id, schema]) => [id, prepareSchema(schema, shared, defaults)]));
  return { dir, forms, api, catalogue: loadCatalogue(dir) };
}
