import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Harness } from '../support/harness.js';
import { documentHarness, seller } from '../invoices/support.js';
import { createJobWorker } from '../../src/jobs/worker.js';
import { registry } from '../../src/capabilities.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { accountingReceivedPage } from '../../src/received/accounting.js';
import { readFec, type FecEntryRead } from '../exports/fec-reader.js';
import { ciiExample, receive, ublExample } from './support.js';

/**
 * Received invoices as suppliers really send them (third-party files, not the service's own):
 * each is read, rendered and booked, or flagged with a reason, never half.
 */

const examples = new URL('../einvoice/fixtures/examples/', import.meta.url);
const fixtures = new URL('./fixtures/', import.meta.url);
const example = (name: string) => readFileSync(new URL(name, examples));

/** The FNFE EXTENDED example with a GROUP line first: no quantity (BT-129), no price (BT-146). */
const extendedWithGroupLine = () => readFileSync(new URL('cii-extended-group-line.xml', fixtures));

/** One mismatched end tag in a file otherwise read. */
function corrupted(file: Buffer, element: string): Buffer {
  const xml = file.toString('utf8');
  const end = new RegExp(`</((?:\\w+:)?)${element}>`).exec(xml);
  assert.ok(end, `the example has a </${element}>`);
  return Buffer.from(xml.replace(end[0], `</${end[1]}${element}X>`));
}

async function fecOf(h: Harness, companyId: string, key: string, from: string, to: string) {
  const job = await h.call('POST', '/v1/exports/fec', { key, body: { from, to } });
  assert.equal(job.statusCode, 202, job.body);
  await createJobWorker(h.deps, { companies: [companyId], kinds: registry.jobKinds, registry }).drain();
  const done = (await h.call('GET', `/v1/jobs/${job.data.id}`, { key })).data;
  assert.equal(done.status, 'succeeded', JSON.stringify(done));
  const file = await h.app.inject({
    method: 'GET',
    url: `/v1/exports/${job.data.result.id}/download`,
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(file.statusCode, 200, file.body);
  return readFec(file.rawPayload);
}

const line = (entry: FecEntryRead, account: string) => {
  const found = entry.lines.filter((record) => record.account === account);
  assert.equal(found.length, 1, `one line on ${account}: ${JSON.stringify(entry.lines)}`);
  return found[0]!;
};

test('received invoices as suppliers send them', async (t) => {
  const h = await documentHarness();
  t.after(async () => {
    await h.close();
    await closeValidation();
  });

  await t.test('an EXTENDED CII whose group line has no quantity nor price is drawn, its cells blank', async () => {
    const { key } = await seller(h);
    const received = await receive(h, key, extendedWithGroupLine());
    assert.equal(received.statusCode, 201, received.body);
    assert.equal(received.data.syntax, 'CII');
    const pdf = await h.call('GET', `/v1/received-invoices/${received.data.id}/files/pdf`, { key });
    assert.equal(pdf.statusCode, 200, pdf.body);
    assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');

    // A credit of an invoice named without its date (BT-26 absent) is drawn too.
    const undated = await receive(h, key, example('CII-BR-CO-10-RoundingIssue.xml'));
    assert.equal(undated.statusCode, 201, undated.body);
    const drawn = await h.call('GET', `/v1/received-invoices/${undated.data.id}/files/pdf`, { key });
    assert.equal(drawn.statusCode, 200, drawn.body);
  });

  await t.test('a UBL with one mismatched end tag is flagged unreadable, as the same corruption in a CII', async () => {
    const { key } = await seller(h);
    for (const [file, syntax] of [
      [corrupted(ublExample(), 'IssueDate'), 'UBL'],
      [corrupted(ciiExample(), 'TypeCode'), 'CII'],
    ] as const) {
      const kept = await receive(h, key, file);
      assert.equal(kept.statusCode, 201, kept.body);
      assert.equal(kept.data.syntax, 'unknown', `${syntax}: not read as an invoice`);
      assert.equal(kept.data.conformant, false, syntax);
      assert.equal(kept.data.validationErrors[0].rule, 'UNREADABLE', syntax);
      assert.match(kept.data.validationErrors[0].message, /^not well-formed XML: .*(IssueDate|TypeCode)/);
      assert.deepEqual([kept.data.number, kept.data.totalTtc], ['', 0], `${syntax}: none of its data taken`);
    }
  });

  await t.test('a MINIMUM invoice (no VAT breakdown) is booked from its totals: one deductible VAT line', async () => {
    const { companyId, key } = await seller(h);
    const minimum = await receive(h, key, example('factur-x-minimum.xml'));
    assert.equal(minimum.statusCode, 201, minimum.body);
    const { entries } = await fecOf(h, companyId, key, '2026-01-01', '2026-01-31');
    const bought = entries.filter((entry) => entry.journal === 'AC');
    assert.equal(bought.length, 1);
    const [entry] = bought as [FecEntryRead];
    // BT-112 104,90, BT-109 100,00, BT-110 4,90: the supplier credited, purchases and VAT debited.
    assert.deepEqual(
      [line(entry, '401000').credit, line(entry, '607000').debit, line(entry, '445660').debit],
      [10490, 10000, 490],
    );
    assert.ok(entry.lines.every((record) => record.currency === '' && record.foreignAmount === null));
  });

  await t.test(
    'an invoice in DKK is booked in euros at the rate of its VAT in euros (BT-111), its DKK amounts beside',
    async () => {
      const { companyId, key } = await seller(h);
      const dkk = await receive(h, key, example('CII_example5.xml'));
      assert.equal(dkk.statusCode, 201, dkk.body);
      const { entries } = await fecOf(h, companyId, key, '2013-01-01', '2013-12-31');
      assert.equal(entries.length, 1);
      const [entry] = entries as [FecEntryRead];
      // 4 675,00 DKK: net 4 000,00, VAT 375,00 (25 %) + 300,00 (12 %); the VAT in euros is 628,62.
      const rate = 62862 / 67500;
      const supplier = line(entry, '401000');
      const purchases = line(entry, '607000');
      const vat = entry.lines.filter((record) => record.account === '445660');
      assert.equal(purchases.debit, Math.round(400000 * rate));
      assert.equal(
        vat.reduce((sum, record) => sum + record.debit, 0),
        62862,
        'the VAT in euros is the file’s BT-111',
      );
      assert.equal(supplier.credit, purchases.debit + 62862);
      assert.deepEqual(
        entry.lines.map((record) => [record.foreignAmount, record.currency]),
        [
          [467500, 'DKK'],
          [400000, 'DKK'],
          [37500, 'DKK'],
          [30000, 'DKK'],
        ],
      );
      assert.deepEqual(
        vat.map((record) => record.debit),
        [Math.round(37500 * rate), 62862 - Math.round(37500 * rate)],
      );
    },
  );

  await t.test('an invoice in DKK without its VAT in euros is said unbookable, with the reason', async () => {
    const { companyId, key } = await seller(h);
    const dkk = await receive(h, key, example('CII_example3.xml'));
    assert.equal(dkk.statusCode, 201, dkk.body);
    const [booked] = await accountingReceivedPage(
      h.deps.db,
      { companyId, livemode: false },
      { from: '2013-01-01', to: '2013-12-31' },
      null,
      10,
    );
    assert.equal(booked!.id, dkk.data.id);
    assert.match(booked!.unbookable ?? '', /in DKK .*BT-111/);
    assert.equal(booked!.foreign?.total, 112500);
  });
});
