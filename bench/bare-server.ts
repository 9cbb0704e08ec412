// The yardstick: a bare Fastify answering fixed JSON on the same paths, no plugins, no hooks,
// no database. BARE_ANSWERS names a JSON file of { path: body } taken from the real server.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const answers = JSON.parse(readFileSync(process.env.BARE_ANSWERS!, 'utf8')) as Record<string, unknown>;
const app = Fastify();
for (const [path, body] of Object.entries(answers)) app.get(path, async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
