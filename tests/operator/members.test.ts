// npm run operator -- members show <email>, in-process against SQLite and PostgreSQL: the account
// and every field of the member record under its form's title, as the info view shows it; a
// field added to the forms' JSON (the member-field copy) is shown with no code change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { showMemberOf } from '../../src/server/operator/members';
import { say } from '../../src/server/operator/text';
import { DATABASES, Harness, japaneseText, setUpOrFail } from '../support/api-harness';
import { makeMemberFieldCopy, type MemberFieldCopy } from '../support/member-field-copy';
import { RecordingOutput, operator, operatorText as text } from './operator-support';

/** The value on the line that starts with `label` (aligned columns), or undefined. */
const valueOf = (lines: string[], label: string) => lines.find((line) => line.startsWith(`${label} `))?.slice(label.length).trim();

describe.each(DATABASES)('operator: members show ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the account and the member record with the forms\' titles and option labels', async () => {
    const member = await h.registerMember(undefined, { purpose: ['1', '99'], purpose_other: japaneseText(25), amc: '' });
    const res = await operator(h, 'members', 'show', member.email.toUpperCase());
    expect(res.code, res.stderr).toBe(0);
    expect(valueOf(res.out, text.members.fields.email)).toBe(member.email);
    expect(valueOf(res.out, text.members.fields.status)).toBe(text.members.status.active);
    expect(valueOf(res.out, '氏名')).toBe('山田 太郎');
    // Stored in its passport spelling (docs/decisions/036).
    expect(valueOf(res.out, '氏名（ローマ字）')).toBe('YAMADA TARO');
    expect(valueOf(res.out, '生年月日')).toBe('1988年7月15日');
    expect(valueOf(res.out, '郵便番号')).toBe('〒100-0001');
    expect(valueOf(res.out, '電話番号')).toBe('09012345678');
    expect(valueOf(res.out, 'マイレージクラブお客様番号')).toBe('-');
    expect(valueOf(res.out, '二地域居住の目的')).toMatch(new RegExp(`、その他（${japaneseText(25)}）$`));
    // A field only the old registration form has (the desired municipality) is a field too.
    expect(valueOf(res.out, '希望する自治体')).toBe('-');
  });

  it('an unknown address → exit 1; no address → the usage', async () => {
    const unknown = await operator(h, 'members', 'show', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(say(text.errors.unknownAddress, { email: 'nobody@example.com' }));
    const none = await operator(h, 'members', 'show');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(text.errors.memberEmailRequired);
  });
});

describe.each(DATABASES)('operator: members show on a field added in JSON alone ($name)', ({ kind }) => {
  let copy: MemberFieldCopy;
  let h: Harness;
  beforeAll(() => {
    copy = makeMemberFieldCopy();
  });
  setUpOrFail(async () => {
    h = await Harness.start(kind, { schemasDir: copy.schemasDir });
  });
  afterAll(async () => {
    await h?.close();
    copy?.remove();
  });

  it('the new select is shown by its title and its option\'s label', async () => {
    const member = await h.registerMember(undefined, { prefecture: '13' });
    const output = new RecordingOutput();
    await showMemberOf(() => loadSchemaSet(copy.schemasDir))(h.db, h.mailer, [member.email], output);
    expect(valueOf(output.outLines, '都道府県')).toBe('東京都');
  });
});
