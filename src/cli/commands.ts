import type { Deps } from '../deps.js';
import { refuse } from '../kernel/errors.js';
import { createCompany, companyList } from '../companies/service.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/service.js';
import { parseOptions, required } from './arguments.js';
import { createUser } from '../users/service.js';
import { changePlan, getSubscription } from '../subscriptions/service.js';
import { rotateEncryptionKey } from './encryption-key.js';

/**
 * `facteur company ...`, `facteur key ...`, `facteur user ...` and `facteur encryption-key ...`: each
 * prints one JSON document.
 */
export async function runAdminCommand(deps: Deps, command: string, args: string[]): Promise<unknown> {
  const [action, ...rest] = args;
  if (command === 'company' && action === 'create') {
    const { values } = parseOptions(rest, {
      name: { type: 'string' },
      siren: { type: 'string' },
      plan: { type: 'string' },
      email: { type: 'string' },
    });
    const company = await createCompany(deps, {
      name: required(values.name, 'name'),
      siren: required(values.siren, 'siren'),
      ...(values.plan ? { plan: values.plan } : {}),
      ...(values.email ? { email: values.email } : {}),
    });
    return {
      id: company.id,
      object: 'company',
      name: company.name,
      siren: company.siren,
      plan: company.plan,
      email: values.email ?? null,
      created: company.created.toISOString(),
    };
  }
  if (command === 'company' && action === 'list') {
    const { positionals } = parseOptions(rest, {});
    if (positionals.length > 0)
      throw refuse('invalid_field_value', `"facteur company list" takes no argument (got "${positionals[0]}").`);
    const companies = await companyList(deps);
    return {
      object: 'list',
      data: companies.map((company) => ({
        id: company.id,
        object: 'company',
        name: company.name,
        siren: company.siren,
        plan: company.plan,
        created: company.created.toISOString(),
      })),
    };
  }
  if (command === 'company' && action === 'plan') {
    const { values } = parseOptions(rest, { id: { type: 'string' }, plan: { type: 'string' } });
    const companyId = required(values.id, 'id');
    // The operator's way to the plan: the same use case as `POST /v1/subscription`, without a request.
    await changePlan(deps, null, companyId, required(values.plan, 'plan'));
    return getSubscription(deps, { companyId, livemode: true });
  }
  if (command === 'key' && action === 'create') {
    const { values } = parseOptions(rest, {
      company: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
    });
    const scopes =
      values.scopes === undefined
        ? undefined
        : values.scopes
            .split(',')
            .map((scope) => scope.trim())
            .filter(Boolean);
    if (scopes && scopes.length === 0)
      throw refuse('validation_error', '--scopes lists no scope; omit it for a full-access key.', { param: 'scopes' });
    const { key, secret } = await createApiKey(deps, {
      companyId: required(values.company, 'company'),
      env: required(values.env, 'env'),
      ...(scopes ? { scopes } : {}),
      ...(values['expires-at'] ? { expiresAt: values['expires-at'] } : {}),
    });
    return { ...key, secret };
  }
  if (command === 'key' && action === 'revoke') {
    const { positionals } = parseOptions(rest, {});
    return revokeApiKey(deps, required(positionals[0], 'KEY_ID'));
  }
  if (command === 'key' && action === 'list') {
    const { values } = parseOptions(rest, { company: { type: 'string' } });
    return { object: 'list', data: await listApiKeys(deps, required(values.company, 'company')) };
  }
  if (command === 'encryption-key' && action === 'rotate') {
    const { values } = parseOptions(rest, { 'previous-key-file': { type: 'string' } });
    return rotateEncryptionKey(deps, values['previous-key-file']);
  }
  if (command === 'user' && action === 'create') {
    const { values } = parseOptions(rest, { company: { type: 'string' }, email: { type: 'string' } });
    const { user, passwordLink } = await createUser(deps, {
      companyId: required(values.company, 'company'),
      email: required(values.email, 'email'),
    });
    return { ...user, passwordLink };
  }
  throw refuse(
    'invalid_field_value',
    `Unknown command "facteur ${[command, action].filter(Boolean).join(' ')}". Run "facteur help".`,
  );
}
