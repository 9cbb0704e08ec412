// Wrong passwords (docs/decisions/015): refused per (address, requesting network), so a stranger's
// guesses hold only the stranger's network; address-wide they only slow every further check down
// (bounded) and tell the account's owner once a day by mail. The mailed code (or a passkey)
// stands behind every right password, and its own ceiling bounds a guesser's chance.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimits, LimitNumbers } from './rate-limits';
import { slowDownMs } from './rate-limits';

export interface PasswordTry {
  /** The refusing count's key: `<network>:<address>`, or a trusted device's. */
  key: string;
  /** The address-wide count's key; none for a device the member trusted (strangers never
   *  slow a member's own device). */
  scope?: string;
  /** Told once the address-wide count passes the slow-down's start, with the count. */
  tell?: (failures: number) => Promise<unknown>;
}

export function createPasswordGuard(limits: RateLimits, numbers: LimitNumbers) {
  const slow = { after: numbers.passwordSlowAfter, stepMs: numbers.slowStepMs, maxMs: numbers.slowMaxMs };
  return {
    /** Runs `check` (the password comparison) as one counted try: refused over the key's limit,
     *  slowed by the address-wide count; a failure is counted, a success ends the key's run. */
    async attempt<T>(t: PasswordTry, check: () => Promise<T | undefined>): Promise<T | undefined> {
      await limits.hit('password', t.key);
      if (t.scope) {
        const ms = slowDownMs(await limits.peek('passwordAddress', t.scope), slow);
        if (ms > 0) await sleep(ms);
      }
      const found = await check();
      if (found === undefined) {
        if (t.scope) {
          const failures = await limits.count('passwordAddress', t.scope);
          if (failures > numbers.passwordSlowAfter && t.tell) await t.tell(failures).catch(() => undefined);
        }
        return undefined;
      }
      await limits.reset('password', t.key);
      return found;
    },
  };
}

export type PasswordGuard = ReturnType<typeof createPasswordGuard>;
