// A stand-in for the parent site: its own origin, with the member site in an iframe that it
// resizes from the app's height messages, as the real parent site does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const dir = fileURLToPath(new URL('../../parent-site/', import.meta.url));

export async function startParentSite(port: number, host: string, appUrl: string) {
  const app = Fastify();
  // Read once at start: path → [content type, file].
  const files: Array<[string, string, string | Buffer]> = [
    ['/', 'text/html; charset=utf-8', readFileSync(dir + 'index.html', 'utf8').replaceAll('__APP_URL__', appUrl)],
    // Stand-ins for the parent site's monitor-programme and survey pages my page links to.
    ['/monitor', 'text/html; charset=utf-8', readFileSync(dir + 'monitor.html')],
    ['/survey', 'text/html; charset=utf-8', readFileSync(dir + 'survey.html')],
    ['/parent.js', 'text/javascript', readFileSync(dir + 'parent.js')],
    ['/parent.css', 'text/css', readFileSync(dir + 'parent.css')],
    // The app's own icon: the parent's pages would otherwise ask for /favicon.ico and log a 404.
    ['/favicon.svg', 'image/svg+xml', readFileSync(fileURLToPath(new URL('../../public/favicon.svg', import.meta.url)))],
  ];
  for (const [path, type, body] of files) app.get(path, (_, reply) => reply.type(type).send(body));
  await app.listen({ port, host });
  return app;
}
