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
}

export const routes = catalogue.routes as RouteEntry[];
export const basePath = catalogue.basePath;
export const indexPath = `/${catalogue.index}`;
export const loginPath = `/${catalogue.loginPath}`;

/** A route's setting from the catalogue (e.g. routeSetting('login', 'resendLockSeconds')). */
export const routeSetting = (path: string, name: string) => routeSettingOf(catalogue, path, name);
