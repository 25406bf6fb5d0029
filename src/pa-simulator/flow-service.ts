import { createHash, randomUUID } from 'node:crypto';
import { extractFacturXml, readCii } from '../einvoice/cii-reader.js';
import { readUbl } from '../einvoice/ubl-reader.js';
import {
  buildCdarMessage,
  isLifecycleStatusCode,
  isNonconformantContractRow,
  parseCdarMessage,
  reasonRefusal,
  type LifecycleStatusCode,
} from '../platform/cdar.js';
import { invoiceKey, type FlowStore, type InvoiceFacts, type StoredFlow } from './flow-store.js';
import type { WebhookPush } from './push.js';
import { planOf, type DepositAnswer, type Plan, type Scenario } from './scenario.js';
import { errorBody, type Answer, type DepositForm, type Operation, type Reply } from './server.js';
import type { SimulatorStats } from './stats.js';
import type { SimulatorTimers } from './timers.js';

/**
 * The Flow Service (`/flow-service/v1/...`): the deposits (`POST /v1/flows`) and their
 * acknowledgements, duplicates included; the search and the reading of flows; the CDAR
 * life-cycle flow of each status of each invoice, as its scenario plays them or as `report`
 * asks; the invoices delivered to a client as the buyer. The webhooks are the pushes'.
 */

/** A status the platform or the buyer reports now on a deposited invoice (`report`). */
export interface ReportedStatusInput {
  status: LifecycleStatusCode;
  reason?: { code: string; text?: string | null } | null;
  notes?: readonly string[];
  /**
   * false: a row of the contract's rejection table no conformant CDAR carries (`213` alone, `213`
   * with REJ_SYNT, REJ_XSD, REJ_DOUBLON or AUTRE), sent anyway, as an imperfect platform would.
   */
  conformant?: boolean;
}

/** Why the simulator cannot report that status: no such accepted deposit, or a message the rules refuse. */
export class ReportRefused extends Error {
  constructor(
    readonly reason: 'unknown_flow' | 'invalid_message',
    message: string,
  ) {
    super(message);
  }
}

/** The contract's rows `conformant: false` plays, for the refusals. */
const nonconformantRowsText = '213 alone; 213 with REJ_SYNT, REJ_XSD, REJ_DOUBLON or AUTRE';

/**
 * The rule a status sent with `conformant: false` breaks (`status 213 carries a reason code
 * (BR-FR-CDV-15)...`), its message being played anyway; null for a conformant message. Refuses
 * (`ReportRefused`) what the rules refuse unless it is such a contract row, and `conformant: false`
 * on a conformant message (nothing to play imperfectly).
 */
export function imperfectionOf(input: ReportedStatusInput): string | null {
  const reasonCode = input.reason?.code ?? null;
  const refusal = reasonRefusal(input.status, reasonCode);
  if (input.conformant !== false) {
    if (refusal) throw new ReportRefused('invalid_message', refusal);
    return null;
  }
  if (!refusal)
    throw new ReportRefused(
      'invalid_message',
      `${input.status}${reasonCode ? ` with ${reasonCode}` : ''} is a conformant life-cycle message: conformant: false plays only the contract's rows none carries (${nonconformantRowsText})`,
    );
  if (!isNonconformantContractRow(input.status, reasonCode))
    throw new ReportRefused('invalid_message', `${refusal}; conformant: false plays only ${nonconformantRowsText}`);
  return refusal;
}

export interface FlowServiceOptions {
  flows: FlowStore;
  push: WebhookPush;
  stats: SimulatorStats;
  timers: SimulatorTimers;
  now: () => number;
}

type Acknowledgement = { status: 'Ok' | 'Error'; details?: unknown[] };
type LifecyclePlan = Extract<Plan, { kind: 'lifecycle' }>;

/** The statuses the platform issues (role WK); the buyer issues the others. */
const platformStatuses = new Set(['200', '201', '202', '203', '213', '221', '501']);

/** The statuses after which the invoice was never received: the same number may be deposited again. */
const notReceivedStatuses = new Set(['213', '221', '501']);

export class FlowService {
  private readonly scenarios = new Map<string, Scenario>();
  private readonly pendingAnswers = new Map<string, DepositAnswer[]>();

  constructor(private readonly options: FlowServiceOptions) {}

  private get flows(): FlowStore {
    return this.options.flows;
  }

  /** What happens to the invoice of this number (`*`: every invoice without a scenario of its own). */
  script(invoiceNumber: string, scenario: Scenario): void {
    this.scenarios.set(invoiceNumber, scenario);
    this.pendingAnswers.set(invoiceNumber, [...(scenario.depositAnswers ?? [])]);
  }

  /** Forgets every scenario. */
  clearScenarios(): void {
    this.scenarios.clear();
    this.pendingAnswers.clear();
  }

  operation(operation: Operation, owner: string): Answer | Promise<Answer> {
    const { operationId, params, query, body } = operation;
    const push = this.options.push;
    switch (operationId) {
      case 'createFlow':
        return this.createFlow(operation.form!, owner);
      case 'searchFlows':
        return { status: 200, body: this.searchFlows(body as Record<string, unknown>, owner) };
      case 'getFlow':
        return this.getFlow(params.flowId ?? '', query.get('docType') ?? 'Metadata', owner);
      case 'listWebhooks':
        return push.list(owner);
      case 'createWebhook':
        return push.subscribe(owner, body as Parameters<WebhookPush['subscribe']>[1]);
      case 'deleteWebhook':
        return push.unsubscribe(owner, params.webhookUid ?? '');
      case 'getHealth':
        return { status: 200 };
      default:
        return { status: 404, body: errorBody('MISSING_RESOURCE', 'no such operation') };
    }
  }

  /**
   * The platform or the buyer reports a status now on the invoice a client deposited under this
   * tracking id: one life-cycle flow, readable by searching the flows and pushed to the client's
   * webhooks, as a scenario's statuses are. Answers its flow id; refuses (`ReportRefused`) an
   * unknown or refused deposit, and a status or reason a valid CDAR cannot carry, unless it is a
   * contract row asked for with `conformant: false` (`imperfectionOf`).
   */
  report(clientId: string, trackingId: string, input: ReportedStatusInput): string {
    const deposit = this.flows.lastDeposit(clientId, trackingId);
    if (!deposit)
      throw new ReportRefused('unknown_flow', `no accepted invoice deposited with tracking id ${trackingId}`);
    if (!isLifecycleStatusCode(input.status) || input.status === '212')
      throw new ReportRefused('invalid_message', `${input.status} is not a status a platform or a buyer reports`);
    const imperfect = imperfectionOf(input) !== null;
    return this.emitStatus(clientId, deposit.json, deposit.invoice.facts, {
      ...input,
      conformant: !imperfect,
      messageId: `LC-${String(deposit.json.flowId)}-${randomUUID()}-${input.status}`,
      issuedAt: new Date(this.options.now()),
    });
  }

  /**
   * A life-cycle flow on the invoice a client deposited under this tracking id whose file is
   * `content` as given, not a CDAR the simulator writes: what a broken or hostile platform sends
   * (an entity bomb, an external DTD, anything), for the tests of what the service does with it.
   * Answers its flow id; refuses (`ReportRefused`) an unknown deposit.
   */
  reportRaw(clientId: string, trackingId: string, content: Buffer): string {
    const deposit = this.flows.lastDeposit(clientId, trackingId);
    if (!deposit)
      throw new ReportRefused('unknown_flow', `no accepted invoice deposited with tracking id ${trackingId}`);
    const facts = deposit.invoice.facts;
    return this.storeLifecycle(clientId, deposit.json, `${facts.number}-raw.xml`, content, facts);
  }

  /**
   * An invoice another platform carried to this one for a client (the buyer): stored as an
   * incoming flow (`In`, `CustomerInvoice`, acknowledged), readable by searching the flows and
   * pushed to that client's webhooks. Answers the flow id.
   */
  deliverIncoming(owner: string, file: Buffer, name?: string): string {
    const isPdf = file.subarray(0, 5).toString('latin1') === '%PDF-';
    const text = isPdf ? '' : file.subarray(0, 4096).toString('utf8');
    const syntax = isPdf ? 'Factur-X' : /<(?:\w+:)?(?:Invoice|CreditNote)[\s>]/.test(text) ? 'UBL' : 'CII';
    const flowId = randomUUID();
    const at = this.flows.tick();
    const json: Record<string, unknown> = {
      flowId,
      submittedAt: at,
      updatedAt: at,
      name: name ?? `${flowId}.${isPdf ? 'pdf' : 'xml'}`,
      flowSyntax: syntax,
      flowProfile: 'CIUS',
      processingRule: 'B2B',
      processingRuleSource: 'Computed',
      flowType: 'CustomerInvoice',
      flowDirection: 'In',
      sha256: createHash('sha256').update(file).digest('hex'),
      acknowledgement: { status: 'Ok' },
    };
    this.options.stats.incomingFlows += 1;
    this.flows.add({ owner, json, content: file, invoiceNumber: null });
    return flowId;
  }

  // ---- POST /v1/flows -------------------------------------------------------------------------

  private async createFlow(form: DepositForm, owner: string): Promise<Answer> {
    this.options.stats.depositRequests += 1;
    const info = form.flowInfo as Record<string, unknown>;
    const file = form.file!;
    const syntax = String(info.flowSyntax);
    const sha256 = createHash('sha256').update(file).digest('hex');
    const report = syntax === 'FRR' ? reportFacts(file) : null;
    const facts = syntax === 'CDAR' || syntax === 'FRR' ? null : await invoiceFactsOf(file, syntax);
    // An e-reporting declaration follows the scenario of its id, as an invoice that of its number.
    const number = report?.id ?? facts?.number ?? null;
    // A scenario of the deposit's tracking id first, then of its invoice number, then the default.
    const trackingId = typeof info.trackingId === 'string' ? info.trackingId : null;
    const name = [trackingId, number].find((candidate) => candidate !== null && this.scenarios.has(candidate)) ?? '*';
    const scenario = this.scenarios.get(name) ?? {};
    const scripted = this.pendingAnswers.get(name)?.shift();
    if (scripted && 'status' in scripted) return scriptedReply(scripted);
    if (scripted?.timeout === 'before_store') return { hang: true };

    const submittedAt = this.flows.tick();
    const flowId = randomUUID();
    const plan = planOf(scenario);
    const { ack, invoice } = this.acknowledge({
      owner,
      flowId,
      syntax,
      info,
      file,
      sha256,
      report,
      facts,
      scenario,
      plan,
    });
    const json: Record<string, unknown> = {
      flowId,
      submittedAt,
      updatedAt: submittedAt,
      name: info.name,
      flowSyntax: syntax,
      flowProfile: info.flowProfile ?? 'Undefined',
      processingRule: info.processingRule ?? (syntax === 'CDAR' ? 'NotApplicable' : 'B2B'),
      processingRuleSource: info.processingRule ? 'Input' : 'Computed',
      flowType: report?.flowType ?? (syntax === 'CDAR' ? 'CustomerInvoiceLC' : 'CustomerInvoice'),
      flowDirection: 'Out',
      ...(info.trackingId ? { trackingId: info.trackingId } : {}),
      sha256,
      acknowledgement: ack,
    };
    this.flows.add({ owner, json, content: file, invoiceNumber: number, ...(invoice ? { invoice } : {}) });
    const stats = this.options.stats;
    if (number) stats.flowsByInvoice[number] = (stats.flowsByInvoice[number] ?? 0) + 1;
    if (ack.status === 'Ok' && syntax !== 'CDAR') {
      stats.deposits += 1;
      if (facts && plan.kind === 'lifecycle') this.playLifecycle(owner, json, facts, plan);
    }
    if (scripted?.timeout === 'after_store') return { hang: true };
    return { status: 202, body: depositAnswerOf(json) };
  }

  /**
   * The acknowledgement of a deposit: a checksum that does not match, an unreadable CDAR, flow 10
   * report or invoice, a duplicate, or the scenario's refusal; else Ok, and an invoice is accepted.
   */
  private acknowledge(deposit: {
    owner: string;
    flowId: string;
    syntax: string;
    info: Record<string, unknown>;
    file: Buffer;
    sha256: string;
    report: { id: string; flowType: string } | null;
    facts: InvoiceFacts | null;
    scenario: Scenario;
    plan: Plan;
  }): { ack: Acknowledgement; invoice?: StoredFlow['invoice'] } {
    const { owner, flowId, syntax, info, file, sha256, report, facts, scenario, plan } = deposit;
    if (typeof info.sha256 === 'string' && info.sha256 !== sha256)
      return { ack: ackError('ChecksumMismatch', 'the sha256 given is not the file’s') };
    if (syntax === 'CDAR') {
      try {
        parseCdarMessage(file.toString('utf8'));
        return { ack: { status: 'Ok' } };
      } catch (failure) {
        return { ack: ackError('InvoiceLCStatusError', (failure as Error).message) };
      }
    }
    if (syntax === 'FRR') {
      // A declaration is accepted or rejected at its acknowledgement: flow 10 has no life cycle.
      if (!report) return { ack: ackError('InvalidSchema', 'the file is not a readable flow 10 report') };
      if (scenario.outcome !== 'reject') return { ack: { status: 'Ok' } };
      const reason = scenario.reason ?? { code: 'REJ_SEMAN', text: 'Rejet sémantique' };
      return { ack: ackError(reason.code, reason.text ?? reason.code) };
    }
    if (!facts) return { ack: ackError('InvalidSchema', 'the file is not a readable CII or Factur-X invoice') };
    const key = invoiceKey(owner, facts);
    const earlier = this.flows.acceptedInvoice(key);
    if (earlier) {
      this.options.stats.duplicates += 1;
      // The same file again: the flow exists; another file with the same number: a duplicate invoice.
      return {
        ack:
          earlier.sha256 === sha256
            ? ackError('AlreadyExistingFlow', `flow ${earlier.flowId} holds this file already`)
            : ackError(
                'REJ_UNI',
                `invoice ${facts.number} of ${facts.sellerSiren} was deposited as flow ${earlier.flowId}`,
              ),
      };
    }
    if (plan.kind === 'acknowledgement_error') return { ack: ackError(plan.reasonCode, plan.reasonMessage) };
    this.flows.acceptInvoice(key, flowId, sha256);
    return { ack: { status: 'Ok' }, invoice: { facts, key } };
  }

  // ---- reading flows --------------------------------------------------------------------------

  private getFlow(flowId: string, docType: string, owner: string): Reply {
    const stored = this.flows.get(flowId);
    if (!stored || stored.owner !== owner) return { status: 404, body: errorBody('MISSING_RESOURCE', 'no such flow') };
    if (docType === 'Metadata') return { status: 200, body: stored.json };
    if (docType !== 'Original')
      return { status: 404, body: errorBody('MISSING_RESOURCE', `no ${docType} document for this flow`) };
    return {
      status: 200,
      headers: { 'content-disposition': `attachment;filename=${String(stored.json.name)}` },
      file: { content: stored.content, contentType: 'application/octet-stream' },
    };
  }

  private searchFlows(params: Record<string, unknown>, owner: string) {
    const where = (params.where ?? {}) as Record<string, unknown>;
    const limit = Math.min(100, Number(params.limit ?? 25));
    const after =
      typeof params.cursor === 'string' ? Number(Buffer.from(params.cursor, 'base64url').toString('utf8')) || 0 : 0;
    const within = (list: unknown, value: unknown) => !Array.isArray(list) || list.includes(value);
    const matching = this.flows
      .all()
      .filter((flow) => {
        const json = flow.json;
        const ack = (json.acknowledgement as { status: string }).status;
        return (
          flow.owner === owner &&
          flow.seq > after &&
          (typeof where.updatedAfter !== 'string' ||
            Date.parse(String(json.updatedAt)) > Date.parse(where.updatedAfter)) &&
          (typeof where.updatedBefore !== 'string' ||
            Date.parse(String(json.updatedAt)) < Date.parse(where.updatedBefore)) &&
          within(where.processingRule, json.processingRule) &&
          within(where.flowType, json.flowType) &&
          within(where.flowDirection, json.flowDirection) &&
          (typeof where.trackingId !== 'string' || json.trackingId === where.trackingId) &&
          (typeof where.ackStatus !== 'string' || ack === where.ackStatus)
        );
      })
      .sort((a, b) => a.seq - b.seq);
    const page = matching.slice(0, limit);
    const more = matching.length > limit;
    return {
      limit,
      ...(more ? { nextCursor: Buffer.from(String(page.at(-1)!.seq)).toString('base64url') } : {}),
      filters: where,
      results: page.map((flow) => flow.json),
    };
  }

  // ---- life-cycle flows -----------------------------------------------------------------------

  private playLifecycle(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    facts: InvoiceFacts,
    plan: LifecyclePlan,
  ): void {
    const base = Date.parse(String(invoiceFlow.submittedAt));
    plan.statuses.forEach((status, index) => {
      const emit = () =>
        this.emitStatus(owner, invoiceFlow, facts, {
          messageId: `LC-${String(invoiceFlow.flowId)}-${status.position}-${status.code}`,
          // The logical order, whatever the delivery order: one second per status after the deposit.
          issuedAt: new Date(base + (status.position + 1) * 1000),
          status: status.code,
          reason: status.reason,
          notes: status.reason ? plan.notes : [],
        });
      if (plan.paceMs <= 0) emit();
      else this.options.timers.after(plan.paceMs * (index + 1), emit);
    });
  }

  /** One life-cycle flow on an invoice flow, stored and pushed; answers its flow id. */
  private emitStatus(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    facts: InvoiceFacts,
    message: ReportedStatusInput & { messageId: string; issuedAt: Date },
  ): string {
    const cdar = buildCdarMessage({
      messageId: message.messageId,
      issuedAt: message.issuedAt,
      status: message.status,
      invoice: {
        number: facts.number,
        issueDate: facts.issueDate,
        typeCode: facts.typeCode,
        sellerSiren: facts.sellerSiren,
      },
      issuer: platformStatuses.has(message.status)
        ? { role: 'WK' }
        : { role: 'BY', siren: facts.buyerSiren ?? '000000000' },
      recipient: { siren: facts.sellerSiren, electronicAddress: facts.sellerAddress },
      reason: message.reason ?? null,
      notes: message.notes ?? [],
      conformant: message.conformant !== false,
    });
    if (notReceivedStatuses.has(message.status)) this.flows.forgetInvoice(invoiceKey(owner, facts));
    // The file's name marks a message the rules refuse, for whoever reads the flows.
    const name = `${facts.number}-${message.status}${message.conformant === false ? '-nonconformant' : ''}.xml`;
    return this.storeLifecycle(owner, invoiceFlow, name, Buffer.from(cdar), facts);
  }

  /** A life-cycle flow carrying `content`, stored and pushed; answers its flow id. */
  private storeLifecycle(
    owner: string,
    invoiceFlow: Record<string, unknown>,
    name: string,
    content: Buffer,
    facts: InvoiceFacts,
  ): string {
    const updatedAt = this.flows.tick();
    const json = {
      flowId: randomUUID(),
      submittedAt: updatedAt,
      updatedAt,
      name,
      flowSyntax: 'CDAR',
      flowProfile: 'Undefined',
      processingRule: invoiceFlow.processingRule,
      processingRuleSource: 'Computed',
      flowType: 'CustomerInvoiceLC',
      flowDirection: 'In',
      // The deposit's tracking id, echoed so that the issuer can tie the status to its deposit.
      ...(invoiceFlow.trackingId ? { trackingId: invoiceFlow.trackingId } : {}),
      acknowledgement: { status: 'Ok' },
    };
    this.options.stats.lifecycleFlows += 1;
    this.flows.add({ owner, json, content, invoiceNumber: facts.number });
    return json.flowId;
  }
}

const ackError = (reasonCode: string, reasonMessage: string, item = 'file'): Acknowledgement => ({
  status: 'Error',
  details: [{ level: 'Error', item, reasonCode, reasonMessage }],
});

/** A deposit answered by the scenario instead of accepted: its status and an error body. */
function scriptedReply(scripted: Extract<DepositAnswer, { status: number }>): Reply {
  return {
    status: scripted.status,
    body: errorBody(
      scripted.errorCode ?? defaultErrorCode(scripted.status),
      scripted.errorMessage ?? `scripted answer ${scripted.status}`,
    ),
    headers: scripted.retryAfterSeconds !== undefined ? { 'retry-after': String(scripted.retryAfterSeconds) } : {},
  };
}

/** The answer to an accepted deposit request: the flow, less what the platform computes afterwards. */
function depositAnswerOf(json: Record<string, unknown>): Record<string, unknown> {
  const {
    updatedAt: _updatedAt,
    processingRuleSource: _source,
    flowType: _type,
    flowDirection: _direction,
    acknowledgement: _ack,
    ...answer
  } = json;
  return answer;
}

/**
 * What the life-cycle messages of a deposited invoice name, read as its `flowSyntax` says (the CII of
 * a Factur-X, a CII, a UBL); null when unreadable, as a file whose syntax is not the one declared.
 */
async function invoiceFactsOf(file: Buffer, syntax: string): Promise<InvoiceFacts | null> {
  try {
    const isPdf = file.subarray(0, 5).toString('latin1') === '%PDF-';
    if (isPdf !== (syntax === 'Factur-X')) return null;
    const xml = isPdf ? (await extractFacturXml(file))?.xml : file.toString('utf8');
    if (!xml) return null;
    const document = syntax === 'UBL' ? readUbl(xml) : readCii(xml);
    if (!document.number || !document.seller.siren) return null;
    return {
      number: document.number,
      issueDate: document.issueDate,
      typeCode: document.typeCode,
      sellerSiren: document.seller.siren,
      sellerAddress: document.sellerEndpoint?.value ?? document.seller.siren,
      buyerSiren: document.buyer.siren ?? null,
    };
  } catch {
    return null;
  }
}

/** The id and flow type of a flow 10 report (the official AIFE/PPF format), or null when the file is not one. */
function reportFacts(file: Buffer): { id: string; flowType: string } | null {
  const xml = file.toString('utf8');
  const id = /^(?:<\?xml[^>]*\?>\s*)?<Report>\s*<ReportDocument>\s*<Id>([^<]+)<\/Id>/.exec(xml)?.[1];
  // The part after the period: one per invoice (10.1, 10.2) or per day (10.3, 10.4).
  const part =
    /<(TransactionsReport|PaymentsReport)>\s*<ReportPeriod>[\s\S]*?<\/ReportPeriod>\s*<(Invoice|Transactions)>/.exec(
      xml,
    );
  if (!id || !part) return null;
  const what = part[1] === 'TransactionsReport' ? 'Transaction' : 'Payment';
  return { id, flowType: `${part[2] === 'Invoice' ? 'Unitary' : 'Aggregated'}Customer${what}Report` };
}

function defaultErrorCode(status: number): string {
  switch (status) {
    case 400:
      return 'MISSING_REQUIRED_FIELD';
    case 401:
      return 'INVALID_TOKEN';
    case 403:
      return 'FORBIDDEN_ACCESS';
    case 409:
      return 'DUPLICATED_INVOICE';
    case 413:
      return 'FILE_SIZE_EXCEEDED';
    case 422:
      return 'UNPROCESSABLE_ENTITY';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'RESOURCE_ERROR';
    default:
      return 'INTERNAL_ERROR';
  }
}
