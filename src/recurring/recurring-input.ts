import { Type, type Static } from 'typebox';
import { ApiError, refuse } from '../kernel/errors.js';
import { lowestPlanWith, planFeatures, type PlanName } from '../kernel/plans.js';
import { metadataField } from '../kernel/metadata.js';
import { draftFields, nullableString } from '../invoices/document-fields.js';
import { buyerInput } from '../invoices/buyer.js';
import { linesField } from '../invoices/lines.js';
import { intervals, nextPeriod, type Schedule } from './schedule.js';

/** The bodies of `POST /v1/recurring-invoices` (and its update), and the checks of a schedule. */

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    anyOf: values.map((value) => ({ type: 'string', const: value })),
    ...(description ? { description } : {}),
  });
const nullableDate = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date', description });

export const modes = ['draft', 'auto_finalize'] as const;
export type Mode = (typeof modes)[number];

const templateFields = {
  customerId: draftFields.customerId,
  buyer: draftFields.buyer,
  taxSource: Type.Optional(
    literals(
      ['service', 'integration'] as const,
      'Who states the VAT of each generated invoice (`integration`: the lines carry it). Default `service`.',
    ),
  ),
  currency: draftFields.currency,
  paymentTermsDays: draftFields.paymentTermsDays,
  paymentTerms: Type.Optional(nullableString({ maxLength: 1000, description: 'Printed on each invoice.' })),
  notes: Type.Optional(nullableString({ maxLength: 5000, description: 'Printed on each invoice.' })),
  metadata: Type.Optional(metadataField),
};

const scheduleFields = {
  dayOfMonth: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 31,
      description:
        "Day of the month of each run; 29 to 31 fall on a shorter month's last day. Default the start date's day.",
    }),
  ),
  endDate: Type.Optional(nullableDate('The last day a run may fall on (inclusive). Not with `count`.')),
  count: Type.Optional(
    Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 1200,
      description:
        'How many periods the schedule has, counted from the start (periods skipped by a pause count). Not with `endDate`.',
    }),
  ),
  mode: Type.Optional(
    literals(
      modes,
      '`draft`: each run makes a draft invoice; `auto_finalize`: each run takes a fresh tax decision and finalizes the invoice (Essential and Pro plans). Default `draft`.',
    ),
  ),
  autoSend: Type.Optional(
    Type.Boolean({ description: 'With `auto_finalize`: each finalized invoice is then sent. Default false.' }),
  ),
};

export const recurringCreateBody = Type.Object(
  {
    ...templateFields,
    lines: linesField,
    interval: literals(intervals, '`monthly`, `quarterly` or `yearly`.'),
    startDate: Type.Optional(
      Type.String({
        format: 'date',
        description: 'The first run falls on or after it; today or later. Default today.',
      }),
    ),
    ...scheduleFields,
  },
  { additionalProperties: false },
);

export const recurringUpdateBody = Type.Object(
  {
    ...templateFields,
    customerId: Type.Optional(nullableString({ maxLength: 255 })),
    buyer: Type.Optional(Type.Unsafe<Static<typeof buyerInput> | null>({ ...buyerInput, type: ['object', 'null'] })),
    lines: Type.Optional(linesField),
    interval: Type.Optional(literals(intervals)),
    startDate: Type.Optional(Type.String({ format: 'date' })),
    ...scheduleFields,
  },
  { additionalProperties: false },
);

export type RecurringCreate = Static<typeof recurringCreateBody>;
export type RecurringUpdate = Static<typeof recurringUpdateBody>;

/** `mode: auto_finalize` is a feature of the Essential and Pro plans. */
export function checkModeAllowed(mode: string, plan: PlanName, param = 'mode'): void {
  if (mode !== 'auto_finalize' || planFeatures[plan].recurringAutoFinalize) return;
  throw new ApiError('plan_limit_error', {
    values: { plan },
    param,
    hint: `Recurring invoices finalized by the service (\`mode: auto_finalize\`) need the ${lowestPlanWith('recurringAutoFinalize')} plan or higher; use \`mode: draft\`, or upgrade.`,
  });
}

/** The schedule's own rules. */
export function checkSchedule(schedule: Schedule, mode: Mode, autoSend: boolean): void {
  if (schedule.endDate !== null && schedule.count !== null)
    throw refuse('invalid_field_value', 'Give `endDate` or `count`, not both.', { param: 'count' });
  if (schedule.endDate !== null && schedule.endDate < schedule.startDate)
    throw refuse(
      'invalid_field_value',
      `\`endDate\` ${schedule.endDate} is before \`startDate\` ${schedule.startDate}.`,
      {
        param: 'endDate',
      },
    );
  if (autoSend && mode !== 'auto_finalize')
    throw refuse('invalid_field_value', '`autoSend` needs `mode: auto_finalize`: a draft is not sent.', {
      param: 'autoSend',
    });
  if (nextPeriod(schedule, { after: null, notBefore: schedule.startDate }) === null)
    throw refuse(
      'invalid_field_value',
      `No run falls between ${schedule.startDate} and ${schedule.endDate} on day ${schedule.dayOfMonth}: the schedule would never run.`,
      { param: 'endDate' },
    );
}

export function checkStartDate(startDate: string, today: string): void {
  if (startDate < today)
    throw refuse('invalid_field_value', `\`startDate\` ${startDate} is in the past; it is today (${today}) or later.`, {
      param: 'startDate',
    });
}
