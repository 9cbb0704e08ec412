// Starting the real stack (startStack, the path `npm start` takes) inside a test: free ports, a
// stand-in dist/ (vitest runs before `npm run build`), fresh PostgreSQL databases, the shared
// mail catcher the instances of a deployment would mail through, and the client key a page
// carries.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePorts } from '../../bench/stack';
import { CLIENT_SETTINGS_META } from '../../src/server/client-files';
import { startMailCatcher } from '../../src/server/mail/catcher';
import { MANIFEST_PATH } from '../../src/server/route-assets';
import { codeLength } from '../../src/server/schema-settings';
import { PG_URL } from './api-harness';
import { schemaSet } from './schema-messages';

export { freePort, freePorts } from '../../bench/stack';

/** A stand-in dist/ (ending in '/'): the page and the one script the client files need. */
export function standInDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'member-site-stack-dist-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="ja"><head><title>t</title><script type="module" src="/user/assets/index-AAAA.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(join(dir, 'assets/index-AAAA.js'), 'export {};\n');
  writeFileSync(join(dir, MANIFEST_PATH), JSON.stringify({ 'index.html': { file: 'assets/index-AAAA.js', isEntry: true } }));
  return dir + '/';
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect(); // unreachable PostgreSQL fails the suite: it must never be skipped
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface FreshDatabase {
  /** DATABASE_URL of the new database (its default schema, as a deployment has it). */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database on PG_URL's server. */
export async function createDatabase(): Promise<FreshDatabase> {
  const name = `ms_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}) };
}

/** The environment of one instance: every port free, its own data folder; `extra` on top. */
export async function instanceEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const [port, parent, smtp, web] = await freePorts(4);
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    PARENT_SITE_PORT: String(parent),
    MAIL_CATCHER_SMTP_PORT: String(smtp),
    MAIL_CATCHER_WEB_PORT: String(web),
    DATA_DIR: dataDir,
    ...extra,
  };
}

/** The client key a served page hands the browser (its settings meta tag). */
export function clientKeyOfPage(page: string): string {
  const meta = new RegExp(`<meta name="${CLIENT_SETTINGS_META}" content="([^"]*)">`).exec(page);
  if (!meta) throw new Error('The page carries no settings');
  const settings = JSON.parse(meta[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as { clientKey: string };
  return settings.clientKey;
}

export interface CaughtMail {
  subject: string;
  text: string;
  to: Array<{ address: string }>;
}

/** One mail catcher (the project's own, maildev) that several instances mail through
 *  (SMTP_URL), as a deployment's instances share one relay. */
export async function startSharedCatcher() {
  const [smtpPort, webPort] = await freePorts(2);
  const catcher = await startMailCatcher(smtpPort, webPort);
  const all = async () => (await (await fetch(`http://127.0.0.1:${webPort}/email`)).json()) as CaughtMail[];
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    close: () => catcher.close(),
    /** Mail to `address` so far, oldest first. */
    async to(address: string): Promise<CaughtMail[]> {
      return (await all()).filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
    },
    /** The code in the `count`-th mail to `address` (waits for the catcher to have stored it). */
    async code(address: string, count: number): Promise<string> {
      for (let tries = 0; ; tries++) {
        const mail = (await this.to(address))[count - 1];
        const match = mail && new RegExp(`^\\s*(\\d{${codeLength(schemaSet())}})\\s*$`, 'm').exec(mail.text);
        if (match) return match[1];
        if (tries > 100) throw new Error(`No code in mail #${count} to ${address}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** A client of a running site over real HTTP, as one browser tab: it sends the client key (or
 *  the member's token once it has one) and carries the code flow the answers name. From
 *  `localAddress` (any 127.x.y.z on Linux) it is a client of its own for the per-IP limits. */
export class SiteClient {
  flow: string | undefined;
  token: string | undefined;

  constructor(
    public base: string,
    readonly clientKey: string,
    readonly localAddress?: string,
  ) {}

  request(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, this.base);
    const all: Record<string, string> = {
      ...(this.token ? { authorization: `Bearer ${this.token}` } : { 'x-client-key': this.clientKey }),
      ...(this.flow ? { 'x-code-flow': this.flow } : {}),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method, headers: all, localAddress: this.localAddress, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const named = res.headers['x-code-flow'];
          if (typeof named === 'string') this.flow = named;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: <T>() => JSON.parse(text) as T });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
}
