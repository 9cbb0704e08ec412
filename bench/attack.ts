// npm run attack -- <member e-mail> [options]: what docs/decisions/015 says the limits withstand,
// sent at a running site on this machine while a person uses it (issue 33's R1–R6). Not a test: it
// prints what each request was answered, attack by attack. Loopback only, and bounded (about 500
// requests, a few minutes at the default pace).
//
//   --birthday YYYY-MM-DD --phone 0312345678   the member's reset identity (R4; default: the demo's)
//   --newcomer <e-mail>                         an address nobody has registered yet (R3)
//   --operator <e-mail>                         a back-office operator's address (R6)
//   --base <URL>                                the site (default http://127.0.0.1:3000)
//   --pause <ms>                                between requests (default 100)
//
// The networks are named in X-Forwarded-For, which the site believes from loopback (TRUST_PROXY).
// R2's junk comes from 127.0.0.0/24, the network of a browser on this machine: the person using
// the site meanwhile shares the attacker's /24, as a carrier's NAT would have it.
import { parseArgs } from 'node:util';
import demo from '../src/server/demo-profile.json' with { type: 'json' };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    birthday: { type: 'string', default: demo.birthday },
    phone: { type: 'string', default: demo.phone },
    newcomer: { type: 'string' },
    operator: { type: 'string' },
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    pause: { type: 'string', default: '100' },
  },
});
const [email] = positionals;
const base = positionals[1] ?? values.base!;
if (!email) {
  console.error('usage: npm run attack -- <member e-mail> [--birthday YYYY-MM-DD --phone … --newcomer <e-mail> --operator <e-mail> --base URL --pause ms]');
  process.exit(2);
}
const url = new URL(base);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
  console.error('The attack script sends traffic to this machine only (127.0.0.1, localhost, [::1]).');
  process.exit(2);
}
const pauseMs = Number(values.pause);

/** The client key the site gives the page (its settings are embedded in the login page). */
async function clientKey(): Promise<string> {
  const html = await (await fetch(`${base}/user/login`)).text();
  const content = /<meta name="member-site-settings" content="([^"]+)"/.exec(html)?.[1];
  if (!content) throw new Error('No client settings in the login page');
  return (JSON.parse(content.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as { clientKey: string }).clientKey;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
const code = () => String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
const key = await clientKey();

interface Answer {
  status: number;
  code: string;
  flow?: string;
  body: Record<string, unknown>;
}

async function post(path: string, body: unknown, from: string, flow?: string): Promise<Answer> {
  const res = await fetch(`${base}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-key': key, 'x-forwarded-for': from, ...(flow ? { 'x-code-flow': flow } : {}) },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  await pause();
  return { status: res.status, code: res.ok ? 'ok' : String(parsed.code ?? res.status), flow: res.headers.get('x-code-flow') ?? undefined, body: parsed };
}

/** One attack: its requests tallied by route and answer. */
async function attack(title: string, run: (send: typeof post) => Promise<void>) {
  const tally = new Map<string, number>();
  const started = Date.now();
  await run(async (path, body, from, flow) => {
    const answer = await post(path, body, from, flow);
    const line = `${path} → ${answer.status} ${answer.code}`;
    tally.set(line, (tally.get(line) ?? 0) + 1);
    return answer;
  });
  console.log(`\n${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const [line, n] of [...tally].sort()) console.log(`  ${String(n).padStart(4)} × ${line}`);
}

console.log(`Attacking ${base} for ${email}, ${pauseMs} ms between requests.`);

await attack('R1: 101 wrong passwords for the address from one network (198.51.100.0/24)', async (send) => {
  for (let i = 0; i <= 100; i++) await send('/user/verify', { email, password: `Attacker-Pass-${i}!` }, `198.51.100.${1 + (i % 250)}`);
});

await attack('R2: 60 junk registration codes from the /24 a browser on this machine is on (127.0.0.0/24)', async (send) => {
  for (let i = 0; i < 60; i++) await send('/email/register', { email: `junk-${Date.now().toString(36)}-${i}@example.net` }, `127.0.0.${2 + (i % 200)}`);
});

await attack('R4: the reset identity from 5 networks, 5 wrong codes in each flow', async (send) => {
  for (let round = 0; round < 5; round++) {
    const from = `203.0.113.${10 + round}`;
    const asked = await send('/user/verify', { flow: 'password_change', email, birthday: values.birthday, phone: values.phone }, from);
    if (!asked.flow) continue;
    for (let i = 0; i < 5; i++) await send('/user/set-password', { email, code: code(), new_password: 'Attacker-Pass-9!' }, from, asked.flow);
  }
});

if (values.newcomer) {
  const newcomer = values.newcomer;
  await attack(`R3: registration codes for ${newcomer} from 3 networks, 5 wrong codes in each flow`, async (send) => {
    for (let round = 0; round < 12; round++) {
      const from = `192.0.2.${10 + (round % 3)}`;
      const asked = await send('/email/register', { email: newcomer }, from);
      if (!asked.flow) continue;
      for (let i = 0; i < 5; i++) await send('/email/verify', { email: newcomer, key: code() }, from, asked.flow);
    }
  });
}

await attack('R5: attempts others can make mail the member: registrations of the address and password-less codes, from 12 networks', async (send) => {
  for (let i = 0; i < 12; i++) {
    const from = `198.18.${i}.1`;
    await send('/email/register', { email }, from);
    await send('/user/verify', { email }, from);
  }
});

if (values.operator) {
  const operator = values.operator;
  await attack(`R6: 120 wrong passwords for the operator ${operator} from 120 networks`, async (send) => {
    for (let i = 0; i < 120; i++) await send('/admin/login', { email: operator, password: `Attacker-Pass-${i}!` }, `198.19.${i}.1`);
  });
}

console.log('\nEach limit costs only its trigger: the member still logs in (password and code, or a passkey), resets by identity and code or by the link in the reset mail, and is told of the attempts in one mail of each kind a day (docs/decisions/015).');
export {};
