import { Type, type Static } from 'typebox';
import { refuse } from '../kernel/errors.js';
import { defaultChart, fecJournals, journalLabels, type FecChart } from './fec-entries.js';
import type { FecSeparatorName } from './fec-format.js';

/** The body of `POST /v1/exports/fec` and the chart of accounts it sets. */

const account = (description: string) =>
  Type.String({
    pattern: '^[0-9]{3}[0-9A-Z]{0,17}$',
    maxLength: 20,
    description: `${description} A number of the Plan comptable général: 3 digits, then up to 17 digits or capital letters.`,
  });
const journalCode = (description: string) =>
  Type.Union([Type.String({ pattern: '^[0-9A-Z]{1,10}$', maxLength: 10 }), Type.Null()], {
    description: `${description} 1 to 10 digits or capital letters; null leaves this journal out.`,
  });

const vatByRate = (description: string) =>
  Type.Array(
    Type.Object(
      {
        rate: Type.String({
          pattern: '^[0-9]{1,2}(\\.[0-9]{1,2})?$',
          maxLength: 5,
          description: 'A VAT rate in percent: `20`, `5.5`.',
        }),
        account: account(description),
      },
      { additionalProperties: false },
    ),
    { maxItems: 20 },
  );

export const fecRequestBody = Type.Object(
  {
    from: Type.String({ format: 'date', maxLength: 10, description: 'First day of the period (entry dates).' }),
    to: Type.String({
      format: 'date',
      maxLength: 10,
      description: 'Last day of the period, inclusive: the closing date in the file name.',
    }),
    separator: Type.Optional(
      Type.Union([Type.Literal('pipe'), Type.Literal('tab')], {
        description: 'Field separator; default `pipe` (`|`).',
      }),
    ),
    journals: Type.Optional(
      Type.Object(
        {
          sales: Type.Optional(journalCode('Code of the sales journal (invoices, credit notes); default `VE`.')),
          bank: Type.Optional(journalCode('Code of the bank journal (payments, refunds); default `BQ`.')),
          purchases: Type.Optional(
            journalCode('Code of the purchase journal (received invoices and credit notes); default `AC`.'),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    accounts: Type.Optional(
      Type.Object(
        {
          customers: Type.Optional(account("The customers' collective account (41...); default `411000`.")),
          depositsReceived: Type.Optional(
            account(
              'Where deposit invoices go instead of sales, until their final invoice takes them back (4191...); default `419100`.',
            ),
          ),
          customerDetail: Type.Optional(
            Type.Union([Type.Literal('auxiliary'), Type.Literal('collective')], {
              description:
                '`auxiliary` (default): each customer has its auxiliary account (CompAuxNum: its `cus_` id, or the SIREN of a buyer written on the document); `collective`: the collective account alone.',
            }),
          ),
          sales: Type.Optional(
            Type.Object(
              {
                services: Type.Optional(account('Sales of services (70...); default `706000`.')),
                electronic_service: Type.Optional(
                  account('Electronically supplied services (70...); default the services account.'),
                ),
                goods: Type.Optional(account('Sales of goods (70...); default `707000`.')),
              },
              { additionalProperties: false },
            ),
          ),
          vat: Type.Optional(
            Type.Object(
              {
                default: Type.Optional(account('VAT collected (4457...), every rate not listed; default `445710`.')),
                byRate: Type.Optional(vatByRate('VAT collected at that rate (4457...).')),
              },
              { additionalProperties: false },
            ),
          ),
          bank: Type.Optional(account('The bank (5...); default `512000`.')),
          suppliers: Type.Optional(account("The suppliers' collective account (40...); default `401000`.")),
          supplierDetail: Type.Optional(
            Type.Union([Type.Literal('auxiliary'), Type.Literal('collective')], {
              description:
                "`auxiliary` (default): each supplier has its auxiliary account (CompAuxNum: `F` and its SIREN, else its SIRET's SIREN, else its VAT number); `collective`: the collective account alone.",
            }),
          ),
          purchases: Type.Optional(
            account(
              'The purchases account (60...) of received invoices; default `607000` (`604000` or `606000` for services).',
            ),
          ),
          deductibleVat: Type.Optional(
            Type.Object(
              {
                default: Type.Optional(account('Deductible VAT (4456...), every rate not listed; default `445660`.')),
                byRate: Type.Optional(vatByRate('Deductible VAT at that rate (4456...).')),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type FecRequest = Static<typeof fecRequestBody>;

/** What the job needs of the request, stored on the export. */
export interface FecOptions {
  separator: FecSeparatorName;
  chart: FecChart;
}

/** The class of the Plan comptable général each account must belong to. */
const accountClasses: { param: string; prefix: string; what: string }[] = [
  { param: 'accounts.customers', prefix: '41', what: 'a customers account (41...)' },
  { param: 'accounts.depositsReceived', prefix: '419', what: 'an advances received account (419...)' },
  { param: 'accounts.sales', prefix: '70', what: 'a sales account (70...)' },
  { param: 'accounts.vat', prefix: '4457', what: 'a VAT collected account (4457...)' },
  { param: 'accounts.bank', prefix: '5', what: 'a financial account (5...)' },
  { param: 'accounts.suppliers', prefix: '40', what: 'a suppliers account (40...)' },
  { param: 'accounts.purchases', prefix: '60', what: 'a purchases account (60...)' },
  { param: 'accounts.deductibleVat', prefix: '4456', what: 'a deductible VAT account (4456...)' },
];

function checkClass(param: string, value: string): void {
  const rule = accountClasses.find((candidate) => param.startsWith(candidate.param))!;
  if (!value.startsWith(rule.prefix))
    throw refuse('validation_error', `\`${param}\` is ${value}, which is not ${rule.what}.`, { param });
}

/** Checks the request and returns the options of the job. Pure. */
export function fecOptionsOf(body: FecRequest): FecOptions {
  if (body.to < body.from)
    throw refuse('invalid_field_value', `\`to\` (${body.to}) is before \`from\` (${body.from}).`, { param: 'to' });
  const journals = { ...defaultChart.journals };
  for (const journal of fecJournals) {
    const code = body.journals?.[journal];
    if (code === null) journals[journal] = null;
    else if (code !== undefined) journals[journal] = { code, label: journalLabels[journal] };
  }
  if (fecJournals.every((journal) => !journals[journal]))
    throw refuse('invalid_field_value', 'Every journal is left out: the file would be empty.', { param: 'journals' });
  fecJournals.forEach((journal, index) => {
    const code = journals[journal]?.code;
    const earlier = fecJournals.slice(0, index).find((other) => journals[other]?.code === code);
    if (code !== undefined && earlier)
      throw refuse('invalid_field_value', `The ${earlier} and ${journal} journals share the code ${code}.`, {
        param: `journals.${journal}`,
      });
  });
  const accounts = body.accounts ?? {};
  const chart: FecChart = {
    journals,
    customers: accounts.customers ?? defaultChart.customers,
    customerDetail: accounts.customerDetail ?? defaultChart.customerDetail,
    depositsReceived: accounts.depositsReceived ?? defaultChart.depositsReceived,
    sales: {
      goods: accounts.sales?.goods ?? defaultChart.sales.goods!,
      services: accounts.sales?.services ?? defaultChart.sales.services!,
      electronic_service:
        accounts.sales?.electronic_service ?? accounts.sales?.services ?? defaultChart.sales.electronic_service!,
    },
    vatDefault: accounts.vat?.default ?? defaultChart.vatDefault,
    vatByRate: (accounts.vat?.byRate ?? []).map((entry) => ({ rate: entry.rate, account: entry.account })),
    bank: accounts.bank ?? defaultChart.bank,
    suppliers: accounts.suppliers ?? defaultChart.suppliers,
    supplierDetail: accounts.supplierDetail ?? defaultChart.supplierDetail,
    purchases: accounts.purchases ?? defaultChart.purchases,
    deductibleVatDefault: accounts.deductibleVat?.default ?? defaultChart.deductibleVatDefault,
    deductibleVatByRate: (accounts.deductibleVat?.byRate ?? []).map((entry) => ({
      rate: entry.rate,
      account: entry.account,
    })),
  };
  checkClass('accounts.customers', chart.customers);
  checkClass('accounts.depositsReceived', chart.depositsReceived);
  for (const [nature, value] of Object.entries(chart.sales)) checkClass(`accounts.sales.${nature}`, value);
  checkClass('accounts.vat.default', chart.vatDefault);
  chart.vatByRate.forEach((entry, index) => checkClass(`accounts.vat.byRate[${index}].account`, entry.account));
  checkClass('accounts.bank', chart.bank);
  checkClass('accounts.suppliers', chart.suppliers);
  checkClass('accounts.purchases', chart.purchases);
  checkClass('accounts.deductibleVat.default', chart.deductibleVatDefault);
  chart.deductibleVatByRate.forEach((entry, index) =>
    checkClass(`accounts.deductibleVat.byRate[${index}].account`, entry.account),
  );
  const once = (list: { rate: string }[], param: string) =>
    list.forEach((entry, index) => {
      if (list.findIndex((other) => Number(other.rate) === Number(entry.rate)) !== index)
        throw refuse('invalid_field_value', `The rate ${entry.rate} is listed twice.`, {
          param: `${param}[${index}].rate`,
        });
    });
  once(chart.vatByRate, 'accounts.vat.byRate');
  once(chart.deductibleVatByRate, 'accounts.deductibleVat.byRate');
  return { separator: body.separator ?? 'pipe', chart };
}
