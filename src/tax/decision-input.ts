import { Type, type Static } from 'typebox';
import { ApiError, type Issue } from '../kernel/errors.js';
import { lineAdjustmentsField } from '../kernel/line-adjustments.js';
import { documentAdjustmentsField } from '../kernel/document-adjustments.js';
import { evidenceTypes } from './location-evidence.js';
import { rateCategories } from './rates.js';

/**
 * The body of `POST /v1/tax-decisions`: a description of the operation, never a tax result. The
 * supplied VAT of `taxSource: integration` (`vatRate`, `vatCode`, `vatexCode`) is the one tax
 * fact a client may state; amounts, totals, mentions and axes are always the service's.
 */

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    anyOf: values.map((value) => ({ type: 'string', const: value })),
    ...(description ? { description } : {}),
  });
const nullableString = (options: { maxLength: number; description?: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

export const maxDecisionLines = 1000;

const address = Type.Object(
  {
    line1: Type.Optional(nullableString({ maxLength: 200 })),
    line2: Type.Optional(nullableString({ maxLength: 200 })),
    postalCode: Type.Optional(nullableString({ maxLength: 20 })),
    city: Type.Optional(nullableString({ maxLength: 100 })),
    country: Type.String({ minLength: 1, maxLength: 2, description: 'ISO 3166-1 alpha-2.' }),
  },
  { additionalProperties: false },
);

const inlineCustomer = Type.Object(
  {
    type: literals(['company', 'individual'] as const, '`company` (a taxable business) or `individual` (a consumer).'),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    vatNumber: Type.Optional(
      nullableString({ maxLength: 30, description: 'With its country prefix (`DE`, `EL`, `XI`...).' }),
    ),
    siren: Type.Optional(nullableString({ maxLength: 20 })),
    address: Type.Optional(Type.Union([address, Type.Null()])),
    deliveryAddress: Type.Optional(Type.Union([address, Type.Null()])),
  },
  { additionalProperties: false, description: 'The inline buyer, instead of `customerId`.' },
);

const line = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 1000 }),
    quantity: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'A positive decimal string, at most 4 decimals ("1.5").',
    }),
    unitPrice: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Excluding VAT, a decimal string, at most 6 decimals ("12.50").',
    }),
    nature: literals(['goods', 'services', 'electronic_service'] as const),
    rateCategory: Type.Optional(
      literals(rateCategories, "The rate category requested (the products' `vatCategory`); default `standard`."),
    ),
    vatRate: Type.Optional(
      nullableString({
        maxLength: 10,
        description: '`taxSource: integration` only: the rate, a decimal string ("20", "5.5"); null for category O.',
      }),
    ),
    vatCode: Type.Optional(
      Type.String({
        maxLength: 3,
        description: '`taxSource: integration` only: the UNCL5305 category (S, Z, E, AE, K, G, O).',
      }),
    ),
    vatexCode: Type.Optional(
      nullableString({
        maxLength: 40,
        description: '`taxSource: integration` only: the VATEX exemption code, or null.',
      }),
    ),
    allowances: Type.Optional(
      lineAdjustmentsField('Discounts on the line (BG-27): the line net is quantity x unit price less these.'),
    ),
    charges: Type.Optional(lineAdjustmentsField('Charges on the line (BG-28): added to quantity x unit price.')),
  },
  { additionalProperties: false },
);

const evidence = Type.Object(
  {
    type: literals(
      evidenceTypes,
      'Art. 24f of Regulation 282/2011: (a) `billing_address`, (b) `ip_address`, (c) `bank`, (d) `sim_mcc`, (e) `fixed_line`, (f) `other`.',
    ),
    country: Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' }),
    providedBy: literals(
      ['supplier', 'third_party'] as const,
      'Who holds the item: the supplier, or a third party involved in the supply (payment provider, operator).',
    ),
  },
  { additionalProperties: false },
);

export const decisionBody = Type.Object(
  {
    taxSource: literals(
      ['service', 'integration'] as const,
      '`service`: the engine decides the VAT; `integration`: the client supplies it per line and the engine checks it.',
    ),
    date: Type.String({ format: 'date', description: 'The operation date (tax point).' }),
    currency: literals(
      ['EUR'] as const,
      'EUR: the EU threshold is counted in euros and BR-FR-CO-12 needs the VAT in euros; the engine holds no exchange rate.',
    ),
    customerId: Type.Optional(Type.String({ maxLength: 255 })),
    customer: Type.Optional(inlineCustomer),
    lines: Type.Array(line, { minItems: 1, maxItems: maxDecisionLines }),
    allowances: Type.Optional(
      documentAdjustmentsField(
        'Document allowances (BG-20), as the document states them: split over the VAT groups by their line nets.',
      ),
    ),
    charges: Type.Optional(
      documentAdjustmentsField('Document charges (BG-21): split over the VAT groups by their line nets.'),
    ),
    locationEvidence: Type.Optional(
      Type.Array(evidence, { maxItems: 20, description: 'Where a consumer of electronic services is.' }),
    ),
    retryOf: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'A decision not taken, suspended or expired, retried with only missing evidence added.',
      }),
    ),
    metadata: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, maxProperties: 50 }),
    ),
  },
  { additionalProperties: false },
);

export type DecisionInput = Static<typeof decisionBody>;

const resultFields = [
  'totals',
  'total',
  'vatAmount',
  'taxAmount',
  'vatTotal',
  'netAmount',
  'grossAmount',
  'amount',
  'lineTotal',
  'mentions',
  'legalMentions',
  'axes',
  'obligations',
  'status',
  'vatBreakdown',
  'expiresAt',
];
const topOnlyResultFields = ['vatRate', 'vatCode', 'vatexCode', 'taxCategory'];

/**
 * A payload that states a tax result (amounts, totals, mentions, axes, a status) is refused with
 * `tax_decision_input_rejected` before anything else, each field an issue.
 */
export function rejectImposedResults(body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const issues: Issue[] = [];
  for (const key of Object.keys(body)) {
    if (resultFields.includes(key) || topOnlyResultFields.includes(key))
      issues.push({
        code: 'tax_decision_input_rejected',
        param: key,
        message: `\`${key}\` is a tax result: the service computes it from the operation.`,
      });
  }
  const lines = (body as { lines?: unknown }).lines;
  if (Array.isArray(lines)) {
    lines.forEach((entry, index) => {
      if (!entry || typeof entry !== 'object') return;
      for (const key of Object.keys(entry)) {
        if (resultFields.includes(key))
          issues.push({
            code: 'tax_decision_input_rejected',
            param: `lines[${index}].${key}`,
            message: `Line ${index} carries \`${key}\`, a tax result: the service computes amounts; describe quantity and unit price.`,
          });
      }
    });
  }
  if (issues.length > 0) {
    throw new ApiError('tax_decision_input_rejected', {
      param: issues[0]!.param ?? undefined,
      values: {
        detail:
          issues.length === 1
            ? issues[0]!.message
            : `The payload imposes ${issues.length} tax results instead of describing the operation; see \`issues\`.`,
      },
      issues,
    });
  }
}
