import type { RJSFValidationError } from '@rjsf/utils';
import messages from '../../messages/ja.json';
import { missingChild, UNMESSAGED } from '../shared/validation/field-errors';

/** Puts each schema message under its own field (ajv-errors reports `required` on the parent),
 *  drops wrapper errors, and never lets an English ajv message through. */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors
    .filter((error) => !UNMESSAGED.has(error.name ?? ''))
    .map((error) => {
      const fromSchema = error.name === 'errorMessage';
      const missing = missingChild(error.name ?? '', error.params);
      const property = missing && !error.property?.endsWith(`.${missing}`) ? `${error.property ?? ''}.${missing}` : error.property;
      const message = fromSchema && error.message ? error.message : messages.form.fallbackFieldError;
      return { ...error, property, message, stack: message };
    });
}
