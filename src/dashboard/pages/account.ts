import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../kernel/errors.js';
import { plans } from '../../kernel/plans.js';
import { monthlyUsage } from '../../limits/service.js';
import { changePassword } from '../../users/service.js';
import { minPasswordLength } from '../../users/password-rules.js';
import { pageOf, type Env } from '../context.js';
import { formOf } from '../form.js';
import { sendToLogInAfterWrongPasswords } from '../password-prompt.js';
import { html } from '../../http/html.js';
import { csrfField, formatTime, layout, noticeOf } from '../layout.js';

const number = new Intl.NumberFormat('en-GB');

function bytes(value: number): string {
  return value >= 1024 ** 3 ? `${number.format(value / 1024 ** 3)} GB` : `${number.format(value / 1024 ** 2)} MB`;
}

export async function accountPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/account', async (request, reply) => {
    const page = pageOf(request, env);
    const { company, user } = page.session;
    const limits = plans[company.plan];
    const usage = await monthlyUsage(deps, company.id, deps.clock.now());
    const documents = usage.counts.documents ?? 0;
    const share = Math.min(100, Math.round((documents / limits.monthlyQuota) * 100));
    const content = html`<section class="card"><h2>Company</h2>
<dl class="facts">
  <dt>Name</dt><dd>${company.name}</dd>
  <dt>SIREN</dt><dd>${company.siren}</dd>
  <dt>Account</dt><dd><code>${company.id}</code></dd>
  <dt>Created</dt><dd>${formatTime(company.created)}</dd>
</dl></section>
<section class="card"><h2>Plan: <span class="plan">${company.plan}</span></h2>
<dl class="facts">
  <dt>Requests per minute</dt><dd>${number.format(limits.requestsPerMinute)} per key (live; test reads are not limited)</dd>
  <dt>Monthly quota</dt><dd>${number.format(limits.monthlyQuota)} live documents</dd>
  <dt>Webhook endpoints</dt><dd>${limits.webhookEndpoints} per environment</dd>
  <dt>Storage</dt><dd>${bytes(limits.storageBytes)}</dd>
</dl></section>
<section class="card"><h2>Usage in ${usage.period} (UTC)</h2>
<p id="usage"><strong>${number.format(documents)}</strong> of ${number.format(limits.monthlyQuota)} live documents (${share} %)</p>
<progress max="${limits.monthlyQuota}" value="${documents}" aria-labelledby="usage">${share} %</progress>
<p class="muted">Only live documents count; test documents never do.</p></section>
<section class="card"><h2>You</h2>
<p>Signed in as <strong>${user.email}</strong>. <a href="${page.base}/password">Change your password</a></p></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: 'Account', section: 'account', notice: noticeOf(request.query) }, content));
  });

  function passwordPage(request: FastifyRequest, reply: FastifyReply, status: number, error: string | null) {
    const page = pageOf(request, env);
    const content = html`<form method="post" action="${page.base}/password" class="stack card">${csrfField(page)}
  <label for="current">Current password</label>
  <input id="current" name="current" type="password" autocomplete="current-password" required>
  <label for="password">New password (at least ${minPasswordLength} characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <label for="confirmation">The new password again</label>
  <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <button type="submit">Change the password</button>
</form>`;
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: 'Change your password', section: 'account', error }, content));
  }

  app.get('/password', async (request, reply) => passwordPage(request, reply, 200, null));

  app.post('/password', async (request, reply) => {
    const page = pageOf(request, env);
    const form = formOf(request);
    try {
      const outcome = await changePassword(deps, page.session, {
        current: form.get('current') ?? '',
        password: form.get('password') ?? '',
        confirmation: form.get('confirmation') ?? '',
      });
      if (outcome === 'session_ended') return sendToLogInAfterWrongPasswords(reply);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_error')
        return passwordPage(request, reply, 422, error.message);
      throw error;
    }
    return reply.redirect(`${page.base}/account?notice=password_changed`, 303);
  });
}
