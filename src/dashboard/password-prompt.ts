import type { FastifyReply } from 'fastify';
import { dashboardPrefix } from './context.js';
import { clearCookie, sessionCookie } from './cookies.js';

/**
 * The answer of every form that asks for the password again (`confirmPassword`) once too many
 * wrong ones ended the session: the cookie goes, and the log-in page says why.
 */
export function sendToLogInAfterWrongPasswords(reply: FastifyReply): FastifyReply {
  clearCookie(reply, sessionCookie);
  return reply.redirect(`${dashboardPrefix}/login?notice=session_ended`, 303);
}
