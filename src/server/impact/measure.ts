// The impact of a set of schemas on the stored data: every active member judged by the forms a
// member's profile must pass, every stored inquiry by the contact form. Reads only, in one
// transaction (one consistent snapshot, also on a database the site is writing to meanwhile).
import messages from '../../../messages/ja.json';
import type { ImpactReport } from '../../shared/impact';
import type { SchemaSet } from '../../shared/validation/schema-files';
import type { Db } from '../db/connect';
import { createServerValidation } from '../validation';
import { createFormJudge, JUDGED_FORMS } from './form-judge';
import { activeMembers, BATCH_SIZE, inquiryAsContactForm, memberAsEditForm, storedInquiries } from './stored-records';

export interface MeasureOptions {
  /** Only these forms (the review page asks for one); default: every judged form the schemas have. */
  forms?: string[];
  batchSize?: number;
}

export async function measureImpact(db: Db, set: SchemaSet, { forms, batchSize = BATCH_SIZE }: MeasureOptions = {}): Promise<Omit<ImpactReport, 'database'>> {
  const started = performance.now();
  // The server's own validation: one ajv, every form compiled once.
  const validation = createServerValidation(set, messages.form.fallbackFieldError);
  const judges = JUDGED_FORMS.filter((spec) => set.forms[spec.form] && set.forms[spec.readAs] && (!forms || forms.includes(spec.form))).map((spec) =>
    createFormJudge(validation, spec),
  );
  const memberJudges = judges.filter((j) => j.spec.records === 'members');
  const inquiryJudges = judges.filter((j) => j.spec.records === 'inquiries');

  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      if (memberJudges.length > 0) {
        const ctx = { db: tx, schemas: set };
        for await (const batch of activeMembers(tx, batchSize)) {
          for (const user of batch) {
            const record = await memberAsEditForm(ctx, user);
            for (const judge of memberJudges) judge.judge(record);
          }
        }
      }
      if (inquiryJudges.length > 0) {
        for await (const batch of storedInquiries(tx, batchSize)) {
          for (const row of batch) {
            const record = inquiryAsContactForm(row);
            for (const judge of inquiryJudges) judge.judge(record);
          }
        }
      }
    });

  const results = judges.map((j) => j.result());
  // Registration judges sign-ups: a stored member is never asked to pass it again, so what it
  // would refuse is shown for reference and does not fail the report (a member can only be
  // stranded by the edit form, an inquiry by the contact form).
  const failed = results.some((f) => f.refused > 0 && !f.storedFieldsOnly);
  return { schemasDir: set.dir, forms: results, failed, elapsedMs: Math.round(performance.now() - started) };
}
