// The back office's client (/admin/, src/admin/): a build of its own, after the member site's
// (`npm run build`), into dist/admin/ with its own entry (admin.html) and chunks. Nothing of it
// can reach the member site's chunks, whose one-chunk entry (ADR 029) stays as it was; the
// same plugins compile its forms' validators at build time (tools/vite-plugin-forms.ts), so no
// ajv compiler reaches the browser either (tests/unit/dist-clean.test.ts scans both builds).
import { defineConfig } from 'vite';
import { clientPlugins } from './vite.config.ts';

/** Where the back office's build goes, beside the member site's (src/server/admin/client.ts). */
export const ADMIN_OUT_DIR = 'dist/admin';

export default defineConfig({
  base: '/admin/',
  // The favicon and the other public files are the member site's (/user/favicon.svg).
  publicDir: false,
  plugins: clientPlugins(),
  build: {
    outDir: ADMIN_OUT_DIR,
    emptyOutDir: true,
    manifest: true,
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      input: { admin: 'admin.html' },
      output: {
        // The entry with what it loads at once in one chunk, as the member site's (ADR 029).
        codeSplitting: { groups: [{ name: 'admin', tags: ['$initial'] }] },
      },
    },
  },
});
