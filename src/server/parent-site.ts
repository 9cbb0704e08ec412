// A stand-in for the parent site: its own origin, with the member site in an iframe that it
// resizes from the app's height messages, as the real parent site does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const dir = fileURLToPath(new URL('../../parent-site/', import.meta.url));

export async function startParentSite(port: number, host: string, appUrl: string) {
  const app = Fastify();
  const page = readFileSync(dir + 'index.html', 'utf8').replaceAll('__APP_URL__', appUrl);
  app.get('/', (_, reply) => reply.type('text/html; charset=utf-8').send(page));
  // Stand-ins for the parent site's monitor-programme and survey pages my page links to.
  for (const page of ['monitor', 'survey']) {
    app.get(`/${page}`, (_, reply) => reply.type('text/html; charset=utf-8').send(readFileSync(`${dir}${page}.html`)));
  }
  app.get('/parent.js', (_, reply) => reply.type('text/javascript').send(readFileSync(dir + 'parent.js')));
  app.get('/parent.css', (_, reply) => reply.type('text/css').send(readFileSync(dir + 'parent.css')));
  // The app's own icon: the parent's pages would otherwise ask for /favicon.ico and log a 404.
  app.get('/favicon.svg', (_, reply) => reply.type('image/svg+xml').send(readFileSync(fileURLToPath(new URL('../../public/favicon.svg', import.meta.url)))));
  await app.listen({ port, host });
  return app;
}
