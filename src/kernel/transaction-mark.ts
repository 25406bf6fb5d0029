import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the code running holds a database transaction open. The transaction wrapper marks its
 * async context; the platform connector refuses to be called under the mark: a platform call of
 * up to tens of seconds inside a transaction holds its connection and its row locks as long (a
 * pass of 20 locked rows behind a 503, an answer's row behind a slow platform).
 */
const transactionMark = new AsyncLocalStorage<true>();

/** Runs `work` marked as inside a database transaction. */
export function markedAsTransaction<T>(work: () => Promise<T>): Promise<T> {
  return transactionMark.run(true, work);
}

export const insideTransaction = (): boolean => transactionMark.getStore() === true;

/** A call to a platform from inside a transaction: a programming error, refused before any request. */
export class PlatformCallInTransaction extends Error {
  constructor(operation: string) {
    super(`${operation}: a platform call inside a database transaction (call the platform outside, record after)`);
    this.name = 'PlatformCallInTransaction';
  }
}

export function refuseInsideTransaction(operation: string): void {
  if (insideTransaction()) throw new PlatformCallInTransaction(operation);
}
