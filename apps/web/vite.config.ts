import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkGroups } from './chunk-groups.ts';
import { precompress } from './precompress.ts';

export default defineConfig(({ command }) => ({
  // Brotli and gzip copies of the build, served by Accept-Encoding (apps/api/src/plugins/web-app.ts).
  plugins: [react(), chunkGroups(), precompress()],
  // Relative asset URLs: the server injects <base href="BASE_PATH/"> so one build serves any mount point.
  base: command === 'build' ? './' : '/',
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // Two pages: the staff app and the patient portal (issue 37), each with its own entry.
      input: {
        index: path.join(import.meta.dirname, 'index.html'),
        portal: path.join(import.meta.dirname, 'portal.html'),
      },
      // The entry lists every lazy chunk's file for preloading: with 350 chunks, one character
      // less of hash per name keep that list (and the sign-in page's JavaScript) smaller.
      output: { chunkFileNames: 'assets/[name]-[hash:7].js' },
    },
  },
  css: {
    preprocessorOptions: {
      // Bootstrap 5.3 still uses @import and global colour functions; keep the build log readable.
      scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] },
    },
  },
}));
