// npm run impact on SQLite and PostgreSQL: members and inquiries stored through the site, a
// product owner's tightening on a copy of schemas/ (tests/support/tightened-schemas.ts), and the
// report's counts, rules, masked examples and exit code; a member the report counts fixes the
// field and saves; and the tool never writes.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import texts from '../../messages/impact.ja.json';
import { migrate, openDb, sqliteFile } from '../../src/server/db/connect';
import { EXIT, openStoredData, runImpact, type StoredData } from '../../src/server/impact/cli';
import { measureImpact } from '../../src/server/impact/measure';
import type { Output } from '../../src/server/operator/output';
import { createMember } from '../../src/server/seed';
import type { FormImpact, ImpactReport } from '../../src/shared/impact';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { DATABASES, Harness, PG_URL, japaneseText, setUpOrFail, validContact, validProfileUpdate } from '../support/api-harness';
import { demoGaps, makeTightenedCopy, NO_OPTIONAL_FIELD } from '../support/tightened-schemas';

class RecordingOutput implements Output {
  readonly lines: string[] = [];
  readonly errors: string[] = [];
  out(line: string) {
    this.lines.push(line);
  }
  err(line: string) {
    this.errors.push(line);
  }
  get text() {
    return this.lines.join('\n');
  }
}

async function impact(args: string[], open: () => StoredData) {
  const output = new RecordingOutput();
  const code = await runImpact(args, output, open);
  return { code, output, report: args.includes('--json') && code !== EXIT.failed ? (JSON.parse(output.text) as ImpactReport) : undefined };
}

const formOf = (report: ImpactReport | undefined, name: string): FormImpact => {
  const form = report?.forms.find((f) => f.form === name);
  if (!form) throw new Error(`No ${name} in the report`);
  return form;
};
const fieldCounts = (form: FormImpact) => Object.fromEntries(form.fields.map((f) => [f.field, f.refused]));

const copy = makeTightenedCopy();
afterAll(() => copy.remove());
const { edit, contact, required } = copy;
/** The field the copy makes required (amc as shipped), left empty or filled; nothing when none. */
const blank = (): Record<string, string> => (required ? { [required.field]: '' } : {});
const filled = (): Record<string, string> => (required ? { [required.field]: required.value } : {});
/** What schemas/ requires that the demo profile stores empty (none as shipped). */
const gaps = demoGaps();

describe.each(DATABASES)('npm run impact ($name)', ({ kind }) => {
  let h: Harness;
  const stored = (): StoredData => ({ db: h.db, description: kind, close: async () => {} });
  const emails: string[] = [];
  const inquiryTexts: string[] = [];

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    // Active members, valid as the schemas are shipped; the tightened copy refuses some.
    const members = [
      { ...blank(), purpose_detail: japaneseText(edit.after - 1) }, // the required field and purpose_detail
      { ...filled(), purpose_detail: japaneseText(edit.after) }, // passes
      { ...blank(), purpose_detail: japaneseText(60) }, // the required field only
      { ...filled(), purpose_detail: japaneseText(edit.before) }, // purpose_detail only
    ];
    for (const profile of members) emails.push((await h.createMember(undefined, undefined, { ...gaps, ...profile })).email);
    // A withdrawn member is nobody's stored profile any more: never counted.
    await h.createMember(undefined, undefined, { ...gaps, ...blank(), purpose_detail: japaneseText(edit.before), status: 'withdrawn', withdrawn_at: new Date().toISOString() });
    // Inquiries as visitors send them: 佐藤 次郎, a long address, texts of two lengths.
    for (const length of [contact.after - 1, 60]) {
      const text = japaneseText(length);
      inquiryTexts.push(text);
      const res = await h.contact(undefined, validContact(h.uniqueEmail('visitor'), { purpose_detail: text }));
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => h?.close());

  it('with the schemas as shipped, every stored record passes: exit 0', async () => {
    const { code, report } = await impact(['--json'], stored);
    expect(code).toBe(EXIT.passed);
    expect(report?.failed).toBe(false);
    expect(formOf(report, 'edit-profile')).toMatchObject({ records: 'members', judged: 4, refused: 0 });
    expect(formOf(report, 'register-profile')).toMatchObject({ records: 'members', judged: 4, refused: 0, storedFieldsOnly: true });
    expect(formOf(report, 'contact')).toMatchObject({ records: 'inquiries', judged: 2, refused: 0 });
  });

  it('with the tightened copy: how many each rule refuses, the rule and its message, masked examples, exit 1', async () => {
    const { code, report } = await impact(['--schemas', copy.schemasDir, '--json'], stored);
    expect(code).toBe(EXIT.refused);
    expect(report?.failed).toBe(true);
    expect(report?.schemasDir).toBe(copy.schemasDir);

    const editForm = formOf(report, 'edit-profile');
    expect(editForm).toMatchObject({ judged: 4, refused: required ? 3 : 2 });
    expect(fieldCounts(editForm)).toEqual({ ...(required ? { [required.field]: 2 } : {}), purpose_detail: 2 });
    const detail = editForm.fields.find((f) => f.field === 'purpose_detail')!;
    // Members are read in id order (random ids): the two examples come in either order.
    expect(detail.rules).toEqual([
      {
        keyword: 'minLength',
        value: edit.after,
        rule: `${edit.after}文字以上`,
        message: `${edit.after}文字以上で入力してください`,
        refused: 2,
        examples: expect.arrayContaining([`週＊＊＊＊＊＊＊＊＊…（${edit.after - 1}文字）`, `週＊＊＊＊＊＊＊＊＊…（${edit.before}文字）`]),
      },
    ]);
    // The registration form is not tightened and keeps its own purpose_detail limits.
    expect(formOf(report, 'register-profile')).toMatchObject({ judged: 4, refused: 0 });

    const contactForm = formOf(report, 'contact');
    expect(contactForm).toMatchObject({ judged: 2, refused: 2 });
    expect(fieldCounts(contactForm)).toEqual({ last_name_kanji: 2, email: 2, purpose_detail: 1 });
    const examples = Object.fromEntries(contactForm.fields.map((f) => [f.field, f.rules[0].examples]));
    expect(examples.last_name_kanji).toEqual(['佐＊（2文字）']);
    expect(examples.purpose_detail).toEqual([`週＊＊＊＊＊＊＊＊＊…（${contact.after - 1}文字）`]);
    // Both addresses are as long as each other, so they mask alike: one example, not the same twice.
    expect(examples.email).toEqual([expect.stringMatching(/^v\*+@e\*{6}\.com（\d+文字）$/)]);
  });

  it('prints it in Japanese for product owners, with no stored personal data in it', async () => {
    const { code, output } = await impact(['--schemas', copy.schemasDir], stored);
    expect(code).toBe(EXIT.refused);
    const text = output.text;
    expect(output.lines[0]).toBe(texts.title);
    expect(text).toContain(`    ${edit.after}文字以上：2人　メッセージ「${edit.after}文字以上で入力してください」`);
    expect(text).toContain(`有効な会員 4人を判定：${required ? 3 : 2}人が通りません。`);
    expect(text).toContain('保存済みのお問い合わせ 2件を判定：2件が通りません。');
    expect(text).toContain(texts.failed);
    const inquiryEmails = (await h.db.selectFrom('inquiries').select('email').execute()).map((r) => r.email);
    for (const personal of [...emails, ...inquiryEmails, '佐藤', '次郎', '山田', '花子', ...inquiryTexts.map((t) => t.slice(0, 4))]) expect(text).not.toContain(personal);
  });

  it.skipIf(!required)(required ? `counts the field made required (${required.field}): 「必須」, （空欄） as its example, under its label in the text` : NO_OPTIONAL_FIELD, async () => {
    const { report } = await impact(['--schemas', copy.schemasDir, '--json'], stored);
    expect(formOf(report, 'edit-profile').fields.find((f) => f.field === required!.field)!.rules).toMatchObject([{ keyword: 'required', refused: 2, examples: [texts.empty] }]);
    const { output } = await impact(['--schemas', copy.schemasDir], stored);
    expect(output.text).toContain(`・${required!.label}（${required!.field}）：2人`);
  });

  it('--form judges only the forms named; an unknown one is a usage error (exit 2)', async () => {
    const { code, report } = await impact(['--schemas', copy.schemasDir, '--form', 'contact', '--json'], stored);
    expect(code).toBe(EXIT.refused);
    expect(report?.forms.map((f) => f.form)).toEqual(['contact']);
    const unknown = await impact(['--form', 'login'], stored);
    expect(unknown.code).toBe(EXIT.failed);
    expect(unknown.output.errors[0]).toContain('login');
  });

  it('small batches read every record once (keyset by id)', async () => {
    const result = await measureImpact(h.db, loadSchemaSet(copy.schemasDir), { batchSize: 1 });
    expect(result.forms.map((f) => [f.form, f.judged, f.refused])).toEqual([
      ['edit-profile', 4, required ? 3 : 2],
      ['register-profile', 4, 0],
      ['contact', 2, 2],
    ]);
  });

  it('a member the report counts sees the field on the edit screen, fixes it and saves; then nobody is counted', async () => {
    // Stored under an earlier, looser rule: one character short of today's minimum.
    const member = await h.createMember(undefined, undefined, { ...gaps, purpose_detail: japaneseText(edit.before - 1) });
    const before = await impact(['--json'], stored);
    expect(before.code).toBe(EXIT.refused);
    expect(fieldCounts(formOf(before.report, 'edit-profile'))).toEqual({ purpose_detail: 1 });

    const { token } = await h.loginWithCode(member);
    const saved = await h.updateInfo(token, validProfileUpdate(member.email, '1990-04-01', { purpose_detail: japaneseText(edit.before) }));
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await impact(['--json'], stored);
    expect(after.code).toBe(EXIT.passed);
    expect(formOf(after.report, 'edit-profile')).toMatchObject({ judged: 5, refused: 0 });
  });

  if (kind === 'postgres') {
    it('opens PostgreSQL read-only: a write is refused by the server, a read works', async () => {
      const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(h.db)).rows[0].schema;
      const db = openDb({ databaseUrl: PG_URL, dataDir: tmpdir(), pgSchema: schema, readOnly: true, onPoolError: () => {} });
      try {
        await expect(db.deleteFrom('users').execute()).rejects.toMatchObject({ code: '25006' });
        const result = await measureImpact(db, loadSchemaSet());
        expect(formOf({ ...result, database: '' }, 'edit-profile').judged).toBe(5);
      } finally {
        await db.destroy();
      }
    });
  }
});

describe('npm run impact on the SQLite file of DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'impact-sqlite-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const digest = () => createHash('sha256').update(readFileSync(sqliteFile(dataDir))).digest('hex');

  it('reads the file without changing it, and a write through its handle is refused', async () => {
    const db = openDb({ dataDir });
    await migrate(db);
    await createMember(db, 'hanako@example.jp', 'Correct-Horse-9!', gaps);
    await createMember(db, 'taro@example.jp', 'Correct-Horse-9!', { ...gaps, purpose_detail: '短い' });
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
    await db.destroy();
    const before = digest();

    const { code, report } = await impact(['--json'], () => openStoredData({ dataDir, databaseUrl: undefined }));
    expect(code).toBe(EXIT.refused);
    expect(report?.database).toBe(`SQLite（${sqliteFile(dataDir)}）`);
    expect(formOf(report, 'edit-profile')).toMatchObject({ judged: 2, refused: 1 });
    expect(digest()).toBe(before);

    const readOnly = openStoredData({ dataDir, databaseUrl: undefined });
    try {
      await expect(readOnly.db.deleteFrom('users').execute()).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
    } finally {
      await readOnly.close();
    }
    expect(digest()).toBe(before);
  });

  it('creates nothing where there is no database: it says so and exits 2', async () => {
    const missing = join(dataDir, 'not-here');
    const { code, output } = await impact([], () => openStoredData({ dataDir: missing, databaseUrl: undefined }));
    expect(code).toBe(EXIT.failed);
    expect(output.errors).toEqual([expect.stringContaining(sqliteFile(missing))]);
    expect(existsSync(missing)).toBe(false);
  });
});
