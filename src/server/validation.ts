// The server's ajv: the same configuration as the client's precompiled validators
// (src/shared/validation/ajv-setup.ts), with every shared and API schema added by $id.
import { createAjv } from '../shared/validation/ajv-setup';
import { formNames, loadApiSchemas, loadForm, loadSharedSchemas } from '../shared/validation/schema-files';

export function createServerAjv() {
  const ajv = createAjv();
  for (const schema of Object.values(loadSharedSchemas())) ajv.addSchema(schema);
  // Forms too, so an API payload can refer to a form's field ("form.<name>.json#/properties/…").
  for (const name of formNames()) ajv.addSchema(loadForm(name).schema, `form.${name}.json`);
  const api = loadApiSchemas();
  for (const schema of Object.values(api)) ajv.addSchema(schema);
  return { ajv, api };
}
