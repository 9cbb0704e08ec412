// Bytes each route's first load sends: the files route-assets.ts names, measured as the .gz and
// .br files the build wrote beside them (what @fastify/static serves). Used by the byte budgets
// (tests/unit/dist-clean.test.ts) and npm run bench.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { routeFiles, type ViteManifest } from '../src/server/route-assets.ts';

export interface RouteWeight {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

/** The compressed file the build wrote, or (below the build's 1 KB threshold) what it would be. */
function encodedSize(distDir: string, file: string, ext: 'gz' | 'br'): number {
  const path = join(distDir, `${file}.${ext}`);
  if (existsSync(path)) return statSync(path).size;
  const body = readFileSync(join(distDir, file));
  return (ext === 'gz' ? gzipSync(body, { level: 9 }) : brotliCompressSync(body)).length;
}

export function routeWeight(distDir: string, manifest: ViteManifest, screen: string): RouteWeight {
  const { js } = routeFiles(manifest, screen);
  const sum = (size: (file: string) => number) => js.reduce((total, file) => total + size(file), 0);
  return {
    files: js.length,
    raw: sum((file) => statSync(join(distDir, file)).size),
    gzip: sum((file) => encodedSize(distDir, file, 'gz')),
    brotli: sum((file) => encodedSize(distDir, file, 'br')),
  };
}
