// Loads precompiled validator code (tools/precompile.ts output) in a test. Free of
// schema-files.ts, so it also works under jsdom (whose URL class node:url does not accept).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { FormModule } from '../../src/engine/SchemaForm';
import type { FieldValidator } from '../../src/engine/field-verdict';
import { widgets } from '../../src/engine/registry';
import { precompileValidators } from '../../tools/precompile';

/** Inside node_modules so that the generated code's imports (ajv runtime, formats) resolve. */
export const TEST_CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/member-site-tests');

/** Imports precompiled validator code (the output of precompileValidators). */
export async function importPrecompiled(code: string): Promise<{ validateFns: ValidatorFunctions; fieldValidateFns: Record<string, FieldValidator>; [key: string]: unknown }> {
  mkdirSync(TEST_CACHE_DIR, { recursive: true });
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(TEST_CACHE_DIR, `validators-${hash}.mjs`);
  // ajv's ESM output still `require`s its runtime helpers (e.g. ucs2length). The production
  // bundler resolves those; a browser loading the module unbundled (vite dev) cannot, see
  // tests/unit/precompile.test.ts. Here Node's createRequire supplies `require`.
  const prelude = `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);\n`;
  writeFileSync(file, prelude + code);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { validateFns: ValidatorFunctions; fieldValidateFns: Record<string, FieldValidator> };
}

/** A FormModule for an inline (already bundled) schema, e.g. to exercise the engine with rules no real form has yet. */
export async function inlineFormModule(name: string, schema: RJSFSchema, uiSchema: UiSchema = {}): Promise<FormModule> {
  const { validateFns, fieldValidateFns } = await importPrecompiled(precompileValidators(schema));
  return { name, schema, uiSchema, validateFns, fieldValidateFns, widgets };
}
