import type { MasterName, MasterOption } from '../shared/api-types';
import { call } from './client';

export type { MasterName };

export class MasterLoadError extends Error {
  constructor(readonly master: MasterName) {
    super(`master ${master} could not be loaded`);
  }
}

export async function getMasterOptions(name: MasterName): Promise<MasterOption[]> {
  try {
    const list = await call<unknown>('get', '/master/options', { auth: 'none', params: { master_name: name } });
    if (!Array.isArray(list)) throw new Error('not a list');
    return list as MasterOption[];
  } catch (error) {
    console.error(`master ${name} failed`, error);
    throw new MasterLoadError(name);
  }
}

/** Several master lists at once, keyed by name. */
export async function getMasters(names: MasterName[]): Promise<Record<string, MasterOption[]>> {
  const lists = await Promise.all(names.map(getMasterOptions));
  return Object.fromEntries(names.map((name, i) => [name, lists[i]]));
}

/** The old flow's lists: the denshijiti master (GET /v1/master/denshijiti) and option lists,
 *  each an empty list when its fetch fails or answers something other than a list (the
 *  specification's old-flow rule); the failure is logged. */
export async function getMastersOrEmpty(names: Array<MasterName | 'denshijiti'>): Promise<Record<string, MasterOption[]>> {
  const lists = await Promise.all(
    names.map(async (name) => {
      try {
        const list =
          name === 'denshijiti'
            ? await call<unknown>('get', '/master/denshijiti', { auth: 'none' })
            : await call<unknown>('get', '/master/options', { auth: 'none', params: { master_name: name } });
        if (Array.isArray(list)) return list as MasterOption[];
        console.warn(`master ${name}: not a list`);
      } catch (error) {
        console.warn(`master ${name} failed`, error);
      }
      return [];
    }),
  );
  return Object.fromEntries(names.map((name, i) => [name, lists[i]]));
}
