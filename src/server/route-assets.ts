// Which built files a route needs before it can paint, read from Vite's manifest
// (dist/.vite/manifest.json). The server preloads them in each route's HTML, so the screen's
// chunk and everything it imports are fetched together instead of one after another; the byte
// budgets (tests/unit/bundle-budgets.test.ts) and `npm run bench` count the same files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

export const MANIFEST_PATH = '.vite/manifest.json';
const ENTRY = 'index.html';
export const screenModule = (screen: string) => `src/screens/${screen}/index.tsx`;

export function readManifest(distDir: string): ViteManifest {
  return JSON.parse(readFileSync(join(distDir, MANIFEST_PATH), 'utf8')) as ViteManifest;
}

/** A chunk and every chunk it imports statically (what must arrive before it runs). */
function staticClosure(manifest: ViteManifest, key: string, into: Set<string>): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

export interface RouteFiles {
  /** Script files (relative to dist/) the route runs at first load, the entry first. */
  js: string[];
  css: string[];
}

/** What index.html loads on every route. */
export function entryFiles(manifest: ViteManifest): RouteFiles {
  return filesOf(manifest, staticClosure(manifest, ENTRY, new Set()));
}

/** The files a screen's first load needs: the entry's closure plus the screen chunk's closure.
 *  A catalogue screen without a folder (a "coming soon" page) needs the entry only. */
export function routeFiles(manifest: ViteManifest, screen: string): RouteFiles {
  if (!manifest[ENTRY]) throw new Error(`No ${ENTRY} in the Vite manifest`);
  return filesOf(manifest, staticClosure(manifest, screenModule(screen), staticClosure(manifest, ENTRY, new Set())));
}

function filesOf(manifest: ViteManifest, keys: Set<string>): RouteFiles {
  const chunks = [...keys].map((key) => manifest[key]);
  return {
    js: [...new Set(chunks.map((chunk) => chunk.file))],
    css: [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))],
  };
}
