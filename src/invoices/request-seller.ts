import { authOf } from '../http/request-context.js';

/** The issuer of a document, as the authenticated request names it: its company's SIREN and plan. */
export const sellerOf = (request: Parameters<typeof authOf>[0]) => {
  const { company } = authOf(request);
  return { siren: company.siren, plan: company.plan };
};
