// Seeds a database with the office's real size, to try the back office by hand (a helper, not a
// test): the members, applications and inquiries of `npm run bench -- --only=office` (varied
// names, prefectures, statuses; a few dozen registered today). Writes into the database the site
// would use (DATA_DIR or DATABASE_URL): point it at a fresh one, then start the site on it.
//
//   DATA_DIR=/tmp/office SCALE_MEMBERS=100000 SCALE_INQUIRIES=100000 npx tsx bench/seed-office.ts
//   DATA_DIR=/tmp/office npm start
import { loadConfig } from '../src/server/config';
import { migrate, openDb } from '../src/server/db/connect';
import { OFFICE_INQUIRIES, OFFICE_MEMBERS, seedOffice } from './office';

const config = loadConfig(process.env);
const db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
try {
  await migrate(db);
  const started = performance.now();
  await seedOffice(db);
  console.log(`seeded ${OFFICE_MEMBERS} members and ${OFFICE_INQUIRIES} inquiries in ${((performance.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await db.destroy();
}
