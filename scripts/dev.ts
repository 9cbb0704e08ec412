// npm run dev: the same stack as npm start, but the client comes from Vite with hot reload
// (schema edits reload the page too, see tools/vite-plugin-forms.ts), plus the dev-only form
// review page /user/_forms and its verdict endpoint (scripts/dev-form-verdict.ts), and how many
// stored records each form would refuse (scripts/dev-form-impact.ts, read-only).
import { readFileSync } from 'node:fs';
import middie from '@fastify/middie';
import { createServer } from 'vite';
import { startStack } from '../src/server/main';
import { injectSettings } from '../src/server/client-files';
import { sendAdminPage } from '../src/server/admin/client';
import { devFormRoutes } from './dev-form-verdict';
import { devImpactRoutes } from './dev-form-impact';
import { loadConfig } from '../src/server/config';
import type { Db } from '../src/server/db/connect';
import { openStoredData } from '../src/server/impact/cli';

let impactDb: Db | undefined;
const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
const stack = await startStack(undefined, {
  async mountClient(app, settings) {
    await app.register(middie);
    // The form review page's server verdict (/user/_forms): development only.
    devFormRoutes(app);
    devImpactRoutes(app, () => (impactDb ??= openStoredData(loadConfig()).db));
    app.use((req, res, next) => (req.url?.startsWith('/v1/') ? next() : vite.middlewares(req, res, next)));
    const page = async (url: string) => injectSettings(await vite.transformIndexHtml(url, readFileSync('index.html', 'utf8')), settings);
    app.get('/user/*', async (request, reply) => reply.type('text/html; charset=utf-8').send(await page(request.url)));
    app.get('/user', (_, reply) => reply.redirect('/user/'));
    app.get('/', (_, reply) => reply.redirect('/user/'));
    // The back office (src/admin/) from the same Vite server: its entry's modules load under /user/.
    app.get('/admin/*', async (request, reply) => sendAdminPage(reply, await vite.transformIndexHtml(request.url, readFileSync('admin.html', 'utf8'))));
    app.get('/admin', (_, reply) => reply.redirect('/admin/'));
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all([stack.close(), vite.close(), impactDb?.destroy()]).then(() => process.exit(0)));
}
