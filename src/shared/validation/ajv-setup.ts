// The one ajv configuration. The client's precompiled validators (tools/vite-plugin-forms.ts)
// and the API server (src/server/validation.ts) are both built from it, so a value gets the
// same verdict and the same Japanese message on both sides.
import type Ajv from 'ajv';
import { _, type KeywordCxt, type Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';

// rjsf's own defaults (allErrors, verbose, strict: false) plus what ajv-errors needs.
export const ajvOptions: Options = { allErrors: true, $data: false };

/** ajv-errors, plus two comparisons with a sibling field: `sameAs` (a confirmation) and
 *  `differentFrom` (a new value).
 *  Written as generated code, so it survives standalone precompilation. */
export function withErrorMessages(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'sameAs',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const { data, schema, it } = cxt;
      cxt.fail(_`${it.parentData} && ${data} !== ${it.parentData}[${schema as string}]`);
    },
  });
  // `differentFrom`: a new value must differ from a sibling ("differentFrom": "current_email"),
  // ignoring letter case: addresses are canonical (lower-case), and a password that is the
  // address in other capitals is no better than the address.
  ajv.addKeyword({
    keyword: 'differentFrom',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const { data, schema, it } = cxt;
      const other = _`${it.parentData}[${schema as string}]`;
      cxt.fail(_`${it.parentData} && typeof ${data} == "string" && typeof ${other} == "string" && ${data}.toLowerCase() === ${other}.toLowerCase()`);
    },
  });
  ajvErrors(ajv, { singleError: false });
  return ajv;
}

export function createAjv(extra: Options = {}): Ajv {
  return createAjvInstance(undefined, undefined, { ...ajvOptions, ...extra }, undefined, undefined, withErrorMessages);
}
