// tools/precompile.ts: the code `virtual:form/<name>` hands the browser. It is served as an ES
// module as it is in dev (vite does not bundle in dev), and bundled in the build.
import { describe, expect, it } from 'vitest';
import { hashForSchema, type RJSFSchema } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import { formNames, loadBundledForm } from '../../src/shared/validation/schema-files';
import { transformErrors } from '../../src/engine/transform-errors';
import { precompileValidators } from '../../tools/precompile';
import { buildFormModule, JAPANESE } from '../support/forms';

describe.each(formNames())('precompiled validators of form %s', (name) => {
  const { schema } = loadBundledForm(name);
  const code = precompileValidators(schema as RJSFSchema);

  it('are a plain ES module: no CommonJS require() (the dev server serves it to the browser as is)', () => {
    const requires = code.match(/[^;{}]*\brequire\s*\([^)]*\)[^;]*/g) ?? [];
    expect(requires).toEqual([]);
  });

  it('contain no compiler and no runtime code generation', () => {
    expect(code).not.toMatch(/new\s+Function|\beval\s*\(|compileAsync|addKeyword\(/);
  });

  it('export validateFns keyed by rjsf’s hash of the root schema', async () => {
    const form = await buildFormModule(name);
    expect(Object.keys(form.validateFns)).toContain(hashForSchema(schema as RJSFSchema));
  });

  it('drive rjsf’s precompiled validator, with Japanese messages for {}', async () => {
    const form = await buildFormModule(name);
    const validator = createPrecompiledValidator(form.validateFns, form.schema);
    const result = validator.validateFormData({}, form.schema, undefined, transformErrors);
    if (((schema.required as string[] | undefined) ?? []).length > 0) expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error.message).toMatch(JAPANESE);
  });
});
