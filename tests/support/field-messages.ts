// The messages a form shows for given data, computed the way the browser computes them: rjsf's
// validator built from the form's precompiled validators (createPrecompiledValidator), with the
// engine's transformErrors putting each schema message under its field.
import type { RJSFValidationError } from '@rjsf/utils';
import { validatorFor, type FormModule } from '../../src/engine/SchemaForm';
import { transformErrors } from '../../src/engine/transform-errors';
import type { FieldErrors } from '../../src/shared/validation/field-errors';

/** rjsf writes a property as ".a.b", "a.b" or ".a[0]"; this gives "a.b" / "a.0" ("" for the root). */
export function fieldPath(property: string | undefined): string {
  return (property ?? '')
    .replace(/\[['"]?([^\]'"]+)['"]?\]/g, '.$1')
    .replace(/^\.+/, '');
}

/** The transformed errors rjsf would show for `data`. */
export function browserErrors(form: FormModule, data: unknown): RJSFValidationError[] {
  return validatorFor(form).validateFormData(data, form.schema, undefined, transformErrors).errors;
}

/** `{ field: [message, …] }` as the form shows it for `data` (each message once per field). */
export function browserFieldErrors(form: FormModule, data: unknown): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of browserErrors(form, data)) {
    const list = (fields[fieldPath(error.property)] ??= []);
    const message = error.message ?? '';
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}
