/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formsPlugin } from './tools/vite-plugin-forms.ts';

export default defineConfig({
  base: '/user/',
  plugins: [react(), formsPlugin()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: { '/v1': 'http://127.0.0.1:3000' },
  },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    fileParallelism: false,
    setupFiles: ['tests/support/fail-on-console-error.ts'],
  },
});
