// Build-time compilation of a bundled form schema into standalone validator code (ESM), in the
// shape rjsf's createPrecompiledValidator expects. The output has no ajv compiler and no
// `new Function`, so the client runs under a CSP without 'unsafe-eval'.
import { schemaParser, type RJSFSchema } from '@rjsf/utils';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv } from '../src/shared/validation/ajv-setup';

export function precompileValidators(schema: RJSFSchema): string {
  const parts = schemaParser(schema);
  const ids = Object.keys(parts);
  const ajv = createAjv({ code: { source: true, esm: true, lines: false }, schemas: Object.values(parts) });
  // ajv's ESM export names must be identifiers, rjsf's ids are hashes: map them explicitly.
  const exportNames = Object.fromEntries(ids.map((id, i) => [`v${i}`, id]));
  const code = standaloneCode(ajv, exportNames);
  const table = ids.map((id, i) => `${JSON.stringify(id)}: v${i}`).join(', ');
  return `${code}\nexport const validateFns = { ${table} };\n`;
}
