// The React-only page (bench/react-only/): built by vite with the app's compression (its brotli and
// Zopfli gzip files beside each asset) and served by @fastify/static from them, with the app's cache
// headers, so that Lighthouse compares the login page with React alone on the same terms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { IMMUTABLE } from '../src/server/client-files';
import { compressionPlugins } from '../vite.config';
import { ROOT } from './stack';

export async function startReactOnly(): Promise<{ url: string; stop: () => Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'member-site-react-only-'));
  await build({
    root: join(ROOT, 'bench/react-only'),
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react(), ...compressionPlugins()],
    build: { outDir, emptyOutDir: true },
  });
  const app = Fastify();
  await app.register(fastifyStatic, {
    root: outDir,
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
    },
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/`,
    stop: async () => {
      await app.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
