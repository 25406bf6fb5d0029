import type { RejectionCategory } from './rejection-classification.js';

/**
 * What follows a rejection of each category (contract, "Next step by rejection category"): who
 * acts, what the service does by itself, and whether a new deposit may leave automatically.
 */
export interface NextStep {
  category: RejectionCategory;
  /** Who acts next: the service itself, or the client (who talks to its customer). */
  owner: 'service' | 'client';
  /**
   * The service's own move: `retry` (the same deposit again, with backoff), `search_proof_of_reception`
   * (find the flow the platform already holds before any new sending), `watch_directory` (resume
   * once the buyer has an active address), `refresh_address` (read the directory again and redeposit),
   * `check_credentials` (the establishment's platform access needs fixing; nothing leaves until it is),
   * `review_document` (the file needs correcting before a new attempt), `wait_for_buyer` (the buyer's
   * platform carries the invoice on), `none`.
   */
  action:
    | 'retry'
    | 'search_proof_of_reception'
    | 'watch_directory'
    | 'refresh_address'
    | 'check_credentials'
    | 'review_document'
    | 'wait_for_buyer'
    | 'none';
  /** Whether the service deposits again by itself (after the action), or never without the client. */
  automaticDeposit: boolean;
  /** The contract's words for the next step. */
  meaning: string;
}

const steps: Record<RejectionCategory, Omit<NextStep, 'category'>> = {
  buyer_not_in_directory: {
    owner: 'service',
    action: 'watch_directory',
    automaticDeposit: true,
    meaning: 'the service watches the directory and resumes the deposit once an active, eligible address exists',
  },
  addressing_error: {
    owner: 'service',
    action: 'refresh_address',
    automaticDeposit: true,
    meaning: 'handled by the service; no client action',
  },
  other: {
    owner: 'service',
    action: 'review_document',
    automaticDeposit: false,
    meaning: 'handled by the service',
  },
  format_invalid: {
    owner: 'service',
    action: 'review_document',
    automaticDeposit: false,
    meaning: 'handled by the service',
  },
  semantic_error: {
    owner: 'service',
    action: 'review_document',
    automaticDeposit: false,
    meaning: 'handled by the service',
  },
  duplicate: {
    owner: 'service',
    action: 'search_proof_of_reception',
    automaticDeposit: false,
    meaning: 'the service looks for the proof of reception before any new sending',
  },
  platform_auth: {
    owner: 'service',
    action: 'check_credentials',
    automaticDeposit: false,
    meaning: 'handled by the service',
  },
  platform_unavailable: {
    owner: 'service',
    action: 'retry',
    automaticDeposit: true,
    meaning: 'automatic retry by the service',
  },
  refused_by_buyer: {
    owner: 'client',
    action: 'none',
    automaticDeposit: false,
    meaning: 'contact the customer; no automatic new deposit',
  },
  suspended: {
    owner: 'client',
    action: 'wait_for_buyer',
    automaticDeposit: false,
    meaning: "answer the customer; the invoice resumes on the buyer's platform",
  },
  unknown: {
    owner: 'service',
    action: 'review_document',
    automaticDeposit: false,
    meaning: 'handled by the service',
  },
};

export function nextStep(category: RejectionCategory): NextStep {
  return { category, ...steps[category] };
}
