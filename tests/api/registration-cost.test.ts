// A registration without a verified address is refused before the password is hashed: bogus
// registrations cannot make the server spend argon2 time (76 a second used to saturate it).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail, validRegistration } from '../support/api-harness';

const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/services/passwords', async (original) => {
  const real = await original<typeof import('../../src/server/services/passwords')>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count++;
      return real.hashPassword(password);
    },
  };
});

describe.each(DATABASES)('registration cost ($name)', ({ kind }) => {
  let h: Harness;
  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('no verification, or a wrong one → VERIFICATION_REQUIRED without hashing the password', async () => {
    const { email, code } = await h.verifiedEmail();
    hashes.count = 0;
    for (let i = 0; i < 5; i++) {
      expectError(await h.register(validRegistration(h.uniqueEmail('bogus'), '12345')), 400, 'VERIFICATION_REQUIRED');
      expectError(await h.register(validRegistration(email, String((Number(code) + 1 + i) % 100_000).padStart(5, '0'))), 400, 'VERIFICATION_REQUIRED');
    }
    expect(hashes.count).toBe(0);
  });

  it('a verified registration hashes once', async () => {
    const { email, code } = await h.verifiedEmail();
    hashes.count = 0;
    expect((await h.register(validRegistration(email, code))).statusCode).toBe(200);
    expect(hashes.count).toBe(1);
  });
});
