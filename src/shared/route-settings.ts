// Numbers product owners own for a screen (`settings` on a catalogue route: resendLockSeconds,
// pageSize), read the same way by the client and the server.
interface CatalogueLike {
  routes?: unknown;
}

/** A route's numeric setting, e.g. routeSettingOf(catalogue, 'login', 'resendLockSeconds'). */
export function routeSettingOf(catalogue: CatalogueLike, path: string, name: string): number {
  const routes = (Array.isArray(catalogue.routes) ? catalogue.routes : []) as Array<{ path?: unknown; settings?: Record<string, unknown> }>;
  const value = routes.find((route) => route.path === path)?.settings?.[name];
  if (typeof value !== 'number') throw new Error(`The catalogue route ${path} has no numeric settings.${name}`);
  return value;
}
