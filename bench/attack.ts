// npm run attack -- <member e-mail> [base URL]: what docs/decisions/015 says the limits withstand,
// sent at a running site on this machine while a person uses it: 50 wrong codes typed for the
// member's address (set-password, login, registration STEP1 verify) and 36 junk code requests
// (registration codes for junk addresses), spread over 3 requesting networks. Not a test; it
// prints what each request was answered. Loopback only, and bounded (86 requests in ~20 s).
// The networks are named in X-Forwarded-For, which the site believes from loopback (TRUST_PROXY).
const [email, base = 'http://127.0.0.1:3000'] = process.argv.slice(2);
if (!email) {
  console.error('usage: npm run attack -- <member e-mail> [base URL, default http://127.0.0.1:3000]');
  process.exit(2);
}
const url = new URL(base);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
  console.error('The attack script sends traffic to this machine only (127.0.0.1, localhost, [::1]).');
  process.exit(2);
}

/** The client key the site gives the page (its settings are embedded in the login page). */
async function clientKey(): Promise<string> {
  const html = await (await fetch(`${base}/user/login`)).text();
  const content = /<meta name="member-site-settings" content="([^"]+)"/.exec(html)?.[1];
  if (!content) throw new Error('No client settings in the login page');
  return (JSON.parse(content.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as { clientKey: string }).clientKey;
}

const NETWORKS = ['198.51.100', '203.0.113', '192.0.2'];
const tally = new Map<string, number>();
const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(key: string, path: string, body: unknown, n: number) {
  const res = await fetch(`${base}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-key': key, 'x-forwarded-for': `${NETWORKS[n % 3]}.${1 + (n % 200)}` },
    body: JSON.stringify(body),
  });
  const answer = res.ok ? 'ok' : ((await res.json().catch(() => ({}))) as { code?: string }).code ?? String(res.status);
  count(`${path} → ${res.status} ${answer}`);
}

const key = await clientKey();
const started = Date.now();
for (let i = 0; i < 50; i++) {
  const code = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  if (i % 3 === 0) await post(key, '/user/set-password', { email, code, new_password: 'Attacker-Pass-9!' }, i);
  else if (i % 3 === 1) await post(key, '/user/login', { email, password: 'Attacker-Pass-9!', code }, i);
  else await post(key, '/email/verify', { email, key: code }, i);
  await pause(200);
}
for (let i = 0; i < 36; i++) {
  await post(key, '/email/register', { email: `junk-${Date.now().toString(36)}-${i}@example.net` }, i);
  await pause(200);
}
console.log(`86 requests in ${((Date.now() - started) / 1000).toFixed(1)} s against ${base}, for ${email}:`);
for (const [what, n] of [...tally].sort()) console.log(`  ${String(n).padStart(3)} × ${what}`);
export {};
