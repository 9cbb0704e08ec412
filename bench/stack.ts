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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
  const [port, parent, smtp, web] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'member-site-bench-'));
  const child = runTs(
    'src/server/main.ts',
    { NODE_ENV: 'production', PORT: String(port), PARENT_SITE_PORT: String(parent), MAIL_CATCHER_SMTP_PORT: String(smtp), MAIL_CATCHER_WEB_PORT: String(web), DATA_DIR: dataDir, SEED_DEMO: 'true', DEMO_EMAIL: DEMO.email, DEMO_PASSWORD: DEMO.password },
    nodeFlags,
  );
  const appUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${appUrl}/user/login`);
  return {
    ...child,
    appUrl,
    mailUrl: `http://127.0.0.1:${web}`,
    dataDir,
    async stop() {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
