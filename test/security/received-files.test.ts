/**
 * Hostile received files (issue #35): a decompression bomb is refused without holding the event
 * loop, by the sandbox route and through the platform; an invoice with a DOCTYPE (entities, an
 * external DTD) is kept refused with its reason and the establishment's next invoice still comes
 * in; a received file's name from outside makes a valid `Content-Disposition`; the validation
 * errors kept are capped, their count kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PDFDocument } from 'pdf-lib';
import { DocumentValidationError, ValidationPool } from '../../src/einvoice/validation-pool.js';
import { IncomingFileError } from '../../src/received/incoming-file.js';
import { readIncomingFileInThread } from '../../src/received/incoming-file-thread.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { keptValidationErrors } from '../../src/received/received-record.js';
import { startHarness, type Harness } from '../support/harness.js';
import { startCheckedSimulator } from '../platform/support.js';
import { connectHeadOffice } from '../deposits/support.js';
import { seller } from '../invoices/support.js';
import { ciiExample, receive, ublExample } from '../received/support.js';

/** A CII of some hundred thousand notes: tens of megabytes of XML that deflate to a few dozen kilobytes. */
function inflatedCii(notes: number): Buffer {
  const xml = ciiExample().toString('utf8');
  const note = '<ram:IncludedNote><ram:Content>x</ram:Content></ram:IncludedNote>';
  const at = xml.indexOf('<ram:IncludedNote>');
  return Buffer.from(`${xml.slice(0, at)}${note.repeat(notes)}${xml.slice(at)}`);
}

/** A small PDF whose `factur-x.xml` inflates to tens of megabytes (pdf-lib deflates attachments). */
async function bombPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  await doc.attach(inflatedCii(400_000), 'factur-x.xml', { mimeType: 'text/xml' });
  const bytes = Buffer.from(await doc.save());
  assert.ok(bytes.length < 200_000, `a small file: ${bytes.length} bytes`);
  return bytes;
}

const prolog = '<?xml version="1.0" encoding="UTF-8"?>';
const withDoctype = (doctype: string) =>
  Buffer.from(
    `${prolog}\n${doctype}\n${ciiExample()
      .toString('utf8')
      .replace(/^<\?xml[^>]*\?>\s*/, '')}`,
  );
/** A "billion laughs": the entity is nested ten deep, and used as the invoice number. */
const entityInvoice = () => {
  const levels = Array.from({ length: 10 }, (_, level) => `<!ENTITY e${level + 1} "${`&e${level};`.repeat(10)}">`).join(
    '',
  );
  return Buffer.from(
    withDoctype(`<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY e0 "lol">${levels}]>`)
      .toString('utf8')
      .replace('<ram:ID>12115118</ram:ID>', '<ram:ID>&e10;</ram:ID>'),
  );
};
const externalDtdInvoice = () => withDoctype('<!DOCTYPE rsm:CrossIndustryInvoice SYSTEM "file:///etc/passwd">');

/**
 * Runs `work` while the event loop's delay is watched and `/healthz` is asked: the longest the
 * loop was held, and whether the health check answered while the work ran.
 */
async function whileWatched<T>(h: Harness, work: Promise<T>) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let finished = false;
  const done = work.finally(() => {
    finished = true;
  });
  const health = await h.call('GET', '/healthz');
  const healthyMeanwhile = health.statusCode === 200 && !finished;
  const result = await done;
  delay.disable();
  return { result, healthyMeanwhile, longestHoldMs: delay.max / 1e6 };
}

test('hostile received files', async (t) => {
  const h = await startHarness();
  const platform = await startCheckedSimulator();
  t.after(async () => {
    await platform.stop();
    await h.close();
    await closeValidation();
  });
  const bomb = await bombPdf();

  await t.test('a PDF bomb sent to the sandbox is refused, payload_too_large, the loop free', async () => {
    const { key } = await h.tenant();
    const watched = await whileWatched(h, receive(h, key, bomb));
    assert.equal(watched.result.statusCode, 400, watched.result.body);
    assert.equal(watched.result.data.error.code, 'payload_too_large');
    assert.equal(watched.result.data.error.param, 'file');
    assert.match(watched.result.data.error.message, /inflates beyond/);
    assert.ok(watched.healthyMeanwhile, '/healthz answered while the bomb was handled');
    // A few seconds of margin on a loaded machine: read on the loop, the bomb held it far longer.
    assert.ok(watched.longestHoldMs < 3000, `the event loop was held ${watched.longestHoldMs} ms`);
    const listed = await h.call('GET', '/v1/received-invoices', { key });
    assert.equal(listed.data.data.length, 0, 'nothing kept');
  });

  const { companyId, key } = await seller(h, { env: 'live' });
  await connectHeadOffice(h, key, platform);
  // No public URL: polling is the only way in.
  const poll = () => pollInbox(h.deps, registry.inbox, { companyIds: [companyId] });
  const byFlow = async (flowId: string) =>
    ((await h.call('GET', '/v1/received-invoices?limit=100', { key })).data.data as any[]).find(
      (invoice) => invoice.flowId === flowId,
    );
  const cursor = async () =>
    (await h.deps.pool.query('select cursor from platform_readers where company_id = $1', [companyId])).rows[0]
      ?.cursor as string | null;

  await t.test('a PDF bomb from the platform is kept refused with its reason, the loop free', async () => {
    const flowId = platform.simulator.deliverIncoming(bomb, { name: 'bomb.pdf' });
    const watched = await whileWatched(h, poll());
    assert.equal(watched.result, 1);
    assert.ok(watched.healthyMeanwhile, '/healthz answered while the bomb was handled');
    assert.ok(watched.longestHoldMs < 3000, `the event loop was held ${watched.longestHoldMs} ms`);
    const kept = await byFlow(flowId);
    assert.equal(kept.syntax, 'unknown');
    assert.equal(kept.conformant, false);
    assert.equal(kept.validationErrors[0].rule, 'UNREADABLE');
    assert.match(kept.validationErrors[0].message, /inflates beyond \d+ bytes/);
  });

  await t.test('DOCTYPE invoices are kept refused and the next invoice of the establishment comes in', async () => {
    const before = await cursor();
    const entity = platform.simulator.deliverIncoming(entityInvoice(), { name: 'laughs.xml' });
    const external = platform.simulator.deliverIncoming(externalDtdInvoice(), { name: 'dtd.xml' });
    const valid = platform.simulator.deliverIncoming(ciiExample(), { name: 'CII_example1.xml' });
    assert.equal(await poll(), 3);
    for (const flowId of [entity, external]) {
      const kept = await byFlow(flowId);
      assert.equal(kept.syntax, 'unknown', flowId);
      assert.equal(kept.conformant, false);
      assert.equal(kept.validationErrors[0].rule, 'UNREADABLE');
      assert.match(kept.validationErrors[0].message, /DOCTYPE/);
      assert.equal(kept.number, '', 'no entity expanded into the record');
    }
    const next = await byFlow(valid);
    assert.equal(next.syntax, 'CII');
    assert.equal(next.number, '12115118');
    assert.notEqual(await cursor(), before, 'the cursor moved past them');
    assert.equal(await poll(), 0, 'nothing is read again');
  });

  await t.test('a DOCTYPE invoice sent to the sandbox is kept flagged, not a 500', async () => {
    const { key: sandboxKey } = await h.tenant();
    for (const file of [entityInvoice(), externalDtdInvoice()]) {
      const kept = await receive(h, sandboxKey, file);
      assert.equal(kept.statusCode, 201, kept.body);
      assert.equal(kept.data.validationErrors[0].rule, 'UNREADABLE');
      assert.match(kept.data.validationErrors[0].message, /DOCTYPE/);
    }
  });

  await t.test('a file name from outside makes a valid Content-Disposition, without its path', async () => {
    const { key: sandboxKey } = await h.tenant();
    const cases = [
      { name: 'facture été ü.pdf', ascii: 'facture ete u.pdf', encoded: 'facture%20%C3%A9t%C3%A9%20%C3%BC.pdf' },
      { name: '日本.pdf', ascii: '__.pdf', encoded: '%E6%97%A5%E6%9C%AC.pdf' },
      { name: '../../../../etc/passwd', ascii: 'passwd', encoded: 'passwd' },
      { name: '..\\..\\boot.ini', ascii: 'boot.ini', encoded: 'boot.ini' },
      { name: 'a"b\\c.xml', ascii: 'c.xml', encoded: 'c.xml' },
    ];
    for (const { name, ascii, encoded } of cases) {
      const received = await h.call('POST', '/v1/sandbox/received-invoices', {
        key: sandboxKey,
        body: { file: ublExample().toString('base64'), name },
      });
      assert.equal(received.statusCode, 201, received.body);
      const original = await h.call('GET', `/v1/received-invoices/${received.data.id}/files/original`, {
        key: sandboxKey,
      });
      assert.equal(original.statusCode, 200, `${name}: ${original.body.slice(0, 200)}`);
      const disposition = String(original.headers['content-disposition']);
      assert.equal(disposition, `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`, name);
      assert.ok(!disposition.includes('/') && !disposition.includes('..'), disposition);
    }
  });

  await t.test('thousands of validation errors: the first ones kept, all counted', async () => {
    const { key: sandboxKey } = await h.tenant();
    // Every empty note is a PEPPOL-EN16931-R008 warning of its own.
    const xml = ciiExample().toString('utf8');
    const at = xml.indexOf('<ram:IncludedNote>');
    const noisy = `${xml.slice(0, at)}${'<ram:IncludedNote><ram:Content/></ram:IncludedNote>'.repeat(1000)}${xml.slice(at)}`;
    const received = await receive(h, sandboxKey, Buffer.from(noisy));
    assert.equal(received.statusCode, 201, received.body);
    assert.equal(received.data.validationErrors.length, keptValidationErrors);
    assert.ok(received.data.validationErrorCount >= 1000, String(received.data.validationErrorCount));
    const again = await h.call('GET', `/v1/received-invoices/${received.data.id}`, { key: sandboxKey });
    assert.equal(again.data.validationErrors.length, keptValidationErrors);
    assert.equal(again.data.validationErrorCount, received.data.validationErrorCount);
    const stored = await h.deps.pool.query(
      'select jsonb_array_length(validation_errors) as kept, validation_error_count as count from received_invoices where id = $1',
      [received.data.id],
    );
    assert.deepEqual(stored.rows[0], { kept: keptValidationErrors, count: received.data.validationErrorCount });
  });
});

test('a file that keeps the reader or the validators busy is stopped at their deadline', async () => {
  const file = ciiExample();
  await assert.rejects(
    readIncomingFileInThread(file, 1),
    (error: unknown) =>
      error instanceof IncomingFileError && error.reason === 'too_large' && /not read within/.test(error.message),
  );
  assert.equal((await readIncomingFileInThread(file)).document.number, '12115118', 'read within its time');

  const pool = await ValidationPool.open({ cacheDir: process.env.FACTEUR_TEST_SEF_CACHE!, size: 1, timeoutMs: 1 });
  try {
    await assert.rejects(
      pool.validate(file.toString('utf8')),
      (error: unknown) => error instanceof DocumentValidationError && /took longer than/.test(error.message),
    );
  } finally {
    await pool.close();
  }
});
