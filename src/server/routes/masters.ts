import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { masterFile, masterNames, masterOptions, type MasterName } from '../masters';
import { apiParams, apiResponse } from '../route-schemas';

export function masterRoutes(app: FastifyInstance, ctx: AppContext) {
  // The lists of the schemas folder the app runs on (schemas/masters/options.json).
  const names: readonly MasterName[] = masterNames(masterFile(ctx.schemas.dir));
  app.get('/v1/master/options', { schema: { querystring: apiParams(ctx.schemas, 'api.master-options-query.json'), response: { 200: apiResponse(ctx.schemas, 'api.master-options-response.json') } } }, async (request) => {
    const name = (request.query as { master_name?: string }).master_name;
    if (!names.includes(name as MasterName)) throw new ApiError('BAD_REQUEST');
    return masterOptions(ctx.db, name as MasterName);
  });

  // Built once at start-up from the shipped official list (it never changes while running).
  const denshijiti = { querystring: apiParams(ctx.schemas, 'api.master-denshijiti-query.json'), response: { 200: apiResponse(ctx.schemas, 'api.master-denshijiti-response.json') } };
  app.get('/v1/master/denshijiti', { schema: denshijiti }, async () => ctx.municipalities);
}
