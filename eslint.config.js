// Lint enforces the boundaries (ESLint's own no-restricted-imports, per folder): screens never
// import each other, the engine knows no screen, the server imports no client code, and shared
// code imports neither side.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Relative imports that climb out of the file's folder into one of `folders` under src/. */
const into = (...folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

const boundary = (files, regex, message, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths, patterns: [{ regex, message }] }] },
});

/** React Router's <Link> and <NavLink> bring its framework mode's prefetching into the first load
 *  (docs/decisions/029); the member site links with its own (src/app/Link.tsx). */
const ROUTER_LINKS = ['react-router-dom', 'react-router'].map((name) => ({
  name,
  importNames: ['Link', 'NavLink'],
  message: 'Link with src/app/Link.tsx (React Router’s <Link> brings its prefetching into the first load: ADR 029).',
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'parent-site/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-restricted-globals': ['error', { name: 'alert', message: 'Use useAlert() from src/app/alert.' }],
    },
  },
  {
    // No import cycles anywhere, and the layers in one direction: screens → app → api → shared.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/api', from: ['./src/app', './src/screens', './src/engine'], message: 'The API client sits below the app shell and the screens.' },
            { target: './src/app', from: './src/screens', message: 'The app shell loads screens by the catalogue, never imports them.' },
            { target: './src/engine', from: ['./src/app', './src/api', './src/screens'], message: 'The engine knows no screen, app shell or API.' },
            { target: './src/shared', from: ['./src/app', './src/api', './src/engine', './src/screens', './src/server'], message: 'Shared code imports neither side.' },
            { target: './src/server', from: ['./src/app', './src/api', './src/engine', './src/screens', './src/admin'], message: 'The server imports no client code.' },
            // The back office (/admin/) is a client of its own: it may use the engine, shared code and
            // the app shell's drafts, never the member screens or the server; nothing of the member
            // site imports it (its bundle stays apart, vite.admin.config.ts).
            { target: './src/admin', from: ['./src/screens', './src/server'], message: 'The back office imports no member screen and no server code.' },
            { target: ['./src/app', './src/api', './src/engine', './src/screens', './src/shared'], from: './src/admin', message: 'The member site never imports the back office.' },
            {
              target: './src/server/routes/!(verify).ts',
              from: './src/server/routes',
              message: 'Route modules never import each other: move what they share to a domain module (e.g. src/server/members.ts).',
            },
          ],
        },
      ],
    },
  },
  boundary(['src/server/**'], into('app', 'engine', 'screens', 'api', 'main'), 'The server must not import client code.'),
  boundary(['src/shared/**'], into('app', 'engine', 'screens', 'api', 'server'), 'Shared code imports neither side.'),
  boundary(['src/engine/**'], into('app', 'screens', 'api', 'server'), 'The engine knows nothing about screens, the app shell or the API.'),
  boundary(['src/api/**'], into('screens', 'engine', 'server'), 'The API client knows no screen.'),
  boundary(['src/app/**'], into('server'), 'The app shell must not import server code.', ROUTER_LINKS),
  // From src/screens/<screen>/…, "../x" (one level up, not further) is another screen.
  boundary(['src/screens/*/*.{ts,tsx}'], '^\\.\\./(?!\\.\\.)', 'Screens never import each other; move shared code to src/app, src/engine or src/api.', ROUTER_LINKS),
  {
    // React rules for React code only (Playwright fixtures also call a function named `use`).
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
