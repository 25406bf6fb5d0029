/**
 * Who a document e-mail is from. Pure. The From address is the operator's (`FACTEUR_SMTP_FROM`):
 * a relay signs and aligns mail of its own domain only (SPF, DKIM, DMARC), so a company's own
 * address there would be refused or filed as spam. The company appears by its name in From, and
 * by its address in Reply-To, where the customer's answer goes.
 */

export interface SenderIdentity {
  from: string;
  replyTo: string | null;
  /** The domain of Message-IDs. */
  domain: string;
}

/** The address inside `Name <address>`, or the whole value. */
export function addressOf(mailbox: string): string {
  const bracketed = /<([^<>]+)>\s*$/.exec(mailbox);
  return (bracketed ? bracketed[1]! : mailbox).trim();
}

/** A display name quoted as RFC 5322 wants it (quotes and backslashes escaped, no line breaks). */
function quotedName(name: string): string {
  return `"${name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}"`;
}

export function senderIdentity(
  company: { name: string; tradeName: string | null; contactEmail: string | null; email: string | null },
  operatorFrom: string,
): SenderIdentity {
  const address = addressOf(operatorFrom);
  const name = company.tradeName ?? company.name;
  return {
    from: `${quotedName(name)} <${address}>`,
    replyTo: company.contactEmail ?? company.email,
    domain: address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : 'localhost',
  };
}
