// The impact report as a product owner reads it in a terminal (messages/impact.ja.json).
import texts from '../../../messages/impact.ja.json';
import type { FormImpact, ImpactReport } from '../../shared/impact';
import { format } from '../../shared/format';

const count = (n: number) => n.toLocaleString('ja-JP');

function formLines(form: FormImpact): string[] {
  const records = texts.records[form.records];
  const unit = texts.units[form.records];
  const lines = [format(texts.formHeading, { title: form.title, form: form.form })];
  if (form.storedFieldsOnly) lines.push(texts.storedFieldsOnly);
  if (form.judged === 0) return [...lines, format(texts.noRecords, { records })];
  const judged = count(form.judged);
  if (form.refused === 0) return [...lines, format(texts.allPass, { records, judged, unit })];
  lines.push(format(texts.someFail, { records, judged, unit, refused: count(form.refused) }));
  for (const field of form.fields) {
    lines.push(format(texts.field, { label: field.label, field: field.field, refused: count(field.refused), unit }));
    if (field.needsMigration) lines.push(format(texts.migration, { form: form.form }));
    for (const rule of field.rules) {
      lines.push(format(texts.rule, { rule: rule.rule, refused: count(rule.refused), unit, message: rule.message }));
      lines.push(format(texts.examples, { examples: rule.examples.join(texts.exampleSeparator) }));
    }
  }
  return lines;
}

export function renderImpact(report: ImpactReport): string[] {
  // Records read, not judgements: a member is judged by two forms and counted once.
  const read = new Map(report.forms.map((f) => [f.records, 0]));
  for (const f of report.forms) read.set(f.records, Math.max(read.get(f.records) ?? 0, f.judged));
  const total = [...read.values()].reduce((sum, n) => sum + n, 0);
  return [
    texts.title,
    format(texts.schemas, { dir: report.schemasDir }),
    format(texts.database, { database: report.database }),
    ...report.forms.flatMap((form) => ['', ...formLines(form)]),
    '',
    report.failed ? texts.failed : texts.passed,
    format(texts.elapsed, { count: count(total), seconds: (report.elapsedMs / 1000).toFixed(1) }),
  ];
}

/** What the form review page shows for one form: a line above it, and a note beside each field
 *  that was judged (how many stored records it refuses, by which rules). */
export function reviewNotes(form: FormImpact): { summary: string; fields: Record<string, string> } {
  const words = texts.review;
  const records = texts.records[form.records];
  const unit = texts.units[form.records];
  const judged = count(form.judged);
  if (form.judged === 0) return { summary: format(words.summaryNone, { records }), fields: {} };
  const summary = format(form.refused ? words.summaryFail : words.summaryPass, { records, judged, unit, refused: count(form.refused) });
  const fields: Record<string, string> = {};
  for (const field of form.judgedFields) {
    const refused = form.fields.find((f) => f.field === field);
    fields[field] = refused
      ? format(words.fieldFail, {
          records,
          unit,
          refused: count(refused.refused),
          rules: refused.rules.map((r) => format(words.ruleCount, { rule: r.rule, refused: count(r.refused), unit })).join(words.ruleSeparator),
        })
      : format(words.fieldPass, { records });
  }
  return { summary, fields };
}
