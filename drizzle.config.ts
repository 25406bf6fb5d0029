import { defineConfig } from 'drizzle-kit';

// Each capability (and the workers' home) keeps its tables in its own schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/*/schema.ts',
  out: './drizzle',
});
