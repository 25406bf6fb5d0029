import { refuse, type Issue } from '../kernel/errors.js';
import type { ViesVerdict } from '../vies/service.js';
import type { Plan } from './treatments.js';

/**
 * An exempt intra-EU supply of goods (CGI 262 ter I) and the reverse charge of B2B services
 * (CGI 283-2, Art. 196) rest on the buyer's VAT number: the decision is final only when VIES
 * confirms that number. A number VIES does not know is refused (`vat_validation_failed`); while
 * VIES does not answer for the member state, the decision is suspended with that code as reason,
 * and the client asks again (`retryOf`). The proof, VIES's consultation number and date, is kept
 * on the decision (`vatValidation`). Pure: the service asks VIES.
 */

export interface DecisionVatValidation {
  vatNumber: string;
  status: 'valid';
  checkedAt: string;
  /** VIES's consultation number (null when the company has no VAT number to send as requester). */
  requestIdentifier: string | null;
  requestDate: string | null;
}

/** Some line's treatment rests on the buyer's VAT number. */
export function restsOnVatNumber(plan: Plan): boolean {
  return plan.lines.some(
    (line) => line.treatment.kind === 'intra_eu_supply' || line.treatment.kind === 'reverse_charge',
  );
}

export type VatProof =
  { kind: 'proven'; validation: DecisionVatValidation | null } | { kind: 'pending'; reason: Issue };

/** What VIES's verdict makes of the decision; `retryAfterMinutes`: how long a "no answer" is kept before VIES is asked again. */
export function vatProofOf(
  verdict: ViesVerdict,
  vatNumber: string,
  param: string,
  retryAfterMinutes: number,
): VatProof {
  const country = vatNumber.slice(0, 2);
  switch (verdict.outcome) {
    // Test mode: VIES is never asked; the sandbox's documented unknown number answers `invalid`.
    case 'not_checked':
      return { kind: 'proven', validation: null };
    case 'invalid':
      throw refuse(
        'vat_validation_failed',
        `VIES does not know the VAT number of the buyer (${country}): an intra-EU exemption or a reverse charge cannot rest on it. Correct the number, or describe the buyer without it.`,
        { param },
      );
    case 'unavailable':
      return {
        kind: 'pending',
        reason: {
          code: 'vat_validation_failed',
          param,
          message: `VIES did not answer for ${country}: the buyer's VAT number is not verified yet, so the decision is suspended. Ask again with \`retryOf\` in ${retryAfterMinutes} minutes or later.`,
        },
      };
    case 'valid':
      return {
        kind: 'proven',
        validation: {
          vatNumber,
          status: 'valid',
          checkedAt: verdict.checkedAt.toISOString(),
          requestIdentifier: verdict.requestIdentifier,
          requestDate: verdict.requestDate,
        },
      };
  }
}
