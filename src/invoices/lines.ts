import Big from 'big.js';
import { Type, type Static } from 'typebox';
import { ApiError, refuse } from '../kernel/errors.js';
import { quantityPattern, unitPricePattern } from '../kernel/money.js';
import { lineAdjustmentsField, lineFigures, type LineAdjustment } from '../kernel/line-adjustments.js';

/**
 * Lines of a document (invoice, credit note, quote): from a product or free. A line is resolved
 * once, when it is written to the draft (the product's name, price, unit, nature and VAT category
 * are copied), so that a later change of the product never changes a document.
 */

export const natures = ['goods', 'services', 'electronic_service'] as const;
export type Nature = (typeof natures)[number];
export const rateCategories = ['standard', 'intermediate', 'reduced', 'super_reduced', 'zero', 'exempt'] as const;

export const maxLines = 1000;

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    anyOf: values.map((value) => ({ type: 'string', const: value })),
    ...(description ? { description } : {}),
  });
const nullableString = (options: { maxLength: number; description?: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

export const lineInput = Type.Object(
  {
    productId: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          'A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here.',
      }),
    ),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    quantity: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description: 'A positive decimal string, at most 4 decimals ("1.5"). Default "1".',
      }),
    ),
    unitPrice: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description: 'Excluding VAT, a decimal string, at most 6 decimals ("12.50").',
      }),
    ),
    unit: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 3,
        description: "UN/ECE Recommendation 20 code; default the product's, else `C62`.",
      }),
    ),
    nature: Type.Optional(literals(natures)),
    rateCategory: Type.Optional(
      literals(rateCategories, 'The VAT rate category asked of the tax decision (`taxSource: service`).'),
    ),
    vatRate: Type.Optional(
      nullableString({
        maxLength: 10,
        description: '`taxSource: integration`: the rate supplied ("20", "5.5"); null for category O.',
      }),
    ),
    vatCode: Type.Optional(
      Type.String({
        maxLength: 3,
        description: '`taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O).',
      }),
    ),
    vatexCode: Type.Optional(
      nullableString({ maxLength: 40, description: '`taxSource: integration`: the VATEX code, or null.' }),
    ),
    allowances: Type.Optional(
      lineAdjustmentsField(
        'Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same.',
      ),
    ),
    charges: Type.Optional(
      lineAdjustmentsField(
        'Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same.',
      ),
    ),
  },
  { additionalProperties: false },
);

export const linesField = Type.Array(lineInput, {
  minItems: 1,
  maxItems: maxLines,
  description: "The lines, in order; each must match the tax decision's line of the same position.",
});

export type LineInput = Static<typeof lineInput>;

/** A line as stored and shown. `netAmount` is cents: round2(quantity x unit price), half-up, less its allowances, plus its charges. */
export interface DocumentLine {
  productId: string | null;
  description: string;
  quantity: string;
  unitPrice: string;
  unit: string;
  nature: Nature;
  rateCategory: string | null;
  vatRate: string | null;
  vatCode: string | null;
  vatexCode: string | null;
  /** BG-27 / BG-28; absent on the lines written before they existed. */
  allowances?: LineAdjustment[];
  charges?: LineAdjustment[];
  netAmount: number;
}

/** What a line copies from its product. */
export interface ProductFacts {
  id: string;
  name: string;
  unitPrice: string;
  unit: string;
  nature: Nature;
  vatCategory: string;
  deleted: boolean;
}

/** The same decimal however written: `12.50` and `12.5` are equal. */
export function sameDecimal(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return new Big(a).eq(b);
  } catch {
    return false;
  }
}

/** Resolves the lines of a body against the products it names (already read). Pure. */
export function resolveLines(
  inputs: LineInput[],
  products: Map<string, ProductFacts>,
  field = 'lines',
): DocumentLine[] {
  return inputs.map((input, index) => {
    const at = (name: string) => `${field}[${index}].${name}`;
    let product: ProductFacts | null = null;
    if (input.productId !== undefined) {
      product = products.get(input.productId) ?? null;
      if (!product) throw refuse('not_found', `No product ${input.productId}.`, { param: at('productId') });
      if (product.deleted)
        throw new ApiError('resource_deleted', {
          values: { resource: 'product', id: product.id },
          param: at('productId'),
        });
    }
    const description = input.description?.trim() || product?.name;
    if (!description) throw new ApiError('missing_required_field', { param: at('description') });
    const unitPrice = input.unitPrice ?? product?.unitPrice;
    if (unitPrice === undefined) throw new ApiError('missing_required_field', { param: at('unitPrice') });
    const nature = input.nature ?? product?.nature;
    if (nature === undefined) throw new ApiError('missing_required_field', { param: at('nature') });
    const quantity = input.quantity ?? '1';
    if (!quantityPattern.test(quantity) || new Big(quantity).eq(0)) {
      throw refuse(
        'validation_error',
        `\`${at('quantity')}\` is a positive decimal string of at most 12 digits and 4 decimals, e.g. "1.5".`,
        { param: at('quantity') },
      );
    }
    if (!unitPricePattern.test(unitPrice)) {
      throw refuse(
        'validation_error',
        `\`${at('unitPrice')}\` is a decimal string of at most 12 digits and 6 decimals, without sign, e.g. "12.50".`,
        { param: at('unitPrice') },
      );
    }
    const unit = input.unit ?? product?.unit ?? 'C62';
    if (!/^[A-Z0-9]{1,3}$/.test(unit))
      throw refuse(
        'validation_error',
        `\`${at('unit')}\` is a UN/ECE Recommendation 20 code such as \`C62\` or \`HUR\`.`,
        { param: at('unit') },
      );
    const figures = lineFigures(quantity, unitPrice, input, `${field}[${index}]`);
    return {
      productId: product?.id ?? null,
      description,
      quantity,
      unitPrice,
      unit,
      nature,
      rateCategory: input.rateCategory ?? product?.vatCategory ?? null,
      vatRate: input.vatRate ?? null,
      vatCode: input.vatCode ?? null,
      vatexCode: input.vatexCode ?? null,
      allowances: figures.allowances,
      charges: figures.charges,
      netAmount: figures.netAmount,
    };
  });
}

/** The largest total a document may reach: integer cents stay exact in JSON. */
export const maxSubtotalCents = 1_000_000_000_000_000;

export function subtotalOf(lines: DocumentLine[], field = 'lines'): number {
  const total = lines.reduce((sum, line) => sum + line.netAmount, 0);
  if (total * 1.3 >= maxSubtotalCents)
    throw refuse('invalid_field_value', 'The document is too large: its total must stay under 10^13 euros.', {
      param: field,
    });
  return total;
}
