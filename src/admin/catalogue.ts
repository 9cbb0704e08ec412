// The back office's routes, from schemas/admin-catalogue.json: which screen each path shows and
// which roles may open it (the menu and the guard use the same list).
import catalogue from '../../schemas/admin-catalogue.json';
import type { Role } from '../shared/admin-api';

export interface AdminPage {
  path: string;
  title: string;
  screen: string;
  access: 'public' | 'operator';
  roles: Role[];
  /** A route's own page, not one of its children: the menu lists these. */
  top: boolean;
}

interface CatalogueRoute {
  path: string;
  access: string;
  screen: string;
  title: string;
  roles?: string[];
  children?: Array<{ path: string; title: string; roles?: string[] }>;
}

const routes = catalogue.routes as CatalogueRoute[];

export const basePath = catalogue.basePath;
export const loginPath = `/${catalogue.loginPath}`;

export const pages: AdminPage[] = routes.flatMap((route) => {
  const own: AdminPage = {
    path: route.path,
    title: route.title,
    screen: route.screen,
    access: route.access as AdminPage['access'],
    roles: (route.roles ?? []) as Role[],
    top: true,
  };
  return [own, ...(route.children ?? []).map((child) => ({ ...own, path: `${route.path}/${child.path}`, title: child.title, roles: (child.roles ?? own.roles) as Role[], top: false }))];
});

/** The items per page of a screen's list. */

export const mayOpen = (role: Role, path: string) => !!pages.find((p) => p.path === path)?.roles.includes(role);

/** The menu of an operator: the screens their role may open. */
export const menuFor = (role: Role) => pages.filter((p) => p.top && p.access === 'operator' && p.roles.includes(role));
