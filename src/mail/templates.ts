/**
 * The words of a document e-mail, in French or English. Pure. No resource carries a language,
 * so it follows the buyer's country: French for France and the French-speaking neighbours
 * (and when the country is unknown), English elsewhere.
 */

export type MailLanguage = 'fr' | 'en';
export type MailedDocumentKind = 'quote' | 'invoice' | 'credit_note';

const frenchSpeaking = new Set(['FR', 'BE', 'LU', 'MC', 'CH', 'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'NC', 'PF']);

export function languageOfCountry(country: string | null | undefined): MailLanguage {
  if (!country) return 'fr';
  return frenchSpeaking.has(country.toUpperCase()) ? 'fr' : 'en';
}

export interface DocumentMailFacts {
  kind: MailedDocumentKind;
  number: string;
  sellerName: string;
  buyerName: string | null;
  /** The total in cents, or null when the e-mail states none. */
  amount: { cents: number; currency: string } | null;
  /** The customer's page of a quote (accept or refuse it there). */
  link: string | null;
  attached: boolean;
}

/** An amount as a reader of the language writes it: `1 234,50 EUR`, `EUR 1,234.50`. */
export function writtenAmount(amount: { cents: number; currency: string }, language: MailLanguage): string {
  const sign = amount.cents < 0 ? '-' : '';
  const cents = Math.abs(Math.round(amount.cents));
  const units = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, language === 'fr' ? ' ' : ',');
  const fraction = String(cents % 100).padStart(2, '0');
  return language === 'fr'
    ? `${sign}${units},${fraction} ${amount.currency}`
    : `${amount.currency} ${sign}${units}.${fraction}`;
}

export interface MailText {
  subject: string;
  body: string;
}

const nouns: Record<MailLanguage, Record<MailedDocumentKind, string>> = {
  fr: { quote: 'Devis', invoice: 'Facture', credit_note: 'Avoir' },
  en: { quote: 'Quote', invoice: 'Invoice', credit_note: 'Credit note' },
};

function frenchBody(facts: DocumentMailFacts): string[] {
  const named = { quote: 'le devis', invoice: 'la facture', credit_note: "l'avoir" }[facts.kind];
  const lines = [
    facts.buyerName ? `Bonjour ${facts.buyerName},` : 'Bonjour,',
    '',
    `Veuillez trouver ${facts.attached ? 'ci-joint' : 'ci-dessous'} ${named} ${facts.number} de ${facts.sellerName}${facts.amount ? `, d'un montant de ${writtenAmount(facts.amount, 'fr')}` : ''}.`,
  ];
  if (facts.link) lines.push('', `Consulter, accepter ou refuser ce devis : ${facts.link}`);
  lines.push('', 'Cordialement,', facts.sellerName);
  return lines;
}

function englishBody(facts: DocumentMailFacts): string[] {
  const noun = nouns.en[facts.kind].toLowerCase();
  const lines = [
    facts.buyerName ? `Hello ${facts.buyerName},` : 'Hello,',
    '',
    `Please find ${facts.attached ? 'attached' : 'below'} ${noun} ${facts.number} from ${facts.sellerName}${facts.amount ? `, for ${writtenAmount(facts.amount, 'en')}` : ''}.`,
  ];
  if (facts.link) lines.push('', `View, accept or refuse this quote: ${facts.link}`);
  lines.push('', 'Kind regards,', facts.sellerName);
  return lines;
}

export function documentMailText(facts: DocumentMailFacts, language: MailLanguage): MailText {
  const noun = nouns[language][facts.kind];
  const from = language === 'fr' ? 'de' : 'from';
  return {
    subject: `${noun} ${facts.number} ${from} ${facts.sellerName}`,
    body: (language === 'fr' ? frenchBody(facts) : englishBody(facts)).join('\n') + '\n',
  };
}
