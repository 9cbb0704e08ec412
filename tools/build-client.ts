// The client as `npm run build` makes it: the member site, then the back office into the member
// build's admin/ folder (vite.admin.config.ts). The member build empties its folder first, so the
// two always go together (npm start, npm run bench, tests/unit/dist-clean.test.ts).
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { build, type BuildEnvironmentOptions, type LogLevel } from 'vite';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ClientBuild {
  logLevel?: LogLevel;
  /** Another folder than dist/ (the back office goes into its admin/). */
  outDir?: string;
  /** More build options for both builds (say, no source maps). */
  options?: BuildEnvironmentOptions;
}

export async function buildClient({ logLevel = 'warn', outDir, options = {} }: ClientBuild = {}) {
  for (const [config, dir] of [
    ['vite.config.ts', outDir],
    ['vite.admin.config.ts', outDir && join(outDir, 'admin')],
  ] as const) {
    await build({
      root: ROOT,
      configFile: join(ROOT, config),
      logLevel,
      mode: 'production',
      build: { ...options, ...(dir ? { outDir: dir, emptyOutDir: true } : {}) },
    });
  }
}
