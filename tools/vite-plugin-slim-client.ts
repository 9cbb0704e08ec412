// Keeps code that no screen runs out of the client bundle (ADR 017): rjsf's imports of two
// libraries resolve to small stand-ins (only rjsf's own imports: anything else that imports
// them gets the real package), and a build takes React Router's production build.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const stand = (file: string) => fileURLToPath(new URL(`../src/engine/${file}`, import.meta.url));

/** [imported id, importer must be inside this package, stand-in]. */
const REDIRECTS: Array<[string, string, string]> = [
  // rjsf renders through markdown-to-jsx only when a UI schema enables markdown; none does.
  ['markdown-to-jsx/react', '/@rjsf/core/', stand('PlainMarkdown.tsx')],
  // rjsf resolves $ref URIs with fast-uri; bundled forms have same-document refs only.
  ['fast-uri', '/@rjsf/utils/', stand('fragment-uri.ts')],
];

// React Router 7's package exports point at its development build (dev warnings, ~20 KB more)
// under every condition; its production build sits beside it.
const routerDist = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
const PRODUCTION_ALIASES = [
  { find: /^react-router$/, replacement: join(routerDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(routerDist, 'dom-export.mjs') },
];

export function slimClientPlugin(): Plugin {
  return {
    name: 'member-site-slim-client',
    enforce: 'pre',
    config(_, { command }) {
      return command === 'build' ? { resolve: { alias: PRODUCTION_ALIASES } } : undefined;
    },
    resolveId(source, importer) {
      const hit = REDIRECTS.find(([id, from]) => source === id && importer?.replace(/\\/g, '/').includes(from));
      return hit?.[2];
    },
  };
}
