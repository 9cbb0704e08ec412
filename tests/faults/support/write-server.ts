// A bare API process for the kill -9 test: the real build() on the database the environment
// names (DATA_DIR for SQLite, or DATABASE_URL + PG_SCHEMA), a mailer that accepts everything,
// listening on a free loopback port that it prints as "PORT=<n>".
import type { AddressInfo } from 'node:net';
import { build } from '../../../src/server/app';
import { migrate, openDb } from '../../../src/server/db/connect';
import { CLIENT_KEY, SECRET, testConfig } from '../../support/api-harness';

const db = openDb({ dataDir: process.env.DATA_DIR!, databaseUrl: process.env.DATABASE_URL || undefined, pgSchema: process.env.PG_SCHEMA || undefined });
await migrate(db);
const app = await build({ db, mailer: { async send() {} }, clientKey: CLIENT_KEY, secret: SECRET, config: testConfig });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`PORT=${(app.server.address() as AddressInfo).port}\n`);
