import { defineConfig } from 'drizzle-kit';

// An explicit list, so that a capability's tables enter a migration only when its author adds them here.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/companies/schema.ts',
    './src/api-keys/schema.ts',
    './src/idempotency/schema.ts',
    './src/limits/schema.ts',
    './src/events/schema.ts',
    './src/webhooks/schema.ts',
    './src/notifications/schema.ts',
    './src/customers/schema.ts',
    './src/products/schema.ts',
    './src/jobs/schema.ts',
    './src/users/schema.ts',
    './src/tax-profiles/schema.ts',
    './src/tax/schema.ts',
    './src/ledgers/schema.ts',
    './src/invoices/schema.ts',
    './src/payments/schema.ts',
    './src/credit-notes/schema.ts',
    './src/quotes/schema.ts',
  ],
  out: './drizzle',
});
