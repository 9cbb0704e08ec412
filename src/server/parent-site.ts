// A stand-in for the parent site: its own origin, with the member site in an iframe that it
// resizes from the app's height messages, as the real parent site does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const dir = fileURLToPath(new URL('../../parent-site/', import.meta.url));

export async function startParentSite(port: number, host: string, appUrl: string) {
  const app = Fastify();
  // Read once at start: path → [content type, file].
  const page = readFileSync(dir + 'index.html', 'utf8').replaceAll('__APP_URL__', appUrl);
  const files: Array<[string, string, string | Buffer]> = [
    // Stand-ins for the parent site's monitor-programme and survey pages my page links to.
    ['/monitor', 'text/html; charset=utf-8', readFileSync(dir + 'monitor.html')],
    ['/survey', 'text/html; charset=utf-8', readFileSync(dir + 'survey.html')],
    ['/parent.js', 'text/javascript', readFileSync(dir + 'parent.js')],
    ['/parent.css', 'text/css', readFileSync(dir + 'parent.css')],
    // The app's own icon: the parent's pages would otherwise ask for /favicon.ico and log a 404.
    ['/favicon.svg', 'image/svg+xml', readFileSync(fileURLToPath(new URL('../../public/favicon.svg', import.meta.url)))],
  ];
  // A link with `?path=/user/…` (the mails' links) gets its page with the frame already pointing
  // there: the frame loads once, instead of loading /user/ and being sent on by parent.js.
  app.get<{ Querystring: { path?: string } }>('/', (request, reply) => {
    const target = framedTarget(request.query.path, appUrl);
    const body = target ? page.replace(`src="${appUrl}/user/"`, `src="${target.replaceAll('&', '&amp;')}"`) : page;
    return reply.type('text/html; charset=utf-8').send(body);
  });
  for (const [path, type, body] of files) app.get(path, (_, reply) => reply.type(type).send(body));
  await app.listen({ port, host });
  return app;
}

/** The app URL a `?path=` names, when it is a path of the app's own origin under /user (as parent.js checks). */
export function framedTarget(path: unknown, appUrl: string): string | undefined {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return undefined;
  const target = new URL(path, appUrl);
  return target.origin === new URL(appUrl).origin && /^\/user(\/|$)/.test(target.pathname) ? target.href : undefined;
}
