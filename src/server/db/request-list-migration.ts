// Migration 025: the office's list of members' requests (issue 37 point 3, schemas/records/requests.json)
// read soonest due first over every status ("all" on the screen): one index of the same order,
// beside member_requests_status_due (023), which serves one status. With it every declared read
// of the list is one range in its order (tests/api/query-plans.test.ts).
import type { Kysely, Migration } from 'kysely';

export const requestListMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('member_requests_due').on('member_requests').columns(['due_at', 'id']).execute();
  },
};
