/** The parent site's page with an app path loaded into its frame: `${siteTop}?path=/user/…`.
 *  The path keeps its own `/`, `?` and `=` readable (they are allowed in a query value); the
 *  parent reads `path` and loads it into the iframe (parent-site/parent.js, README "Embedding
 *  in the parent site"). Mails link here, so a member never meets the bare app. */
export function inParent(siteTopUrl: string, appPath: string): string {
  const url = new URL(siteTopUrl);
  const value = encodeURIComponent(appPath).replace(/%2F/g, '/').replace(/%3F/g, '?').replace(/%3D/g, '=');
  url.search = `${url.search ? `${url.search}&` : '?'}path=${value}`;
  return url.href;
}

/** A link a mail carries: the parent site's page with the app's `route` (under the base path)
 *  opened with `key` (the old flow's registration link, the link beside a code). */
export function keyedLink(siteTopUrl: string, route: string, key: string): string {
  return inParent(siteTopUrl, `${route}?key=${encodeURIComponent(key)}`);
}
