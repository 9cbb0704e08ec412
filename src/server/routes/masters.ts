import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { masterFile, masterNames, masterOptions, type MasterName } from '../masters';
import { apiParams, apiResponse } from '../route-schemas';

/** How long a browser keeps a list without asking again: the lists change only when a start
 *  reseeds them (ADR 029). */
export const MASTER_MAX_AGE_SECONDS = 300;

// A list's tag, made once per list: masterOptions hands back the same array until a reseed.
const tags = new WeakMap<object, string>();
/** A weak tag of the list's content: the same on every instance, new when the list changes. */
function tagOf(list: object): string {
  let tag = tags.get(list);
  if (!tag) tags.set(list, (tag = `W/"${createHash('sha256').update(JSON.stringify(list)).digest('base64url').slice(0, 27)}"`));
  return tag;
}

/** Whether an If-None-Match header names `tag` (weak comparison, as for a GET). */
function matches(header: string | string[] | undefined, tag: string): boolean {
  if (!header) return false;
  const bare = (value: string) => value.trim().replace(/^W\//, '');
  return [header]
    .flat()
    .flatMap((value) => value.split(','))
    .some((value) => value.trim() === '*' || bare(value) === bare(tag));
}

/** The list, or 304 when the browser holds this very list; cacheable for a few minutes. A request
 *  with a member's token keeps the app's no-store (src/server/app.ts). */
function cacheable<T extends object>(request: FastifyRequest, reply: FastifyReply, list: T): T | FastifyReply {
  const tag = tagOf(list);
  reply.header('etag', tag);
  if (!request.headers.authorization) reply.header('cache-control', `public, max-age=${MASTER_MAX_AGE_SECONDS}`);
  return matches(request.headers['if-none-match'], tag) ? reply.code(304).send() : list;
}

export function masterRoutes(app: FastifyInstance, ctx: AppContext) {
  // The lists of the schemas folder the app runs on (schemas/masters/options.json).
  const names: readonly MasterName[] = masterNames(masterFile(ctx.schemas.dir));
  app.get('/v1/master/options', { schema: { querystring: apiParams(ctx.schemas, 'api.master-options-query.json'), response: { 200: apiResponse(ctx.schemas, 'api.master-options-response.json') } } }, async (request, reply) => {
    const name = (request.query as { master_name?: string }).master_name;
    if (!names.includes(name as MasterName)) throw new ApiError('BAD_REQUEST');
    return cacheable(request, reply, await masterOptions(ctx.db, name as MasterName));
  });

  // Built once at start-up from the shipped official list (it never changes while running).
  const denshijiti = { querystring: apiParams(ctx.schemas, 'api.master-denshijiti-query.json'), response: { 200: apiResponse(ctx.schemas, 'api.master-denshijiti-response.json') } };
  app.get('/v1/master/denshijiti', { schema: denshijiti }, async (request, reply) => cacheable(request, reply, ctx.municipalities));
}
