// Serves the back office's client under /admin/ (production mode): dist/admin/, built by
// vite.admin.config.ts after the member site. Every path under /admin/ answers admin.html (the
// client routes by itself, src/admin/), its hashed assets are cached as the member site's
// (a year, immutable), and nothing of it may be framed: the member site's CSP with
// `frame-ancestors 'none'`, and X-Frame-Options DENY for browsers that read only that.
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import fastifyStatic from '@fastify/static';

export const ADMIN_BASE = '/admin/';
/** The folder of the back office's build inside the client's dist/. */
export const ADMIN_DIST = 'admin';
const ADMIN_HTML = 'admin.html';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The member site's CSP (set on every answer, src/server/app.ts) with frame-ancestors 'none'. */
export function adminPolicy(memberPolicy: string): string {
  const directives = memberPolicy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !/^frame-ancestors(\s|$)/.test(d));
  return [...directives, "frame-ancestors 'none'"].join(';');
}

/** Never framed: the CSP's frame-ancestors 'none' and X-Frame-Options DENY, on the raw answer
 *  (the headers the app's onRequest hook set there, the CSP among them, are rewritten). */
export function neverFramed(res: ServerResponse): void {
  const policy = res.getHeader('content-security-policy');
  res.setHeader('content-security-policy', adminPolicy(typeof policy === 'string' ? policy : "default-src 'self'"));
  res.setHeader('x-frame-options', 'DENY');
}

/** The page for every path under /admin/: no copy kept anywhere, never framed. */
export function sendAdminPage(reply: FastifyReply, html: string) {
  neverFramed(reply.raw);
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** Mounts /admin/ when the build has it (a member-only build serves no back office). */
export async function serveAdminClient(app: FastifyInstance, distDir: string): Promise<boolean> {
  const root = join(distDir, ADMIN_DIST);
  if (!existsSync(join(root, ADMIN_HTML))) return false;
  const page = readFileSync(join(root, ADMIN_HTML), 'utf8');
  const assetsDir = join(root, 'assets') + sep;
  await app.register(fastifyStatic, {
    root,
    prefix: ADMIN_BASE,
    index: false,
    wildcard: false,
    decorateReply: false,
    preCompressed: true,
    dotfiles: 'ignore',
    allowedPath: (path) => !path.endsWith('.map') && !path.endsWith('.html'),
    cacheControl: false,
    setHeaders(reply, path) {
      neverFramed(reply.raw);
      reply.header('cache-control', path.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
    },
  });
  app.get(`${ADMIN_BASE}*`, (request, reply) => {
    // A file the build did not make (an old hash, a source map) is not found, never the page.
    if (request.url.startsWith(`${ADMIN_BASE}assets/`)) return reply.callNotFound();
    return sendAdminPage(reply, page);
  });
  app.get('/admin', (_, reply) => reply.redirect(ADMIN_BASE));
  return true;
}
