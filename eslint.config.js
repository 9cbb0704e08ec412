// Lint enforces the boundaries: screens never import each other, the engine knows no screen,
// the server imports no client code, and shared code imports neither side.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

const zones = [
  { target: './src/server', from: ['./src/app', './src/engine', './src/screens', './src/api', './src/main.tsx'], message: 'The server must not import client code.' },
  { target: './src/shared', from: ['./src/app', './src/engine', './src/screens', './src/api', './src/server'], message: 'Shared code imports neither side.' },
  { target: './src/engine', from: ['./src/screens', './src/app', './src/api', './src/server'], message: 'The engine knows nothing about screens, the app shell or the API.' },
  { target: './src/api', from: ['./src/screens', './src/engine', './src/server'], message: 'The API client knows no screen.' },
  { target: './src/app', from: ['./src/server'], message: 'The app shell must not import server code.' },
];
const screens = ['login', 'logout', 'mypage', 'register', 'info', 'edit', 'email-change', 'withdraw', 'withdraw-complete', 'contact', 'contact-history', 'password-reminder', 'email-auth', 'old-register', 'old-login', 'old-logout'];
for (const screen of screens) {
  zones.push({ target: `./src/screens/${screen}`, from: './src/screens', except: [`./${screen}`], message: 'Screens never import each other; move shared code to src/app, src/engine or src/api.' });
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'parent-site/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'alert', message: 'Use useAlert() from src/app/alert.' }],
    },
  },
  {
    // React rules for React code only (Playwright fixtures also call a function named `use`).
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
