// The attempt limit must hold under concurrency: an attacker sending guesses in parallel must
// not get more than codeMaxAttempts tries at one code. Reads of email_codes are slowed down (a
// loaded database) so that the parallel requests overlap on every run, not just now and then.
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, SlowReads, expectError, testConfig, setUpOrFail, type Member } from '../support/api-harness';

/** A 5-digit code that is certainly not `code`. */
const otherCode = (code: string, step: number) => String((Number(code) + step) % 100_000).padStart(5, '0');

describe.each(DATABASES)('the code attempt limit under concurrent guesses ($name)', ({ kind }) => {
  let h: Harness;
  let member: Member;

  setUpOrFail(async () => {
    h = await Harness.start(kind, { plugins: [new SlowReads('email_codes', 40)] });
    member = await h.createMember('target@example.com', 'Target-Pass-4!');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('concurrent wrong codes get at most codeMaxAttempts tries, and the right code is then refused', async () => {
    const code = await h.requestCode(member);
    const tries = 2 * testConfig.codeMaxAttempts;
    const answers = await Promise.all(Array.from({ length: tries }, (_, i) => h.login({ ...member, code: otherCode(code, i + 1) })));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 400 || s === 429), statuses.join(',')).toBe(true);
    const row = await h.db.selectFrom('email_codes').select('attempts').where('email', '=', member.email).executeTakeFirstOrThrow();
    // At most codeMaxAttempts - 1 answers may say "wrong, try again"; the rest must be locked out.
    const wrong = statuses.filter((s) => s === 400).length;
    expect(wrong, `answers ${statuses.join(',')}; attempts counted ${row.attempts}`).toBeLessThanOrEqual(testConfig.codeMaxAttempts - 1);
    expectError(await h.login({ ...member, code }), 429, 'CODE_LOCKED');
  });
});
