// Build-time compilation of a bundled form schema into standalone validator code (ESM), in the
// shape rjsf's createPrecompiledValidator expects. The output has no ajv compiler and no
// `new Function`, so the client runs under a CSP without 'unsafe-eval'.
// Beside the form's validators, one per field (`fieldValidateFns`, by field name): what a text
// field runs on each key instead of the whole form (ADR 028), built from the form's own nodes
// (tools/field-schemas.ts), compiled among the root's `$defs` so both share one function per rule.
import { hashForSchema, schemaParser, type RJSFSchema } from '@rjsf/utils';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv } from '../src/shared/validation/ajv-setup.ts';
import type { JsonObject } from '../src/shared/validation/schema-bundle.ts';
import { withFieldSchemas } from './field-schemas.ts';

export function precompileValidators(schema: RJSFSchema): string {
  const parts = schemaParser(schema);
  const ids = Object.keys(parts);
  const rootId = hashForSchema(schema);
  if (!parts[rootId]) throw new Error('rjsf gave no validator for the root schema');
  // The root as compiled: the form's verdicts, with each field's own schema among its $defs.
  const { root, fields } = withFieldSchemas(parts[rootId] as JsonObject, rootId);
  const names = Object.keys(fields);
  // inlineRefs: false — each shared field is compiled once and called, not copied into every
  // form that $refs it: same verdicts and messages, less code to download and parse (ADR 017).
  const ajv = createAjv({ code: { source: true, esm: true, lines: false }, inlineRefs: false, schemas: Object.values({ ...parts, [rootId]: root }) });
  // ajv's ESM export names must be identifiers, rjsf's ids are hashes: map them explicitly.
  const exportNames = Object.fromEntries([...ids.map((id, i) => [`v${i}`, id]), ...names.map((name, i) => [`f${i}`, fields[name]])]);
  const code = asEsModule(standaloneCode(ajv, exportNames));
  const table = ids.map((id, i) => `${JSON.stringify(id)}: v${i}`).join(', ');
  const fieldTable = names.map((name, i) => `${JSON.stringify(name)}: f${i}`).join(', ');
  return `${code}\nexport const validateFns = { ${table} };\nexport const fieldValidateFns = { ${fieldTable} };\n`;
}

/** ajv's ESM output still `require()`s its runtime helpers (e.g. ucs2length for minLength);
 *  the dev server hands this module to the browser unbundled, so turn those into imports. */
export function asEsModule(code: string): string {
  const imports: string[] = [];
  const body = code.replace(/require\("([^"]+)"\)((?:\.\w+)*)/g, (_, path: string, access: string) => {
    const name = `__runtime${imports.length}`;
    // Node's ESM resolver (tests, tools) needs the file extension; Vite accepts it too.
    const file = /\.[cm]?js$/.test(path) ? path : `${path}.js`;
    imports.push(`import * as ${name} from ${JSON.stringify(file)};`);
    // A CommonJS module's `exports.default` arrives as `default` or as `default.default`,
    // depending on the bundler's interop; pick the real export either way.
    const root = access.startsWith('.default') ? `(${name}.default?.default ?? ${name}.default)` : name;
    return root + (access.startsWith('.default') ? access.slice('.default'.length) : access);
  });
  return [...imports, body.replace(/^"use strict";/, '')].join('\n');
}
