import { defineConfig } from 'vitest/config';

// Generating a million seeded rows takes ~1 s on a quiet machine and far longer on a shared, loaded one.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
