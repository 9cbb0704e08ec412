// Dev only (registered by scripts/dev.ts, never by the production server): for the form review
// page at /user/_forms, how many stored records the form as it is now on disk would refuse, per
// field, judged exactly as `npm run impact` judges them (src/server/impact), on a read-only
// handle of the database the dev server uses.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../src/server/errors';
import type { Db } from '../src/server/db/connect';
import { JUDGED_FORMS } from '../src/server/impact/form-judge';
import { measureImpact } from '../src/server/impact/measure';
import { reviewNotes } from '../src/server/impact/render';
import type { StoredImpactAnswer } from '../src/shared/impact';
import { loadSchemaSet } from '../src/shared/validation/schema-files';

/** Reads the schemas afresh on every call, so an edited schema is judged after a reload. */
export async function storedImpact(db: Db, name: string): Promise<StoredImpactAnswer | undefined> {
  const set = loadSchemaSet();
  if (!set.forms[name]) return undefined;
  if (!JUDGED_FORMS.some((f) => f.form === name)) return { impact: null };
  const impact = (await measureImpact(db, set, { forms: [name] })).forms[0] ?? null;
  if (!impact) return { impact: null };
  const { summary, fields } = reviewNotes(impact);
  return { impact, summary, notes: fields };
}

/** `db`: the stored data, opened on the first request (the dev server migrates it at start). */
export function devImpactRoutes(app: FastifyInstance, db: () => Db) {
  app.get<{ Params: { name: string } }>('/v1/_dev/forms/:name/impact', { config: { auth: 'client' } }, async (request) => {
    const answer = await storedImpact(db(), request.params.name);
    if (!answer) throw new ApiError('NOT_FOUND');
    return answer;
  });
}
