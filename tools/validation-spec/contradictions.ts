// Texts that contradict their rule (src/shared/validation/text-checks.ts) over every form, in
// the words the form review page uses (messages/form-review.ja.json): `npm run spec` prints them
// and exits 1, so a product owner who made a field required hears that its help still says
// "optional" before anyone reviews the spec.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from '../../src/shared/format.ts';
import { formNames, loadBundledForm, SCHEMAS_DIR } from '../../src/shared/validation/schema-files.ts';
import type { JsonObject } from '../../src/shared/validation/schema-bundle.ts';
import { fieldNodes } from '../../src/shared/validation/schema-nodes.ts';
import { textContradictions } from '../../src/shared/validation/text-checks.ts';

type ReviewTexts = typeof import('../../messages/form-review.ja.json');

/** One line per contradiction: "<form>: <sentence>". */
export function contradictionLines(schemasDir = SCHEMAS_DIR, messagesDir = join(schemasDir, '..', 'messages')): string[] {
  const texts = JSON.parse(readFileSync(join(messagesDir, 'form-review.ja.json'), 'utf8')) as ReviewTexts;
  return formNames(schemasDir).flatMap((form) => {
    const { schema, uiSchema } = loadBundledForm(form, schemasDir);
    const nodes = fieldNodes(schema);
    const labelOf = (field: string) => String((uiSchema[field] as JsonObject | undefined)?.['ui:title'] ?? nodes[field]?.title ?? field);
    return textContradictions(schema, uiSchema, texts.optionalWording).map(
      (c) =>
        `${form}: ${format(c.kind === 'optional' ? texts.contradictionOptional : texts.contradictionNumber, {
          label: labelOf(c.field),
          field: c.field,
          where: c.where,
          found: c.found,
          text: c.text,
          numbers: (c.numbers ?? []).join(', ') || '-',
        })}`,
    );
  });
}
