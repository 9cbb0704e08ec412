import type { RJSFValidationError } from '@rjsf/utils';
import messages from '../../messages/ja.json';
import { missingChildren, UNMESSAGED } from '../shared/validation/field-errors';

/** Puts each schema message under its own field (ajv-errors reports `required` on the parent;
 *  rjsf already places plain `required` errors itself), drops wrapper errors, and never lets an
 *  English ajv message through. */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors
    .filter((error) => !UNMESSAGED.has(error.name ?? ''))
    .flatMap((error) => {
      const fromSchema = error.name === 'errorMessage';
      const message = fromSchema && error.message ? error.message : messages.form.fallbackFieldError;
      const missing = fromSchema ? missingChildren('errorMessage', error.params) : [];
      const properties = missing.length > 0 ? missing.map((name) => `${error.property ?? ''}.${name}`) : [error.property];
      return properties.map((property) => ({ ...error, property, message, stack: message }));
    });
}
