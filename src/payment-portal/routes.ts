import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { sendPublicPage } from '../http/public-page.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { getCompany } from '../companies/service.js';
import { documentOfPortalToken } from '../invoices/service.js';
import { cardPaymentOffered, startCardCheckout } from '../card-payments/service.js';
import { euros } from '../kernel/money.js';
import { paymentPage } from './page.js';

const params = Type.Object({ token: Type.String({ maxLength: 100 }) });
const query = Type.Object({ checkout: Type.Optional(Type.String({ maxLength: 20 })) });

/**
 * `GET /pay/:token`: the public payment page of an invoice (no API key; the token is the
 * secret). A test invoice's page answers 409 `sandbox_payment_unavailable`: online payment is
 * refused in the sandbox (contract, "Sandbox behaviour"). When the seller connected Stripe, the
 * page offers card payment: `POST /pay/:token/checkout` opens a Checkout Session for the amount
 * due and sends the buyer there (a POST, so a link preview or a crawler opens no session).
 */
export async function paymentPortalRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  // The card form carries no field: its body (if any) is read and dropped.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _b, done) => done(null, null),
  );

  async function payable(token: string) {
    const found = await documentOfPortalToken(deps, token);
    const invoice = found?.invoice;
    if (!found || !invoice || invoice.object !== 'invoice' || invoice.documentStatus !== 'finalized')
      throw refuse('not_found', 'No payment page at this address: the link is wrong or the invoice was withdrawn.');
    if (!invoice.livemode) throw new ApiError('sandbox_payment_unavailable', { status: 409 });
    return { companyId: found.companyId, invoice, company: await getCompany(deps, found.companyId) };
  }

  async function page(token: string, message: 'success' | 'cancelled' | 'unavailable' | null) {
    const { companyId, invoice, company } = await payable(token);
    const due = invoice.amountDue ?? 0;
    return paymentPage({
      seller: company.name,
      number: invoice.number!,
      issueDate: invoice.issueDate,
      dueDate: invoice.dueDate,
      total: euros(invoice.total ?? 0),
      amountDue: euros(due),
      currency: invoice.currency,
      paid: due === 0,
      card: due > 0 && (await cardPaymentOffered(deps, companyId)),
      checkoutPath: `/pay/${encodeURIComponent(token)}/checkout`,
      message,
    });
  }

  typed.get('/pay/:token', { schema: { hide: true, params, querystring: query } }, async (request, reply) => {
    const back = request.query.checkout;
    const message = back === 'success' || back === 'cancelled' ? back : null;
    return sendPublicPage(reply, await page(request.params.token, message));
  });

  typed.post('/pay/:token/checkout', { schema: { hide: true, params } }, async (request, reply) => {
    const { companyId, invoice, company } = await payable(request.params.token);
    const due = invoice.amountDue ?? 0;
    const pageUrl = `${deps.config.publicUrl}/pay/${encodeURIComponent(request.params.token)}`;
    if (due === 0) return reply.redirect(pageUrl, 303);
    const start = await startCardCheckout(deps, {
      companyId,
      invoiceId: invoice.id,
      number: invoice.number!,
      sellerName: company.name,
      amountDue: due,
      currency: invoice.currency,
      pageUrl,
    });
    if (start.kind === 'redirect') return reply.redirect(start.url, 303);
    return sendPublicPage(reply.code(503), await page(request.params.token, 'unavailable'));
  });
}
