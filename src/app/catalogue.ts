import catalogue from '../../schemas/catalogue.json';

export type Access = 'public' | 'member';

export interface RouteEntry {
  path: string;
  access: Access;
  screen: string;
  title: string;
  forms: string[];
}

export const routes = catalogue.routes as RouteEntry[];
export const basePath = catalogue.basePath;
export const indexPath = `/${catalogue.index}`;
export const loginPath = `/${catalogue.loginPath}`;
