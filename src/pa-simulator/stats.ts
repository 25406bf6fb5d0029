/** What the simulator counted since it started or was reset (`GET /simulator/stats`). */
export interface SimulatorStats {
  /** Invoice flows stored and accepted (acknowledgement Ok): the platform's deposits. */
  deposits: number;
  /** Requests to POST /v1/flows, whatever their answer. */
  depositRequests: number;
  /** Invoice flows stored, per invoice number (a duplicate counts here too). */
  flowsByInvoice: Record<string, number>;
  /** Flows refused at their acknowledgement because the invoice was already deposited. */
  duplicates: number;
  lifecycleFlows: number;
  /** Invoices delivered to a client as the buyer (`deliverIncoming`, `POST /simulator/incoming`). */
  incomingFlows: number;
  callbacksDelivered: number;
  callbacksFailed: number;
  tokensIssued: number;
}

export function emptyStats(): SimulatorStats {
  return {
    deposits: 0,
    depositRequests: 0,
    flowsByInvoice: {},
    duplicates: 0,
    lifecycleFlows: 0,
    incomingFlows: 0,
    callbacksDelivered: 0,
    callbacksFailed: 0,
    tokensIssued: 0,
  };
}
