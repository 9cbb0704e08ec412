// npm run test:fuzz: generated invalid and hostile requests against every /v1 route the app
// registers (read from the app, not listed by hand), on SQLite and PostgreSQL, through inject().
// Every payload is invalid by construction — every string it carries holds a NUL or a lone
// surrogate, or it is not a JSON object at all — so the server must refuse all of them:
// never a 5xx, always a Japanese message, and not one database row changed.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { routesOf, type RouteSummary } from '../../src/server/app';
import { verifyFlows } from '../../src/server/routes/verify';
import { loadApiSchemas } from '../../src/shared/validation/schema-files';
import { CLIENT_KEY, DATABASES, Harness, expectJapaneseOnly, setUpOrFail, type ErrorBody } from '../support/api-harness';

/** Per database: 2 000 requests each on SQLite and PostgreSQL within `npm test` (about every route
 *  twenty times over), 10 000 by `npm run test:fuzz` (FUZZ_RUNS). fast-check's seed changes every run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);

/** Logout, the session's extension and the passkey challenges (docs/decisions/031) succeed
 *  whatever their body says: they are fuzzed with hostile credentials only. */
const IGNORES_BODY = new Set(['POST /v1/user/logout', 'POST /v1/user/session/extend', 'POST /v1/user/passkeys/options', 'POST /v1/user/passkey-login/options', 'POST /v1/admin/account/passkeys/options']);

/** Every property any API payload schema names, plus keys no schema knows. */
const FIELDS = [...new Set(Object.values(loadApiSchemas()).flatMap((schema) => Object.keys((schema.properties as object | undefined) ?? {})))];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', '$where', 'toString', '', ' ', 'email ', 'EMAIL', 'a'.repeat(300)];
const QUERY_KEYS = ['page', 'size', 'status', 'master_name', 'flow', 'id'];

const HOSTILE = [
  "' OR '1'='1", "'; DROP TABLE users; --", '" OR ""="', '1; SELECT pg_sleep(10)', '\\', '%', '_', '%00',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '{{7*7}}', '${jndi:ldap://x}', '../../etc/passwd',
  '\u202Eevil', '\uFEFF', '\u200B', 'ｆｕｌｌ＠ｗｉｄｔｈ', 'a@b', '@', 'null', 'undefined', 'NaN', '-0', '1e309',
  '9'.repeat(400), '😀👨‍👩‍👧', '𠮷', 'ß', 'İ', '\r\n', '\t', '\u0007', '\u001B[31m', 'あ'.repeat(3000), 'a'.repeat(70_000),
  // The URL/HTML ban's worst case (super-linear before issue 9; the timing test is tests/contract/pattern-time.test.ts).
  '<'.repeat(60_000), '<a'.repeat(30_000),
];
/** Each of these makes a string unstorable and invalid everywhere. */
const POISONS = ['\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'x\u0000\u0000'];

const hostileText = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const poisoned = fc.tuple(hostileText, fc.constantFrom(...POISONS), fc.nat()).map(([text, poison, at]) => {
  const cut = text.length ? at % (text.length + 1) : 0;
  return text.slice(0, cut) + poison + text.slice(cut);
});
const wrongType = fc.oneof(
  fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.array(fc.oneof(fc.integer(), poisoned), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...FIELDS), poisoned, { maxKeys: 3 }),
);
const fieldValue = fc.oneof({ weight: 3, arbitrary: poisoned }, { weight: 2, arbitrary: wrongType });
const flowValue = fc.constantFrom(...Object.keys(verifyFlows));

/** A JSON object: known fields with poisoned or wrongly typed values, sometimes a real flow. */
const poisonedObject = fc
  .tuple(
    fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_KEYS) }), fieldValue, { minKeys: 0, maxKeys: 12 }),
    fc.option(flowValue),
  )
  .map(([fields, flow]) => ({ kind: 'json' as const, value: flow === null ? fields : { ...fields, flow } }));

function nested(depth: number): unknown {
  let value: unknown = 'x\u0000';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const notAnObject = fc.oneof(
  fc.constantFrom(null, 0, -1, 1e308, true, false, '', 'email', [], [{}], 'x\u0000').map((value) => ({ kind: 'json' as const, value })),
  fc.array(poisoned, { maxLength: 4 }).map((value) => ({ kind: 'json' as const, value })),
  fc.integer({ min: 10, max: 3000 }).map((depth) => ({ kind: 'json' as const, value: nested(depth) })),
);

const rawBody = fc.oneof(
  fc.constantFrom('{', '{"email":', '{"email":"a"', '[1,2', 'nul', '{"a":1}{"b":2}', '\u0000', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}')
    .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })),
  fc.tuple(hostileText, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1'))
    .map(([text, contentType]) => ({ kind: 'raw' as const, text, contentType })),
  fc.constant({ kind: 'raw' as const, text: `{"email":"${'a'.repeat(70_000)}"}`, contentType: 'application/json' }),
);

const body = fc.oneof({ weight: 8, arbitrary: poisonedObject }, { weight: 2, arbitrary: notAnObject }, { weight: 2, arbitrary: rawBody });

const query = fc.dictionary(
  fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...ODD_KEYS.filter((k) => k.trim()))),
  fc.oneof(
    fc.constantFrom('1e309', '-1', '0', '9'.repeat(30), '99999999999999999999', '1.5', 'NaN', 'Infinity', '-0', '1;DROP', 'all', 'open', 'job', '\u0000', '%', ''),
    fc.string({ maxLength: 20 }).map((s) => `${s}\u0000`),
  ),
  { maxKeys: 4 },
);

const credentials = fc.constantFrom<'right' | 'none' | 'hostile'>('right', 'none', 'hostile');
const hostileCredential = fc.constantFrom('', ' ', 'null', 'Bearer', 'Bearer ', `Bearer ${'x'.repeat(5000)}`, "Bearer ' OR 1=1 --", 'Basic YWRtaW46YWRtaW4=', `${CLIENT_KEY}x`, CLIENT_KEY.toUpperCase());

function encodeQuery(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Every row of every table but the attempt counters (which count these requests by design) and
 *  a session's idle end (which every request with the member's token moves on by design, ADR 024). */
async function snapshot(h: Harness): Promise<string> {
  const tables = ['users', 'sessions', 'email_codes', 'trusted_devices', 'master_options', 'email_verifications', 'applications', 'notifications', 'withdrawals', 'inquiries', 'failed_attempts', 'mail_outbox'] as const;
  const hash = createHash('sha256');
  for (const table of tables) {
    const rows = await h.db.selectFrom(table).selectAll().execute();
    const lines = rows.map((row) => JSON.stringify(table === 'sessions' ? { ...row, expires_at: undefined } : row)).sort();
    hash.update(`${table}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}

describe.each(DATABASES)('fuzz: every /v1 route refuses hostile input ($name)', ({ kind }) => {
  let h: Harness;
  let token: string;
  let routes: RouteSummary[];
  setUpOrFail(async () => {
    h = await Harness.start(kind);
    const member = await h.createMember();
    ({ token } = await h.loginWithCode(member));
    routes = routesOf(h.app).filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('knows the routes from the app itself', () => {
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of ['POST /v1/user/login', 'POST /v1/contact', 'PUT /v1/user/info', 'GET /v1/user/contact/list', 'POST /v1/email/register']) expect(names).toContain(expected);
  });

  it(`${RUNS} generated requests: no 5xx, Japanese refusals, no row changed`, { timeout: 240_000 }, async () => {
    const before = await snapshot(h);
    const statuses = new Map<number, number>();
    let sent = 0;
    const request = fc.record({ route: fc.constantFrom(...routes), credentials, hostile: hostileCredential, body, query });
    await fc.assert(
      fc.asyncProperty(request, async ({ route, credentials: who, hostile, body: payload, query: params }) => {
        const member = route.auth === 'member' || route.auth === 'client-or-member';
        const onlyHostile = IGNORES_BODY.has(`${route.method} ${route.url}`);
        const auth = onlyHostile && who === 'right' ? 'hostile' : who;
        const headers: Record<string, string> = {};
        if (auth === 'right') {
          if (route.auth === 'member') headers.authorization = `Bearer ${token}`;
          else headers['x-client-key'] = CLIENT_KEY;
        } else if (auth === 'hostile') {
          if (member) headers.authorization = hostile;
          else headers['x-client-key'] = hostile;
        }
        const options: InjectOptions = { method: route.method as InjectOptions['method'], url: route.url + encodeQuery(params), headers };
        if (route.method !== 'GET') {
          if (payload.kind === 'json') {
            options.payload = JSON.stringify(payload.value);
            headers['content-type'] = 'application/json';
          } else {
            options.payload = payload.text;
            headers['content-type'] = payload.contentType;
          }
        }
        const res = await h.app.inject(options);
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${route.method} ${route.url} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (route.method !== 'GET') expect(res.statusCode, `${route.method} ${route.url} accepted ${String(options.payload).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        if (res.statusCode >= 400) expectJapaneseOnly(res.json<ErrorBody>());
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(sent).toBe(RUNS);
    expect(await snapshot(h)).toBe(before);
    // The session used throughout is still the member's: nothing logged it out.
    expect((await h.info(token)).statusCode).toBe(200);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  });
});
