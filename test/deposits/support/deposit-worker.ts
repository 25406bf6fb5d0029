import type { Deps } from '../../../src/deps.js';
import type { PlatformConnector } from '../../../src/platform/connector.js';
import type { FlowKind, OutgoingFlow } from '../../../src/platform/flows.js';
import { createOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from '../../../src/platform/service.js';
import { depositFlowOf, type DepositFlowOptions } from '../../../src/invoices/deposit-flow.js';

/**
 * The deposits' outbox worker as the tests drive it: the invoices' kind with short waits, and a
 * seam that runs once the platform accepted a deposit, before the outbox records it (a worker
 * that hangs there is a process killed between the platform's answer and its record).
 */
export interface DepositWorkerOptions extends OutboxWorkerOptions, DepositFlowOptions {
  afterDeposit?: (flow: OutgoingFlow) => Promise<void>;
}

/** The kind whose connector runs `afterDeposit` once the platform accepted a deposit. */
export function withAfterDeposit(kind: FlowKind, afterDeposit: (flow: OutgoingFlow) => Promise<void>): FlowKind {
  return {
    ...kind,
    async connector(deps, scope, flow) {
      const connector = await kind.connector(deps, scope, flow);
      if (!connector) return null;
      return new Proxy(connector, {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (property !== 'deposit' || typeof value !== 'function')
            return typeof value === 'function' ? value.bind(target) : value;
          return async (...args: Parameters<PlatformConnector['deposit']>) => {
            const result = await (value as PlatformConnector['deposit']).apply(target, args);
            if (result.ok) await afterDeposit(flow);
            return result;
          };
        },
      });
    },
  };
}

export function depositWorkerOf(deps: Deps, options: DepositWorkerOptions = {}): OutboxWorker {
  const { afterDeposit, retryBudgetMs, filesWaitMs, ...worker } = options;
  const kind = depositFlowOf({
    ...(retryBudgetMs !== undefined ? { retryBudgetMs } : {}),
    ...(filesWaitMs !== undefined ? { filesWaitMs } : {}),
  });
  return createOutboxWorker(deps, [afterDeposit ? withAfterDeposit(kind, afterDeposit) : kind], worker);
}
