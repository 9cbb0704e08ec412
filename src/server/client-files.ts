// Serves the built client under /user/ (production mode). Every route of the single-page app
// answers with index.html, into which the run-time settings the client needs are written as a
// <meta> tag: no inline script, so the CSP can stay `script-src 'self'`.
// Each catalogue route gets its own copy, prepared once at start: it preloads the route's
// screen chunk with everything that chunk imports (no request waterfall) and prefetches the
// screens a member most likely opens next (catalogue "next"), see ADR 017. Scripts load at low
// priority, after the stylesheet the app shell paints with; source maps stay on the server
// (ADR 029).
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import catalogue from '../../schemas/catalogue.json';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import type { ClientSettings } from '../shared/api-types';
import { entryFiles, firstRenderFiles, readManifest, routeFiles, type RouteLike, type ViteManifest } from './route-assets';
import { ADMIN_DIST, serveAdminClient } from './admin/client';

export const CLIENT_SETTINGS_META = 'member-site-settings';

/** Hashed file names change with their content: cache for a year and never revalidate. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Module scripts and their preloads at low priority. The page's first paint is the app shell
 *  (the HTML and its stylesheet); module scripts never block it, and marked low they neither
 *  compete with the stylesheet for the connection nor count, in Lighthouse's model, as holding
 *  it back (ADR 029). */
export function lowPriorityScripts(html: string): string {
  return html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"');
}

export function injectSettings(html: string, settings: ClientSettings): string {
  const meta = `<meta name="${CLIENT_SETTINGS_META}" content="${attr(JSON.stringify(settings))}">`;
  return html.replace('</head>', `${meta}\n</head>`);
}

interface CatalogueRoute extends RouteLike {
  path: string;
  title: string;
  next?: string[];
}

/** What src/app/Layout.tsx renders before the screen's chunk has run (same elements and
 *  classes), written into the HTML so a phone paints the header and title at once instead of
 *  a blank frame until the scripts arrive. React replaces it with the same markup: no shift. */
export function appShell(title: string): string {
  return (
    `<div class="page"><header class="page__header"><p class="page__site">${html(messages.site.name)}</p>` +
    `<h1 class="page__title">${html(title)}</h1></header>` +
    `<main class="page__main"><p class="loading">${html(messages.app.loading)}</p></main></div>`
  );
}

function routePage(index: string, links: string, route: CatalogueRoute): string {
  const title = format(messages.app.titleFormat, { title: route.title, site: messages.site.name });
  return index
    .replace(/<title>[^<]*<\/title>/, `<title>${html(title)}</title>`)
    .replace('</head>', `${links}\n</head>`)
    .replace('<div id="root"></div>', `<div id="root">${appShell(route.title)}</div>`);
}

/** `<link>`s for one route: modulepreload for what its first render loads (beyond what
 *  index.html already loads; postal data, which depends on the member's code, aside), prefetch
 *  for the next screens' files that it does not load itself. */
export function routeLinks(manifest: ViteManifest, route: CatalogueRoute, routes: CatalogueRoute[], base: string): string {
  const entry = entryFiles(manifest);
  const own = firstRenderFiles(manifest, route);
  const preload = own.js.filter((file) => !entry.js.includes(file));
  const nextScreens = (route.next ?? []).map((path) => routes.find((r) => r.path === path)?.screen).filter((s): s is string => !!s);
  const prefetch = [...new Set(nextScreens.flatMap((screen) => routeFiles(manifest, screen).js))].filter((file) => !own.js.includes(file));
  return [
    ...own.css.filter((file) => !entry.css.includes(file)).map((file) => `<link rel="stylesheet" href="${base}${file}">`),
    ...preload.map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${base}${file}">`),
    ...prefetch.map((file) => `<link rel="prefetch" href="${base}${file}">`),
  ].join('\n');
}

export async function serveClient(app: FastifyInstance, distDir: string, settings: ClientSettings) {
  const index = lowPriorityScripts(injectSettings(readFileSync(join(distDir, 'index.html'), 'utf8'), settings));
  const manifest = readManifest(distDir);
  const routes = catalogue.routes as CatalogueRoute[];
  const base = `${catalogue.basePath}/`;
  const pages = new Map(routes.map((route) => [`${base}${route.path}`, routePage(index, routeLinks(manifest, route, routes, base), route)]));

  const assetsDir = join(distDir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/user/',
    index: false,
    wildcard: false,
    preCompressed: true, // the .br / .gz files the build wrote beside each asset
    dotfiles: 'ignore', // .vite/manifest.json is for the server, not for browsers
    // Source maps stay beside the build for error reports; browsers get 404 (ADR 029).
    // The back office's build (dist/admin/) is served under /admin/ only (./admin/client.ts).
    allowedPath: (path) => !path.endsWith('.map') && !path.startsWith(`/${ADMIN_DIST}/`),
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
    },
  });
  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    // A file the build did not make (an old hash, a source map) is not found, never the page.
    if (path.startsWith(`${base}assets/`)) return reply.callNotFound();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(pages.get(path) ?? index);
  };
  app.get('/user/*', sendPage);
  app.get('/user', (_, reply) => reply.redirect('/user/'));
  app.get('/', (_, reply) => reply.redirect('/user/'));
  await serveAdminClient(app, distDir);
}
