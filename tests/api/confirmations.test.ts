// A confirmation field (the reset's new_password_confirm, registration STEP1's email_confirm)
// is not in the payload the specification names for its endpoint ({email, code, new_password};
// {email}), so the browser checks it. When a client does send it, the server judges it as the
// form does: a mismatch is refused under its name with the form's message, never accepted.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, expectError, Harness, setUpOrFail } from '../support/api-harness';
import { rulesOf } from '../support/schema-messages';

const MISMATCH = rulesOf('reset-password').message('new_password_confirm', 'sameAs');
const EMAIL_MISMATCH = rulesOf('register-email').message('email_confirm', 'sameAs');
const BIRTHDAY = '1985-12-24';
const PHONE = '09011112222';
const NEW_PASSWORD = 'New-Pass-2025?';

describe.each(DATABASES)('confirmation fields on the server ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function resetCode(): Promise<{ email: string; code: string; id: string }> {
    const email = h.uniqueEmail('confirm');
    const { id } = await h.createMember(email, 'Old-Pass-2024!', { birthday: BIRTHDAY, phone: PHONE });
    return { email, id, code: await h.requestResetCode({ email, birthday: BIRTHDAY, phone: PHONE }) };
  }

  const hashOf = async (id: string) => (await h.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;

  it('set-password with a new_password_confirm that differs → 400 under new_password_confirm, the password unchanged', async () => {
    const { email, code, id } = await resetCode();
    const before = await hashOf(id);
    const res = await h.post('/v1/user/set-password', { email, code, new_password: NEW_PASSWORD, new_password_confirm: `${NEW_PASSWORD}x` });
    expectError(res, 400, 'VALIDATION', { new_password_confirm: [MISMATCH] });
    expect(await hashOf(id)).toBe(before);
  });

  it('set-password with the same confirmation, or without one (the specification\'s payload) → 200', async () => {
    const first = await resetCode();
    expect((await h.post('/v1/user/set-password', { email: first.email, code: first.code, new_password: NEW_PASSWORD, new_password_confirm: NEW_PASSWORD })).statusCode).toBe(200);
    const second = await resetCode();
    expect((await h.setPassword(second.email, second.code, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('registration STEP1 with an email_confirm that differs → 400 under email_confirm, no mail', async () => {
    const email = h.uniqueEmail('confirm');
    const res = await h.post('/v1/email/register', { email, email_confirm: h.uniqueEmail('other') });
    expectError(res, 400, 'VALIDATION', { email_confirm: [EMAIL_MISMATCH] });
    expect(h.mailer.to(email)).toHaveLength(0);
    expect((await h.post('/v1/email/register', { email, email_confirm: email.toUpperCase() })).statusCode).toBe(200);
  });
});
