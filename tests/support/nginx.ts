// Debian's nginx for a test, run as the user the tests run as: the project's own example
// configuration (deploy/nginx.conf.example, the file README tells operators to copy) with only its
// ports replaced, inside a main configuration whose pid, logs and temporary files are in a
// temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const EXAMPLE = fileURLToPath(new URL('../../deploy/nginx.conf.example', import.meta.url));

/** The example's ports, as README's trial on one machine has them. */
const EXAMPLE_PORTS = { upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'], listen: 'listen 127.0.0.1:8081;' };

/** The example with nginx on `listen` and the upstream servers on `upstreams` (loopback ports).
 *  Throws when the example no longer has its ports where README says: the test must run on the
 *  file operators copy, not on a copy of its own. */
export function renderExample(listen: number, upstreams: [number, number]): string {
  let text = readFileSync(EXAMPLE, 'utf8');
  const swap = (from: string, to: string) => {
    const found = text.split(from).length - 1;
    if (found !== 1) throw new Error(`${EXAMPLE} has "${from}" ${found} times; once expected`);
    text = text.replace(from, to);
  };
  swap(EXAMPLE_PORTS.listen, `listen 127.0.0.1:${listen};`);
  EXAMPLE_PORTS.upstreams.forEach((server, i) => swap(`server ${server} `, `server 127.0.0.1:${upstreams[i]} `));
  return text;
}

export interface RunningNginx {
  url: string;
  /** nginx's error log so far (for a failing assertion's message). */
  errors(): string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on the rendered example; resolves once it answers /healthz
 *  through the upstream (both instances must be up). */
export async function startNginx(listen: number, upstreams: [number, number]): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'member-site-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers (nobody, when the tests run as root) use its temp paths
  writeFileSync(join(dir, 'member-site.conf'), renderExample(listen, upstreams));
  const errorLog = join(dir, 'error.log');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;', // one worker: its round robin alternates strictly between the servers
      'daemon off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`),
      `  include ${dir}/member-site.conf;`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errors = () => stderr + (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  const url = `http://127.0.0.1:${listen}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) {
      const log = errors();
      await stop();
      throw new Error(`nginx exited at start: ${log}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 250) {
      const log = errors();
      await stop();
      throw new Error(`nginx did not answer within 5 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, errors, stop };
}
