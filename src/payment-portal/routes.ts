import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { sendPublicPage } from '../http/public-page.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { getCompany } from '../companies/service.js';
import { documentOfPortalToken } from '../invoices/service.js';
import { euros } from '../kernel/money.js';
import { paymentPage } from './page.js';

/**
 * `GET /pay/:token`: the public payment page of an invoice (no API key; the token is the
 * secret). A test invoice's page answers 409 `sandbox_payment_unavailable`: online payment is
 * refused in the sandbox (contract, "Sandbox behaviour").
 */
export async function paymentPortalRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/pay/:token',
    {
      schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 100 }) }) },
    },
    async (request, reply) => {
      const found = await documentOfPortalToken(deps, request.params.token);
      const invoice = found?.invoice;
      if (!found || !invoice || invoice.object !== 'invoice' || invoice.documentStatus !== 'finalized')
        throw refuse('not_found', 'No payment page at this address: the link is wrong or the invoice was withdrawn.');
      if (!invoice.livemode) throw new ApiError('sandbox_payment_unavailable', { status: 409 });
      const company = await getCompany(deps, found.companyId);
      const due = invoice.amountDue ?? 0;
      const html = paymentPage({
        seller: company.name,
        number: invoice.number!,
        issueDate: invoice.issueDate,
        dueDate: invoice.dueDate,
        total: euros(invoice.total ?? 0),
        amountDue: euros(due),
        currency: invoice.currency,
        paid: due === 0,
      });
      return sendPublicPage(reply, html);
    },
  );
}
