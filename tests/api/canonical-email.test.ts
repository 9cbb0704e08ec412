// One address, one account: the server stores and compares e-mail addresses in their canonical
// form (trimmed, NFKC, lower case), so letter case cannot create a second account, bypass the
// per-address code quota or make login case-sensitive. Migration 005 brings older rows there and
// reports case duplicates instead of failing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail, testConfig, validRegistration } from '../support/api-harness';
import { canonicalEmail } from '../../src/shared/canonical-email';
import { openDb, migrate } from '../../src/server/db/connect';
import { migrationProvider } from '../../src/server/db/migrations';
import type { NewUser } from '../../src/server/db/types';

describe('canonicalEmail', () => {
  it.each([
    ['Hanako@Example.COM', 'hanako@example.com'],
    ['  hanako@example.com\t', 'hanako@example.com'],
    ['ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'hanako@example.com'],
    ['hanako@example.com', 'hanako@example.com'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalEmail(input)).toBe(expected);
  });
});

describe.each(DATABASES)('canonical addresses ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a registration in mixed case is stored canonical; another spelling of it cannot register again', async () => {
    const mixed = `Case-${Date.now()}@Example.COM`;
    const { email, code } = await h.verifiedEmail(mixed);
    expect((await h.register(validRegistration(email, code))).statusCode).toBe(200);
    const rows = await h.db.selectFrom('users').select('email').where('email', '=', canonicalEmail(mixed)).execute();
    expect(rows).toEqual([{ email: canonicalEmail(mixed) }]);

    h.mailer.clear();
    expect((await h.sendRegistrationCode(canonicalEmail(mixed))).statusCode).toBe(200);
    expect(h.mailer.sent.map((m) => m.template)).toEqual(['registerAttempted']);
    expect(await h.db.selectFrom('users').select('id').where('email', '=', canonicalEmail(mixed)).execute()).toHaveLength(1);
  });

  it('login works in any letter case', async () => {
    const m = await h.createMember(`Login-${Date.now()}@example.com`);
    const code = await h.requestCode({ email: m.email.toUpperCase(), password: m.password });
    const res = await h.login({ email: m.email.toLowerCase(), password: m.password, code });
    expect(res.statusCode, res.body).toBe(200);
  });

  it(`case variants share one code quota (${testConfig.codesPerHour} an hour)`, async () => {
    const base = `quota-${Date.now()}@example.com`;
    const variants = Array.from({ length: testConfig.codesPerHour + 1 }, (_, i) => base.replace(/[a-z]/g, (c, at: number) => ((i >> at % 6) & 1 ? c.toUpperCase() : c)));
    for (const v of variants.slice(0, -1)) expect((await h.sendRegistrationCode(v)).statusCode).toBe(200);
    expectError(await h.sendRegistrationCode(variants.at(-1)!), 429, 'CODE_RATE_LIMITED');
    expect(new Set(h.mailer.sent.filter((m) => canonicalEmail(m.to) === base).map((m) => m.to))).toEqual(new Set([base]));
  });
});

describe('migration 005 (SQLite)', () => {
  it('canonicalises stored addresses and reports case duplicates instead of failing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'member-site-m005-'));
    const db = openDb({ dataDir });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const result = await new Migrator({ db, provider: migrationProvider }).migrateTo('004-inquiries-throttle');
      expect(result.error).toBeUndefined();
      const row = (id: string, email: string, created: string) => ({
        id, email, status: 'active' as const, password_hash: 'x', created_at: created, updated_at: created, withdrawn_at: null,
      });
      // The other profile columns take their defaults (a member row as an old database holds it).
      const rows = [
        row('u1', 'Dup@Example.com', '2024-01-01T00:00:00.000Z'),
        row('u2', 'DUP@example.com', '2024-02-01T00:00:00.000Z'),
        row('u3', 'Single@Example.com', '2024-03-01T00:00:00.000Z'),
        row('u4', 'keep@example.com', '2024-04-01T00:00:00.000Z'),
        row('u5', 'KEEP@example.com', '2023-04-01T00:00:00.000Z'),
      ];
      await db.insertInto('users').values(rows as unknown as NewUser[]).execute();

      await migrate(db);

      const emails = Object.fromEntries((await db.selectFrom('users').select(['id', 'email']).execute()).map((r) => [r.id, r.email]));
      // Oldest of a group keeps the address; the one already canonical is kept when there is one.
      expect(emails).toEqual({ u1: 'dup@example.com', u2: 'DUP@example.com', u3: 'single@example.com', u4: 'keep@example.com', u5: 'KEEP@example.com' });
      const report = warn.mock.calls.map((c) => String(c[0])).join('\n');
      expect(report).toContain('dup@example.com');
      expect(report).toContain('u2');
      expect(report).toContain('u5');
      expect(report).not.toContain('single@example.com');
    } finally {
      warn.mockRestore();
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
