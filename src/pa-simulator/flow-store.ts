/**
 * The flows the simulated platforms hold, every client's, in the order they were stored, and the
 * accepted invoices they know against duplicates. Shared by the Flow Service (which stores and
 * reads them) and the pushes (told of each flow stored).
 */

/** What the life-cycle messages of an accepted invoice name. */
export interface InvoiceFacts {
  number: string;
  issueDate: string;
  typeCode: string;
  sellerSiren: string;
  sellerAddress: string;
  buyerSiren: string | null;
}

export interface StoredFlow {
  seq: number;
  owner: string;
  json: Record<string, unknown>;
  content: Buffer;
  invoiceNumber: string | null;
  /** An accepted invoice flow: what its life-cycle messages name, and its key against duplicates. */
  invoice?: { facts: InvoiceFacts; key: string };
}

/** An invoice flow accepted on the platform. */
export type AcceptedInvoiceFlow = StoredFlow & { invoice: NonNullable<StoredFlow['invoice']> };

/** What makes two deposits of a client's account the same invoice: its seller, its number, its year. */
export const invoiceKey = (owner: string, facts: InvoiceFacts) =>
  `${owner}:${facts.sellerSiren}:${facts.number}:${facts.issueDate.slice(0, 4)}`;

export interface FlowStoreOptions {
  now: () => number;
  /** Flows kept at most; the oldest are forgotten beyond. */
  maxFlows: number;
  /** Told of each flow as it is stored (the pushes). */
  onStored: (flow: StoredFlow) => void;
}

export class FlowStore {
  private readonly flows = new Map<string, StoredFlow>();
  /** The accepted invoices, by `invoiceKey`: their flow and their file's hash. */
  private readonly invoices = new Map<string, { flowId: string; sha256: string }>();
  private seq = 0;
  private lastTick = 0;

  constructor(private readonly options: FlowStoreOptions) {}

  /** An update time strictly after the previous one: `updatedAfter` never skips nor repeats a flow. */
  tick(): string {
    this.lastTick = Math.max(this.options.now(), this.lastTick + 1);
    return new Date(this.lastTick).toISOString();
  }

  /** Stores a flow after every other (its `seq`), tells the pushes, forgets the oldest beyond the limit. */
  add(flow: Omit<StoredFlow, 'seq'>): void {
    const stored = { seq: ++this.seq, ...flow };
    this.flows.set(String(stored.json.flowId), stored);
    this.options.onStored(stored);
    // A Map keeps insertion order: the first entries are the oldest flows.
    for (const [flowId, old] of this.flows) {
      if (this.flows.size <= this.options.maxFlows) break;
      this.flows.delete(flowId);
      if (old.invoice && this.invoices.get(old.invoice.key)?.flowId === flowId) this.invoices.delete(old.invoice.key);
    }
  }

  get(flowId: string): StoredFlow | undefined {
    return this.flows.get(flowId);
  }

  /** Every flow, oldest first. */
  all(): StoredFlow[] {
    return [...this.flows.values()];
  }

  /** The last accepted invoice a client deposited under this tracking id. */
  lastDeposit(owner: string, trackingId: string): AcceptedInvoiceFlow | undefined {
    return this.all()
      .filter(
        (flow): flow is AcceptedInvoiceFlow =>
          flow.owner === owner && flow.invoice !== undefined && flow.json.trackingId === trackingId,
      )
      .at(-1);
  }

  /** The accepted invoice of this key, if any. */
  acceptedInvoice(key: string): { flowId: string; sha256: string } | undefined {
    return this.invoices.get(key);
  }

  acceptInvoice(key: string, flowId: string, sha256: string): void {
    this.invoices.set(key, { flowId, sha256 });
  }

  /** The invoice of this key was never received (rejected, misrouted): its number may come again. */
  forgetInvoice(key: string): void {
    this.invoices.delete(key);
  }

  clear(): void {
    this.flows.clear();
    this.invoices.clear();
  }
}
