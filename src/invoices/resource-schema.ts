import { Type } from 'typebox';
import { documentStatuses, paymentStatuses, transmissionDetails, transmissionStatuses } from './document-axes.js';
import { rejectionCategories } from '../platform/rejection-classification.js';
import { nullable } from '../http/route-schemas.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';

/** The response schemas of invoices and credit notes (OpenAPI components `Invoice`, `CreditNote`). */

const oneOf = (values: readonly string[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description ? { description } : {},
  );

const address = nullable(
  Type.Object({
    line1: nullable(Type.String()),
    line2: nullable(Type.String()),
    postalCode: nullable(Type.String()),
    city: nullable(Type.String()),
    country: Type.String(),
  }),
);

export const buyerSchema = Type.Object({
  type: Type.String(),
  name: Type.String(),
  email: nullable(Type.String()),
  siren: nullable(Type.String()),
  siret: nullable(Type.String()),
  vatNumber: nullable(Type.String()),
  electronicAddress: nullable(Type.String()),
  address,
  deliveryAddress: address,
  registryNonDisclosure: Type.Array(Type.String()),
  einvoiceSyntax: nullable(
    Type.String({
      description:
        "The syntax the buyer takes its e-invoices in (`cii`, `ubl`), as frozen at finalization from the customer; null: the establishment's default.",
    }),
  ),
});

const sellerAddress = Type.Object({
  line1: Type.String(),
  line2: nullable(Type.String()),
  postalCode: Type.String(),
  city: Type.String(),
  country: Type.String(),
});

/** The seller frozen at finalization: `/v1/account`'s identity and the issuing establishment. */
export const sellerSchema = Type.Object({
  legalName: Type.String(),
  tradeName: nullable(Type.String()),
  legalForm: nullable(Type.String()),
  shareCapital: nullable(Type.String({ description: 'Euros, a decimal string.' })),
  siren: Type.String(),
  siret: nullable(Type.String({ description: 'The issuing establishment.' })),
  vatNumber: nullable(Type.String()),
  registration: nullable(Type.Object({ kind: Type.String(), place: Type.String() })),
  address: sellerAddress,
  electronicAddress: nullable(Type.String({ description: 'BT-34, scheme 0225.' })),
  contact: nullable(
    Type.Object({ name: nullable(Type.String()), email: nullable(Type.String()), phone: nullable(Type.String()) }),
  ),
  iban: nullable(Type.String()),
  bic: nullable(Type.String()),
});

const lineAdjustmentSchema = Type.Object({
  amount: Type.Integer({ description: 'Cents (BT-136 / BT-141), computed from the percentage when one is given.' }),
  percentage: nullable(Type.String({ description: 'BT-138 / BT-143.' })),
  baseAmount: nullable(Type.Integer({ description: 'Cents: quantity x unit price, the base of the percentage.' })),
  reason: nullable(Type.String({ description: 'BT-139 / BT-144.' })),
  reasonCode: nullable(Type.String({ description: 'UNTDID 5189 (allowance) or 7161 (charge).' })),
});

const documentAdjustmentSchema = Type.Object({
  amount: Type.Integer({ description: 'Cents (BT-92 / BT-99).' }),
  reason: nullable(Type.String({ description: 'BT-97 / BT-104.' })),
  reasonCode: nullable(Type.String({ description: 'UNTDID 5189 (allowance) or 7161 (charge).' })),
});

export const lineSchema = Type.Object({
  productId: nullable(Type.String()),
  description: Type.String(),
  quantity: Type.String(),
  unitPrice: Type.String(),
  unit: Type.String(),
  nature: Type.String(),
  rateCategory: nullable(Type.String()),
  vatRate: nullable(Type.String()),
  vatCode: nullable(Type.String()),
  vatexCode: nullable(Type.String()),
  allowances: Type.Optional(Type.Array(lineAdjustmentSchema, { description: 'Discounts on the line (BG-27).' })),
  charges: Type.Optional(Type.Array(lineAdjustmentSchema, { description: 'Charges on the line (BG-28).' })),
  netAmount: Type.Integer({
    description: 'Cents: round2(quantity x unit price), less the allowances, plus the charges (BT-131).',
  }),
});

const rejectionFields = {
  paErrorCode: nullable(
    Type.String({ description: "Code of the last deposit failure: a local check or the platform's answer." }),
  ),
  rejectionReason: nullable(Type.String({ description: "The platform's or buyer's words, verbatim." })),
  rejectionNote: nullable(Type.String({ description: 'Notes, separated by line breaks.' })),
  rejectionCode: nullable(Type.String()),
  rejectionSource: nullable(oneOf(['platform', 'buyer', 'service'])),
  rejectionCategory: nullable(oneOf(rejectionCategories)),
};

const einvoicingSchema = Type.Object({
  ...rejectionFields,
  paFlowId: Type.Optional(
    nullable(
      Type.String({
        description:
          "The approved platform's id of the flow deposited for the current attempt (AFNOR `flowId`); null until the platform holds it.",
      }),
    ),
  ),
  paTrackingId: Type.Optional(
    nullable(
      Type.String({
        description:
          "The service's tracking id of the current attempt's deposit (AFNOR `trackingId`): the key of the proof of reception.",
      }),
    ),
  ),
  previousSubmissions: Type.Array(
    Type.Object({
      ...rejectionFields,
      transmissionStatus: Type.String(),
      transmissionDetail: nullable(Type.String()),
      archivedAt: Type.String(),
    }),
    {
      description:
        'Earlier attempts: a resubmission after a rejection archives the rejection fields here and resets them.',
    },
  ),
});

export const obligationSchema = Type.Object(
  {
    state: Type.String({
      description:
        '`waiting` (not met yet: `owner` acts next), `fulfilled` (deposited on the platform), `not_applicable`.',
    }),
    reasonCode: nullable(
      Type.String({
        description:
          'Why it waits: `not_sent`, `awaiting_platform`, the rejection code of the platform, `ereporting_not_enabled`; for `not_applicable`, the reason of the tax decision.',
      }),
    ),
    reasonSource: nullable(oneOf(['platform', 'buyer', 'service'])),
    owner: nullable(oneOf(['client', 'platform', 'service'], 'Who acts next.')),
    action: nullable(
      oneOf(
        ['send', 'resubmit', 'retry'],
        'What the owner does next: `send` the document, `resubmit` it corrected; the service `retry`s on its own (the platform unavailable, the buyer not in the directory yet).',
      ),
    ),
    nextAttemptAt: nullable(
      Type.String({ description: 'When the service tries again on its own (action `retry`); null otherwise.' }),
    ),
  },
  {
    description:
      "The document's transmission obligation, fixed by its tax decision: the deposit through the platform when e-invoicing is due, else the e-reporting of the transaction. Null before finalization.",
  },
);

const documentFields = {
  livemode: Type.Boolean(),
  number: nullable(Type.String({ description: 'Null until finalization.' })),
  status: Type.String({
    description:
      'The summary: a pure function of the three axes (`draft`, `finalized`, `sending`, `deposited`, `transmitted`, `available`, `received`, `approved`, `partially_paid`, `suspended`, `rejected`, `refused`, `credit_refused`, `paid`, `partially_refunded`, `refunded`, `cancelled`).',
  }),
  documentStatus: oneOf(documentStatuses),
  transmissionStatus: oneOf(transmissionStatuses),
  transmissionDetail: nullable(oneOf(transmissionDetails)),
  paymentStatus: oneOf(
    paymentStatuses,
    'An invoice: what the buyer paid (`unpaid`, `partially_paid`, `paid`, then `partially_refunded`, `refunded` once a credit note gives money back). A credit note is money owed to the buyer, and its axis says whether it was given back: `unpaid` (nothing refunded: deducted from what the invoice still owes, or to refund), `partially_refunded`, `refunded`; never `paid`.',
  ),
  customerId: nullable(Type.String()),
  buyer: nullable(buyerSchema),
  seller: nullable(
    Type.Union([sellerSchema], {
      description:
        'Frozen at finalization from the identity (`/v1/account`) and the establishment of the tax profile in effect, else the default one; null on a draft. Never changes afterwards.',
    }),
  ),
  currency: Type.String(),
  taxSource: nullable(Type.String()),
  taxDecisionId: nullable(Type.String()),
  lines: Type.Array(lineSchema),
  allowances: Type.Optional(
    Type.Array(documentAdjustmentSchema, {
      description: "Allowances on the whole document (BG-20), off the lines' total; split over the VAT rates.",
    }),
  ),
  charges: Type.Optional(
    Type.Array(documentAdjustmentSchema, { description: 'Charges on the whole document (BG-21).' }),
  ),
  subtotal: Type.Integer({ description: 'Cents, excluding VAT: the sum of the line nets.' }),
  totalTax: nullable(Type.Integer({ description: 'Cents; fixed by the tax decision at finalization.' })),
  total: nullable(Type.Integer({ description: 'Cents, VAT included; fixed by the tax decision at finalization.' })),
  amountPaid: Type.Integer({ description: 'Cents collected.' }),
  amountRefunded: Type.Integer({ description: 'Cents given back (refunds of credit notes).' }),
  amountCredited: Type.Integer({ description: 'Cents taken off by finalized credit notes.' }),
  amountDue: nullable(
    Type.Integer({
      description:
        'Cents still owed: total - credited - deducted deposits - (paid - refunded), never below 0. Null for a draft or a credit note.',
    }),
  ),
  issueDate: nullable(Type.String()),
  dueDate: nullable(Type.String({ description: 'An invoice: when it is due. Always null on a credit note.' })),
  deliveryDate: nullable(
    Type.String({
      description:
        'BT-72 as given. Null: the files state the operation date of the tax decision (its tax point) as the date of supply.',
    }),
  ),
  paymentTermsDays: nullable(Type.Integer()),
  paymentTerms: nullable(Type.String()),
  notes: nullable(Type.String()),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  vatBreakdown: Type.Array(
    Type.Object({
      vatCode: Type.String(),
      vatRate: nullable(Type.String()),
      vatexCode: nullable(Type.String()),
      taxableAmount: Type.Integer(),
      taxAmount: Type.Integer(),
    }),
  ),
  mentions: Type.Array(Type.Object({ code: Type.String(), text: Type.String(), lines: Type.Array(Type.Integer()) }), {
    description: 'Legal mentions decided by the tax decision.',
  }),
  einvoicing: einvoicingSchema,
  obligation: nullable(obligationSchema),
  overdue: Type.Boolean({ description: 'The due date passed without full payment (`invoice.overdue` was emitted).' }),
  paymentPortalUrl: nullable(
    Type.String({
      description:
        "The public payment page of a finalized invoice (a test invoice's answers `sandbox_payment_unavailable`).",
    }),
  ),
  files: Type.Array(
    Type.Object({
      kind: oneOf(['facturx', 'xml', 'pdf', 'ubl']),
      state: oneOf(['pending', 'generating', 'ready', 'failed']),
      sha256: nullable(Type.String({ description: 'SHA-256 of the stored file (hex), once ready; also its ETag.' })),
      size: nullable(Type.Integer({ description: 'Bytes, once ready.' })),
      contentType: Type.String(),
      fileName: Type.String(),
      url: Type.String({ description: 'Where to download it (`GET`, the same key).' }),
      ruleSet: nullable(
        Type.String({
          description:
            'The official rule set (FNFE-MPE version, e.g. `1.4.0.03`) in force on the issue date, which validated the file: the Factur-X, the CII and the UBL. Null for the readable PDF, until the file is ready, and for files generated before the set was recorded.',
        }),
      ),
    }),
    {
      description:
        'The generated files (Factur-X PDF/A-3 with its CII, the CII alone, the readable PDF), generated right after the finalization: `pending` and `generating` until stored, then `ready` with their SHA-256, or `failed` when the official validators refused the CII (never deposited). Empty for a draft.',
    },
  ),
  attachments: Type.Array(Type.Ref('Attachment'), {
    description:
      'BG-24 supporting documents, metadata only (the bytes: `.../attachments/{attachmentId}/content`); added and deleted on a draft, frozen at finalization.',
  }),
  finalizedAt: nullable(Type.String()),
  created: Type.String(),
  updated: Type.String(),
  warnings: Type.Optional(
    Type.Array(
      Type.Object({
        code: oneOf(['pa_not_configured', 'deposit_not_enabled']),
        message: Type.String(),
      }),
      {
        description:
          'Only on the answer of the finalization: what will block the deposit of a document due on the e-invoicing network (no platform connected for the establishment, its deposits off), with the code `send` will refuse it with. The number is taken all the same; empty when nothing blocks it.',
      },
    ),
  ),
};

export const invoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `inv_`.' }),
    object: Type.Literal('invoice'),
    ...documentFields,
    invoiceType: oneOf(
      ['standard', 'deposit'],
      '`deposit`: a deposit invoice (facture d’acompte, BT-3 386). `standard`: any other invoice, a final invoice deducting deposits included.',
    ),
    deposits: Type.Array(
      Type.Object({
        invoiceId: Type.String(),
        number: nullable(Type.String({ description: 'Frozen at finalization.' })),
        issueDate: nullable(Type.String({ description: 'Frozen at finalization.' })),
        amount: nullable(Type.Integer({ description: 'Cents deducted (its total), frozen at finalization.' })),
      }),
      {
        description:
          'A final invoice (frame B4/S4/M4): the deposit invoices it deducts, named in its files (BG-3) with their sum as already paid (BT-113). Empty on any other invoice.',
      },
    ),
    amountDeducted: Type.Integer({
      description:
        'Cents of deposits deducted at finalization: the buyer owes `total - amountDeducted`, less what it paid.',
    }),
    deductedBy: nullable(
      Type.String({ description: 'A deposit invoice: the final invoice (`inv_`) that deducted it; null until then.' }),
    ),
    quoteId: nullable(Type.String({ description: 'The quote this invoice was converted from.' })),
    recurringInvoiceId: nullable(
      Type.String({ description: 'The recurring invoice (`rinv_`) that generated this invoice.' }),
    ),
  },
  { $id: 'Invoice' },
);

export const creditNoteSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `cn_`.' }),
    object: Type.Literal('credit_note'),
    ...documentFields,
    relatedInvoiceId: nullable(Type.String()),
    relatedInvoiceNumber: nullable(
      Type.String({ description: 'The number of the related invoice, frozen at creation.' }),
    ),
  },
  { $id: 'CreditNote' },
);

const summaryStatuses = [
  'draft',
  'finalized',
  'sending',
  'deposited',
  'transmitted',
  'available',
  'received',
  'approved',
  'partially_paid',
  'suspended',
  'rejected',
  'refused',
  'paid',
  'partially_refunded',
  'refunded',
  'cancelled',
];

/** The query of the invoice and credit-note lists. */
export const documentListQuery = {
  ...paginationQuery,
  status: Type.Optional(
    Type.Union(
      summaryStatuses.map((value) => Type.Literal(value)),
      { description: 'The summary status.' },
    ),
  ),
  customerId: Type.Optional(Type.String({ maxLength: 255 })),
  date_from: Type.Optional(
    Type.String({
      format: 'date',
      description: 'Invoice date on or after (a calendar date; a draft counts by its creation day).',
    }),
  ),
  date_to: Type.Optional(Type.String({ format: 'date', description: 'Invoice date on or before (a calendar date).' })),
  number: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 35,
      description:
        'The number or a part of it, in any case (`000042`, `F2026-0000`): drafts, having none, never match.',
    }),
  ),
};

export const historySchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('lifecycle_status'),
      status: Type.String({ description: '`fr:200` ... `fr:501`.' }),
      reasonCode: Type.Union([Type.String(), Type.Null()]),
      reason: Type.Union([Type.String(), Type.Null()]),
      notes: Type.Optional(Type.Array(Type.String(), { description: 'The notes that came with the status.' })),
      receivedAt: Type.String(),
      applied: Type.Boolean({
        description: 'False when the status changed nothing (a repeat, a late status, `fr:211`).',
      }),
      event: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  url: Type.String(),
});

export const documentEmailListSchema = listEnvelopeSchema(
  Type.Object({
    object: Type.Literal('document_email'),
    id: Type.String({ description: '`em_...`' }),
    livemode: Type.Boolean(),
    documentId: Type.String(),
    to: nullable(Type.String({ description: 'The buyer address frozen at finalization.' })),
    subject: Type.String(),
    status: Type.Union(
      ['logged', 'pending', 'sending', 'sent', 'unconfirmed', 'bounced', 'failed'].map((status) =>
        Type.Literal(status),
      ),
      {
        description:
          '`logged`: recorded, never sent (test mode, no address, no SMTP server: `error` says which); `pending`: to send, retried after a 4xx; `sending`: in an SMTP exchange; `sent`: accepted by the SMTP server; `unconfirmed`: the sender died during the exchange (never sent twice); `bounced`: refused for good (5xx); `failed`: retries used up.',
      },
    ),
    messageId: Type.String({ description: 'The Message-ID header, the same on every attempt.' }),
    attempts: Type.Integer(),
    error: nullable(Type.String()),
    created: Type.String(),
    sentAt: nullable(Type.String()),
  }),
);
