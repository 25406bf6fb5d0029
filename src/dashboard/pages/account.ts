import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../kernel/errors.js';
import { plans } from '../../kernel/plans.js';
import { monthlyUsage } from '../../limits/service.js';
import { changePassword } from '../../users/service.js';
import { minPasswordLength } from '../../users/password-rules.js';
import { pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { sendToLogInAfterWrongPasswords } from '../password-prompt.js';
import { html } from '../../http/html.js';
import { csrfField, formatTime, layout, noticeOf } from '../layout.js';

function bytes(page: Page, value: number): string {
  const unit = page.lang === 'fr' ? ['Go', 'Mo'] : ['GB', 'MB'];
  return value >= 1024 ** 3
    ? `${page.f.number(value / 1024 ** 3)} ${unit[0]}`
    : `${page.f.number(value / 1024 ** 2)} ${unit[1]}`;
}

export async function accountPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/account', async (request, reply) => {
    const page = pageOf(request, env);
    const { m } = page;
    const number = { format: (value: number) => page.f.number(value) };
    const { company, user } = page.session;
    const limits = plans[company.plan];
    const usage = await monthlyUsage(deps, company.id, deps.clock.now());
    const documents = usage.counts.documents ?? 0;
    const share = Math.min(100, Math.round((documents / limits.monthlyQuota) * 100));
    const content = html`<section class="card"><h2>${m.company}</h2>
<dl class="facts">
  <dt>${m.name}</dt><dd>${company.name}</dd>
  <dt>${m.siren}</dt><dd>${company.siren}</dd>
  <dt>${m.accountId}</dt><dd><code>${company.id}</code></dd>
  <dt>${m.created}</dt><dd>${formatTime(page, company.created)}</dd>
</dl></section>
<section class="card"><h2>${m.plan}${m.colon}<span class="plan">${company.plan}</span></h2>
<dl class="facts">
  <dt>${m.requestsPerMinute}</dt><dd>${number.format(limits.requestsPerMinute)} ${m.perKey}</dd>
  <dt>${m.monthlyQuota}</dt><dd>${number.format(limits.monthlyQuota)} ${m.liveDocuments}</dd>
  <dt>${m.webhookEndpoints}</dt><dd>${limits.webhookEndpoints} ${m.perEnvironment}</dd>
  <dt>${m.storage}</dt><dd>${bytes(page, limits.storageBytes)}</dd>
</dl></section>
<section class="card"><h2>${m.usageIn(usage.period)}</h2>
<p id="usage"><strong>${number.format(documents)}</strong> ${m.of} ${number.format(limits.monthlyQuota)} ${m.liveDocuments} (${share} %)</p>
<progress max="${limits.monthlyQuota}" value="${documents}" aria-labelledby="usage">${share} %</progress>
<p class="muted">${m.onlyLiveCount}</p></section>
<section class="card"><h2>${m.you}</h2>
<p>${m.signedInAs} <strong>${user.email}</strong>. <a href="${page.base}/password">${m.changeYourPassword}</a></p></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        layout(page, { title: m.sections.account, section: 'account', notice: noticeOf(request.query, m) }, content),
      );
  });

  function passwordPage(request: FastifyRequest, reply: FastifyReply, status: number, error: string | null) {
    const page = pageOf(request, env);
    const { m } = page;
    const content = html`<form method="post" action="${page.base}/password" class="stack card">${csrfField(page)}
  <label for="current">${m.currentPassword}</label>
  <input id="current" name="current" type="password" autocomplete="current-password" required>
  <label for="password">${m.newPasswordAtLeast(minPasswordLength)}</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <label for="confirmation">${m.newPasswordAgain}</label>
  <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="${minPasswordLength}" required>
  <button type="submit">${m.changeThePassword}</button>
</form>`;
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: m.changeYourPassword, section: 'account', error }, content));
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
