import catalogue from '../../schemas/catalogue.json';
import { routeSettingOf } from '../shared/route-settings';

export type Access = 'public' | 'member';

export interface RouteEntry {
  path: string;
  access: Access;
  screen: string;
  title: string;
  forms: string[];
  /** Numbers product owners own for this screen (resendLockSeconds, pageSize). */
  settings?: Record<string, number>;
  /** Pages under this route's path that its screen shows too (contact_history/:id). */
  children?: Array<{ path: string; title: string }>;
  /** A member route that also opens right after withdrawal, when the session is gone (ADR 009). */
  afterWithdrawal?: boolean;
}

export const routes = catalogue.routes as RouteEntry[];

/** Every page the router serves: each route, and each of its children under the route's path
 *  with its own title, shown by the route's screen with the route's access. */
export const pages = routes.flatMap((entry) => [
  { path: entry.path, title: entry.title, entry },
  ...(entry.children ?? []).map((child) => ({ path: `${entry.path}/${child.path}`, title: child.title, entry })),
]);
export const basePath = catalogue.basePath;
export const indexPath = `/${catalogue.index}`;
export const loginPath = `/${catalogue.loginPath}`;

/** A route's setting from the catalogue (e.g. routeSetting('login', 'resendLockSeconds')). */
export const routeSetting = (path: string, name: string) => routeSettingOf(catalogue, path, name);
