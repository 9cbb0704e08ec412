// Migration 005: every stored address in its canonical form (src/shared/canonical-email.ts), so
// lookups and the one-active-member-per-address index work on it. Members registered before
// this under two spellings of one address (Hanako@… and hanako@…) cannot both be canonical:
// the one already canonical (or else the oldest) is kept, the others keep their spelling, cannot
// be found by address any more, and are reported for the secretariat to resolve — the migration
// does not fail over them.
import type { Kysely, Migration } from 'kysely';
import { canonicalEmail } from '../../shared/canonical-email';

interface Row {
  id: string;
  email: string;
  status: string;
  created_at: string;
}

/** The rows of each canonical address that cannot take it (all but one active member). */
export function caseDuplicates(rows: Row[]): Map<string, Row[]> {
  const byAddress = new Map<string, Row[]>();
  for (const row of rows.filter((r) => r.status === 'active')) {
    const key = canonicalEmail(row.email);
    byAddress.set(key, [...(byAddress.get(key) ?? []), row]);
  }
  const losers = new Map<string, Row[]>();
  for (const [address, group] of byAddress) {
    if (group.length < 2) continue;
    const keeper = group.find((r) => r.email === address) ?? [...group].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
    losers.set(address, group.filter((r) => r !== keeper));
  }
  return losers;
}

export const canonicalEmailsMigration: Migration = {
  async up(untyped: Kysely<unknown>) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its own time, not today's types
    const db = untyped as Kysely<any>;
    const rows: Row[] = await db.selectFrom('users').select(['id', 'email', 'status', 'created_at']).execute();
    const duplicates = caseDuplicates(rows);
    const skip = new Set([...duplicates.values()].flat().map((r) => r.id));
    for (const [address, group] of duplicates) {
      console.warn(
        `[migration 005] ${group.length + 1} active members share the address ${address} in different letter case; ` +
          `left unchanged (cannot log in by address until resolved): ${group.map((r) => `${r.id} <${r.email}>`).join(', ')}`,
      );
    }
    for (const row of rows) {
      const canonical = canonicalEmail(row.email);
      if (canonical !== row.email && !skip.has(row.id)) await db.updateTable('users').set({ email: canonical }).where('id', '=', row.id).execute();
    }
    for (const table of ['email_codes', 'email_verifications'] as const) {
      const pending: { id: string; email: string }[] = await db.selectFrom(table).select(['id', 'email']).execute();
      for (const row of pending) {
        const canonical = canonicalEmail(row.email);
        if (canonical !== row.email) await db.updateTable(table).set({ email: canonical }).where('id', '=', row.id).execute();
      }
    }
  },
};
