// Serves the built client under /user/ (production mode). Every route of the single-page app
// answers with index.html, into which the run-time settings the client needs are written as a
// <meta> tag: no inline script, so the CSP can stay `script-src 'self'`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ClientSettings } from '../shared/api-types';


export const CLIENT_SETTINGS_META = 'member-site-settings';

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function injectSettings(html: string, settings: ClientSettings): string {
  const meta = `<meta name="${CLIENT_SETTINGS_META}" content="${attr(JSON.stringify(settings))}">`;
  return html.replace('</head>', `${meta}\n</head>`);
}

export async function serveClient(app: FastifyInstance, distDir: string, settings: ClientSettings) {
  const index = injectSettings(readFileSync(join(distDir, 'index.html'), 'utf8'), settings);
  await app.register(fastifyStatic, { root: distDir, prefix: '/user/', index: false, wildcard: false });
  const sendIndex = (_: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(index);
  app.get('/user/*', sendIndex);
  app.get('/user', (_, reply) => reply.redirect('/user/'));
  app.get('/', (_, reply) => reply.redirect('/user/'));
}
