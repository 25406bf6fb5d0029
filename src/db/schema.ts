// Every table of the service, gathered for Drizzle and drizzle-kit; each capability owns its own.
export * from '../companies/schema.js';
export * from '../api-keys/schema.js';
export * from '../idempotency/schema.js';
export * from '../limits/schema.js';
export * from '../events/schema.js';
export * from '../webhooks/schema.js';
export * from '../notifications/schema.js';
export * from '../customers/schema.js';
export * from '../products/schema.js';
export * from '../jobs/schema.js';
export * from '../users/schema.js';
export * from '../invoices/schema.js';
export * from '../tax-profiles/schema.js';
export * from '../tax/schema.js';
export * from '../ledgers/schema.js';
