import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFileWorker } from '../../src/invoices/generation.js';
import { accountingDocumentsPage } from '../../src/invoices/accounting.js';
import { amountDeductedOf, deductionOf, type DepositFacts } from '../../src/invoices/deposit-invoices.js';
import { testCacheDir } from '../einvoice/support.js';
import {
  consumerBuyer,
  customer,
  finalizedCreditNote,
  pageTexts,
  documentHarness,
  finalizedInvoice,
  frenchBuyer,
  readyDraft,
  seller,
} from './support.js';

/**
 * Deposit invoices (BT-3 386) and the final invoice after deposits (frame B4/S4/M4): a deposit is
 * deducted once it is fully paid, by one final invoice, of the same buyer; the final invoice's
 * files name the deposits (BG-3) and deduct them (BT-113), and pass the official validators.
 */

const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };
// The whole order: 10 chairs at 149.00, 20 % VAT: 1,788.00 EUR.
const order = { description: 'Chaise en chêne', quantity: '10', unitPrice: '149.00', nature: 'goods' };
// A 30 % deposit on it: 447.00 + 89.40 VAT = 536.40 EUR.
const depositLine = {
  description: 'Acompte de 30 % sur la commande BC-2026-17',
  quantity: '1',
  unitPrice: '447.00',
  nature: 'goods',
};

const facts = (overrides: Partial<DepositFacts> = {}): DepositFacts => ({
  id: 'inv_deposit',
  kind: 'invoice',
  invoiceType: 'deposit',
  documentStatus: 'finalized',
  number: 'F-2026-000001',
  issueDate: '2026-10-01',
  customerId: 'cus_1',
  buyerName: 'Client',
  buyerSiren: '732829320',
  total: 53640,
  amountPaid: 53640,
  amountRefunded: 0,
  amountCredited: 0,
  deductedBy: null,
  ...overrides,
});
const final = { id: 'inv_final', customerId: 'cus_1', buyerName: 'Client', buyerSiren: '732829320' };

test('the deduction rules, one by one', () => {
  const refusal = (overrides: Partial<DepositFacts> | null) => {
    try {
      deductionOf(overrides === null ? null : facts(overrides), final, 2, 'inv_deposit');
    } catch (error: any) {
      assert.equal(error.code, 'invalid_field_value');
      assert.equal(error.param, 'deposits[2]');
      return error.message as string;
    }
    assert.fail('not refused');
  };
  assert.deepEqual(deductionOf(facts(), final, 0, 'inv_deposit'), {
    invoiceId: 'inv_deposit',
    number: 'F-2026-000001',
    issueDate: '2026-10-01',
    amount: 53640,
  });
  assert.match(refusal(null), /No invoice inv_deposit/);
  assert.match(refusal({ kind: 'credit_note' }), /No invoice/);
  assert.match(refusal({ invoiceType: 'standard' }), /not a deposit invoice/);
  assert.match(refusal({ documentStatus: 'draft', number: null }), /not finalized/);
  assert.match(refusal({ deductedBy: 'inv_other' }), /already deducted by invoice inv_other/);
  assert.match(refusal({ customerId: 'cus_2' }), /another buyer/);
  assert.match(refusal({ amountPaid: 53639 }), /not fully paid \(536\.39 of 536\.40 EUR collected\)/);
  assert.match(refusal({ amountPaid: 53640, amountRefunded: 1 }), /not fully paid/);
  assert.match(refusal({ amountCredited: 100 }), /has a credit note/);
  // Deducted again by the same final invoice (a retried finalization): the same reference.
  assert.equal(deductionOf(facts({ deductedBy: 'inv_final' }), final, 0, 'inv_deposit').amount, 53640);
  // Inline buyers (no customer) are compared by name and SIREN.
  const inline = { ...final, customerId: null };
  assert.equal(deductionOf(facts({ customerId: null }), inline, 0, 'x').amount, 53640);
  assert.throws(
    () => deductionOf(facts({ customerId: null, buyerSiren: '100000009' }), inline, 0, 'x'),
    /another buyer/,
  );
  assert.equal(amountDeductedOf([{ invoiceId: 'a', number: 'n', issueDate: 'd', amount: 100 }], 100), 100);
  assert.throws(
    () => amountDeductedOf([{ invoiceId: 'a', number: 'n', issueDate: 'd', amount: 101 }], 100),
    (error: any) => error.code === 'invalid_field_value' && error.param === 'deposits',
  );
});

test('deposit invoices and the final invoice after deposits', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test('a deposit invoice deducts nothing itself; an unknown type is refused', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const both = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId, invoiceType: 'deposit', deposits: ['inv_x'], lines: [depositLine] },
    });
    assert.equal(both.statusCode, 400, both.body);
    assert.deepEqual([both.data.error.code, both.data.error.param], ['invalid_field_value', 'deposits']);
    const missing = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId, deposits: ['inv_none'], lines: [depositLine] },
    });
    assert.equal(missing.statusCode, 400, missing.body);
    assert.deepEqual([missing.data.error.code, missing.data.error.param], ['invalid_field_value', 'deposits[0]']);
    const plain = await finalizedInvoice(h, key, { customerId, lines: [depositLine] });
    const notDeposit = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId, lines: [order] },
    });
    const named = await h.call('POST', `/v1/invoices/${notDeposit.data.id}`, {
      key,
      body: { deposits: [plain.id] },
    });
    assert.equal(named.statusCode, 400, named.body);
    assert.match(named.data.error.message, /is not a deposit invoice/);
    const unknown = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId, invoiceType: 'prepaid', lines: [depositLine] },
    });
    assert.equal(unknown.statusCode, 422, unknown.body);
    assert.equal(unknown.data.error.param, 'invoiceType');
  });

  await t.test('deducted once fully paid, by one final invoice; files name and deduct the deposit', async () => {
    const { companyId, key } = await seller(h);
    const customerId = await customer(h, key, addressedBuyer);
    const deposit = await finalizedInvoice(h, key, {
      customerId,
      lines: [depositLine],
      body: { invoiceType: 'deposit' },
    });
    assert.equal(deposit.invoiceType, 'deposit');
    assert.equal(deposit.total, 53640);

    const finalDraft = await readyDraft(h, key, { customerId, lines: [order], body: { deposits: [deposit.id] } });
    assert.deepEqual(finalDraft.deposits, [{ invoiceId: deposit.id, number: null, issueDate: null, amount: null }]);
    // Not paid yet: refused, and no number is taken.
    const unpaid = await h.call('POST', `/v1/invoices/${finalDraft.id}/finalize`, { key });
    assert.equal(unpaid.statusCode, 400, unpaid.body);
    assert.deepEqual([unpaid.data.error.code, unpaid.data.error.param], ['invalid_field_value', 'deposits[0]']);
    assert.match(unpaid.data.error.message, /not fully paid \(0\.00 of 536\.40 EUR collected\)/);
    const stillDraft = await h.call('GET', `/v1/invoices/${finalDraft.id}`, { key });
    assert.equal(stillDraft.data.number, null);
    assert.equal((await h.call('GET', `/v1/invoices/${deposit.id}`, { key })).data.deductedBy, null);

    await h.call('POST', '/v1/payments', { key, body: { invoiceId: deposit.id, amount: deposit.total } });
    const finalized = await h.call('POST', `/v1/invoices/${finalDraft.id}/finalize`, { key });
    assert.equal(finalized.statusCode, 200, finalized.body);
    assert.equal(finalized.data.total, 178800);
    assert.equal(finalized.data.amountDeducted, 53640);
    assert.equal(finalized.data.amountDue, 178800 - 53640);
    assert.equal(finalized.data.paymentStatus, 'unpaid');
    assert.deepEqual(finalized.data.deposits, [
      { invoiceId: deposit.id, number: deposit.number, issueDate: deposit.issueDate, amount: 53640 },
    ]);
    assert.equal((await h.call('GET', `/v1/invoices/${deposit.id}`, { key })).data.deductedBy, finalDraft.id);

    // The balance paid: the final invoice is paid, the deposits counted.
    const overpaid = await h.call('POST', '/v1/payments', {
      key,
      body: { invoiceId: finalDraft.id, amount: 178800 - 53640 + 1 },
    });
    assert.equal(overpaid.data.error.code, 'payment_exceeds_amount_due');
    await h.call('POST', '/v1/payments', { key, body: { invoiceId: finalDraft.id, amount: 178800 - 53640 } });
    const paid = await h.call('GET', `/v1/invoices/${finalDraft.id}`, { key });
    assert.deepEqual([paid.data.paymentStatus, paid.data.amountDue], ['paid', 0]);

    // A second final invoice cannot deduct the same deposit.
    const second = await readyDraft(h, key, { customerId, lines: [order], body: { deposits: [deposit.id] } });
    const again = await h.call('POST', `/v1/invoices/${second.id}/finalize`, { key });
    assert.equal(again.statusCode, 400, again.body);
    assert.match(again.data.error.message, new RegExp(`already deducted by invoice ${finalDraft.id}`));

    // The books: the deposit is an advance received, the final invoice takes back its net and VAT.
    const books = await accountingDocumentsPage(
      h.deps.db,
      { companyId, livemode: false },
      { from: '2026-01-01', to: '2026-12-31' },
      null,
      10,
    );
    const booked = (id: string) => books.find((document) => document.id === id)!;
    assert.deepEqual([booked(deposit.id).deposit, booked(deposit.id).deducted], [true, null]);
    assert.deepEqual(booked(finalDraft.id).deducted, { net: 44700, vatByRate: [{ rate: '20.00', amount: 8940 }] });

    // The files, as the official validators accept them.
    const worker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds: [companyId] });
    t.after(() => worker.stop());
    assert.equal(await worker.drain(), 2);
    const depositXml = await h.call('GET', `/v1/invoices/${deposit.id}/files/xml`, { key });
    assert.equal(depositXml.statusCode, 200, depositXml.body);
    assert.match(depositXml.body, /<rsm:ExchangedDocument><ram:ID>[^<]+<\/ram:ID><ram:TypeCode>386<\/ram:TypeCode>/);
    assert.match(depositXml.body, /<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>B1<\/ram:ID>/);
    // Issued unpaid, paid later: the file says what was issued.
    assert.doesNotMatch(depositXml.body, /TotalPrepaidAmount/);
    const finalXml = await h.call('GET', `/v1/invoices/${finalDraft.id}/files/xml`, { key });
    assert.equal(finalXml.statusCode, 200, finalXml.body);
    assert.match(finalXml.body, /<ram:TypeCode>380<\/ram:TypeCode>/);
    assert.match(finalXml.body, /<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>B4<\/ram:ID>/);
    assert.match(
      finalXml.body,
      /<ram:GrandTotalAmount>1788.00<\/ram:GrandTotalAmount><ram:TotalPrepaidAmount>536.40<\/ram:TotalPrepaidAmount><ram:DuePayableAmount>1251.60<\/ram:DuePayableAmount>/,
    );
    assert.match(
      finalXml.body,
      new RegExp(`<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${deposit.number}</ram:IssuerAssignedID>`),
    );
    const ubl = await h.call('GET', `/v1/invoices/${finalDraft.id}/files/ubl`, { key });
    assert.equal(ubl.statusCode, 200, ubl.body);
    assert.match(ubl.body, /<cbc:PrepaidAmount currencyID="EUR">536.40<\/cbc:PrepaidAmount>/);
    assert.match(ubl.body, new RegExp(`<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${deposit.number}`));
    // The readable PDFs: a deposit invoice titled as one; the final invoice deducting each deposit.
    const [depositPage] = await pageTexts(
      (await h.call('GET', `/v1/invoices/${deposit.id}/files/pdf`, { key })).rawPayload,
    );
    assert.match(depositPage!, /FACTURE D’ACOMPTE/);
    const [finalPage] = await pageTexts(
      (await h.call('GET', `/v1/invoices/${finalDraft.id}/files/pdf`, { key })).rawPayload,
    );
    assert.match(finalPage!, new RegExp(`Acompte : ${deposit.number} du \\d\\d/\\d\\d/2026 : 536,40 €`));
    assert.match(finalPage!, /Total TTC\s+1 788,00 € Acomptes déduits\s+-536,40 €/);
    assert.match(finalPage!, /Net à payer\s+1 251,60 €/);
    assert.doesNotMatch(finalPage!, /Déjà réglé/);
    const listed = await h.call('GET', `/v1/invoices/${finalDraft.id}`, { key });
    assert.deepEqual(
      listed.data.files.map((file: any) => file.state),
      listed.data.files.map(() => 'ready'),
    );
  });

  await t.test('a deducted deposit cannot be credited; another buyer deposit is refused', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const otherCustomer = await customer(h, key, consumerBuyer);
    const deposit = await finalizedInvoice(h, key, {
      customerId,
      lines: [depositLine],
      body: { invoiceType: 'deposit' },
    });
    await h.call('POST', '/v1/payments', { key, body: { invoiceId: deposit.id, amount: deposit.total } });
    const foreign = await readyDraft(h, key, {
      customerId: otherCustomer,
      lines: [order],
      body: { deposits: [deposit.id] },
    });
    const refused = await h.call('POST', `/v1/invoices/${foreign.id}/finalize`, { key });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.data.error.message, /another buyer/);

    const final = await finalizedInvoice(h, key, { customerId, lines: [order], body: { deposits: [deposit.id] } });
    await assert.rejects(
      finalizedCreditNote(h, key, deposit),
      (error: Error) =>
        /credit note finalize: .*invalid_status_transition/.test(error.message) &&
        error.message.includes(`is deducted by invoice ${final.id}`),
    );
  });

  await t.test('two final invoices racing for one deposit: one deducts it, the other is refused', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const deposit = await finalizedInvoice(h, key, {
      customerId,
      lines: [depositLine],
      body: { invoiceType: 'deposit' },
    });
    await h.call('POST', '/v1/payments', { key, body: { invoiceId: deposit.id, amount: deposit.total } });
    const drafts = [
      await readyDraft(h, key, { customerId, lines: [order], body: { deposits: [deposit.id] } }),
      await readyDraft(h, key, { customerId, lines: [order], body: { deposits: [deposit.id] } }),
    ];
    const answers = await Promise.all(
      drafts.map((draft) => h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key })),
    );
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400]);
    const winner = answers.find((answer) => answer.statusCode === 200)!;
    assert.equal((await h.call('GET', `/v1/invoices/${deposit.id}`, { key })).data.deductedBy, winner.data.id);
    const loser = drafts.find((draft) => draft.id !== winner.data.id)!;
    assert.equal((await h.call('GET', `/v1/invoices/${loser.id}`, { key })).data.number, null);
  });
});
