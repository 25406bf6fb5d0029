import { registryOf, type Capability } from './capability.js';
import { accountCapability } from './account/index.js';
import { apiKeysCapability } from './api-keys/index.js';
import { archiveCapability } from './archive/index.js';
import { companiesCapability } from './companies/index.js';
import { customersCapability } from './customers/index.js';
import { dashboardCapability } from './dashboard/index.js';
import { docsCapability } from './docs/index.js';
import { einvoiceCapability } from './einvoice/index.js';
import { establishmentsCapability } from './establishments/index.js';
import { ereportingCapability } from './ereporting/index.js';
import { exportsCapability } from './exports/index.js';
import { idempotencyCapability } from './idempotency/index.js';
import { invoicesCapability } from './invoices/index.js';
import { jobsCapability } from './jobs/index.js';
import { mailCapability } from './mail/index.js';
import { ledgersCapability } from './ledgers/index.js';
import { metricsCapability } from './metrics/index.js';
import { limitsCapability } from './limits/index.js';
import { notificationsCapability } from './notifications/index.js';
import { numberingCapability } from './numbering/index.js';
import { paymentPortalCapability } from './payment-portal/index.js';
import { cardPaymentsCapability } from './card-payments/index.js';
import { paymentsCapability } from './payments/index.js';
import { platformCapability } from './platform/index.js';
import { productsCapability } from './products/index.js';
import { quotePortalCapability } from './quote-portal/index.js';
import { quotesCapability } from './quotes/index.js';
import { sandboxCapability } from './sandbox/index.js';
import { subscriptionsCapability } from './subscriptions/index.js';
import { recurringCapability } from './recurring/index.js';
import { receivedCapability } from './received/index.js';
import { taxCapability } from './tax/index.js';
import { taxProfilesCapability } from './tax-profiles/index.js';
import { usersCapability } from './users/index.js';
import { webhooksCapability } from './webhooks/index.js';
import { viesCapability } from './vies/index.js';
import { directoryCapability } from './directory/index.js';

/**
 * Every capability of the service, once. The order is the order of the sandbox reset's purges
 * and fixtures (customers before the invoices that name them, invoices before their payments).
 */
export const capabilities: readonly Capability[] = [
  companiesCapability,
  apiKeysCapability,
  usersCapability,
  limitsCapability,
  accountCapability,
  subscriptionsCapability,
  webhooksCapability,
  idempotencyCapability,
  notificationsCapability,
  mailCapability,
  viesCapability,
  directoryCapability,
  customersCapability,
  productsCapability,
  jobsCapability,
  taxCapability,
  ledgersCapability,
  establishmentsCapability,
  taxProfilesCapability,
  numberingCapability,
  einvoiceCapability,
  archiveCapability,
  platformCapability,
  invoicesCapability,
  paymentsCapability,
  cardPaymentsCapability,
  quotesCapability,
  exportsCapability,
  recurringCapability,
  receivedCapability,
  ereportingCapability,
  sandboxCapability,
  paymentPortalCapability,
  quotePortalCapability,
  docsCapability,
  metricsCapability,
  dashboardCapability,
];

export const registry = registryOf(capabilities);
