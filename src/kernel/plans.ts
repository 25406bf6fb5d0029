/** The plans of the contract's Limits section. */
export const planNames = ['free', 'essential', 'pro'] as const;
export type PlanName = (typeof planNames)[number];

export interface PlanLimits {
  requestsPerMinute: number;
  /** Live documents per calendar month (UTC); test documents never count. */
  monthlyQuota: number;
  /** The contract does not give the Free plan's figure; one endpoint lets a free account try webhooks. */
  webhookEndpoints: number;
  storageBytes: number;
  /**
   * Establishments connected to an approved platform, per environment. The contract counts
   * establishments in the plan's quota without giving the figures: ours.
   */
  connectedEstablishments: number;
}

const megabyte = 1024 * 1024;

export const plans: Record<PlanName, PlanLimits> = {
  free: {
    requestsPerMinute: 100,
    monthlyQuota: 1_000,
    webhookEndpoints: 1,
    storageBytes: 100 * megabyte,
    connectedEstablishments: 1,
  },
  essential: {
    requestsPerMinute: 300,
    monthlyQuota: 10_000,
    webhookEndpoints: 5,
    storageBytes: 1024 * megabyte,
    connectedEstablishments: 5,
  },
  pro: {
    requestsPerMinute: 1_000,
    monthlyQuota: 50_000,
    webhookEndpoints: 20,
    storageBytes: 10 * 1024 * megabyte,
    connectedEstablishments: 100,
  },
};

/** What a plan allows besides its figures: `plan_limit_error` below the plan that has it. */
export interface PlanFeatures {
  /** Recurring invoices finalized (and sent) by the service on schedule (`mode: auto_finalize`). */
  recurringAutoFinalize: boolean;
}

export const planFeatures: Record<PlanName, PlanFeatures> = {
  free: { recurringAutoFinalize: false },
  essential: { recurringAutoFinalize: true },
  pro: { recurringAutoFinalize: true },
};

/** The lowest plan that has a feature, for the refusal's hint. */
export function lowestPlanWith(feature: keyof PlanFeatures): PlanName {
  return planNames.find((plan) => planFeatures[plan][feature])!;
}

/** The statuses of the account holder's subscription (its rules: subscriptions/subscription-rules.ts). */
export const subscriptionStatuses = ['active', 'paused', 'cancelled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export function isPlanName(value: string): value is PlanName {
  return (planNames as readonly string[]).includes(value);
}
