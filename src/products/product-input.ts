import { Type, type Static, type TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import { compileSchema, validationToApiError } from '../kernel/schema-validation.js';
import { metadataField } from '../kernel/metadata.js';
import { unitCodes, units } from './units.js';
import { productNatures, vatCategories } from './service.js';

/**
 * The body schemas of the product routes, and the same validation for the dashboard's forms
 * (same validator, same error mapping as a JSON body).
 */

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    anyOf: values.map((value) => ({ type: 'string', const: value })),
    ...(description ? { description } : {}),
  });

const unitField = literals(
  unitCodes,
  `UN/ECE Recommendation 20 code: ${unitCodes.map((code) => `\`${code}\` (${units[code]})`).join(', ')}. Default \`C62\`.`,
);
export const natureField = literals(
  productNatures,
  '`goods`, `services` or `electronic_service` (services supplied electronically, whose place of supply follows the customer).',
);
const vatCategoryField = literals(
  vatCategories,
  'Default VAT rate category: `standard` (20 % in mainland France), `intermediate` (10 %), `reduced` (5.5 %), `super_reduced` (2.1 %), `zero`, `exempt`. Default `standard`.',
);
const unitPriceField = Type.String({
  minLength: 1,
  maxLength: 20,
  description:
    'Price of one unit excluding VAT, a decimal string such as "12.50" (at most 6 decimals), never a number.',
});
const descriptionField = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 });

export const productCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(descriptionField),
    unitPrice: unitPriceField,
    unit: Type.Optional(unitField),
    nature: natureField,
    vatCategory: Type.Optional(vatCategoryField),
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export const productUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(descriptionField),
    unitPrice: Type.Optional(unitPriceField),
    unit: Type.Optional(unitField),
    nature: Type.Optional(natureField),
    vatCategory: Type.Optional(vatCategoryField),
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export type ProductCreateInput = Static<typeof productCreateBody>;
export type ProductUpdateInput = Static<typeof productUpdateBody>;

type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
const compileBody = (schema: TSchema) => compileSchema(schema, 'body') as unknown as Validate;
const validateCreate = compileBody(productCreateBody);
const validateUpdate = compileBody(productUpdateBody);

/** Validates a creation body exactly as `POST /v1/products` does; throws the same ApiError. */
export function parseProductCreate(value: unknown): ProductCreateInput {
  if (!validateCreate(value)) throw validationToApiError(validateCreate.errors ?? [], 'body');
  return value as ProductCreateInput;
}

/** Validates an update body exactly as `POST /v1/products/:id` does; throws the same ApiError. */
export function parseProductUpdate(value: unknown): ProductUpdateInput {
  if (!validateUpdate(value)) throw validationToApiError(validateUpdate.errors ?? [], 'body');
  return value as ProductUpdateInput;
}
