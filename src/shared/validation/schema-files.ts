// Reads the schema catalogue from disk (Node only: the build plugin, the server, the tests).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSchema, type JsonObject } from './schema-bundle.ts';

export const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

function readJson(path: string): JsonObject {
  return JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
}

function jsonFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort();
}

export function loadSharedSchemas(dir = SCHEMAS_DIR): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const file of jsonFiles(join(dir, 'shared'), '.json')) {
    const schema = readJson(join(dir, 'shared', file));
    if (typeof schema.$id !== 'string') throw new Error(`schemas/shared/${file} has no $id`);
    out[schema.$id] = schema;
  }
  return out;
}

export function formNames(dir = SCHEMAS_DIR): string[] {
  return jsonFiles(join(dir, 'forms'), '.schema.json').map((f) => f.replace(/\.schema\.json$/, ''));
}

export function loadForm(name: string, dir = SCHEMAS_DIR): { schema: JsonObject; uiSchema: JsonObject } {
  const schemaPath = join(dir, 'forms', `${name}.schema.json`);
  if (!existsSync(schemaPath)) throw new Error(`No form schema schemas/forms/${name}.schema.json`);
  const uiPath = join(dir, 'forms', `${name}.ui.json`);
  return { schema: readJson(schemaPath), uiSchema: existsSync(uiPath) ? readJson(uiPath) : {} };
}

export function loadBundledForm(name: string, dir = SCHEMAS_DIR) {
  const { schema, uiSchema } = loadForm(name, dir);
  return { schema: bundleSchema(schema, loadSharedSchemas(dir)), uiSchema };
}

/** API payload schemas, keyed by their $id (e.g. "api.user-login.json": no slash, so that "fields.json" refs resolve beside it). */
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
