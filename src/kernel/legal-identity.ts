/**
 * The shape of a company's legal identity, as a French invoice names its issuer (CGI art. 242
 * nonies A, Code de commerce R123-237). A shared type: the companies capability holds the rules
 * (legal-identity.ts there) and the data; authentications carry it (the key cache).
 */

export type RegistrationKind = 'RCS' | 'RM';

export interface LegalIdentity {
  legalName: string | null;
  tradeName: string | null;
  legalForm: string | null;
  /** Euros, a decimal string ("10000", "1500.50"). */
  shareCapital: string | null;
  registration: { kind: RegistrationKind; place: string } | null;
  vatNumber: string | null;
  iban: string | null;
  bic: string | null;
  contact: { name: string | null; email: string | null; phone: string | null } | null;
}
