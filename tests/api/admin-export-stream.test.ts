// The members' CSV streams at the programme's size (issue 34 point 3): over 50,000 members the
// server reads one batch at a time and stops reading when the office's browser stops reading, so
// what it holds is one batch and the socket's buffers, never the file. Asked without compression:
// gzip would shrink the repeated test text to almost nothing, and every buffer would hold it all. Through the real route on
// a listening server (app.inject would buffer the whole answer), on SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { membersReads } from '../support/admin-records';
import { EXPORT_BATCH } from '../../src/server/admin/services/members';

const MEMBERS = 50_000;
/** A long address: each row is a few hundred bytes, so the file (≈ 15 MB) is far more than the
 *  socket's buffers can hold. */
const ADDRESS = '北海道札幌市中央区北一条西二丁目一番地　二地域居住応援プログラム記念会館　'.repeat(3);

describe.each(DATABASES)('the members CSV over 50,000 members ($name)', ({ kind }) => {
  let h: Harness;
  let clerk: TestOperator;
  /** Rows each read of the members handed over, in order. */
  const { plugin, reads } = membersReads();

  beforeAll(async () => {
    h = await Harness.start(kind, { plugins: [plugin] });
    clerk = await operatorSession(h.db, 'secretariat');
    const at = Date.parse('2001-01-01T00:00:00.000Z');
    for (let done = 0; done < MEMBERS; done += 500) {
      const rows = Array.from({ length: 500 }, (_, k) => {
        const i = done + k;
        const created = new Date(at + i * 1000).toISOString();
        return { id: randomUUID(), email: `many-${i}@example.com`, status: 'active' as const, password_hash: 'x', mail_opt: '1', created_at: created, updated_at: created, last_name_kanji: '多', first_name_kanji: `${i}`, address_current: ADDRESS };
      });
      await h.db.insertInto('users').values(rows).execute();
    }
    await h.app.listen({ port: 0, host: '127.0.0.1' });
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  it('a reader that stops after the first rows stops the server reading; one that reads on gets every row, one batch per read', async () => {
    const { port } = h.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v1/admin/members/export.csv?columns=email,first_name_kanji,address_current`, { headers: { ...clerk.headers, 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(text.startsWith('\uFEFF')).toBe(true);

    // The reader pauses. The server may fill the socket's buffers, then must wait: the count of
    // batches read stops growing well short of the whole table.
    const batches = () => reads.filter((n) => n > 0).length;
    let seen = -1;
    for (let still = 0; still < 20; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      still = batches() === seen ? still + 1 : 0;
      seen = batches();
    }
    const whole = Math.ceil(MEMBERS / EXPORT_BATCH);
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(whole / 2);

    // Reading on gets every member once, in order, and no read held more than one batch.
    let rows = 0;
    let last = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
      const cut = text.lastIndexOf('\r\n');
      for (const line of text.slice(0, cut).split('\r\n')) {
        if (line.startsWith('many-')) {
          rows++;
          last = line;
        }
      }
      text = text.slice(cut + 2);
    }
    expect(rows).toBe(MEMBERS);
    expect(last.startsWith(`many-${MEMBERS - 1}@example.com,${MEMBERS - 1},`)).toBe(true);
    expect(Math.max(...reads)).toBeLessThanOrEqual(EXPORT_BATCH);
    expect(batches()).toBeGreaterThanOrEqual(whole);
  }, 300_000);
});
