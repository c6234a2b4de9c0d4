import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The built console is loaded from a custom protocol (Electron) or the loopback
// web host, so every asset URL is relative and nothing is inlined into the HTML
// (the CSP allows scripts and styles from 'self' only).
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      // Radix Dialog's scroll lock injects <style> tags, which the CSP refuses; use a CSS-only stand-in.
      { find: /^react-remove-scroll$/, replacement: fileURLToPath(new URL('./renderer/components/remove-scroll-shim.tsx', import.meta.url)) },
    ],
  },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    // Loaded from disk or loopback, never over a network: one bundle is simplest.
    chunkSizeWarningLimit: 1024,
  },
});
