#!/usr/bin/env node
// The `halocline` command; the compiled CLI lives in dist/ (npm start builds it first).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('halocline: the server is not built yet; run `npm run build` (or `npm start`) from the repository root');
  process.exit(1);
}
await import(entry.href);
