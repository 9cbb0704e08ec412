import argon2 from 'argon2';

// OWASP's argon2id minimum: 19 MiB memory, 2 iterations, parallelism 1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/** Verifies against the stored hash, or against a dummy one when there is no member, so an
 *  unknown address costs the same time as a wrong password. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummy ??= hashPassword('dummy-password-for-timing');
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
