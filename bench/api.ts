// API speed: GET /v1/user/info (member session check included) and GET /v1/master/options
// against a bare Fastify answering the same JSON, in the same run (autocannon); and the time a
// login takes against one argon2 verify, the part of it that is slow on purpose.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import argon2 from 'argon2';
import { openDb } from '../src/server/db/connect';
import { createSessions } from '../src/server/services/sessions';
import { DEMO, freePort, runTs, waitFor, type Stack } from './stack';

export interface ApiRow {
  route: string;
  reqPerSec: number;
  p99Ms: number;
  bareReqPerSec: number;
  bareP99Ms: number;
}

export interface LoginTiming {
  loginMs: number;
  argon2Ms: number;
}

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
/** Bare and app runs alternate this many times, best of each kept: on a shared machine a
 *  neighbour's burst then hurts one run, not the ratio. */
const ROUNDS = 2;
const CONNECTIONS = 10;

async function load(url: string, headers: Record<string, string>) {
  // a short warm-up first, so JIT and caches settle before the measured run
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { reqPerSec: result.requests.average, p99Ms: result.latency.p99 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function memberCredentials(stack: Stack) {
  const db = openDb({ dataDir: stack.dataDir });
  try {
    const user = await db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', DEMO.email).executeTakeFirstOrThrow();
    const sessions = createSessions(db, { sessionSeconds: 3600, sessionMaxSeconds: 43200, trustedDeviceDays: 90 });
    const { token } = await sessions.open(user.id);
    const device = await sessions.trustDevice(user.id);
    return { token, deviceToken: device.token, passwordHash: user.password_hash };
  } finally {
    await db.destroy();
  }
}

export async function clientKeyOf(stack: Stack): Promise<string> {
  const html = await (await fetch(`${stack.appUrl}/user/login`)).text();
  const content = /<meta name="member-site-settings" content="([^"]+)"/.exec(html)?.[1];
  if (!content) throw new Error('No client settings in the page');
  return (JSON.parse(content.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as { clientKey: string }).clientKey;
}

export async function measureApi(stack: Stack, workDir: string): Promise<ApiRow[]> {
  const { token } = await memberCredentials(stack);
  const clientKey = await clientKeyOf(stack);
  const targets: Array<{ route: string; path: string; headers: Record<string, string> }> = [
    { route: 'GET /v1/user/info', path: '/v1/user/info', headers: { authorization: `Bearer ${token}` } },
    { route: 'GET /v1/master/options', path: '/v1/master/options?master_name=industry', headers: { 'x-client-key': clientKey } },
  ];
  const answers: Record<string, unknown> = {};
  for (const target of targets) {
    const res = await fetch(stack.appUrl + target.path, { headers: target.headers });
    if (!res.ok) throw new Error(`${target.route}: HTTP ${res.status}`);
    answers[target.path.split('?')[0]] = await res.json();
  }
  const answersFile = join(workDir, 'bare-answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  const barePort = await freePort();
  const bare = runTs('bench/bare-server.ts', { PORT: String(barePort), BARE_ANSWERS: answersFile });
  try {
    await waitFor(`http://127.0.0.1:${barePort}/v1/user/info`);
    const rows: ApiRow[] = [];
    const best = (a: Awaited<ReturnType<typeof load>> | undefined, b: Awaited<ReturnType<typeof load>>) => (a && a.reqPerSec >= b.reqPerSec ? a : b);
    for (const target of targets) {
      let bareResult: Awaited<ReturnType<typeof load>> | undefined;
      let appResult: Awaited<ReturnType<typeof load>> | undefined;
      for (let round = 0; round < ROUNDS; round++) {
        bareResult = best(bareResult, await load(`http://127.0.0.1:${barePort}${target.path}`, target.headers));
        appResult = best(appResult, await load(stack.appUrl + target.path, target.headers));
      }
      rows.push({ route: target.route, ...appResult!, bareReqPerSec: bareResult!.reqPerSec, bareP99Ms: bareResult!.p99Ms });
    }
    return rows;
  } finally {
    await bare.stop();
  }
}

export async function measureLogin(stack: Stack, runs = 10): Promise<LoginTiming> {
  const { deviceToken, passwordHash } = await memberCredentials(stack);
  const clientKey = await clientKeyOf(stack);
  const login = async () => {
    const started = performance.now();
    const res = await fetch(`${stack.appUrl}/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-key': clientKey, cookie: `ms_trusted_device=${deviceToken}` },
      body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
    });
    if (!res.ok) throw new Error(`login: HTTP ${res.status} ${await res.text()}`);
    return performance.now() - started;
  };
  const verify = async () => {
    const started = performance.now();
    if (!(await argon2.verify(passwordHash, DEMO.password))) throw new Error('argon2: the demo password does not verify');
    return performance.now() - started;
  };
  await login();
  await verify();
  const logins: number[] = [];
  const verifies: number[] = [];
  for (let i = 0; i < runs; i++) {
    logins.push(await login());
    verifies.push(await verify());
  }
  return { loginMs: median(logins), argon2Ms: median(verifies) };
}
