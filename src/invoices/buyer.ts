import { Type, type Static } from 'typebox';
import { customerCreateBody } from '../customers/customer-input.js';
import { ApiError } from '../kernel/errors.js';
import { sirenOfVatNumber } from '../identifiers/vat-number.js';
import { checkCustomer, type CustomerFields } from '../customers/customer-checks.js';
import type { Address } from '../customers/address.js';
import { vatTerritoryOf } from '../tax/vat-territory.js';
import { explained } from './refusals.js';

/**
 * The buyer of a document: a customer (`customerId`) or an inline `buyer`. At finalization the
 * buyer is frozen on the document (an issued invoice never changes with its customer).
 */

export type BuyerAddress = Address;

/** The buyer's identity as printed on the document: a customer's fields without routing code and metadata. */
export type BuyerSnapshot = Omit<CustomerFields, 'routingCode' | 'metadata'>;

/** The buyer written on a document: a customer's identity, without its routing code and metadata. */
export const buyerInput = Type.Omit(customerCreateBody, ['routingCode', 'metadata'], {
  additionalProperties: false,
  description: 'The buyer written on the document, instead of `customerId`: checked like a customer.',
});

export type BuyerInput = Static<typeof buyerInput>;

/**
 * Checks an inline buyer by the rules of a customer (identifiers, addresses, a consumer without
 * business identifiers), each refusal naming its field under `field`.
 */
export function checkBuyer(input: BuyerInput, field = 'buyer'): BuyerSnapshot {
  const blank = (value: string | null | undefined) => value ?? null;
  const checked = checkCustomer(
    {
      type: input.type ?? 'company',
      name: input.name,
      email: blank(input.email),
      siren: blank(input.siren),
      siret: blank(input.siret),
      vatNumber: blank(input.vatNumber),
      electronicAddress: blank(input.electronicAddress),
      routingCode: null,
      address: input.address ?? null,
      deliveryAddress: input.deliveryAddress ?? null,
      registryNonDisclosure: [...(input.registryNonDisclosure ?? [])],
      einvoiceSyntax: input.einvoiceSyntax ?? null,
      metadata: {},
    },
    field,
  );
  const { routingCode: _routingCode, metadata: _metadata, ...buyer } = checked;
  return buyer;
}

/** A stored buyer as the resources show it: one written before `einvoiceSyntax` existed states none. */
export function shownBuyer(buyer: BuyerSnapshot | null): BuyerSnapshot | null {
  return buyer ? { ...buyer, einvoiceSyntax: buyer.einvoiceSyntax ?? null } : null;
}

/** The customer as the invoices capability reads it (the customers service's resource). */
export interface CustomerFacts extends BuyerSnapshot {
  id: string;
  deleted: boolean;
}

export function snapshotOfCustomer(customer: CustomerFacts): BuyerSnapshot {
  const address = (value: BuyerAddress | null): BuyerAddress | null =>
    value
      ? {
          line1: value.line1,
          line2: value.line2,
          postalCode: value.postalCode,
          city: value.city,
          country: value.country,
        }
      : null;
  return {
    type: customer.type,
    name: customer.name,
    email: customer.email,
    siren:
      customer.siren ??
      (customer.siret ? customer.siret.slice(0, 9) : null) ??
      (customer.vatNumber ? sirenOfVatNumber(customer.vatNumber) : null),
    siret: customer.siret,
    vatNumber: customer.vatNumber,
    electronicAddress: customer.electronicAddress,
    address: address(customer.address),
    deliveryAddress: address(customer.deliveryAddress),
    registryNonDisclosure: [...customer.registryNonDisclosure],
    einvoiceSyntax: customer.einvoiceSyntax,
  };
}

/**
 * A buyer whose name or address part carries a registry non-disclosure marker cannot be put on
 * an invoice: `buyer_identity_not_disclosed` naming the field, before any number is taken.
 */
export function checkDisclosure(buyer: BuyerSnapshot, field: string): void {
  const hidden = buyer.registryNonDisclosure[0];
  if (hidden === undefined) return;
  throw new ApiError('buyer_identity_not_disclosed', {
    param: `${field}.${hidden}`,
    hint: 'Ask the customer for the identity to print (or fix the customer), then finalize again. Nothing was numbered.',
  });
}

/** An invoice addressed to its own issuer (same SIREN) is refused. */
export function checkNotSelf(buyer: BuyerSnapshot, sellerSiren: string, field: string): void {
  if (buyer.siren !== null && buyer.siren === sellerSiren) {
    throw explained(
      'self_invoicing_not_allowed',
      `The buyer's SIREN ${buyer.siren} is the issuer's own: a company does not invoice itself.`,
      { param: `${field}.siren` },
    );
  }
}

/** The tax-relevant facts of a buyer, as a tax decision records them. */
export interface BuyerTaxFacts {
  type: 'company' | 'individual';
  vatNumber: string | null;
  territory: string | null;
  deliveryTerritory: string | null;
}

const territoryOf = (address: BuyerAddress | null): string | null => {
  if (!address) return null;
  const result = vatTerritoryOf(address.country, address.postalCode);
  return result.ok ? result.territory.id : null;
};

export function taxFactsOf(buyer: BuyerSnapshot): BuyerTaxFacts {
  const territory = territoryOf(buyer.address);
  // As the decision records it: the delivery address's territory, else the billing address's.
  return {
    type: buyer.type,
    vatNumber: buyer.vatNumber,
    territory,
    deliveryTerritory: buyer.deliveryAddress ? territoryOf(buyer.deliveryAddress) : territory,
  };
}
