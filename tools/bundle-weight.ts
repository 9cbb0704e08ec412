// Bytes each route's first render loads: the files route-assets.ts names (of a group that depends
// on the data, the largest), measured as the .gz and .br files the build wrote beside them (what
// @fastify/static serves). Used by the byte budgets (tests/unit/dist-clean.test.ts) and npm run
// bench.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { firstRenderFiles, type RouteLike, type ViteManifest } from '../src/server/route-assets.ts';

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

export function routeWeight(distDir: string, manifest: ViteManifest, route: RouteLike): RouteWeight {
  const { js, oneOf } = firstRenderFiles(manifest, route);
  const gzipOf = (files: string[]) => files.reduce((total, file) => total + encodedSize(distDir, file, 'gz'), 0);
  // of the groups one of which loads, the largest (by gzip)
  const largest = oneOf.reduce<string[]>((best, group) => (gzipOf(group) > gzipOf(best) ? group : best), []);
  const files = [...js, ...largest];
  const sum = (size: (file: string) => number) => files.reduce((total, file) => total + size(file), 0);
  return {
    files: files.length,
    raw: sum((file) => statSync(join(distDir, file)).size),
    gzip: gzipOf(files),
    brotli: sum((file) => encodedSize(distDir, file, 'br')),
  };
}
