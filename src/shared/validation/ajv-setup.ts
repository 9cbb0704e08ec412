// The one ajv configuration. The client's precompiled validators (tools/vite-plugin-forms.ts)
// and the API server (src/server/validation.ts) are both built from it, so a value gets the
// same verdict and the same Japanese message on both sides.
import type Ajv from 'ajv';
import type { Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';

// rjsf's own defaults (allErrors, verbose, strict: false) plus what ajv-errors needs.
export const ajvOptions: Options = { allErrors: true, $data: false };

export function withErrorMessages(ajv: Ajv): Ajv {
  ajvErrors(ajv, { singleError: false });
  return ajv;
}

export function createAjv(extra: Options = {}): Ajv {
  return createAjvInstance(undefined, undefined, { ...ajvOptions, ...extra }, undefined, undefined, withErrorMessages);
}
