import { Type, type Static, type TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import { compileSchema, validationToApiError } from '../kernel/schema-validation.js';
import { nonDisclosableFields, type NonDisclosableField } from './directory.js';
import { metadataField } from '../kernel/metadata.js';

/**
 * The body schemas of the customer routes. The CSV import validates each line against the very
 * same schema (with the same validator and error mapping as a JSON body), then the same rules.
 */

/** A string, or null to clear it on update: one JSON Schema type list, so errors name the real cause. */
const nullableString = (options: { maxLength: number; minLength?: number; format?: string; description?: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

const addressObject = Type.Object(
  {
    line1: Type.Optional(nullableString({ maxLength: 200 })),
    line2: Type.Optional(nullableString({ maxLength: 200 })),
    postalCode: Type.Optional(
      nullableString({
        maxLength: 20,
        description: 'Checked against the syntax of the country; for France, also mapped to its VAT territory.',
      }),
    ),
    city: Type.Optional(nullableString({ maxLength: 100 })),
    country: Type.String({ minLength: 1, maxLength: 2, description: 'ISO 3166-1 alpha-2 code, e.g. `FR`.' }),
  },
  { additionalProperties: false },
);

const nullableAddress = (description: string) =>
  Type.Unsafe<Static<typeof addressObject> | null>({ ...addressObject, type: ['object', 'null'], description });

const customerFields = {
  email: Type.Optional(nullableString({ maxLength: 254, format: 'email' })),
  siren: Type.Optional(
    nullableString({
      maxLength: 20,
      description: '9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent.',
    }),
  ),
  siret: Type.Optional(
    nullableString({
      maxLength: 20,
      description:
        '14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`).',
    }),
  ),
  vatNumber: Type.Optional(
    nullableString({
      maxLength: 30,
      description: 'VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified.',
    }),
  ),
  electronicAddress: Type.Optional(
    nullableString({
      maxLength: 125,
      description: 'Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN.',
    }),
  ),
  routingCode: Type.Optional(
    nullableString({
      maxLength: 100,
      description: 'Directory routing code of the establishment (scheme 0224); needs `siret`.',
    }),
  ),
  address: Type.Optional(nullableAddress('Billing address; `address.territory` is added in responses.')),
  deliveryAddress: Type.Optional(nullableAddress('Delivery address when it differs from `address`.')),
  registryNonDisclosure: Type.Optional(
    Type.Unsafe<NonDisclosableField[]>({
      type: 'array',
      items: { anyOf: nonDisclosableFields.map((field) => ({ type: 'string', const: field })) },
      maxItems: nonDisclosableFields.length,
      uniqueItems: true,
      description:
        'Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs.',
    }),
  ),
  einvoiceSyntax: Type.Optional(
    Type.Union([Type.Literal('cii'), Type.Literal('ubl'), Type.Null()], {
      description:
        "The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X.",
    }),
  ),
  metadata: Type.Optional(metadataField),
};

const typeField = Type.Union([Type.Literal('company'), Type.Literal('individual')], {
  description: '`company` (a business) or `individual` (a consumer). Default `company`.',
});

export const customerCreateBody = Type.Object(
  {
    type: Type.Optional(typeField),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    ...customerFields,
  },
  { additionalProperties: false },
);

export const customerUpdateBody = Type.Object(
  {
    type: Type.Optional(typeField),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...customerFields,
  },
  { additionalProperties: false },
);

export type CustomerCreateInput = Static<typeof customerCreateBody>;
export type CustomerUpdateInput = Static<typeof customerUpdateBody>;

type Validate = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

function compileBody(schema: TSchema): Validate {
  return compileSchema(schema, 'body') as unknown as Validate;
}

const validateCreate = compileBody(customerCreateBody);

/** Validates a creation body exactly as the route does; throws the same ApiError. */
export function parseCustomerCreate(value: unknown): CustomerCreateInput {
  if (!validateCreate(value)) throw validationToApiError(validateCreate.errors ?? [], 'body');
  return value as CustomerCreateInput;
}

const validateUpdate = compileBody(customerUpdateBody);

/** Validates an update body exactly as the route does (the dashboard's edit form); throws the same ApiError. */
export function parseCustomerUpdate(value: unknown): CustomerUpdateInput {
  if (!validateUpdate(value)) throw validationToApiError(validateUpdate.errors ?? [], 'body');
  return value as CustomerUpdateInput;
}
