import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';
import { documentMailText, languageOfCountry, writtenAmount } from '../../src/mail/templates.js';
import { addressOf, senderIdentity } from '../../src/mail/sender-identity.js';
import { mailRetryDelayMs, smtpFailureOf } from '../../src/mail/smtp-outcome.js';

test('FACTEUR_SMTP_URL is smtp:// or smtps://; FACTEUR_SMTP_FROM names the sender (FACTEUR_MAIL_FROM its older name)', () => {
  assert.equal(
    loadConfig({ FACTEUR_SMTP_URL: 'smtps://u:p@mail.example:465' }).smtpUrl,
    'smtps://u:p@mail.example:465',
  );
  assert.throws(() => loadConfig({ FACTEUR_SMTP_URL: 'http://mail.example' }), ConfigError);
  assert.throws(() => loadConfig({ FACTEUR_SMTP_URL: 'mail.example:587' }), ConfigError);
  assert.equal(
    loadConfig({ FACTEUR_SMTP_FROM: 'F <a@b.example>', FACTEUR_MAIL_FROM: 'old@b.example' }).mailFrom,
    'F <a@b.example>',
  );
  assert.equal(loadConfig({ FACTEUR_MAIL_FROM: 'old@b.example' }).mailFrom, 'old@b.example');
});

test('the language follows the buyer country: French by default and for French-speaking countries, else English', () => {
  assert.deepEqual(
    [null, 'FR', 'be', 'CH', 'RE', 'DE', 'US'].map((country) => languageOfCountry(country)),
    ['fr', 'fr', 'fr', 'fr', 'fr', 'en', 'en'],
  );
  assert.equal(writtenAmount({ cents: 123456789, currency: 'EUR' }, 'fr'), '1 234 567,89 EUR');
  assert.equal(writtenAmount({ cents: 123456789, currency: 'EUR' }, 'en'), 'EUR 1,234,567.89');
  assert.equal(writtenAmount({ cents: -5, currency: 'EUR' }, 'fr'), '-0,05 EUR');
  const facts = {
    kind: 'quote' as const,
    number: 'D2026-000001',
    sellerName: 'Bois SARL',
    buyerName: null,
    amount: null,
    link: 'https://x/quote/t',
    attached: false,
  };
  assert.deepEqual(documentMailText(facts, 'fr').subject, 'Devis D2026-000001 de Bois SARL');
  assert.match(
    documentMailText(facts, 'fr').body,
    /^Bonjour,\n\nVeuillez trouver ci-dessous le devis D2026-000001 de Bois SARL\.\n\nConsulter, accepter ou refuser ce devis : https:\/\/x\/quote\/t\n/,
  );
  assert.match(documentMailText(facts, 'en').body, /View, accept or refuse this quote: https:\/\/x\/quote\/t/);
});

test('the sender: the company by name in From at the operator address, its own address in Reply-To', () => {
  assert.equal(addressOf('Facteur <no-reply@facteur.example>'), 'no-reply@facteur.example');
  assert.equal(addressOf('no-reply@facteur.example'), 'no-reply@facteur.example');
  const identity = senderIdentity(
    { name: 'Le "Bon" Bois\\SARL', tradeName: null, contactEmail: null, email: 'ops@bois.example' },
    'Facteur <no-reply@facteur.example>',
  );
  assert.deepEqual(identity, {
    from: '"Le \\"Bon\\" Bois\\\\SARL" <no-reply@facteur.example>',
    replyTo: 'ops@bois.example',
    domain: 'facteur.example',
  });
  assert.equal(
    senderIdentity(
      { name: 'X', tradeName: 'Bois & Co', contactEmail: 'c@bois.example', email: 'o@bois.example' },
      'a@b.c',
    ).replyTo,
    'c@bois.example',
  );
});

test('an SMTP failure: a 5xx is a bounce; a 4xx or a connection failure is retried, later each time', () => {
  assert.equal(
    smtpFailureOf(Object.assign(new Error('x'), { responseCode: 550, response: '550 no such user' })).kind,
    'bounce',
  );
  assert.equal(
    smtpFailureOf(Object.assign(new Error('x'), { responseCode: 452, response: '452 mailbox full' })).kind,
    'retry',
  );
  assert.equal(smtpFailureOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' })).kind, 'retry');
  assert.deepEqual(
    [1, 2, 3, 4, 5, 9].map(mailRetryDelayMs),
    [60_000, 300_000, 900_000, 3_600_000, 14_400_000, 14_400_000],
  );
});
