// Generated from facteur's OpenAPI document by `npm run sdk:types`; do not edit.

export interface paths {
  '/v1/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve the account of the calling key */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              apiKey: {
                expiresAt: string | null;
                id: string;
                scopes: string[] | null;
              };
              /** @description The legal identity every finalized document freezes in its `seller` block, shared by both environments. */
              company: {
                bic: string | null;
                contact: {
                  email: string | null;
                  name: string | null;
                  phone: string | null;
                } | null;
                iban: string | null;
                legalForm: string | null;
                legalName: string | null;
                name: string;
                registration: {
                  /** @description `RCS` (registre du commerce) or `RM` (répertoire des métiers). */
                  kind: string;
                  /** @description The city of the registry. */
                  place: string;
                } | null;
                shareCapital: string | null;
                siren: string;
                tradeName: string | null;
                vatNumber: string | null;
              };
              created: string;
              /** @description The company, prefix `co_`. */
              id: string;
              limits: {
                /** @description Establishments connected to a platform, per environment. */
                connectedEstablishments: number;
                /** @description Live documents per calendar month (UTC). */
                monthlyQuota: number;
                requestsPerMinute: number;
                storageBytes: number;
                /** @description Per environment. */
                webhookEndpoints: number;
              };
              /** @description Fixed by the API key: true for `svc_live_` keys. */
              livemode: boolean;
              name: string;
              /** @enum {string} */
              object: 'account';
              plan: string;
              siren: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Update the company's legal identity
     * @description A partial update: a key left out keeps its value, null clears it (`legalName` cannot be cleared). Shared by both environments; a key without scopes (full access) of either environment. Documents already finalized keep their frozen `seller`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            bic?: string | null;
            contact?: {
              email?: string | null;
              name?: string | null;
              phone?: string | null;
            } | null;
            iban?: string | null;
            legalForm?: string | null;
            legalName?: string | null;
            registration?: {
              kind: string;
              place: string;
            } | null;
            shareCapital?: string | null;
            tradeName?: string | null;
            vatNumber?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              apiKey: {
                expiresAt: string | null;
                id: string;
                scopes: string[] | null;
              };
              /** @description The legal identity every finalized document freezes in its `seller` block, shared by both environments. */
              company: {
                bic: string | null;
                contact: {
                  email: string | null;
                  name: string | null;
                  phone: string | null;
                } | null;
                iban: string | null;
                legalForm: string | null;
                legalName: string | null;
                name: string;
                registration: {
                  /** @description `RCS` (registre du commerce) or `RM` (répertoire des métiers). */
                  kind: string;
                  /** @description The city of the registry. */
                  place: string;
                } | null;
                shareCapital: string | null;
                siren: string;
                tradeName: string | null;
                vatNumber: string | null;
              };
              created: string;
              /** @description The company, prefix `co_`. */
              id: string;
              limits: {
                /** @description Establishments connected to a platform, per environment. */
                connectedEstablishments: number;
                /** @description Live documents per calendar month (UTC). */
                monthlyQuota: number;
                requestsPerMinute: number;
                storageBytes: number;
                /** @description Per environment. */
                webhookEndpoints: number;
              };
              /** @description Fixed by the API key: true for `svc_live_` keys. */
              livemode: boolean;
              name: string;
              /** @enum {string} */
              object: 'account';
              plan: string;
              siren: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/account/card-payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Retrieve the card payment provider
     * @description `not_found` when none is connected.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CardPaymentProvider'];
          };
        };
      };
    };
    /**
     * Connect Stripe for card payments
     * @description Live only (a test key answers `sandbox_payment_unavailable`). Stripe is asked whether the key works first: a refused key is `invalid_field_value` on `secretKey`; when Stripe does not answer the key is kept with `secretKeyVerified: false`. Replaces an earlier connection. Then the invoices' payment pages offer card payment for the amount due.
     */
    put: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @enum {string} */
            provider: 'stripe';
            /** @description A live secret key (`sk_live_…`) or a restricted key (`rk_live_…`) with write access to Checkout Sessions. Sealed at rest. */
            secretKey: string;
            /** @description The signing secret (`whsec_…`) of the webhook endpoint created in Stripe for `webhookUrl`. Sealed at rest. */
            webhookSecret: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CardPaymentProvider'];
          };
        };
      };
    };
    post?: never;
    /**
     * Disconnect the card payment provider
     * @description Payment pages stop offering card payment; the payments recorded stay.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/account/services': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The outside services and how they answer
     * @description Whether each outside service facteur reaches for the key's environment is configured, and how its last exchange for this company went (`operational`, `failing` with why, `unknown` before the first). Test mode simulates them all (`provider: sandbox`). The approved platform's connection is on each establishment (`GET /v1/establishments`).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description The card payment provider the company connected (`PUT /v1/account/card-payments`): live only, since the sandbox takes no online payment. */
              cardPayments: {
                configured: boolean;
                lastExchangeAt: string | null;
                lastFailure: string | null;
                provider: string | null;
                /** @description `unknown`: configured, no exchange yet. Read from the last exchange, not probed on each call. */
                status: 'operational' | 'failing' | 'unknown' | 'not_configured';
              };
              /** @description The company directory live SIRETs are checked against: Sirene when the operator set `FACTEUR_SIRENE_API_KEY`, else the Directory Service of the platform the default establishment is connected to. */
              directory: {
                configured: boolean;
                lastExchangeAt: string | null;
                lastFailure: string | null;
                provider: string | null;
                /** @description `unknown`: configured, no exchange yet. Read from the last exchange, not probed on each call. */
                status: 'operational' | 'failing' | 'unknown' | 'not_configured';
              };
              /** @description The operator's SMTP server (`FACTEUR_SMTP_URL`) documents are e-mailed through. */
              email: {
                configured: boolean;
                lastExchangeAt: string | null;
                lastFailure: string | null;
                provider: string | null;
                /** @description `unknown`: configured, no exchange yet. Read from the last exchange, not probed on each call. */
                status: 'operational' | 'failing' | 'unknown' | 'not_configured';
              };
              livemode: boolean;
              /** @enum {string} */
              object: 'account_services';
              /** @description The EU's VIES, which intra-EU VAT numbers are checked with. */
              vies: {
                configured: boolean;
                lastExchangeAt: string | null;
                lastFailure: string | null;
                provider: string | null;
                /** @description `unknown`: configured, no exchange yet. Read from the last exchange, not probed on each call. */
                status: 'operational' | 'failing' | 'unknown' | 'not_configured';
              };
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List credit notes, newest first */
    get: {
      parameters: {
        query?: {
          customerId?: string;
          /** @description Invoice date on or after (a calendar date; a draft counts by its creation day). */
          date_from?: string;
          /** @description Invoice date on or before (a calendar date). */
          date_to?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description The number or a part of it, in any case (`000042`, `F2026-0000`): drafts, having none, never match. */
          number?: string;
          relatedInvoiceId?: string;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          /** @description The summary status. */
          status?:
            | 'draft'
            | 'finalized'
            | 'sending'
            | 'deposited'
            | 'transmitted'
            | 'available'
            | 'received'
            | 'approved'
            | 'partially_paid'
            | 'suspended'
            | 'rejected'
            | 'refused'
            | 'paid'
            | 'partially_refunded'
            | 'refunded'
            | 'cancelled';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['CreditNote'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a draft credit note
     * @description With `relatedInvoiceId`, it corrects that finalized invoice (same buyer; `relatedInvoiceNumber` is frozen now); without `lines` it credits the whole invoice, with `lines` a part of it. It is finalized on its own tax decision, in its own number series. `credit_note.created`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            };
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            /** @description A customer (`cus_`), or give `buyer` instead. */
            customerId?: string;
            /**
             * Format: date
             * @description The invoice date. It is the day of finalization: numbers follow dates. Default: set at finalization.
             */
            issueDate?: string | null;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines?: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /** @description The finalized invoice corrected (`inv_`); its number is frozen on the credit note now. Without it, a standalone credit note (a commercial gesture) names its buyer and cannot be refunded. */
            relatedInvoiceId?: string;
            /** @description The final tax decision (`txd_`) that backs the document at finalization. */
            taxDecisionId?: string | null;
            /**
             * @description Who states the VAT: `service` or `integration`; default the decision's.
             * @enum {string|null}
             */
            taxSource?: 'service' | 'integration' | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a credit note, with its `einvoicing` block */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    put?: never;
    /**
     * Edit a draft credit note
     * @description A finalized credit note answers `invoice_not_editable`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * Format: date
             * @description The invoice date. It is the day of finalization: numbers follow dates. Default: set at finalization.
             */
            issueDate?: string | null;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines?: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /** @description The final tax decision (`txd_`) that backs the document at finalization. */
            taxDecisionId?: string | null;
            /**
             * @description Who states the VAT: `service` or `integration`; default the decision's.
             * @enum {string|null}
             */
            taxSource?: 'service' | 'integration' | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    /** Delete a draft credit note (`documentStatus: cancelled`) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/attachments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the attachments of a credit note
     * @description In the order they were added; at most 10, one page.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Attachment'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Attach a supporting document to a draft credit note
     * @description BG-24, carried by the files generated at finalization (base64 in the CII and the UBL, an embedded file with AFRelationship `Supplement` in the Factur-X). On a draft only: a finalized credit note answers `invoice_not_editable`. Types: application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet; the bytes must match the type (`invalid_field_value`, param `content`). At most 10485760 bytes decoded (a bigger body: `payload_too_large`), 10 attachments and 20971520 bytes per document. Counted in the plan's storage: `storage_quota_exceeded` past it.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description BT-123 (BR-FR-17); default `PJA`. `LISIBLE` at most once per document. */
            code?: string;
            /** @description The bytes in base64 (RFC 4648, padded); at most 10485760 bytes decoded. */
            content: string;
            /** @description application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet */
            contentType: string;
            description?: string | null;
            /** @description Without path; unique in the document. */
            filename: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Attachment'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/attachments/{attachmentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an attachment of a credit note */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Attachment'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    /**
     * Delete an attachment of a draft credit note
     * @description Releases its storage. A finalized credit note answers `invoice_not_editable`: its attachments are frozen with it.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
              id: string;
              /** @enum {string} */
              object: 'attachment';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/attachments/{attachmentId}/content': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an attachment of a credit note
     * @description The bytes as uploaded, with their `Content-Type`, `ETag` (their SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition` naming the file.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/vnd.oasis.opendocument.spreadsheet': components['schemas']['ErrorEnvelope'];
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': components['schemas']['ErrorEnvelope'];
            'image/jpeg': components['schemas']['ErrorEnvelope'];
            'image/png': components['schemas']['ErrorEnvelope'];
            'text/csv': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/vnd.oasis.opendocument.spreadsheet': components['schemas']['ErrorEnvelope'];
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': components['schemas']['ErrorEnvelope'];
            'image/jpeg': components['schemas']['ErrorEnvelope'];
            'image/png': components['schemas']['ErrorEnvelope'];
            'text/csv': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
            'application/vnd.oasis.opendocument.spreadsheet': string;
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': string;
            'image/jpeg': string;
            'image/png': string;
            'text/csv': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * E-mail a finalized credit note to its buyer
     * @description The credit note's Factur-X (the file as issued, a PDF any reader opens) e-mailed to the buyer's address frozen at finalization, through the operator's SMTP server (`FACTEUR_SMTP_URL`), as a durable job (retried on a 4xx or a lost connection; a 5xx is recorded as a bounce). Outside e-invoicing (B2C, international: `send` answers `not_einvoicing_channel`) this is how the credit note is sent: `credit_note.sent` once the e-mail leaves; within e-invoicing it is a copy (the contract's fallback while the buyer has no directory address) and no event. Test mode: logged, never sent; the event at once. While the files are being generated: 409 `conflict` with `Retry-After`. Refused with `missing_required_field` (`buyer.email`) when the buyer has no e-mail address, `not_supported` in live without an SMTP server, `invalid_status_transition` for a draft.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/emails': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The e-mails of a credit note
     * @description Every e-mail of the document (`POST .../email`), oldest first: to whom, its state (`sent` with the time the SMTP server accepted it, `pending` and retried, `bounced`, or `logged` and never sent, with why), its attempts and Message-ID. A document never e-mailed has an empty list.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                attempts: number;
                created: string;
                documentId: string;
                error: string | null;
                /** @description `em_...` */
                id: string;
                livemode: boolean;
                /** @description The Message-ID header, the same on every attempt. */
                messageId: string;
                /** @enum {string} */
                object: 'document_email';
                sentAt: string | null;
                /** @description `logged`: recorded, never sent (test mode, no address, no SMTP server: `error` says which); `pending`: to send, retried after a 4xx; `sending`: in an SMTP exchange; `sent`: accepted by the SMTP server; `unconfirmed`: the sender died during the exchange (never sent twice); `bounced`: refused for good (5xx); `failed`: retries used up. */
                status: 'logged' | 'pending' | 'sending' | 'sent' | 'unconfirmed' | 'bounced' | 'failed';
                subject: string;
                to: string | null;
              }[];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/files/facturx': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the Factur-X of a credit note
     * @description The Factur-X (EN 16931 profile): the readable PDF/A-3b carrying its CII as `factur-x.xml`, named `<number>.pdf`. This is the invoice the platform receives. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/files/pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the readable PDF of a credit note
     * @description The readable PDF without attachment, `<number>-visual.pdf`. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/files/ubl': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the UBL XML of a credit note
     * @description The UBL 2.1 Invoice (or CreditNote for a credit note), EN 16931, `<number>-ubl.xml`: the same document as the CII, in the other syntax the platforms accept, validated by the OASIS UBL 2.1 XSD, the EN 16931 UBL schematron and the BR-FR rules for UBL. A document generated before UBL was issued has none: 400 `not_supported`. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/files/xml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the CII XML of a credit note
     * @description The CII (UN/CEFACT Cross Industry Invoice, Factur-X EN 16931) alone, `<number>.xml`: byte-identical to the attachment of the Factur-X. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/finalize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finalize a credit note: number it in its own series
     * @description The same checks as an invoice's finalization (its own tax decision, buyer identity, issuer). What the buyer owes on the related invoice goes down in the same transaction; the credit notes of an invoice never credit more than its total. Live: 10 per minute per key, and the monthly quota. `credit_note.finalized`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The life-cycle statuses received for a credit note */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                /** @description False when the status changed nothing (a repeat, a late status, `fr:211`). */
                applied: boolean;
                event: string | null;
                /** @description The notes that came with the status. */
                notes?: string[];
                /** @enum {string} */
                object: 'lifecycle_status';
                reason: string | null;
                reasonCode: string | null;
                receivedAt: string;
                /** @description `fr:200` ... `fr:501`. */
                status: string;
              }[];
              has_more: boolean;
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/refunds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The refunds of a credit note, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Refund'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Refund (part of) a finalized credit note
     * @description Records money given back to the buyer: the related invoice's `paymentStatus` moves to `partially_refunded` or `refunded` and `payment.received` reports the (negative) variation of the total collected. On a domestic B2B e-invoice whose VAT is due on collection, the refund owes a negative payment statement (status 212): its `fr212`, sent by the same pass as the payments'. Refused with `credit_note_not_refundable` (not finalized, or fully refunded), `invalid_refund_amount` (zero, negative or malformed), `refund_exceeds_credit_note` (above what is left: the credit note's remainder, and never more than was paid on the invoice), `related_invoice_not_found`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Cents, a positive integer, at most what is left to refund (`invalid_refund_amount`, `refund_exceeds_credit_note`). */
            amount: unknown;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            /** @description Default `transfer`. */
            method?: 'transfer' | 'card' | 'cash' | 'check' | 'other';
            reference?: string | null;
            /**
             * Format: date-or-date-time
             * @description ISO 8601 date or date-time; default now.
             */
            refundedAt?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Refund'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a finalized credit note through the approved platform
     * @description As for invoices: `credit_note.sent` (with `paStatus`, and `paInvoiceId` null: the platform has not received it yet; `einvoicing.paFlowId` names it once deposited). Deposited through the connected platform of the establishment; a test establishment without one uses the simulated platform; live without one: `pa_not_configured`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['CreditNote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credit-notes/{id}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify a credit note against the legal archive
     * @description Recomputes the document's archive entry, the company's hash chain up to it and the SHA-256 of its stored files, and says whether all are intact and, if not, why (`checks`). Test documents never enter the archive: `status: not_archived` (`not archived`). Any key.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ArchiveVerification'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/customers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List customers, newest first
     * @description Deleted customers are not listed. Filters combine with the cursor.
     */
    get: {
      parameters: {
        query?: {
          /** @description `created` on or after: a calendar date (UTC) or an ISO 8601 date-time. */
          date_from?: string;
          /** @description `created` on or before: a calendar date (the whole day, UTC) or an ISO 8601 date-time. */
          date_to?: string;
          /** @description Exact e-mail, case-insensitive. */
          email?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          siren?: string;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          type?: 'company' | 'individual';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Customer'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /** Create a customer */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Billing address; `address.territory` is added in responses. */
            address?: {
              city?: string | null;
              /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
              country: string;
              line1?: string | null;
              line2?: string | null;
              /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
              postalCode?: string | null;
            } | null;
            /** @description Delivery address when it differs from `address`. */
            deliveryAddress?: {
              city?: string | null;
              /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
              country: string;
              line1?: string | null;
              line2?: string | null;
              /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
              postalCode?: string | null;
            } | null;
            /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
            einvoiceSyntax?: 'cii' | 'ubl' | null;
            /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
            electronicAddress?: string | null;
            /** Format: email */
            email?: string | null;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            name: string;
            /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
            registryNonDisclosure?: (
              'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
            )[];
            /** @description Directory routing code of the establishment (scheme 0224); needs `siret`. */
            routingCode?: string | null;
            /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
            siren?: string | null;
            /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
            siret?: string | null;
            /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
            type?: 'company' | 'individual';
            /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
            vatNumber?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Customer'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/customers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a customer (a deleted one too, with `deleted: true`) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Customer'];
          };
        };
      };
    };
    put?: never;
    /**
     * Update a customer
     * @description Absent fields are kept; `null` clears a field; `address`, `deliveryAddress` and `metadata` are replaced whole. The whole customer is checked again. A deleted customer answers `resource_deleted`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Billing address; `address.territory` is added in responses. */
            address?: {
              city?: string | null;
              /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
              country: string;
              line1?: string | null;
              line2?: string | null;
              /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
              postalCode?: string | null;
            } | null;
            /** @description Delivery address when it differs from `address`. */
            deliveryAddress?: {
              city?: string | null;
              /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
              country: string;
              line1?: string | null;
              line2?: string | null;
              /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
              postalCode?: string | null;
            } | null;
            /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
            einvoiceSyntax?: 'cii' | 'ubl' | null;
            /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
            electronicAddress?: string | null;
            /** Format: email */
            email?: string | null;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            name?: string;
            /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
            registryNonDisclosure?: (
              'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
            )[];
            /** @description Directory routing code of the establishment (scheme 0224); needs `siret`. */
            routingCode?: string | null;
            /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
            siren?: string | null;
            /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
            siret?: string | null;
            /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
            type?: 'company' | 'individual';
            /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
            vatNumber?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Customer'];
          };
        };
      };
    };
    /**
     * Delete a customer
     * @description Soft deletion: the customer stays on its documents and readable; it leaves the lists, and later writes answer `resource_deleted`.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
              id: string;
              /** @enum {string} */
              object: 'customer';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/customers/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import customers from a CSV file
     * @description Body `text/csv` (UTF-8, `,` or `;`): a header row naming columns among `type`, `name`, `email`, `siren`, `siret`, `vatNumber`, `line1`, `line2`, `postalCode`, `city`, `country` (any subset with `name`, any order), then at most 10,000 lines. Each line is checked as `POST /v1/customers` would; valid lines are imported, refused ones are listed with their line, code and param. Up to 1,000 lines: `200` with the result. More: `202` with a job, whose `result` is the same object. Live: 2 imports per hour per key.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      /** @description The CSV file. */
      requestBody: {
        content: {
          'text/csv': string;
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              imported: number;
              /** @description Data lines in the file, the header not counted. */
              lines: number;
              livemode: boolean;
              /** @enum {string} */
              object: 'customer_import';
              /** @description One entry per refused line, in file order; refused lines are not imported. */
              refusals: {
                code: string;
                /** @description Line of the file (the header is line 1). */
                line: number;
                message: string;
                param: string | null;
              }[];
              refused: number;
            };
          };
        };
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Job'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ereporting/declarations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List e-reporting declarations, newest first */
    get: {
      parameters: {
        query?: {
          flow?: '10.1' | '10.2' | '10.3' | '10.4';
          /** @description Items per page, 1 to 100. */
          limit?: number;
          period?: string;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          state?: 'reserved' | 'submitted' | 'accepted' | 'rejected';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['EreportingDeclaration'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ereporting/declarations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an e-reporting declaration with its operations */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EreportingDeclaration'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ereporting/declarations/{id}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Make a new attempt of a rejected declaration
     * @description Only a rejected declaration, whose chain of attempts is valid, under the attempt limit: a new declaration in `reserved` (201), transmitted by nothing here (the next pass, or its submit route). Replayed: 200 with the same new attempt.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EreportingDeclaration'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EreportingDeclaration'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ereporting/declarations/{id}/submit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Transmit a declaration now
     * @description Validated against the flow 10 schema, then deposited to the platform: `submitted` (`ereporting.submitted`), then the verdict (`ereporting.accepted`, or `ereporting.rejected` and a 422 `ereporting_declaration_rejected`). A declaration already transmitted is answered as it is; one a pass is transmitting is waited for up to 10 s, then 503 `pa_unavailable` with `Retry-After`. `ereporting_not_enabled` while the establishment has no platform connection (live) or does not allow e-reporting (`ereportingEnabled`); it stays `reserved`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EreportingDeclaration'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/establishments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the establishments, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Establishment'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create an establishment of the company
     * @description The SIRET is one of the company's SIREN, with a valid key; a SIRET already declared in this environment is refused (`conflict`). The first establishment is the default; `isDefault: true` moves the mark.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            address: {
              city: string;
              country: string;
              line1: string;
              line2?: string | null;
              postalCode: string;
            };
            depositEnabled?: boolean;
            /** @description The syntax of this establishment's platform deposits when the buyer states none (the customer's `einvoiceSyntax`): `cii` (default: the Factur-X, its CII inside) or `ubl` (UBL 2.1). */
            einvoiceSyntax?: 'cii' | 'ubl';
            electronicAddress?: string | null;
            ereportingEnabled?: boolean;
            isDefault?: boolean;
            name?: string | null;
            /** @description Connects the establishment to its approved platform: tried at once (the credentials, and the SIRET in its directory: `siret_not_found`), then stored with the secret encrypted. `null` disconnects it. */
            platform?: {
              baseUrl: string;
              clientId: string;
              clientSecret: string;
              tokenUrl?: string | null;
            } | null;
            siret: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Establishment'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/establishments/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an establishment */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Establishment'];
          };
        };
      };
    };
    put?: never;
    /**
     * Update an establishment
     * @description The SIRET never changes. Issued documents keep the seller block frozen at their finalization. `isDefault: false` on the default is refused: make another one the default.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            address?: {
              city: string;
              country: string;
              line1: string;
              line2?: string | null;
              postalCode: string;
            };
            depositEnabled?: boolean;
            /** @description The syntax of this establishment's platform deposits when the buyer states none (the customer's `einvoiceSyntax`): `cii` (default: the Factur-X, its CII inside) or `ubl` (UBL 2.1). */
            einvoiceSyntax?: 'cii' | 'ubl';
            electronicAddress?: string | null;
            ereportingEnabled?: boolean;
            isDefault?: boolean;
            name?: string | null;
            /** @description Connects the establishment to its approved platform: tried at once (the credentials, and the SIRET in its directory: `siret_not_found`), then stored with the secret encrypted. `null` disconnects it. */
            platform?: {
              baseUrl: string;
              clientId: string;
              clientSecret: string;
              tokenUrl?: string | null;
            } | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Establishment'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eu-threshold-ledgers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open the ledger of a calendar year
     * @description One ledger per calendar year, opened once (`eu_threshold_year_already_open`). Figures are cents excluding VAT; all default to zero.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            opening?: {
              /**
               * Format: date
               * @description These figures are complete up to this day.
               */
              coveredUntil?: string;
              /** @description This year before the ledger opened, all channels. */
              distanceSales?: number;
              electronicServices?: number;
            };
            previousYear?: {
              /** @description EU B2C distance sales and electronic services to other member states last year. */
              distanceSales?: number;
              /** @description Electronic services to consumers last year (the EUR 100,000 relief). */
              electronicServices?: number;
            };
            /** @description The calendar year (2024 to next year). */
            year: number;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EuThresholdLedger'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eu-threshold-ledgers/{year}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve the ledger of a year: totals, bounds, movements */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          year: number;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EuThresholdLedger'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eu-threshold-ledgers/{year}/adjustments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record other-channel figures and the day they are complete up to
     * @description An adjustment never lowers the total (`eu_threshold_decrease_not_sourced`); `coveredUntil` is in the year and not in the future.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          year: number;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * Format: date
             * @description Other channels are declared complete up to this day.
             */
            coveredUntil: string;
            /** @description Cents to add (zero or more). */
            distanceSales?: number;
            /** @description Cents to add (zero or more). */
            electronicServices?: number;
            /** @description Your reference of the movement: the same reference with the same content records nothing new; with other content it is `eu_threshold_entry_conflict`. */
            reference: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EuThresholdLedger'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eu-threshold-ledgers/{year}/corrections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Give back part of one movement (a qualified correction)
     * @description Names the movement corrected and the amount given back, at most its `remainingMin`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          year: number;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Cents given back. */
            distanceSales?: number;
            /** @description Cents given back. */
            electronicServices?: number;
            /** @description The movement corrected (`ledg_`). */
            entryId: string;
            reason?: string;
            /** @description Your reference of the movement: the same reference with the same content records nothing new; with other content it is `eu_threshold_entry_conflict`. */
            reference: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EuThresholdLedger'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eu-threshold-ledgers/{year}/reconciliations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Close a review with verified totals
     * @description Stale when a movement occurred after `lastEntryId`; a mismatch returns both figures.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          year: number;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Verified total, cents. */
            distanceSales: number;
            /** @description Verified total, cents. */
            electronicServices: number;
            lastEntryId: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EuThresholdLedger'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List events, newest first */
    get: {
      parameters: {
        query?: {
          /** @description true: delivered to every endpoint; false: not (yet) delivered somewhere. */
          delivered?: boolean;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          type?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Event'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an event with its delivery attempts and counters */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EventWithDeliveries'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events/{id}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay an event to its failed endpoints, or to one endpoint
     * @description Without body: a new generation for every enabled endpoint whose delivery failed. With `endpointId`: to that endpoint alone, even if delivered; an inactive or unsubscribed endpoint is `endpoint_not_subscribed`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            endpointId?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EventWithDeliveries'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/exports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List exports, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Export'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/exports/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an export */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Export'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/exports/{id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an export's file
     * @description The file, streamed, with its `Content-Type`, `Content-Length`, `Content-Disposition` (its name) and `Repr-Digest` (its SHA-256). A data export needs a key without scopes. Not ready yet: `invalid_status_transition`.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/zip': components['schemas']['ErrorEnvelope'];
            'text/plain': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/zip': components['schemas']['ErrorEnvelope'];
            'text/plain': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/zip': string;
            'text/plain': string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/exports/data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Export everything the company holds in this environment (data protection)
     * @description Answers `202` with a job; the file is a zip of JSON lines, one file per kind of record, with a `manifest.json`. Needs a key without scopes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Job'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/exports/fec': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Export the accounting entries of a period (FEC)
     * @description Answers `202` with a job (`GET /v1/jobs/:id`, its `result` the export); `export.ready` follows with `{id, object, count}`. The file: the 18 fields of article A47 A-1 of the LPF, sales journal from finalized invoices and credit notes, bank journal from payments and refunds, every entry balanced, entries numbered in chronological order. Live: 5 per day per key.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            accounts?: {
              /** @description The bank (5...); default `512000`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
              bank?: string;
              /** @description `auxiliary` (default): each customer has its auxiliary account (CompAuxNum: its `cus_` id, or the SIREN of a buyer written on the document); `collective`: the collective account alone. */
              customerDetail?: 'auxiliary' | 'collective';
              /** @description The customers' collective account (41...); default `411000`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
              customers?: string;
              deductibleVat?: {
                byRate?: {
                  /** @description Deductible VAT at that rate (4456...). A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                  account: string;
                  /** @description A VAT rate in percent: `20`, `5.5`. */
                  rate: string;
                }[];
                /** @description Deductible VAT (4456...), every rate not listed; default `445660`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                default?: string;
              };
              /** @description Where deposit invoices go instead of sales, until their final invoice takes them back (4191...); default `419100`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
              depositsReceived?: string;
              /** @description The purchases account (60...) of received invoices; default `607000` (`604000` or `606000` for services). A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
              purchases?: string;
              sales?: {
                /** @description Electronically supplied services (70...); default the services account. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                electronic_service?: string;
                /** @description Sales of goods (70...); default `707000`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                goods?: string;
                /** @description Sales of services (70...); default `706000`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                services?: string;
              };
              /** @description `auxiliary` (default): each supplier has its auxiliary account (CompAuxNum: `F` and its SIREN, else its SIRET's SIREN, else its VAT number); `collective`: the collective account alone. */
              supplierDetail?: 'auxiliary' | 'collective';
              /** @description The suppliers' collective account (40...); default `401000`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
              suppliers?: string;
              vat?: {
                byRate?: {
                  /** @description VAT collected at that rate (4457...). A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                  account: string;
                  /** @description A VAT rate in percent: `20`, `5.5`. */
                  rate: string;
                }[];
                /** @description VAT collected (4457...), every rate not listed; default `445710`. A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters. */
                default?: string;
              };
            };
            /**
             * Format: date
             * @description First day of the period (entry dates).
             */
            from: string;
            journals?: {
              /** @description Code of the bank journal (payments, refunds); default `BQ`. 1 to 10 digits or capital letters; null leaves this journal out. */
              bank?: string | null;
              /** @description Code of the purchase journal (received invoices and credit notes); default `AC`. 1 to 10 digits or capital letters; null leaves this journal out. */
              purchases?: string | null;
              /** @description Code of the sales journal (invoices, credit notes); default `VE`. 1 to 10 digits or capital letters; null leaves this journal out. */
              sales?: string | null;
            };
            /** @description Field separator; default `pipe` (`|`). */
            separator?: 'pipe' | 'tab';
            /**
             * Format: date
             * @description Last day of the period, inclusive: the closing date in the file name.
             */
            to: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Job'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List invoices, newest first */
    get: {
      parameters: {
        query?: {
          customerId?: string;
          /** @description Invoice date on or after (a calendar date; a draft counts by its creation day). */
          date_from?: string;
          /** @description Invoice date on or before (a calendar date). */
          date_to?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description The number or a part of it, in any case (`000042`, `F2026-0000`): drafts, having none, never match. */
          number?: string;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          /** @description The summary status. */
          status?:
            | 'draft'
            | 'finalized'
            | 'sending'
            | 'deposited'
            | 'transmitted'
            | 'available'
            | 'received'
            | 'approved'
            | 'partially_paid'
            | 'suspended'
            | 'rejected'
            | 'refused'
            | 'paid'
            | 'partially_refunded'
            | 'refunded'
            | 'cancelled';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Invoice'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a draft invoice
     * @description With `customerId` or an inline `buyer`, and lines from products (`productId`) or free (description, quantity, unit price, unit, nature). Nothing is numbered: `invoice.created`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Allowances on the whole document (BG-20), deducted from the lines' total; split over the VAT rates by the lines' nets. */
            allowances?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            };
            /** @description Charges on the whole document (BG-21), such as shipping, added to the lines' total; split over the VAT rates likewise. */
            charges?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            /** @description A customer (`cus_`), or give `buyer` instead. */
            customerId?: string;
            /**
             * Format: date
             * @description Date of delivery of the goods or of the service (BT-72).
             */
            deliveryDate?: string | null;
            /** @description The deposit invoices (`inv_`, `invoiceType: deposit`) this final invoice deducts: each finalized, of the same buyer, without a credit note, fully paid, and deducted by no other invoice when this one is finalized. The invoice then states the whole operation, and the buyer owes its total less the deposits (`amountDeducted`). */
            deposits?: string[];
            /**
             * Format: date
             * @description Payment due date; default the issue date plus `paymentTermsDays` (30 days when neither is given).
             */
            dueDate?: string | null;
            /**
             * @description `deposit`: a deposit invoice (facture d’acompte, BT-3 386) for a share of an order or quote, taxed when it is collected. Default `standard`.
             * @enum {string}
             */
            invoiceType?: 'standard' | 'deposit';
            /**
             * Format: date
             * @description The invoice date. It is the day of finalization: numbers follow dates. Default: set at finalization.
             */
            issueDate?: string | null;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /** @description Payment conditions printed on the invoice (discount, late-payment penalties, the EUR 40 recovery indemnity). */
            paymentTerms?: string | null;
            /** @description Days after the issue date the payment is due. */
            paymentTermsDays?: number | null;
            /** @description The final tax decision (`txd_`) that backs the document at finalization. */
            taxDecisionId?: string | null;
            /**
             * @description Who states the VAT: `service` or `integration`; default the decision's.
             * @enum {string|null}
             */
            taxSource?: 'service' | 'integration' | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an invoice, with its `einvoicing` block */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    put?: never;
    /**
     * Edit a draft invoice
     * @description Absent fields are kept, null clears, `lines` and `metadata` are replaced whole. A finalized invoice answers `invoice_not_editable`: issue a credit note.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Allowances on the whole document (BG-20), deducted from the lines' total; split over the VAT rates by the lines' nets. */
            allowances?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            } | null;
            /** @description Charges on the whole document (BG-21), such as shipping, added to the lines' total; split over the VAT rates likewise. */
            charges?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            customerId?: string | null;
            /**
             * Format: date
             * @description Date of delivery of the goods or of the service (BT-72).
             */
            deliveryDate?: string | null;
            /** @description The deposit invoices (`inv_`, `invoiceType: deposit`) this final invoice deducts: each finalized, of the same buyer, without a credit note, fully paid, and deducted by no other invoice when this one is finalized. The invoice then states the whole operation, and the buyer owes its total less the deposits (`amountDeducted`). */
            deposits?: string[];
            /**
             * Format: date
             * @description Payment due date; default the issue date plus `paymentTermsDays` (30 days when neither is given).
             */
            dueDate?: string | null;
            /**
             * @description `deposit`: a deposit invoice (facture d’acompte, BT-3 386) for a share of an order or quote, taxed when it is collected. Default `standard`.
             * @enum {string}
             */
            invoiceType?: 'standard' | 'deposit';
            /**
             * Format: date
             * @description The invoice date. It is the day of finalization: numbers follow dates. Default: set at finalization.
             */
            issueDate?: string | null;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines?: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /** @description Payment conditions printed on the invoice (discount, late-payment penalties, the EUR 40 recovery indemnity). */
            paymentTerms?: string | null;
            /** @description Days after the issue date the payment is due. */
            paymentTermsDays?: number | null;
            /** @description The final tax decision (`txd_`) that backs the document at finalization. */
            taxDecisionId?: string | null;
            /**
             * @description Who states the VAT: `service` or `integration`; default the decision's.
             * @enum {string|null}
             */
            taxSource?: 'service' | 'integration' | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    /**
     * Delete a draft invoice
     * @description Drafts only: sets `documentStatus: cancelled` (it never had a number). A finalized invoice answers `invoice_not_editable`.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/attachments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the attachments of an invoice
     * @description In the order they were added; at most 10, one page.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Attachment'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Attach a supporting document to a draft invoice
     * @description BG-24, carried by the files generated at finalization (base64 in the CII and the UBL, an embedded file with AFRelationship `Supplement` in the Factur-X). On a draft only: a finalized invoice answers `invoice_not_editable`. Types: application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet; the bytes must match the type (`invalid_field_value`, param `content`). At most 10485760 bytes decoded (a bigger body: `payload_too_large`), 10 attachments and 20971520 bytes per document. Counted in the plan's storage: `storage_quota_exceeded` past it.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description BT-123 (BR-FR-17); default `PJA`. `LISIBLE` at most once per document. */
            code?: string;
            /** @description The bytes in base64 (RFC 4648, padded); at most 10485760 bytes decoded. */
            content: string;
            /** @description application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet */
            contentType: string;
            description?: string | null;
            /** @description Without path; unique in the document. */
            filename: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Attachment'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/attachments/{attachmentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve an attachment of an invoice */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Attachment'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    /**
     * Delete an attachment of a draft invoice
     * @description Releases its storage. A finalized invoice answers `invoice_not_editable`: its attachments are frozen with it.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
              id: string;
              /** @enum {string} */
              object: 'attachment';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/attachments/{attachmentId}/content': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an attachment of an invoice
     * @description The bytes as uploaded, with their `Content-Type`, `ETag` (their SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition` naming the file.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          attachmentId: string;
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/vnd.oasis.opendocument.spreadsheet': components['schemas']['ErrorEnvelope'];
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': components['schemas']['ErrorEnvelope'];
            'image/jpeg': components['schemas']['ErrorEnvelope'];
            'image/png': components['schemas']['ErrorEnvelope'];
            'text/csv': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/vnd.oasis.opendocument.spreadsheet': components['schemas']['ErrorEnvelope'];
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': components['schemas']['ErrorEnvelope'];
            'image/jpeg': components['schemas']['ErrorEnvelope'];
            'image/png': components['schemas']['ErrorEnvelope'];
            'text/csv': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
            'application/vnd.oasis.opendocument.spreadsheet': string;
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': string;
            'image/jpeg': string;
            'image/png': string;
            'text/csv': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * E-mail a finalized invoice to its buyer
     * @description The invoice's Factur-X (the file as issued, a PDF any reader opens) e-mailed to the buyer's address frozen at finalization, through the operator's SMTP server (`FACTEUR_SMTP_URL`), as a durable job (retried on a 4xx or a lost connection; a 5xx is recorded as a bounce). Outside e-invoicing (B2C, international: `send` answers `not_einvoicing_channel`) this is how the invoice is sent: `invoice.sent` once the e-mail leaves; within e-invoicing it is a copy (the contract's fallback while the buyer has no directory address) and no event. Test mode: logged, never sent; the event at once. While the files are being generated: 409 `conflict` with `Retry-After`. Refused with `missing_required_field` (`buyer.email`) when the buyer has no e-mail address, `not_supported` in live without an SMTP server, `invalid_status_transition` for a draft.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/emails': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The e-mails of an invoice
     * @description Every e-mail of the document (`POST .../email`), oldest first: to whom, its state (`sent` with the time the SMTP server accepted it, `pending` and retried, `bounced`, or `logged` and never sent, with why), its attempts and Message-ID. A document never e-mailed has an empty list.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                attempts: number;
                created: string;
                documentId: string;
                error: string | null;
                /** @description `em_...` */
                id: string;
                livemode: boolean;
                /** @description The Message-ID header, the same on every attempt. */
                messageId: string;
                /** @enum {string} */
                object: 'document_email';
                sentAt: string | null;
                /** @description `logged`: recorded, never sent (test mode, no address, no SMTP server: `error` says which); `pending`: to send, retried after a 4xx; `sending`: in an SMTP exchange; `sent`: accepted by the SMTP server; `unconfirmed`: the sender died during the exchange (never sent twice); `bounced`: refused for good (5xx); `failed`: retries used up. */
                status: 'logged' | 'pending' | 'sending' | 'sent' | 'unconfirmed' | 'bounced' | 'failed';
                subject: string;
                to: string | null;
              }[];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/files/facturx': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the Factur-X of an invoice
     * @description The Factur-X (EN 16931 profile): the readable PDF/A-3b carrying its CII as `factur-x.xml`, named `<number>.pdf`. This is the invoice the platform receives. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/files/pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the readable PDF of an invoice
     * @description The readable PDF without attachment, `<number>-visual.pdf`. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/files/ubl': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the UBL XML of an invoice
     * @description The UBL 2.1 Invoice (or CreditNote for a credit note), EN 16931, `<number>-ubl.xml`: the same document as the CII, in the other syntax the platforms accept, validated by the OASIS UBL 2.1 XSD, the EN 16931 UBL schematron and the BR-FR rules for UBL. A document generated before UBL was issued has none: 400 `not_supported`. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/files/xml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download the CII XML of an invoice
     * @description The CII (UN/CEFACT Cross Industry Invoice, Factur-X EN 16931) alone, `<number>.xml`: byte-identical to the attachment of the Factur-X. With `ETag` (its SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition`. While the files are being generated (right after the finalization): 409 `conflict` with `Retry-After`. A draft has no file: 409 `conflict`. Files the official validators refused: `schematron_validation_failed` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: `invoice.sent` (`credit_note.sent`), once.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/xml': string;
          };
        };
        /** @description Not modified: `If-None-Match` named its ETag. */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/finalize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finalize an invoice: number it
     * @description Backed by its tax decision (final, unexpired, backing no other document, matching customer, currency, lines and totals: the `tax_decision_*` codes). A buyer whose identity the registry keeps from publication is refused with `buyer_identity_not_disclosed` before anything is numbered or reserved; an invoice to the issuer's own SIREN with `self_invoicing_not_allowed`. The number is taken atomically: consecutive per company, series and environment. Live: 10 per minute per key, and the monthly quota. `invoice.finalized`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The life-cycle statuses received for an invoice
     * @description Every status the platform or the buyer reported, oldest first, with whether it changed the invoice (a repeat, a late status or `fr:211` does not).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                /** @description False when the status changed nothing (a repeat, a late status, `fr:211`). */
                applied: boolean;
                event: string | null;
                /** @description The notes that came with the status. */
                notes?: string[];
                /** @enum {string} */
                object: 'lifecycle_status';
                reason: string | null;
                reasonCode: string | null;
                receivedAt: string;
                /** @description `fr:200` ... `fr:501`. */
                status: string;
              }[];
              has_more: boolean;
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/payment-link': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An online payment link for a live invoice
     * @description The public payment page of the invoice. Test invoices: 422 `sandbox_payment_unavailable` (test the flow with a live key on a live invoice). A draft, or an invoice with nothing due: `invalid_status_transition`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @description Cents. */
              amountDue: number;
              currency: string;
              invoiceId: string;
              livemode: boolean;
              /** @enum {string} */
              object: 'payment_link';
              url: string;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The payments of an invoice, newest first, each with its current `fr212` */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Payment'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a finalized invoice through the approved platform
     * @description The invoice goes to the platform (`sending`; `invoice.sent` and `invoice.sending`). After a rejection by the platform, sending again is a resubmission: the rejection fields move into `einvoicing.previousSubmissions` and reset to null. Refused with `not_einvoicing_channel` when the tax decision routes the invoice outside e-invoicing (B2C, international), `invalid_status_transition` for a draft, a document already on its way or refused by the buyer. When the seller establishment is connected to its platform (live, or a test establishment pointed at a `pa-simulator`), a durable deposit job carries the Factur-X there (directory pre-check, exactly one deposit per attempt) and the statuses of the platform come back by polling and callback; `einvoicing.paTrackingId` and, once deposited, `paFlowId` name it. Refused with `pa_not_configured` (live, no platform), `deposit_not_enabled`, `schematron_validation_failed` (files that failed validation). A test establishment without a connection uses the simulated platform (drive its answers with `POST /v1/sandbox/invoices/:id/simulate`).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invoices/{id}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify an invoice against the legal archive
     * @description Recomputes the document's archive entry, the company's hash chain up to it and the SHA-256 of its stored files, and says whether all are intact and, if not, why (`checks`). Test documents never enter the archive: `status: not_archived` (`not archived`). Any key.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ArchiveVerification'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Retrieve an asynchronous job
     * @description The job a `202` answer named. Reading it needs the read scope of its kind: `customers:read` for a `customers.import`.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Job'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List payments, newest first */
    get: {
      parameters: {
        query?: {
          invoiceId?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Payment'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Record a payment on an invoice
     * @description Moves the invoice's `paymentStatus` and summary (paid before approval stays paid; a rejected invoice paid in full is `paid`, its transmission stays `rejected`). Events: `payment.created`, `payment.received` (amounts in euros), and `invoice.paid` or `invoice.partially_paid`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Cents, a positive integer, at most what is still due (`invalid_payment_amount`, `payment_exceeds_amount_due`). */
            amount: number;
            /** @enum {string} */
            currency?: 'EUR';
            /** @description The finalized invoice paid (`inv_`). */
            invoiceId: string;
            /** @description The environment the payment belongs to, when the caller states it: it must be the key's (`livemode_mismatch`). */
            livemode?: boolean;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            /** @description Default `transfer`. */
            method?: 'transfer' | 'card' | 'cash' | 'check' | 'direct_debit' | 'other';
            /**
             * Format: date-or-date-time
             * @description When the money was received: an ISO 8601 date or date-time; default now.
             */
            paidAt?: string;
            /** @description The bank reference, cheque number... */
            reference?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Payment'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/payments/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a payment */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Payment'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/products': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List products, newest first
     * @description Deleted products are not listed.
     */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description `goods`, `services` or `electronic_service` (services supplied electronically, whose place of supply follows the customer). */
          nature?: 'goods' | 'services' | 'electronic_service';
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Product'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /** Create a product */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            description?: string | null;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            name: string;
            /** @description `goods`, `services` or `electronic_service` (services supplied electronically, whose place of supply follows the customer). */
            nature: 'goods' | 'services' | 'electronic_service';
            /** @description UN/ECE Recommendation 20 code: `C62` (one (unit)), `H87` (piece), `EA` (each), `SET` (set), `PR` (pair), `LS` (lump sum), `E48` (service unit), `SEC` (second), `MIN` (minute), `HUR` (hour), `DAY` (day), `WEE` (week), `MON` (month), `ANN` (year), `GRM` (gram), `KGM` (kilogram), `TNE` (tonne), `MMT` (millimetre), `CMT` (centimetre), `MTR` (metre), `KMT` (kilometre), `MTK` (square metre), `MTQ` (cubic metre), `MLT` (millilitre), `LTR` (litre), `KWH` (kilowatt hour), `MWH` (megawatt hour). Default `C62`. */
            unit?:
              | 'C62'
              | 'H87'
              | 'EA'
              | 'SET'
              | 'PR'
              | 'LS'
              | 'E48'
              | 'SEC'
              | 'MIN'
              | 'HUR'
              | 'DAY'
              | 'WEE'
              | 'MON'
              | 'ANN'
              | 'GRM'
              | 'KGM'
              | 'TNE'
              | 'MMT'
              | 'CMT'
              | 'MTR'
              | 'KMT'
              | 'MTK'
              | 'MTQ'
              | 'MLT'
              | 'LTR'
              | 'KWH'
              | 'MWH';
            /** @description Price of one unit excluding VAT, a decimal string such as "12.50" (at most 6 decimals), never a number. */
            unitPrice: string;
            /** @description Default VAT rate category: `standard` (20 % in mainland France), `intermediate` (10 %), `reduced` (5.5 %), `super_reduced` (2.1 %), `zero`, `exempt`. Default `standard`. */
            vatCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Product'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/products/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a product (a deleted one too, with `deleted: true`) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Product'];
          };
        };
      };
    };
    put?: never;
    /**
     * Update a product
     * @description Absent fields are kept; `description: null` clears it; `metadata` is replaced whole. A deleted product answers `resource_deleted`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            description?: string | null;
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            name?: string;
            /** @description `goods`, `services` or `electronic_service` (services supplied electronically, whose place of supply follows the customer). */
            nature?: 'goods' | 'services' | 'electronic_service';
            /** @description UN/ECE Recommendation 20 code: `C62` (one (unit)), `H87` (piece), `EA` (each), `SET` (set), `PR` (pair), `LS` (lump sum), `E48` (service unit), `SEC` (second), `MIN` (minute), `HUR` (hour), `DAY` (day), `WEE` (week), `MON` (month), `ANN` (year), `GRM` (gram), `KGM` (kilogram), `TNE` (tonne), `MMT` (millimetre), `CMT` (centimetre), `MTR` (metre), `KMT` (kilometre), `MTK` (square metre), `MTQ` (cubic metre), `MLT` (millilitre), `LTR` (litre), `KWH` (kilowatt hour), `MWH` (megawatt hour). Default `C62`. */
            unit?:
              | 'C62'
              | 'H87'
              | 'EA'
              | 'SET'
              | 'PR'
              | 'LS'
              | 'E48'
              | 'SEC'
              | 'MIN'
              | 'HUR'
              | 'DAY'
              | 'WEE'
              | 'MON'
              | 'ANN'
              | 'GRM'
              | 'KGM'
              | 'TNE'
              | 'MMT'
              | 'CMT'
              | 'MTR'
              | 'KMT'
              | 'MTK'
              | 'MTQ'
              | 'MLT'
              | 'LTR'
              | 'KWH'
              | 'MWH';
            /** @description Price of one unit excluding VAT, a decimal string such as "12.50" (at most 6 decimals), never a number. */
            unitPrice?: string;
            /** @description Default VAT rate category: `standard` (20 % in mainland France), `intermediate` (10 %), `reduced` (5.5 %), `super_reduced` (2.1 %), `zero`, `exempt`. Default `standard`. */
            vatCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Product'];
          };
        };
      };
    };
    /**
     * Delete a product
     * @description Soft deletion: the product stays readable (documents refer to it); it leaves the list, and later writes answer `resource_deleted`.
     */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
              id: string;
              /** @enum {string} */
              object: 'product';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List quotes, newest first */
    get: {
      parameters: {
        query?: {
          customerId?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          status?: 'draft' | 'finalized' | 'sent' | 'accepted' | 'refused' | 'expired' | 'converted';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Quote'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a draft quote
     * @description `quote.created`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            };
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            /** @description A customer (`cus_`), or give `buyer` instead. */
            customerId?: string;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /**
             * Format: date
             * @description Last day the quote may be accepted; default 30 days after its finalization. The day after, it expires (`quote.expired`).
             */
            validUntil?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a quote */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    put?: never;
    /** Edit a draft quote */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            } | null;
            customerId?: string | null;
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines?: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            notes?: string | null;
            /**
             * Format: date
             * @description Last day the quote may be accepted; default 30 days after its finalization. The day after, it expires (`quote.expired`).
             */
            validUntil?: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record the customer's acceptance (`quote.accepted`)
     * @description Any other state answers `invalid_status_transition`; so does a quote past its validity date.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}/convert': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Convert a quote into a draft invoice
     * @description A finalized, sent or accepted quote becomes a draft invoice with its buyer and lines (`invoice.created`, `quote.converted`); take the invoice's tax decision, then finalize it.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              invoice: components['schemas']['Invoice'];
              quote: components['schemas']['Quote'];
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}/finalize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finalize a draft quote: number it in the quote series (validity: `validUntil`, default 30 days)
     * @description Any other state answers `invalid_status_transition`; so does a quote past its validity date.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}/refuse': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record the customer's refusal (`quote.refused`)
     * @description Any other state answers `invalid_status_transition`; so does a quote past its validity date.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/quotes/{id}/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a finalized quote to the customer by e-mail (`quote.sent` when it leaves)
     * @description Any other state answers `invalid_status_transition`; so does a quote past its validity date.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Quote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List received (purchase) invoices, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Invoice date on or after. */
          date_from?: string;
          /** @description Invoice date on or before. */
          date_to?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description The sender's SIRET. */
          sender?: string;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          status?: 'received' | 'approved' | 'refused' | 'disputed' | 'suspended' | 'payment_transmitted';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['ReceivedInvoice'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a received invoice */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve a received invoice (status 205)
     * @description From `received`, `disputed` or `suspended`. Sent as a CDAR status through the company's platform and kept in the history. Another state: `invalid_status_transition`. Live without a platform: `pa_not_configured`; a platform that does not take it: `pa_unavailable` (nothing changes).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Free text sent with the status. */
            reason?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/dispute': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Dispute a received invoice (status 207)
     * @description From `received`, `approved` or `suspended`. `reasonCode` (default `AUTRE`) among the 207 codes of the reform. Sent as a CDAR status through the company's platform and kept in the history. Another state: `invalid_status_transition`. Live without a platform: `pa_not_configured`; a platform that does not take it: `pa_unavailable` (nothing changes).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Free text sent with the status. */
            reason?: string;
            /** @description A reason code of the reform (MDT-113). */
            reasonCode?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/files/original': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The file as received, byte for byte
     * @description `application/pdf` for a Factur-X, `application/xml` for a CII or UBL. `ETag` and `Repr-Digest` are its SHA-256; `If-None-Match` answers 304.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
            'application/xml': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the file. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
            'application/xml': string;
          };
        };
        /** @description Default Response */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/files/pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The visual of a received invoice
     * @description The Factur-X PDF as received, or a PDF drawn from the XML of a CII or UBL invoice (rendered once, then kept). A file that could not be read: `not_supported`.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description The bytes of the PDF. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/pdf': string;
          };
        };
        /** @description Default Response */
        304: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The statuses of a received invoice, oldest first */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                action: string | null;
                at: string;
                messageId: string | null;
                /** @enum {string} */
                object: 'received_invoice_status';
                platformFlowId: string | null;
                reason: string | null;
                reasonCode: string | null;
                /** @description `fr:203` at reception, then `fr:205`, `fr:210`, `fr:207`, `fr:208`, `fr:211`. */
                status: string;
              }[];
              has_more: boolean;
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/payment-transmitted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Tell the seller the payment was transmitted (status 211)
     * @description From `received` or `approved`. Sent as a CDAR status through the company's platform and kept in the history. Another state: `invalid_status_transition`. Live without a platform: `pa_not_configured`; a platform that does not take it: `pa_unavailable` (nothing changes).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Free text sent with the status. */
            reason?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/refuse': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refuse a received invoice (status 210, final)
     * @description From `received`, `disputed` or `suspended` (not after an approval: dispute it). `reasonCode` is required, one of DOUBLON, ADR_ERR, MONTANTTOTAL_ERR, CALCUL_ERR, TX_TVA_ERR, NON_CONFORME, DEST_ERR, TRANSAC_INC, EMMET_INC, CONTRAT_TERM, DOUBLE_FACT, CMD_ERR, REF_CT_ABSENT; `reason` explains it. Sent as a CDAR status through the company's platform and kept in the history. Another state: `invalid_status_transition`. Live without a platform: `pa_not_configured`; a platform that does not take it: `pa_unavailable` (nothing changes).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Free text sent with the status. */
            reason: string;
            /** @description A reason code of the reform (MDT-113). */
            reasonCode: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/received-invoices/{id}/suspend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Suspend a received invoice (status 208)
     * @description From `received` or `disputed`: a piece is missing. `reasonCode` (default `JUSTIF_ABS`): `JUSTIF_ABS`, `CMD_ERR`, `REF_CT_ABSENT`, `COORD_BANC_ERR`. Sent as a CDAR status through the company's platform and kept in the history. Another state: `invalid_status_transition`. Live without a platform: `pa_not_configured`; a platform that does not take it: `pa_unavailable` (nothing changes).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Free text sent with the status. */
            reason?: string;
            /** @description A reason code of the reform (MDT-113). */
            reasonCode?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List recurring invoices, newest first */
    get: {
      parameters: {
        query?: {
          customerId?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          status?: 'active' | 'paused' | 'cancelled' | 'completed';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['RecurringInvoice'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a recurring invoice
     * @description A template (`customerId` or `buyer`, lines, tax source, terms, notes) and a schedule (`interval`, `dayOfMonth`, `startDate`, `endDate` or `count`). Each period makes a draft invoice (`mode: draft`) or finalizes one on a fresh tax decision (`mode: auto_finalize`, Essential and Pro; `autoSend` then sends it): `recurring_invoice.generated`, or `recurring_invoice.failed` with the refusal.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description With `auto_finalize`: each finalized invoice is then sent. Default false. */
            autoSend?: boolean;
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            };
            /** @description How many periods the schedule has, counted from the start (periods skipped by a pause count). Not with `endDate`. */
            count?: number | null;
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            /** @description A customer (`cus_`), or give `buyer` instead. */
            customerId?: string;
            /** @description Day of the month of each run; 29 to 31 fall on a shorter month's last day. Default the start date's day. */
            dayOfMonth?: number;
            /**
             * Format: date
             * @description The last day a run may fall on (inclusive). Not with `count`.
             */
            endDate?: string | null;
            /** @description `monthly`, `quarterly` or `yearly`. */
            interval: 'monthly' | 'quarterly' | 'yearly';
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            /** @description `draft`: each run makes a draft invoice; `auto_finalize`: each run takes a fresh tax decision and finalizes the invoice (Essential and Pro plans). Default `draft`. */
            mode?: 'draft' | 'auto_finalize';
            /** @description Printed on each invoice. */
            notes?: string | null;
            /** @description Printed on each invoice. */
            paymentTerms?: string | null;
            /** @description Days after the issue date the payment is due. */
            paymentTermsDays?: number | null;
            /**
             * Format: date
             * @description The first run falls on or after it; today or later. Default today.
             */
            startDate?: string;
            /** @description Who states the VAT of each generated invoice (`integration`: the lines carry it). Default `service`. */
            taxSource?: 'service' | 'integration';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a recurring invoice */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    put?: never;
    /**
     * Update a recurring invoice
     * @description Not once cancelled. Absent fields are kept, null clears; the next run is placed again after the last one (never before today). Changes apply to the next runs.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description With `auto_finalize`: each finalized invoice is then sent. Default false. */
            autoSend?: boolean;
            /** @description The buyer written on the document, instead of `customerId`: checked like a customer. */
            buyer?: {
              /** @description Billing address; `address.territory` is added in responses. */
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description Delivery address when it differs from `address`. */
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2 code, e.g. `FR`. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                /** @description Checked against the syntax of the country; for France, also mapped to its VAT territory. */
                postalCode?: string | null;
              } | null;
              /** @description The syntax this buyer takes its e-invoices in: `cii` (the Factur-X, its CII inside) or `ubl` (UBL 2.1). The platform deposit carries that file with its `flowSyntax`. Null (default): the issuing establishment's `einvoiceSyntax`, else the Factur-X. */
              einvoiceSyntax?: 'cii' | 'ubl' | null;
              /** @description Electronic address in the platform directory (BT-49, scheme 0225); starts with the SIREN. */
              electronicAddress?: string | null;
              /** Format: email */
              email?: string | null;
              name: string;
              /** @description Fields the company registry keeps from publication ("diffusion partielle"): finalizing an invoice to this customer is then refused with `buyer_identity_not_disclosed` naming the field. The sandbox directory adds them for its documented SIRETs. */
              registryNonDisclosure?: (
                'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
              )[];
              /** @description 9 digits, check digit verified; derived from `siret` or a French `vatNumber` when absent. */
              siren?: string | null;
              /** @description 14 digits, check digit verified, starting with the SIREN; looked up in the directory (`siret_not_found`). */
              siret?: string | null;
              /** @description `company` (a business) or `individual` (a consumer). Default `company`. */
              type?: 'company' | 'individual';
              /** @description VAT number with its country prefix (`FR`, `DE`, `EL`, `XI`...), syntax and check digits verified. */
              vatNumber?: string | null;
            } | null;
            /** @description How many periods the schedule has, counted from the start (periods skipped by a pause count). Not with `endDate`. */
            count?: number | null;
            /**
             * @description EUR (the tax decisions are in euros). Default EUR.
             * @enum {string}
             */
            currency?: 'EUR';
            customerId?: string | null;
            /** @description Day of the month of each run; 29 to 31 fall on a shorter month's last day. Default the start date's day. */
            dayOfMonth?: number;
            /**
             * Format: date
             * @description The last day a run may fall on (inclusive). Not with `count`.
             */
            endDate?: string | null;
            interval?: 'monthly' | 'quarterly' | 'yearly';
            /** @description The lines, in order; each must match the tax decision's line of the same position. */
            lines?: {
              /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description?: string;
              nature?: 'goods' | 'services' | 'electronic_service';
              /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
              productId?: string;
              /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
              quantity?: string;
              /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
              unit?: string;
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice?: string;
              /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration`: the VATEX code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update. */
            metadata?: {
              [key: string]: unknown;
            };
            /** @description `draft`: each run makes a draft invoice; `auto_finalize`: each run takes a fresh tax decision and finalizes the invoice (Essential and Pro plans). Default `draft`. */
            mode?: 'draft' | 'auto_finalize';
            /** @description Printed on each invoice. */
            notes?: string | null;
            /** @description Printed on each invoice. */
            paymentTerms?: string | null;
            /** @description Days after the issue date the payment is due. */
            paymentTermsDays?: number | null;
            /** Format: date */
            startDate?: string;
            /** @description Who states the VAT of each generated invoice (`integration`: the lines carry it). Default `service`. */
            taxSource?: 'service' | 'integration';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel a recurring invoice: no run any more */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices/{id}/invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The invoices a recurring invoice generated, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['Invoice'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices/{id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Pause a recurring invoice: the periods that fall while it is paused are skipped */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring-invoices/{id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Resume a paused recurring invoice, from the next period on or after today */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['RecurringInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/clock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read the sandbox clock (test keys only) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              livemode: false;
              /** @description The sandbox time of the company. */
              now: string;
              /** @enum {string} */
              object: 'sandbox_clock';
              /** @description How far the sandbox clock runs ahead of real time. */
              offsetSeconds: number;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/clock/advance': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Move the sandbox clock forward (test keys only)
     * @description Webhook retries, overdue invoices, recurring runs and reservation expiries of the test environment happen as if that time had passed. Live data never follows it.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            seconds: number;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              livemode: false;
              /** @description The sandbox time of the company. */
              now: string;
              /** @enum {string} */
              object: 'sandbox_clock';
              /** @description How far the sandbox clock runs ahead of real time. */
              offsetSeconds: number;
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/invoices/{id}/simulate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simulate a status reported by the platform or the buyer (test keys only)
     * @description The sandbox's platform or the buyer reports a life-cycle status (`fr:200` deposited ... `fr:205` approved, `fr:210` refused, `fr:213` rejected, `fr:211` payment transmitted...) on a sent invoice or credit note, with its `reasonCode`, `reason` and `notes`. It takes the live path: the submission is deposited on the pa-simulator the service runs in process (its first status), the status comes back as a CDAR message read over HTTPS, and is applied as a real one: only observed moves emit their event, nothing downgrades, a repeat changes nothing; every status is kept in the history. A status or reason no platform sends is refused (`missing_required_field`, `invalid_field_value`, `param: reasonCode`); a `fr:213` with a code no life-cycle message carries (`REJ_XSD`...) as the first status of a submission is the platform refusing its deposit. A live key, or a document whose establishment is connected to a platform, gets `not_supported`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description `false`: play a row of the contract’s rejection table that no conformant life-cycle message carries, as a platform that sends it imperfectly: `fr:213` alone (BR-FR-CDV-15; classed `unknown`, never semantic), or `fr:213` with `REJ_SYNT`, `REJ_XSD`, `REJ_DOUBLON` or `AUTRE` (BR-FR-CDV-CL-09), even as the first status of a submission. The status comes as such a CDAR and is classified as the contract says. Refused (`invalid_field_value`) on a conformant message (`param: conformant`) and on any other message the rules refuse (`param: reasonCode`). Default `true`. */
            conformant?: boolean;
            /** @description The notes that come with the status (a list, or one text): `einvoicing.rejectionNote` shows them one per line, null when none. */
            notes?: string[] | string;
            /** @description The platform's or buyer's words, kept verbatim. */
            reason?: string;
            /** @description The reason code (MDT-113). Required by `fr:206`, `fr:207`, `fr:208`, `fr:210`, `fr:213` and `fr:501`, from the list each status allows (BR-FR-CDV-CL-09: `REJ_SEMAN`, `DOUBLON`, `TX_TVA_ERR`...). A `fr:213` whose code no life-cycle message carries (`REJ_XSD`, a platform’s own code) as the first status of a submission is the platform refusing the deposit at its acknowledgement. */
            reasonCode?: string;
            /** @description The life-cycle status reported, `fr:200` to `fr:501`: `fr:200`, `fr:201`, `fr:202`, `fr:203`, `fr:204`, `fr:205`, `fr:206`, `fr:207`, `fr:208`, `fr:209`, `fr:210`, `fr:211`, `fr:213`, `fr:221`, `fr:501`. */
            status: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Invoice'] | components['schemas']['CreditNote'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/received-invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive an invoice in the sandbox
     * @description As if the platform delivered it: `file` is the invoice file in base64 (a Factur-X PDF, a CII or a UBL XML), `flowId` the platform flow id (default a new one; the same one again returns the invoice already received, 200). Created: 201 and `invoice.incoming.received`. A live key gets `not_supported`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /**
             * Format: byte
             * @description The file, base64.
             */
            file: string;
            flowId?: string;
            name?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ReceivedInvoice'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Purge the test data of the company (test keys only)
     * @description Purges the test environment (webhook endpoints stay), sets the sandbox clock back to real time, and injects the fixtures of the resources that have them. A live key is refused with `not_supported`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              created: string;
              /** @enum {boolean} */
              livemode: false;
              /** @enum {string} */
              object: 'sandbox_reset';
              /** @description Rows removed, per kind of data. */
              purged: {
                [key: string]: number;
              };
            };
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/subscription': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve the subscription: plan, status, period and usage */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Subscription'];
          };
        };
      };
    };
    put?: never;
    /**
     * Change the plan
     * @description Takes effect at once (`subscription.renewed` with `reason: plan_changed`); the new limits apply to what comes next. A live key without scopes; a test key gets `not_supported`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            plan: 'free' | 'essential' | 'pro';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Subscription'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/subscription/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel the subscription
     * @description Writing operations then answer `subscription_paused`; reads and exports stay open to take the data away. `subscription.cancelled`. `resume` reactivates it. A live key without scopes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Kept, and sent in the event. */
            reason?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Subscription'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/subscription/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause the subscription
     * @description Writing operations then answer `subscription_paused` (reads, exports and these routes stay open); recurring runs fail with it. `until` ends the pause by itself. `subscription.paused`. A live key without scopes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Kept, and sent in the event. */
            reason?: string;
            /** Format: date-or-date-time */
            until?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Subscription'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/subscription/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume a paused or cancelled subscription
     * @description Active again (`subscription.renewed` with `reason: resumed`); a period that ended meanwhile gives way to one starting now. A live key without scopes.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['Subscription'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tax-decisions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List tax decisions, newest first */
    get: {
      parameters: {
        query?: {
          customerId?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
          status?: 'final' | 'suspended' | 'not_taken';
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['TaxDecision'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Take a tax decision on an operation
     * @description Describe the operation (date, currency, buyer, lines, location evidence) and the tax source. The answer is an immutable decision: `final`, `suspended` (missing evidence, concurrent decisions, ledger under review: retry with `retryOf`) or `not_taken`. The only endpoint whose refusals may carry `issues`.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description Document allowances (BG-20), as the document states them: split over the VAT groups by their line nets. */
            allowances?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /** @description Document charges (BG-21): split over the VAT groups by their line nets. */
            charges?: {
              /** @description Cents, a positive integer (BT-92 / BT-99). */
              amount: number;
              /** @description BT-97 / BT-104. */
              reason?: string;
              /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
              reasonCode?: string;
            }[];
            /** @description EUR: the EU threshold is counted in euros and BR-FR-CO-12 needs the VAT in euros; the engine holds no exchange rate. */
            currency: 'EUR';
            /** @description The inline buyer, instead of `customerId`. */
            customer?: {
              address?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                postalCode?: string | null;
              } | null;
              deliveryAddress?: {
                city?: string | null;
                /** @description ISO 3166-1 alpha-2. */
                country: string;
                line1?: string | null;
                line2?: string | null;
                postalCode?: string | null;
              } | null;
              name?: string;
              siren?: string | null;
              /** @description `company` (a taxable business) or `individual` (a consumer). */
              type: 'company' | 'individual';
              /** @description With its country prefix (`DE`, `EL`, `XI`...). */
              vatNumber?: string | null;
            };
            customerId?: string;
            /**
             * Format: date
             * @description The operation date (tax point).
             */
            date: string;
            lines: {
              /** @description Discounts on the line (BG-27): the line net is quantity x unit price less these. */
              allowances?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              /** @description Charges on the line (BG-28): added to quantity x unit price. */
              charges?: {
                /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
                amount?: number;
                /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
                percentage?: string;
                /** @description BT-139 / BT-144. */
                reason?: string;
                /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
                reasonCode?: string;
              }[];
              description: string;
              nature: 'goods' | 'services' | 'electronic_service';
              /** @description A positive decimal string, at most 4 decimals ("1.5"). */
              quantity: string;
              /** @description The rate category requested (the products' `vatCategory`); default `standard`. */
              rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
              /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
              unitPrice: string;
              /** @description `taxSource: integration` only: the UNCL5305 category (S, Z, E, AE, K, G, O). */
              vatCode?: string;
              /** @description `taxSource: integration` only: the VATEX exemption code, or null. */
              vatexCode?: string | null;
              /** @description `taxSource: integration` only: the rate, a decimal string ("20", "5.5"); null for category O. */
              vatRate?: string | null;
            }[];
            /** @description Where a consumer of electronic services is. */
            locationEvidence?: {
              country: string;
              /** @description Who holds the item: the supplier, or a third party involved in the supply (payment provider, operator). */
              providedBy: 'supplier' | 'third_party';
              /** @description Art. 24f of Regulation 282/2011: (a) `billing_address`, (b) `ip_address`, (c) `bank`, (d) `sim_mcc`, (e) `fixed_line`, (f) `other`. */
              type: 'billing_address' | 'ip_address' | 'bank' | 'sim_mcc' | 'fixed_line' | 'other';
            }[];
            metadata?: {
              [key: string]: unknown;
            };
            /** @description A decision not taken, suspended or expired, retried with only missing evidence added. */
            retryOf?: string;
            /** @description `service`: the engine decides the VAT; `integration`: the client supplies it per line and the engine checks it. */
            taxSource: 'service' | 'integration';
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TaxDecision'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tax-decisions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a tax decision */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TaxDecision'];
          };
        };
      };
    };
    put?: never;
    /** POST on a tax decision: always `method_not_allowed` (a decision is immutable) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': Record<string, never>;
          };
        };
      };
    };
    /** DELETE on a tax decision: always `method_not_allowed` (a decision is immutable) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': Record<string, never>;
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tax-profiles': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List tax profile revisions, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Only the revision covering this day. */
          date?: string;
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['TaxProfile'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Declare a dated revision of the seller's tax profile
     * @description Revisions never overlap (`tax_profile_ambiguous`): close the current one with `POST /v1/tax-profiles/:id` first. A declaration left out is not declared, and refused where a decision needs it (`tax_profile_incomplete`).
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** @description E-reporting periodicity: `three_per_month` (réel normal mensuel), `monthly` (réel normal trimestriel, régime simplifié), `bimonthly` (franchise en base). */
            ereportingPeriodicity?: 'three_per_month' | 'monthly' | 'bimonthly' | null;
            establishment: {
              country: string;
              postalCode?: string | null;
              siret?: string | null;
            };
            /** @description Registered in the One-Stop Shop (Union scheme). */
            ossRegistered?: boolean | null;
            /** @description `normal`, `simplified` or `franchise` (franchise en base, art. 293 B du CGI); null: not declared. */
            regime?: 'normal' | 'simplified' | 'franchise' | null;
            /** Format: date */
            validFrom: string;
            /** Format: date */
            validTo?: string | null;
            vatNumber?: string | null;
            /** @description The option for paying VAT on debits (services); false: VAT on collection. */
            vatOnDebits?: boolean | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TaxProfile'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tax-profiles/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a tax profile revision */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TaxProfile'];
          };
        };
      };
    };
    put?: never;
    /**
     * Move the end of a revision
     * @description Only `validTo` changes; the declarations of a revision are never rewritten (declare a new revision). It must not overlap another revision.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            /** Format: date */
            validTo: string | null;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['TaxProfile'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List webhook endpoints */
    get: {
      parameters: {
        query?: {
          /** @description Items per page, 1 to 100. */
          limit?: number;
          /** @description Id of the last item of the previous page. */
          starting_after?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: components['schemas']['WebhookEndpoint'][];
              has_more: boolean;
              /** @description Pass as `starting_after` for the next page; null on the last page. */
              next_cursor: string | null;
              /** @enum {string} */
              object: 'list';
              url: string;
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a webhook endpoint
     * @description The URL must be HTTPS and its host must resolve to public addresses only. The answer carries the signing secret in clear, this once.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            description?: string;
            /** @description Event types, or `*` for all. Default `["*"]`. */
            events?: string[];
            url: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookEndpoint'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Retrieve a webhook endpoint */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookEndpoint'];
          };
        };
      };
    };
    put?: never;
    /**
     * Update a webhook endpoint
     * @description Set `status` to `enabled` to bring back an endpoint deactivated after three days of failures.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            description?: string | null;
            /** @description Event types, or `*` for all. Default `["*"]`. */
            events?: string[];
            status?: 'enabled' | 'disabled';
            url?: string;
          };
        };
      };
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookEndpoint'];
          };
        };
      };
    };
    /** Delete a webhook endpoint */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              /** @enum {boolean} */
              deleted: true;
              id: string;
              /** @enum {string} */
              object: 'webhook_endpoint';
            };
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints/{id}/ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send a `ping` event to this endpoint alone */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['EventWithDeliveries'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhook-endpoints/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Roll the signing secret
     * @description The new secret is returned in clear, this once. For 24 hours deliveries carry two `v1=` signatures, one per secret.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Error envelope; see `error.code`. */
        '4XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Error envelope; see `error.code`. */
        '5XX': {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['ErrorEnvelope'];
          };
        };
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': components['schemas']['WebhookEndpoint'];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    ArchiveVerification: {
      checks: {
        check: 'entry' | 'entry_hash' | 'chain' | 'files';
        detail: string;
        ok: boolean;
      }[];
      documentId: string;
      documentNumber: string | null;
      entry: {
        archivedAt: string;
        documentId: string;
        documentKind: string;
        documentNumber: string;
        entryHash: string;
        fileHashes: {
          [key: string]: string;
        };
        previousHash: string;
        ruleSet: string | null;
        sequence: number;
      } | null;
      intact: boolean | null;
      livemode: boolean;
      message: string;
      /** @enum {string} */
      object: 'archive_verification';
      /** @description `intact`: the entry, the chain up to it and the stored files hash as recorded; `altered`: one of them does not (see `checks`); `not_archived`: a test document, a draft, or files the validators refused; `pending`: the files are being generated. */
      status: 'intact' | 'altered' | 'not_archived' | 'pending';
      verifiedAt: string;
    };
    Attachment: {
      /** @description BT-123, a BR-FR-17 code: RIB, LISIBLE, FEUILLE_DE_STYLE, PJA, BORDEREAU_SUIVI, DOCUMENT_ANNEXE, BON_LIVRAISON, BON_COMMANDE, BORDEREAU_SUIVI_VALIDATION, ETAT_ACOMPTE, FACTURE_PAIEMENT_DIRECT, RECAPITULATIF_COTRAITANCE. */
      code: string;
      /** @description BT-125 `mimeCode`: application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet. */
      contentType: string;
      created: string;
      description: string | null;
      /** @description BT-125 `filename`, BT-122, and the name of the file in the Factur-X. */
      filename: string;
      /** @description Prefix `att_`. */
      id: string;
      /** @enum {string} */
      object: 'attachment';
      /** @description SHA-256 of the bytes (hex): the ETag of its content. */
      sha256: string;
      /** @description Bytes (decoded). */
      size: number;
    };
    CardPaymentProvider: {
      created: string;
      livemode: boolean;
      /** @enum {string} */
      object: 'card_payment_provider';
      /** @enum {string} */
      provider: 'stripe';
      /** @description The newest events Stripe sent that said a checkout was paid or a charge refunded, newest first (at most 10). */
      recentEvents: {
        eventId: string;
        /** @description `recorded` (a payment, or a refund on a credit note) or `ignored` (see `reason`). */
        outcome: string;
        paymentId: string | null;
        reason: string | null;
        received: string;
        refundId: string | null;
        type: string;
      }[];
      /** @description The last four characters of the key; the key itself is never shown. */
      secretKeyLast4: string;
      /** @description Whether Stripe accepted the key at connection (false: Stripe did not answer then). */
      secretKeyVerified: boolean;
      updated: string;
      /** @description The URL to give the webhook endpoint created in Stripe, with the events `checkout.session.completed`, `checkout.session.async_payment_succeeded` and `charge.refunded`. */
      webhookUrl: string;
    };
    CreditNote: {
      /** @description Allowances on the whole document (BG-20), off the lines' total; split over the VAT rates. */
      allowances?: {
        /** @description Cents (BT-92 / BT-99). */
        amount: number;
        reason: string | null;
        reasonCode: string | null;
      }[];
      /** @description Cents taken off by finalized credit notes. */
      amountCredited: number;
      amountDue: number | null;
      /** @description Cents collected. */
      amountPaid: number;
      /** @description Cents given back (refunds of credit notes). */
      amountRefunded: number;
      /** @description BG-24 supporting documents, metadata only (the bytes: `.../attachments/{attachmentId}/content`); added and deleted on a draft, frozen at finalization. */
      attachments: components['schemas']['Attachment'][];
      buyer: {
        address: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        deliveryAddress: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        einvoiceSyntax: string | null;
        electronicAddress: string | null;
        email: string | null;
        name: string;
        registryNonDisclosure: string[];
        siren: string | null;
        siret: string | null;
        type: string;
        vatNumber: string | null;
      } | null;
      /** @description Charges on the whole document (BG-21). */
      charges?: {
        /** @description Cents (BT-92 / BT-99). */
        amount: number;
        reason: string | null;
        reasonCode: string | null;
      }[];
      created: string;
      currency: string;
      customerId: string | null;
      deliveryDate: string | null;
      documentStatus: 'draft' | 'finalized' | 'cancelled';
      dueDate: string | null;
      einvoicing: {
        paErrorCode: string | null;
        paFlowId?: string | null;
        paTrackingId?: string | null;
        /** @description Earlier attempts: a resubmission after a rejection archives the rejection fields here and resets them. */
        previousSubmissions: {
          archivedAt: string;
          paErrorCode: string | null;
          rejectionCategory:
            | (
                | 'buyer_not_in_directory'
                | 'addressing_error'
                | 'other'
                | 'format_invalid'
                | 'semantic_error'
                | 'duplicate'
                | 'platform_auth'
                | 'platform_unavailable'
                | 'refused_by_buyer'
                | 'suspended'
                | 'unknown'
              )
            | null;
          rejectionCode: string | null;
          rejectionNote: string | null;
          rejectionReason: string | null;
          rejectionSource: ('platform' | 'buyer' | 'service') | null;
          transmissionDetail: string | null;
          transmissionStatus: string;
        }[];
        rejectionCategory:
          | (
              | 'buyer_not_in_directory'
              | 'addressing_error'
              | 'other'
              | 'format_invalid'
              | 'semantic_error'
              | 'duplicate'
              | 'platform_auth'
              | 'platform_unavailable'
              | 'refused_by_buyer'
              | 'suspended'
              | 'unknown'
            )
          | null;
        rejectionCode: string | null;
        rejectionNote: string | null;
        rejectionReason: string | null;
        rejectionSource: ('platform' | 'buyer' | 'service') | null;
      };
      /** @description The generated files (Factur-X PDF/A-3 with its CII, the CII alone, the readable PDF), generated right after the finalization: `pending` and `generating` until stored, then `ready` with their SHA-256, or `failed` when the official validators refused the CII (never deposited). Empty for a draft. */
      files: {
        contentType: string;
        fileName: string;
        kind: 'facturx' | 'xml' | 'pdf' | 'ubl';
        ruleSet: string | null;
        sha256: string | null;
        size: number | null;
        state: 'pending' | 'generating' | 'ready' | 'failed';
        /** @description Where to download it (`GET`, the same key). */
        url: string;
      }[];
      finalizedAt: string | null;
      /** @description Prefix `cn_`. */
      id: string;
      issueDate: string | null;
      lines: {
        /** @description Discounts on the line (BG-27). */
        allowances?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        /** @description Charges on the line (BG-28). */
        charges?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        description: string;
        nature: string;
        /** @description Cents: round2(quantity x unit price), less the allowances, plus the charges (BT-131). */
        netAmount: number;
        productId: string | null;
        quantity: string;
        rateCategory: string | null;
        unit: string;
        unitPrice: string;
        vatCode: string | null;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      livemode: boolean;
      /** @description Legal mentions decided by the tax decision. */
      mentions: {
        code: string;
        lines: number[];
        text: string;
      }[];
      metadata: {
        [key: string]: unknown;
      };
      notes: string | null;
      number: string | null;
      /** @enum {string} */
      object: 'credit_note';
      obligation: {
        action: ('send' | 'resubmit' | 'retry') | null;
        nextAttemptAt: string | null;
        owner: ('client' | 'platform' | 'service') | null;
        reasonCode: string | null;
        reasonSource: ('platform' | 'buyer' | 'service') | null;
        /** @description `waiting` (not met yet: `owner` acts next), `fulfilled` (deposited on the platform), `not_applicable`. */
        state: string;
      } | null;
      /** @description The due date passed without full payment (`invoice.overdue` was emitted). */
      overdue: boolean;
      paymentPortalUrl: string | null;
      /** @description An invoice: what the buyer paid (`unpaid`, `partially_paid`, `paid`, then `partially_refunded`, `refunded` once a credit note gives money back). A credit note is money owed to the buyer, and its axis says whether it was given back: `unpaid` (nothing refunded: deducted from what the invoice still owes, or to refund), `partially_refunded`, `refunded`; never `paid`. */
      paymentStatus: 'unpaid' | 'partially_paid' | 'paid' | 'partially_refunded' | 'refunded';
      paymentTerms: string | null;
      paymentTermsDays: number | null;
      relatedInvoiceId: string | null;
      relatedInvoiceNumber: string | null;
      seller: {
        address: {
          city: string;
          country: string;
          line1: string;
          line2: string | null;
          postalCode: string;
        };
        bic: string | null;
        contact: {
          email: string | null;
          name: string | null;
          phone: string | null;
        } | null;
        electronicAddress: string | null;
        iban: string | null;
        legalForm: string | null;
        legalName: string;
        registration: {
          kind: string;
          place: string;
        } | null;
        shareCapital: string | null;
        siren: string;
        siret: string | null;
        tradeName: string | null;
        vatNumber: string | null;
      } | null;
      /** @description The summary: a pure function of the three axes (`draft`, `finalized`, `sending`, `deposited`, `transmitted`, `available`, `received`, `approved`, `partially_paid`, `suspended`, `rejected`, `refused`, `credit_refused`, `paid`, `partially_refunded`, `refunded`, `cancelled`). */
      status: string;
      /** @description Cents, excluding VAT: the sum of the line nets. */
      subtotal: number;
      taxDecisionId: string | null;
      taxSource: string | null;
      total: number | null;
      totalTax: number | null;
      transmissionDetail: ('available' | 'received' | 'suspended' | 'refused') | null;
      transmissionStatus:
        'not_applicable' | 'pending' | 'sending' | 'deposited' | 'transmitted' | 'approved' | 'rejected';
      updated: string;
      vatBreakdown: {
        taxableAmount: number;
        taxAmount: number;
        vatCode: string;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      /** @description Only on the answer of the finalization: what will block the deposit of a document due on the e-invoicing network (no platform connected for the establishment, its deposits off), with the code `send` will refuse it with. The number is taken all the same; empty when nothing blocks it. */
      warnings?: {
        code: 'pa_not_configured' | 'deposit_not_enabled';
        message: string;
      }[];
    };
    Customer: {
      address: {
        city: string | null;
        country: string;
        line1: string | null;
        line2: string | null;
        postalCode: string | null;
        territory: string | null;
      } | null;
      created: string;
      /** @description A deleted customer stays readable (its documents refer to it) but is no longer listed nor modifiable. */
      deleted: boolean;
      deliveryAddress: {
        city: string | null;
        country: string;
        line1: string | null;
        line2: string | null;
        postalCode: string | null;
        territory: string | null;
      } | null;
      directoryVerification: ('verified' | 'unverified' | 'not_found') | null;
      einvoiceSyntax: ('cii' | 'ubl') | null;
      electronicAddress: string | null;
      email: string | null;
      /** @description Prefix `cus_`. */
      id: string;
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      name: string;
      /** @enum {string} */
      object: 'customer';
      registryNonDisclosure: (
        'name' | 'address' | 'address.line1' | 'address.line2' | 'address.postalCode' | 'address.city'
      )[];
      routingCode: string | null;
      siren: string | null;
      siret: string | null;
      type: 'company' | 'individual';
      updated: string;
      vatNumber: string | null;
      vatValidation: {
        checkedAt: string | null;
        requestDate: string | null;
        requestIdentifier: string | null;
        status: 'valid' | 'unverified' | 'invalid';
      } | null;
    };
    EreportingDeclaration: {
      acceptedAt: string | null;
      attempt: number;
      created: string;
      currency: string;
      /** @description When it leaves: the day after its period (the sandbox clock in test). */
      dueAt: string;
      establishment: string | null;
      /** @description 10.1 unitary transactions, 10.2 unitary payments, 10.3 and 10.4 aggregated (B2C). */
      flow: '10.1' | '10.2' | '10.3' | '10.4';
      flowId: string | null;
      /** @description Prefix `rep_`. */
      id: string;
      /** @description The lines as transmitted. */
      lines: {
        [key: string]: unknown;
      }[];
      livemode: boolean;
      /** @enum {string} */
      object: 'ereporting';
      obligation: {
        action: string | null;
        nextAttemptAt: string | null;
        owner: string | null;
        reasonCode: string | null;
        reasonSource: string | null;
        state: 'waiting' | 'fulfilled';
      };
      operationCount: number;
      /** @description On retrieval: the operations it reports (the first 1,000). */
      operations?: {
        date: string;
        number: string | null;
        sourceId: string;
        /** @description `invoice`, `credit_note`, `payment` or `refund`. */
        sourceKind: string;
        taxableAmount: number;
        taxAmount: number;
      }[];
      paRejectionCode: string | null;
      paRejectionReason: string | null;
      /** @description `YYYY-MM-DD/YYYY-MM-DD`, both days included. */
      period: string;
      periodEnd: string;
      periodStart: string;
      previousAttemptId: string | null;
      rejectedAt: string | null;
      /** @description `reserved` until transmitted; `rejected` attempts are kept as a trace. */
      status: 'reserved' | 'submitted' | 'accepted' | 'rejected';
      submittedAt: string | null;
      supersededById: string | null;
      /** @description Cents (payments: the amount collected). */
      taxableAmount: number;
      /** @description Cents. */
      taxAmount: number;
      /** @description The AFNOR flow type (`AggregatedCustomerTransactionReport`...). */
      type: string;
      updated: string;
    };
    ErrorEnvelope: {
      error: {
        code: string;
        doc_url?: string;
        hint?: string;
        issues?: {
          code: string;
          message: string;
          param: string | null;
        }[];
        message: string;
        param?: string;
        request_id: string;
        type: string;
      };
    };
    Establishment: {
      address: {
        city: string;
        /** @description ISO 3166-1 alpha-2. */
        country: string;
        line1: string;
        line2: string | null;
        postalCode: string;
      };
      created: string;
      /** @description Automatic deposit of this establishment's e-invoices on its platform (`deposit_not_enabled` when false). */
      depositEnabled: boolean;
      /** @description The syntax of this establishment's platform deposits when the buyer states none (the customer's `einvoiceSyntax`): `cii` (default: the Factur-X, its CII inside) or `ubl` (UBL 2.1). */
      einvoiceSyntax: 'cii' | 'ubl';
      /** @description BT-34 (scheme 0225), the seller's electronic address; the SIREN unless set. */
      electronicAddress: string;
      /** @description Automatic transmission of its e-reporting declarations (`ereporting_not_enabled` when false). */
      ereportingEnabled: boolean;
      /** @description Prefix `est_`. */
      id: string;
      /** @description The establishment of documents whose tax profile names none. Exactly one per environment. */
      isDefault: boolean;
      livemode: boolean;
      name: string | null;
      /** @enum {string} */
      object: 'establishment';
      platform: {
        /** @description The platform's root: its Flow Service answers under `{baseUrl}/flow-service`, its Directory Service under `{baseUrl}/directory-service` (AFNOR XP Z12-013). */
        baseUrl: string;
        /** @description OAuth2 client id (client credentials). */
        clientId: string;
        /**
         * @description The client secret is stored encrypted and never returned.
         * @enum {boolean}
         */
        clientSecretSet: true;
        connectedAt: string;
        tokenUrl: string | null;
      } | null;
      /** @description 14 digits: the company's SIREN, the establishment number, the Luhn key. */
      siret: string;
      updated: string;
    };
    EuThresholdLedger: {
      coveredUntil: string | null;
      created: string;
      distanceSales: {
        /** @description Certainly counted (cents): the lower bound. */
        counted: number;
        lowerBound: number;
        /** @description Reserved by decisions not concluded yet. */
        pending: number;
        previousYear: number;
        standing: 'below' | 'above' | 'undetermined';
        /** @description EUR 10,000 for distance sales (Art. 59c), EUR 100,000 for the electronic-services relief (Art. 24b). */
        threshold: number;
        upperBound: number;
      };
      electronicServices: {
        /** @description Certainly counted (cents): the lower bound. */
        counted: number;
        lowerBound: number;
        /** @description Reserved by decisions not concluded yet. */
        pending: number;
        previousYear: number;
        standing: 'below' | 'above' | 'undetermined';
        /** @description EUR 10,000 for distance sales (Art. 59c), EUR 100,000 for the electronic-services relief (Art. 24b). */
        threshold: number;
        upperBound: number;
      };
      /** @description The newest 100 movements, newest first. */
      entries: components['schemas']['EuThresholdLedgerEntry'][];
      entriesTruncated: boolean;
      /** @description Prefix `eul_`. */
      id: string;
      lastEntryId: string | null;
      livemode: boolean;
      /** @enum {string} */
      object: 'eu_threshold_ledger';
      status: 'open' | 'under_review';
      updated: string;
      year: number;
    };
    EuThresholdLedgerEntry: {
      correctsEntryId: string | null;
      coveredUntil: string | null;
      created: string;
      decisionId: string | null;
      distanceSales: number;
      electronicServices: number;
      expiresAt: string | null;
      /** @description Prefix `ledg_`. */
      id: string;
      kind: 'opening' | 'adjustment' | 'reservation' | 'correction' | 'review' | 'reconciliation';
      /** @enum {string} */
      object: 'eu_threshold_ledger_entry';
      operationDate: string | null;
      reason: string | null;
      reference: string | null;
      remainingMax: {
        distanceSales: number;
        electronicServices: number;
      };
      remainingMin: {
        distanceSales: number;
        electronicServices: number;
      };
      /** @description A reservation: `reserved`, `counted`, `expired` or `released`. */
      status: string | null;
    };
    Event: {
      /** @description The version active when the event was emitted; never changes. */
      apiVersion: string;
      /** @description ISO 8601 with milliseconds, UTC. */
      created: string;
      data: {
        [key: string]: unknown;
      };
      /** @description Prefix `evt_`. */
      id: string;
      livemode: boolean;
      /** @enum {string} */
      object: 'event';
      request: {
        id: string | null;
        idempotency_key: string | null;
      } | null;
      type: string;
    };
    EventWithDeliveries: {
      /** @description The version active when the event was emitted; never changes. */
      apiVersion: string;
      /** @description Attempts of the current generation, all endpoints. */
      attemptCount: number;
      /** @description ISO 8601 with milliseconds, UTC. */
      created: string;
      data: {
        [key: string]: unknown;
      };
      /** @description True when every endpoint received the current generation. */
      delivered: boolean;
      /** @description Every delivery attempt, of every generation, oldest first. */
      deliveries: {
        attempt: number;
        created: string;
        durationMs: number;
        endpointId: string;
        error: string | null;
        generation: number;
        status: number | null;
      }[];
      endpoints: {
        attemptCount: number;
        endpointId: string;
        generation: number;
        nextRetry: string | null;
        /** @description `pending`, `delivered` or `failed` (five attempts failed). */
        state: string;
      }[];
      /** @description Replay cycle: 1 for the first delivery, +1 per replay. */
      generation: number;
      /** @description Prefix `evt_`. */
      id: string;
      livemode: boolean;
      nextRetry: string | null;
      /** @enum {string} */
      object: 'event';
      request: {
        id: string | null;
        idempotency_key: string | null;
      } | null;
      type: string;
    };
    Export: {
      completedAt: string | null;
      contentType: string;
      /** @description FEC entries (EcritureNum), or records of a data export; so far while pending. */
      count: number;
      created: string;
      downloadUrl: string | null;
      /** @description The file is deleted then (7 days after the request). */
      expiresAt: string;
      /** @description A FEC is named `<SIREN>FEC<YYYYMMDD>.txt`, the date being `to`. */
      fileName: string;
      /** @description Prefix `exp_`. */
      id: string;
      /** @description The job that writes it (`GET /v1/jobs/:id`). */
      jobId: string;
      /** @description `fec`: the accounting file of a period; `data`: everything the company holds (data protection). */
      kind: 'fec' | 'data';
      livemode: boolean;
      /** @enum {string} */
      object: 'export';
      period: {
        from: string;
        to: string;
      } | null;
      sha256: string | null;
      /** @description Bytes; so far while pending. */
      size: number;
      /** @description `pending` while its job runs, `ready` to download, `failed` when its job gave up. */
      status: 'pending' | 'ready' | 'failed';
    };
    /** @description The payment statement (status 212, collected amounts per VAT rate; negative for a refund) owed on a domestic B2B e-invoice whose VAT is due on collection (services without the debit option); null when none is owed. */
    Fr212: {
      lastErrorCode: string | null;
      lastErrorReason?: string;
      sentAt: string | null;
      /** @description `awaiting_deposit` (the invoice is not on the platform yet), `pending` (the statement is due) or `sent`. */
      state: string;
      updatedAt: string;
    };
    Invoice: {
      /** @description Allowances on the whole document (BG-20), off the lines' total; split over the VAT rates. */
      allowances?: {
        /** @description Cents (BT-92 / BT-99). */
        amount: number;
        reason: string | null;
        reasonCode: string | null;
      }[];
      /** @description Cents taken off by finalized credit notes. */
      amountCredited: number;
      /** @description Cents of deposits deducted at finalization: the buyer owes `total - amountDeducted`, less what it paid. */
      amountDeducted: number;
      amountDue: number | null;
      /** @description Cents collected. */
      amountPaid: number;
      /** @description Cents given back (refunds of credit notes). */
      amountRefunded: number;
      /** @description BG-24 supporting documents, metadata only (the bytes: `.../attachments/{attachmentId}/content`); added and deleted on a draft, frozen at finalization. */
      attachments: components['schemas']['Attachment'][];
      buyer: {
        address: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        deliveryAddress: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        einvoiceSyntax: string | null;
        electronicAddress: string | null;
        email: string | null;
        name: string;
        registryNonDisclosure: string[];
        siren: string | null;
        siret: string | null;
        type: string;
        vatNumber: string | null;
      } | null;
      /** @description Charges on the whole document (BG-21). */
      charges?: {
        /** @description Cents (BT-92 / BT-99). */
        amount: number;
        reason: string | null;
        reasonCode: string | null;
      }[];
      created: string;
      currency: string;
      customerId: string | null;
      deductedBy: string | null;
      deliveryDate: string | null;
      /** @description A final invoice (frame B4/S4/M4): the deposit invoices it deducts, named in its files (BG-3) with their sum as already paid (BT-113). Empty on any other invoice. */
      deposits: {
        amount: number | null;
        invoiceId: string;
        issueDate: string | null;
        number: string | null;
      }[];
      documentStatus: 'draft' | 'finalized' | 'cancelled';
      dueDate: string | null;
      einvoicing: {
        paErrorCode: string | null;
        paFlowId?: string | null;
        paTrackingId?: string | null;
        /** @description Earlier attempts: a resubmission after a rejection archives the rejection fields here and resets them. */
        previousSubmissions: {
          archivedAt: string;
          paErrorCode: string | null;
          rejectionCategory:
            | (
                | 'buyer_not_in_directory'
                | 'addressing_error'
                | 'other'
                | 'format_invalid'
                | 'semantic_error'
                | 'duplicate'
                | 'platform_auth'
                | 'platform_unavailable'
                | 'refused_by_buyer'
                | 'suspended'
                | 'unknown'
              )
            | null;
          rejectionCode: string | null;
          rejectionNote: string | null;
          rejectionReason: string | null;
          rejectionSource: ('platform' | 'buyer' | 'service') | null;
          transmissionDetail: string | null;
          transmissionStatus: string;
        }[];
        rejectionCategory:
          | (
              | 'buyer_not_in_directory'
              | 'addressing_error'
              | 'other'
              | 'format_invalid'
              | 'semantic_error'
              | 'duplicate'
              | 'platform_auth'
              | 'platform_unavailable'
              | 'refused_by_buyer'
              | 'suspended'
              | 'unknown'
            )
          | null;
        rejectionCode: string | null;
        rejectionNote: string | null;
        rejectionReason: string | null;
        rejectionSource: ('platform' | 'buyer' | 'service') | null;
      };
      /** @description The generated files (Factur-X PDF/A-3 with its CII, the CII alone, the readable PDF), generated right after the finalization: `pending` and `generating` until stored, then `ready` with their SHA-256, or `failed` when the official validators refused the CII (never deposited). Empty for a draft. */
      files: {
        contentType: string;
        fileName: string;
        kind: 'facturx' | 'xml' | 'pdf' | 'ubl';
        ruleSet: string | null;
        sha256: string | null;
        size: number | null;
        state: 'pending' | 'generating' | 'ready' | 'failed';
        /** @description Where to download it (`GET`, the same key). */
        url: string;
      }[];
      finalizedAt: string | null;
      /** @description Prefix `inv_`. */
      id: string;
      /** @description `deposit`: a deposit invoice (facture d’acompte, BT-3 386). `standard`: any other invoice, a final invoice deducting deposits included. */
      invoiceType: 'standard' | 'deposit';
      issueDate: string | null;
      lines: {
        /** @description Discounts on the line (BG-27). */
        allowances?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        /** @description Charges on the line (BG-28). */
        charges?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        description: string;
        nature: string;
        /** @description Cents: round2(quantity x unit price), less the allowances, plus the charges (BT-131). */
        netAmount: number;
        productId: string | null;
        quantity: string;
        rateCategory: string | null;
        unit: string;
        unitPrice: string;
        vatCode: string | null;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      livemode: boolean;
      /** @description Legal mentions decided by the tax decision. */
      mentions: {
        code: string;
        lines: number[];
        text: string;
      }[];
      metadata: {
        [key: string]: unknown;
      };
      notes: string | null;
      number: string | null;
      /** @enum {string} */
      object: 'invoice';
      obligation: {
        action: ('send' | 'resubmit' | 'retry') | null;
        nextAttemptAt: string | null;
        owner: ('client' | 'platform' | 'service') | null;
        reasonCode: string | null;
        reasonSource: ('platform' | 'buyer' | 'service') | null;
        /** @description `waiting` (not met yet: `owner` acts next), `fulfilled` (deposited on the platform), `not_applicable`. */
        state: string;
      } | null;
      /** @description The due date passed without full payment (`invoice.overdue` was emitted). */
      overdue: boolean;
      paymentPortalUrl: string | null;
      /** @description An invoice: what the buyer paid (`unpaid`, `partially_paid`, `paid`, then `partially_refunded`, `refunded` once a credit note gives money back). A credit note is money owed to the buyer, and its axis says whether it was given back: `unpaid` (nothing refunded: deducted from what the invoice still owes, or to refund), `partially_refunded`, `refunded`; never `paid`. */
      paymentStatus: 'unpaid' | 'partially_paid' | 'paid' | 'partially_refunded' | 'refunded';
      paymentTerms: string | null;
      paymentTermsDays: number | null;
      quoteId: string | null;
      recurringInvoiceId: string | null;
      seller: {
        address: {
          city: string;
          country: string;
          line1: string;
          line2: string | null;
          postalCode: string;
        };
        bic: string | null;
        contact: {
          email: string | null;
          name: string | null;
          phone: string | null;
        } | null;
        electronicAddress: string | null;
        iban: string | null;
        legalForm: string | null;
        legalName: string;
        registration: {
          kind: string;
          place: string;
        } | null;
        shareCapital: string | null;
        siren: string;
        siret: string | null;
        tradeName: string | null;
        vatNumber: string | null;
      } | null;
      /** @description The summary: a pure function of the three axes (`draft`, `finalized`, `sending`, `deposited`, `transmitted`, `available`, `received`, `approved`, `partially_paid`, `suspended`, `rejected`, `refused`, `credit_refused`, `paid`, `partially_refunded`, `refunded`, `cancelled`). */
      status: string;
      /** @description Cents, excluding VAT: the sum of the line nets. */
      subtotal: number;
      taxDecisionId: string | null;
      taxSource: string | null;
      total: number | null;
      totalTax: number | null;
      transmissionDetail: ('available' | 'received' | 'suspended' | 'refused') | null;
      transmissionStatus:
        'not_applicable' | 'pending' | 'sending' | 'deposited' | 'transmitted' | 'approved' | 'rejected';
      updated: string;
      vatBreakdown: {
        taxableAmount: number;
        taxAmount: number;
        vatCode: string;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      /** @description Only on the answer of the finalization: what will block the deposit of a document due on the e-invoicing network (no platform connected for the establishment, its deposits off), with the code `send` will refuse it with. The number is taken all the same; empty when nothing blocks it. */
      warnings?: {
        code: 'pa_not_configured' | 'deposit_not_enabled';
        message: string;
      }[];
    };
    Job: {
      completedAt: string | null;
      created: string;
      error: {
        code: string;
        message: string;
      } | null;
      /** @description Prefix `job_`. */
      id: string;
      /** @description What the job does, e.g. `customers.import`. */
      kind: string;
      livemode: boolean;
      /** @enum {string} */
      object: 'job';
      progress: {
        /** @description Units done and committed. */
        processed: number;
        /** @description Units of work (CSV lines for an import). */
        total: number;
      };
      result: {
        [key: string]: unknown;
      } | null;
      status: 'queued' | 'running' | 'succeeded' | 'failed';
      updated: string;
    };
    Payment: {
      /** @description Cents. */
      amount: number;
      created: string;
      currency: string;
      fr212: components['schemas']['Fr212'] | null;
      /** @description Prefix `pay_`. */
      id: string;
      invoiceId: string;
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      method: string;
      /** @enum {string} */
      object: 'payment';
      paidAt: string;
      /** @description `api` (recorded through the API) or `stripe` (a card payment reported by Stripe's webhook). */
      recorded_by: string;
      reference: string | null;
    };
    Product: {
      created: string;
      /** @description A deleted product stays readable but is no longer listed nor modifiable. */
      deleted: boolean;
      description: string | null;
      /** @description Prefix `prod_`. */
      id: string;
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      name: string;
      nature: string;
      /** @enum {string} */
      object: 'product';
      unit: string;
      unitPrice: string;
      updated: string;
      vatCategory: string;
    };
    Quote: {
      buyer: {
        address: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        deliveryAddress: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        einvoiceSyntax: string | null;
        electronicAddress: string | null;
        email: string | null;
        name: string;
        registryNonDisclosure: string[];
        siren: string | null;
        siret: string | null;
        type: string;
        vatNumber: string | null;
      } | null;
      created: string;
      currency: string;
      customerId: string | null;
      /** @description Prefix `qt_`. */
      id: string;
      invoiceId: string | null;
      issueDate: string | null;
      lines: {
        /** @description Discounts on the line (BG-27). */
        allowances?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        /** @description Charges on the line (BG-28). */
        charges?: {
          /** @description Cents (BT-136 / BT-141), computed from the percentage when one is given. */
          amount: number;
          baseAmount: number | null;
          percentage: string | null;
          reason: string | null;
          reasonCode: string | null;
        }[];
        description: string;
        nature: string;
        /** @description Cents: round2(quantity x unit price), less the allowances, plus the charges (BT-131). */
        netAmount: number;
        productId: string | null;
        quantity: string;
        rateCategory: string | null;
        unit: string;
        unitPrice: string;
        vatCode: string | null;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      notes: string | null;
      number: string | null;
      /** @enum {string} */
      object: 'quote';
      publicUrl: string | null;
      status: 'draft' | 'finalized' | 'sent' | 'accepted' | 'refused' | 'expired' | 'converted';
      /** @description Cents, excluding VAT. The VAT is decided when the invoice is (its tax decision). */
      subtotal: number;
      updated: string;
      validUntil: string | null;
      viewedAt: string | null;
    };
    ReceivedInvoice: {
      /** @description BT-115, in cents. */
      amountDue: number;
      buyer: {
        name: string;
        siren: string | null;
        siret: string | null;
      };
      conformant: boolean | null;
      created: string;
      currency: string;
      dueDate: string | null;
      /** @description The establishment whose platform connection delivered it (its answers go back there); null: the sandbox's. */
      establishmentId: string | null;
      /** @description The platform's flow id: an invoice is ingested once per flow. */
      flowId: string;
      /** @description Prefix `rec_`. */
      id: string;
      issueDate: string | null;
      lines: {
        description: string;
        id: string;
        /** @description BT-131, in cents. */
        netAmount: number;
        quantity: string;
        unitCode: string;
        unitPrice: string;
        vatCode: string;
        vatRate: string | null;
      }[];
      livemode: boolean;
      number: string;
      /** @enum {string} */
      object: 'received_invoice';
      /** @description Prefix `pa_`: the platform invoice reference. */
      paInvoiceId: string;
      receivedAt: string;
      ruleSet: string | null;
      sender: {
        name: string | null;
        siren: string | null;
        siret: string | null;
        vatNumber: string | null;
      };
      /** @description `received` until the company answers; then the status of its last answer. */
      status: 'received' | 'approved' | 'refused' | 'disputed' | 'suspended' | 'payment_transmitted';
      /** @description `CII`, `UBL`, `Factur-X`, or `unknown` for a file that could not be read. */
      syntax: string;
      /** @description BT-109, in cents. */
      totalHt: number;
      /** @description BT-112, in cents. */
      totalTtc: number;
      /** @description BT-110, in cents. */
      totalTva: number;
      /** @description UNTDID 1001: `380` invoice, `381` credit note... */
      typeCode: string;
      updated: string;
      /** @description How many errors the validation found; `validationErrors` holds the first 100. */
      validationErrorCount: number;
      validationErrors: {
        flag: string;
        location: string | null;
        message: string;
        /** @description `BR-CO-16`, `BR-FR-05_BT-22_PMT`, `XSD`, `UNREADABLE`... */
        rule: string;
      }[];
      validators: string[];
      vatBreakdown: {
        /** @description BT-116, in cents. */
        taxableAmount: number;
        /** @description BT-117, in cents. */
        taxAmount: number;
        vatCode: string;
        vatRate: string | null;
      }[];
    };
    RecurringInvoice: {
      autoSend: boolean;
      buyer: {
        address: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        deliveryAddress: {
          city: string | null;
          country: string;
          line1: string | null;
          line2: string | null;
          postalCode: string | null;
        } | null;
        einvoiceSyntax: string | null;
        electronicAddress: string | null;
        email: string | null;
        name: string;
        registryNonDisclosure: string[];
        siren: string | null;
        siret: string | null;
        type: string;
        vatNumber: string | null;
      } | null;
      cancelledAt: string | null;
      count: number | null;
      created: string;
      currency: string;
      customerId: string | null;
      dayOfMonth: number;
      endDate: string | null;
      /** @description Prefix `rinv_`. */
      id: string;
      interval: 'monthly' | 'quarterly' | 'yearly';
      invoicesGenerated: number;
      lastRun: {
        error: {
          code: string;
          message: string;
        } | null;
        invoiceId: string | null;
        period: string;
        /** @description `pending`, `finalized`, `generated` or `failed`. */
        status: string;
      } | null;
      /** @description As given: products are read at each run. */
      lines: {
        /** @description Discounts on the line (BG-27), deducted from quantity x unit price; the tax decision states the same. */
        allowances?: {
          /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
          amount?: number;
          /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
          percentage?: string;
          /** @description BT-139 / BT-144. */
          reason?: string;
          /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
          reasonCode?: string;
        }[];
        /** @description Charges on the line (BG-28), added to quantity x unit price; the tax decision states the same. */
        charges?: {
          /** @description Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`. */
          amount?: number;
          /** @description A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143). */
          percentage?: string;
          /** @description BT-139 / BT-144. */
          reason?: string;
          /** @description UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight). */
          reasonCode?: string;
        }[];
        description?: string;
        nature?: 'goods' | 'services' | 'electronic_service';
        /** @description A product (`prod_`): its name, unit price, unit, nature and VAT category are copied, unless given here. */
        productId?: string;
        /** @description A positive decimal string, at most 4 decimals ("1.5"). Default "1". */
        quantity?: string;
        /** @description The VAT rate category asked of the tax decision (`taxSource: service`). */
        rateCategory?: 'standard' | 'intermediate' | 'reduced' | 'super_reduced' | 'zero' | 'exempt';
        /** @description UN/ECE Recommendation 20 code; default the product's, else `C62`. */
        unit?: string;
        /** @description Excluding VAT, a decimal string, at most 6 decimals ("12.50"). */
        unitPrice?: string;
        /** @description `taxSource: integration`: the UNCL5305 category (S, Z, E, AE, K, G, O). */
        vatCode?: string;
        /** @description `taxSource: integration`: the VATEX code, or null. */
        vatexCode?: string | null;
        /** @description `taxSource: integration`: the rate supplied ("20", "5.5"); null for category O. */
        vatRate?: string | null;
      }[];
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      mode: 'draft' | 'auto_finalize';
      nextPeriod: string | null;
      nextRunAt: string | null;
      notes: string | null;
      /** @enum {string} */
      object: 'recurring_invoice';
      pausedAt: string | null;
      paymentTerms: string | null;
      paymentTermsDays: number | null;
      runsFailed: number;
      startDate: string;
      /** @description `completed` when the schedule has no run left. */
      status: 'active' | 'paused' | 'cancelled' | 'completed';
      taxSource: 'service' | 'integration';
      updated: string;
    };
    Refund: {
      /** @description Cents. */
      amount: number;
      created: string;
      creditNoteId: string;
      currency: string;
      fr212: components['schemas']['Fr212'] | null;
      /** @description Prefix `ref_`. */
      id: string;
      invoiceId: string;
      livemode: boolean;
      metadata: {
        [key: string]: unknown;
      };
      method: string;
      /** @enum {string} */
      object: 'refund';
      reference: string | null;
      refundedAt: string;
    };
    Subscription: {
      cancelledAt: string | null;
      created: string;
      currentPeriodEnd: string;
      /** @description Periods follow the calendar months (UTC). */
      currentPeriodStart: string;
      features: {
        /** @description Recurring invoices finalized by the service (`mode: auto_finalize`): Essential and Pro. */
        recurringAutoFinalize: boolean;
      };
      limits: {
        /** @description Establishments connected to a platform, per environment. */
        connectedEstablishments: number;
        /** @description Live documents per calendar month (UTC). */
        monthlyQuota: number;
        requestsPerMinute: number;
        /** @description Per environment. */
        storageBytes: number;
        /** @description Per environment. */
        webhookEndpoints: number;
      };
      /** @description The calling key's environment; the subscription is the same in both. */
      livemode: boolean;
      /** @enum {string} */
      object: 'subscription';
      pausedAt: string | null;
      pausedUntil: string | null;
      plan: 'free' | 'essential' | 'pro';
      providerSubscriptionId: string | null;
      reason: string | null;
      /** @description `paused` and `cancelled` block writing operations with `subscription_paused`. */
      status: 'active' | 'paused' | 'cancelled';
      usage: {
        /** @description Live documents counted this month. */
        documents: number;
        /** @description Establishments connected to an approved platform in this environment (the plan allows `limits.connectedEstablishments`). */
        establishments: number;
        monthlyQuota: number;
        /** @description Calendar month, UTC, `YYYY-MM`. */
        period: string;
        /** @description Stored files of the calling key's environment. */
        storageBytes: number;
        /** @description The calling key's environment. */
        webhookEndpoints: number;
      };
    };
    TaxDecision: {
      axes: {
        einvoicing: {
          reason: string;
          state: 'due' | 'not_applicable';
        };
        ereportingPayment: {
          reason: string;
          state: 'due' | 'not_applicable';
        };
        ereportingTransaction: {
          reason: string;
          state: 'due' | 'not_applicable';
        };
      } | null;
      buyer: {
        deliveryTerritory: string | null;
        location: {
          basis: string;
          country: string;
          territory: string;
        } | null;
        territory: string | null;
        type: string;
        vatNumber: string | null;
      };
      created: string;
      currency: string;
      customerId: string | null;
      date: string;
      euThreshold: {
        position: string;
        reservationId: string;
        year: number;
      } | null;
      expiresAt: string | null;
      /** @description Prefix `txd_`. */
      id: string;
      lines: {
        description: string;
        index: number;
        nature: string;
        netAmount: number | null;
        placeOfSupply: string;
        quantity: string;
        rateCategory: string | null;
        /** @description `domestic`, `intra_eu_supply`, `reverse_charge`, `export`, `outside_scope`, `distance_sale_origin`, `distance_sale_destination` (`distance_sale_pending` while undecided). */
        treatment: string;
        unitPrice: string;
        vatCode: string | null;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      livemode: boolean;
      mentions: {
        code: string;
        lines: number[];
        text: string;
      }[];
      metadata: {
        [key: string]: unknown;
      };
      /** @enum {string} */
      object: 'tax_decision';
      operationCategory: string | null;
      reasons: {
        code: string;
        message: string;
        param: string | null;
      }[];
      retryOf: string | null;
      seller: {
        ossRegistered: boolean | null;
        regime: string | null;
        taxProfileId: string;
        territory: string;
        vatOnDebits: boolean | null;
      };
      /** @description Only a final decision that has not expired backs a document. */
      status: 'final' | 'suspended' | 'not_taken';
      taxSource: string;
      totals: {
        due: number;
        gross: number;
        net: number;
        vat: number;
      } | null;
      vatBreakdown: {
        taxableAmount: number;
        taxAmount: number;
        vatCode: string;
        vatexCode: string | null;
        vatRate: string | null;
      }[];
      vatValidation: {
        /** @description When VIES was asked. */
        checkedAt: string;
        requestDate: string | null;
        requestIdentifier: string | null;
        /** @description `valid`: VIES confirmed the number. */
        status: string;
        vatNumber: string;
      } | null;
    };
    TaxProfile: {
      created: string;
      ereportingPeriodicity: string | null;
      establishment: {
        country: string;
        postalCode: string | null;
        siret: string | null;
        territory: string | null;
      };
      /** @description Prefix `txp_`. */
      id: string;
      livemode: boolean;
      /** @enum {string} */
      object: 'tax_profile';
      ossRegistered: boolean | null;
      regime: string | null;
      updated: string;
      validFrom: string;
      validTo: string | null;
      vatNumber: string | null;
      vatOnDebits: boolean | null;
    };
    WebhookEndpoint: {
      created: string;
      description: string | null;
      disabledReason: string | null;
      events: string[];
      /** @description Prefix `we_`. */
      id: string;
      livemode: boolean;
      /** @enum {string} */
      object: 'webhook_endpoint';
      /** @description Signing secret: in clear only when created or rotated, masked afterwards. */
      secret: string;
      status: 'enabled' | 'disabled';
      updated: string;
      url: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
