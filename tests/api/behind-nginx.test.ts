// Two instances of the real stack (startStack, as `npm start` runs it) on one new PostgreSQL
// database, with nothing shared but DATABASE_URL and the mail relay, behind Debian's nginx
// running deploy/nginx.conf.example (the file README tells operators to copy, ports replaced).
// Through the proxy: a member registers across both instances and logs in across them, wrong
// codes count on both, a logout on one ends the session on both, the per-IP limit counts the
// client nginx names (TRUST_PROXY), and with one instance stopped the member goes on through
// the other. Which instance served a request is read from the instances' own HTTP servers.
// docs/decisions/027, README "Running several instances".
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import type { ErrorCode } from '../../src/server/errors';
import { startStack } from '../../src/server/main';
import { createMember } from '../../src/server/seed';
import { openDb, type Db } from '../../src/server/db/connect';
import { API_MESSAGES, setUpOrFail, validRegistration } from '../support/api-harness';
import { EXAMPLE, NGINX, startNginx, type RunningNginx } from '../support/nginx';
import { SiteClient, clientKeyOfPage, createDatabase, freePort, instanceEnv, standInDist, startSharedCatcher, type Answer, type FreshDatabase } from '../support/stack-start';

/** Limited requests (credentials, codes, mail) per client address per window: each scenario
 *  below comes from its own address and sends fewer; the last one sends more. */
const IP_LIMIT = 8;
const CODE_MAX_ATTEMPTS = 5;

type Name = 'A' | 'B';
type Stack = Awaited<ReturnType<typeof startStack>>;

const missing = !existsSync(NGINX) && !process.env.CI;

describe('README and deploy/nginx.conf.example', () => {
  const directives = (text: string) =>
    text
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim().replace(/\s+/g, ' '))
      .filter((line) => line && line !== '}');

  it('every line of the nginx configuration README quotes is in the file the test runs', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Running several instances'));
    const quoted = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
    expect(quoted, 'README quotes the configuration').toBeTruthy();
    const file = new Set(directives(readFileSync(EXAMPLE, 'utf8')));
    const lines = directives(quoted!);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(file.has(line), line).toBe(true);
  });
});

describe.skipIf(missing)(missing ? `behind nginx: skipped, ${NGINX} is missing (apt-get install nginx; CI installs it and runs this)` : 'two instances behind nginx on one PostgreSQL database', () => {
  let db: FreshDatabase;
  let dist: string;
  let catcher: Awaited<ReturnType<typeof startSharedCatcher>>;
  let nginx: RunningNginx;
  let reader: Db;
  const folders: string[] = [];
  const stacks = new Map<Name, Stack>();
  const direct = new Map<Name, string>();
  /** The instance each request reached, in order. */
  const served: Name[] = [];
  let clientKey: string;
  let address = 10;

  setUpOrFail(async () => {
    db = await createDatabase();
    dist = standInDist();
    catcher = await startSharedCatcher();
    const start = async (name: Name) => {
      const dir = mkdtempSync(join(tmpdir(), `member-site-nginx-${name}-`));
      folders.push(dir);
      const env = await instanceEnv(dir, {
        DATABASE_URL: db.url,
        SMTP_URL: catcher.smtpUrl,
        // nginx reaches the instances from 127.0.0.1: believe its X-Forwarded-For, no one else's
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_IP: String(IP_LIMIT),
        CODE_MAX_ATTEMPTS: String(CODE_MAX_ATTEMPTS),
        SEED_DEMO: 'false',
      });
      const stack = await startStack(loadConfig(env), {}, dist);
      stacks.set(name, stack);
      direct.set(name, `http://127.0.0.1:${env.PORT}`);
      stack.app.server.on('request', () => served.push(name));
      return Number(env.PORT);
    };
    const ports = await Promise.all([start('A'), start('B')]);
    nginx = await startNginx(await freePort(), [ports[0], ports[1]]);
    clientKey = clientKeyOfPage(await (await fetch(`${nginx.url}/user/`)).text());
    reader = openDb({ databaseUrl: db.url, dataDir: folders[0] });
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const stack of stacks.values()) await stack.close();
    await reader?.destroy();
    await catcher?.close();
    await db?.drop();
    for (const dir of [...folders, dist]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A browser tab reaching the site through nginx from a client address of its own. */
  const tab = () => new SiteClient(nginx.url, clientKey, `127.0.0.${address++}`);

  /** `call` through nginx, and the instance it reached (exactly one). */
  async function via(call: () => Promise<Answer>): Promise<{ res: Answer; by: Name }> {
    const before = served.length;
    const res = await call();
    const reached = served.slice(before);
    expect(reached, `one instance served it (nginx log: ${nginx.errors()})`).toHaveLength(1);
    return { res, by: reached[0] };
  }

  function expectAnswer(res: Answer, status: number, code?: ErrorCode) {
    expect(res.status, res.body).toBe(status);
    if (code) expect(res.json()).toEqual({ error: API_MESSAGES[code], code });
  }

  const other = (code: string, i: number) => String((Number(code) + i) % 10 ** code.length).padStart(code.length, '0');
  const email = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  /** A member logs in through nginx with a mailed code: the code is asked on one instance and
   *  typed on the other. */
  async function login(client: SiteClient, member: { email: string; password: string }) {
    const before = (await catcher.to(member.email)).length;
    const asked = await via(() => client.post('/v1/user/verify', { email: member.email, password: member.password }));
    expectAnswer(asked.res, 200);
    const code = await catcher.code(member.email, before + 1);
    const typed = await via(() => client.post('/v1/user/login', { email: member.email, password: member.password, code }));
    expectAnswer(typed.res, 200);
    expect(typed.by, 'the code was typed on the other instance').not.toBe(asked.by);
    client.token = typed.res.json<{ token: string }>().token;
    return typed.res;
  }

  it('a member registers with the code mailed by one instance on the other, and logs in across them', async () => {
    const client = tab();
    const address = email('nginx-register');
    const sent = await via(() => client.post('/v1/email/register', { email: address }));
    expectAnswer(sent.res, 200);
    const code = await catcher.code(address, 1);
    const verified = await via(() => client.post('/v1/email/verify', { email: address, key: code }));
    expectAnswer(verified.res, 200);
    expect(verified.by, 'verified on the instance that did not mail the code').not.toBe(sent.by);
    const payload = validRegistration(address, code);
    const registered = await via(() => client.post('/v1/user/register', payload));
    expectAnswer(registered.res, 200);
    expect(registered.by, 'registered on the instance that did not verify').not.toBe(verified.by);

    const later = tab();
    // A client's own X-Forwarded-Proto does not reach the app: nginx sets it ($scheme, http here),
    // so the trusted-device cookie is not marked Secure on plain http.
    const res = await login(later, { email: address, password: String(payload.password) });
    expect(String(res.headers['set-cookie'])).toContain('ms_trusted_device=');
    expect(String(res.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
    const seen = new Set<Name>();
    for (let i = 0; i < 2; i++) {
      const info = await via(() => later.get('/v1/user/info'));
      expectAnswer(info.res, 200);
      expect(info.res.json<{ email: string }>().email).toBe(address);
      seen.add(info.by);
    }
    expect([...seen].sort()).toEqual(['A', 'B']);
  });

  it(`wrong codes typed on both instances count together: the ${CODE_MAX_ATTEMPTS}th locks the code, the right one is refused after`, async () => {
    const member = { email: email('nginx-codes'), password: 'Correct-Horse-9!' };
    await createMember(reader, member.email, member.password);
    const client = tab();
    expectAnswer((await via(() => client.post('/v1/user/verify', member))).res, 200);
    const code = await catcher.code(member.email, 1);
    const seen = new Set<Name>();
    for (let i = 1; i <= CODE_MAX_ATTEMPTS; i++) {
      const wrong = await via(() => client.post('/v1/user/login', { ...member, code: other(code, i) }));
      expectAnswer(wrong.res, i < CODE_MAX_ATTEMPTS ? 400 : 429, i < CODE_MAX_ATTEMPTS ? 'CODE_INVALID' : 'CODE_LOCKED');
      seen.add(wrong.by);
    }
    expect([...seen].sort(), 'the wrong codes reached both instances').toEqual(['A', 'B']);
    expectAnswer((await via(() => client.post('/v1/user/login', { ...member, code }))).res, 429, 'CODE_LOCKED');
  });

  it('a logout through one instance ends the session on both', async () => {
    const member = { email: email('nginx-logout'), password: 'Correct-Horse-9!' };
    await createMember(reader, member.email, member.password);
    const client = tab();
    await login(client, member);
    const out = await via(() => client.post('/v1/user/logout'));
    expect(out.res.status, out.res.body).toBe(204);
    const seen = new Set<Name>();
    for (let i = 0; i < 2; i++) {
      const info = await via(() => client.get('/v1/user/info'));
      expectAnswer(info.res, 401, 'UNAUTHENTICATED');
      seen.add(info.by);
    }
    expect([...seen].sort()).toEqual(['A', 'B']);
  });

  it('the per-IP limit counts the client nginx names in X-Forwarded-For, on both instances together, not nginx', async () => {
    const first = tab();
    const second = tab();
    // A made-up mailed link: cheap, and counted per IP like every route anyone can use blind.
    const attempt = (client: SiteClient, headers?: Record<string, string>) => via(() => client.post('/v1/email/link', { key: 'A'.repeat(43) }, headers));
    const seen = new Set<Name>();
    for (let i = 0; i < IP_LIMIT; i++) {
      const res = await attempt(first);
      expect(res.res.status, res.res.body).not.toBe(429);
      seen.add(res.by);
    }
    expect([...seen].sort()).toEqual(['A', 'B']);
    expectAnswer((await attempt(first)).res, 429, 'TOO_MANY_ATTEMPTS');
    // Naming another client in its own X-Forwarded-For does not help: nginx appends the real one.
    expectAnswer((await attempt(first, { 'x-forwarded-for': '198.51.100.7' })).res, 429, 'TOO_MANY_ATTEMPTS');
    // Another client through the same nginx is not held.
    expect((await attempt(second)).res.status).not.toBe(429);
  });

  it('with one instance stopped mid-session, the member goes on through the other without an error', async () => {
    const member = { email: email('nginx-failover'), password: 'Correct-Horse-9!' };
    await createMember(reader, member.email, member.password);
    const client = tab();
    await login(client, member);
    await stacks.get('A')!.close();
    stacks.delete('A');
    await expect(fetch(`${direct.get('A')}/healthz`), 'A is down').rejects.toThrow();
    for (let i = 0; i < 4; i++) {
      const info = await via(() => client.get('/v1/user/info'));
      expectAnswer(info.res, 200);
      expect(info.by).toBe('B');
    }
    const extended = await via(() => client.post('/v1/user/session/extend'));
    expectAnswer(extended.res, 200);
    expect((await fetch(`${nginx.url}/readyz`)).status).toBe(200);
  });
});
