// The production stack (src/server/main.ts, serving dist/) in a child process on free ports with
// a fresh data folder, so the load generator never shares the server's event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The member the stack seeds, whom the bench logs in. */
export const DEMO = { email: 'bench@example.com', password: 'Bench-Pass1!' };

/** `count` distinct loopback ports nothing listens on (just now): each is held until all are
 *  found, so the system cannot hand the same one out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<typeof server>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve(server));
      });
    }),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A loopback port nothing listens on (just now). */
export const freePort = async (): Promise<number> => (await freePorts(1))[0];

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Runs a TypeScript file with tsx in its own node process (extra node flags first, e.g. --cpu-prof). */
export function runTs(file: string, env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Stack extends Child {
  appUrl: string;
  mailUrl: string;
  dataDir: string;
}

export async function startStack(nodeFlags: string[] = []): Promise<Stack> {
  const [port, parent, smtp, web] = await freePorts(4);
  const dataDir = mkdtempSync(join(tmpdir(), 'member-site-bench-'));
  const child = runTs(
    'src/server/main.ts',
    { NODE_ENV: 'production', PORT: String(port), PARENT_SITE_PORT: String(parent), MAIL_CATCHER_SMTP_PORT: String(smtp), MAIL_CATCHER_WEB_PORT: String(web), DATA_DIR: dataDir, SEED_DEMO: 'true', DEMO_EMAIL: DEMO.email, DEMO_PASSWORD: DEMO.password },
    nodeFlags,
  );
  const appUrl = `http://127.0.0.1:${port}`;
  const stack: Stack = {
    ...child,
    appUrl,
    mailUrl: `http://127.0.0.1:${web}`,
    dataDir,
    async stop() {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // A server that cannot start (a port taken meanwhile, say) says so at once, not after the wait.
  const exited = new Promise<never>((_, reject) => child.process.once('exit', (code) => reject(new Error(`The server exited (${code}) before it answered`))));
  exited.catch(() => {}); // it exits when stopped, too
  try {
    await Promise.race([waitFor(`${appUrl}/user/login`), exited]);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}
