import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { getLedger, openLedger, reconcileLedger, recordAdjustment, recordCorrection } from './service.js';

const cents = (description: string) => Type.Integer({ minimum: -1e15, maximum: 1e15, description });
const date = (description: string) => Type.String({ format: 'date', description });
const figures = Type.Object({ distanceSales: Type.Integer(), electronicServices: Type.Integer() });
const figureSchema = Type.Object({
  counted: Type.Integer({ description: 'Certainly counted (cents): the lower bound.' }),
  pending: Type.Integer({ description: 'Reserved by decisions not concluded yet.' }),
  lowerBound: Type.Integer(),
  upperBound: Type.Integer(),
  previousYear: Type.Integer(),
  threshold: Type.Integer({
    description: 'EUR 10,000 for distance sales (Art. 59c), EUR 100,000 for the electronic-services relief (Art. 24b).',
  }),
  standing: Type.Union([Type.Literal('below'), Type.Literal('above'), Type.Literal('undetermined')]),
});

export const ledgerEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `ledg_`.' }),
    object: Type.Literal('eu_threshold_ledger_entry'),
    kind: Type.Union(
      ['opening', 'adjustment', 'reservation', 'correction', 'review', 'reconciliation'].map((kind) =>
        Type.Literal(kind),
      ),
    ),
    reference: Type.Union([Type.String(), Type.Null()]),
    distanceSales: Type.Integer(),
    electronicServices: Type.Integer(),
    coveredUntil: Type.Union([Type.String(), Type.Null()]),
    operationDate: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.String(), Type.Null()], {
      description: 'A reservation: `reserved`, `counted`, `expired` or `released`.',
    }),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
    decisionId: Type.Union([Type.String(), Type.Null()]),
    correctsEntryId: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    remainingMin: figures,
    remainingMax: figures,
    created: Type.String(),
  },
  { $id: 'EuThresholdLedgerEntry' },
);

export const ledgerSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `eul_`.' }),
    object: Type.Literal('eu_threshold_ledger'),
    livemode: Type.Boolean(),
    year: Type.Integer(),
    status: Type.Union([Type.Literal('open'), Type.Literal('under_review')]),
    distanceSales: figureSchema,
    electronicServices: figureSchema,
    coveredUntil: Type.Union([Type.String(), Type.Null()]),
    lastEntryId: Type.Union([Type.String(), Type.Null()]),
    entries: Type.Array(Type.Ref('EuThresholdLedgerEntry'), { description: 'The newest 100 movements, newest first.' }),
    entriesTruncated: Type.Boolean(),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'EuThresholdLedger' },
);

const yearParams = Type.Object({ year: Type.Integer({ minimum: 0, maximum: 9999 }) });
const reference = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Your reference of the movement: the same reference with the same content records nothing new; with other content it is `eu_threshold_entry_conflict`.',
});
const tags = ['EU threshold ledgers'];

export async function ledgerRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/eu-threshold-ledgers',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Open the ledger of a calendar year',
        description:
          'One ledger per calendar year, opened once (`eu_threshold_year_already_open`). Figures are cents excluding VAT; all default to zero.',
        body: Type.Object(
          {
            year: Type.Integer({ description: 'The calendar year (2024 to next year).' }),
            previousYear: Type.Optional(
              Type.Object(
                {
                  distanceSales: Type.Optional(
                    Type.Integer({
                      minimum: 0,
                      maximum: 1e15,
                      description: 'EU B2C distance sales and electronic services to other member states last year.',
                    }),
                  ),
                  electronicServices: Type.Optional(
                    Type.Integer({
                      minimum: 0,
                      maximum: 1e15,
                      description: 'Electronic services to consumers last year (the EUR 100,000 relief).',
                    }),
                  ),
                },
                { additionalProperties: false },
              ),
            ),
            opening: Type.Optional(
              Type.Object(
                {
                  distanceSales: Type.Optional(
                    Type.Integer({
                      minimum: 0,
                      maximum: 1e15,
                      description: 'This year before the ledger opened, all channels.',
                    }),
                  ),
                  electronicServices: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e15 })),
                  coveredUntil: Type.Optional(date('These figures are complete up to this day.')),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('EuThresholdLedger') },
      },
    },
    async (request, reply) => reply.code(201).send(await openLedger(deps, callContext(request), request.body)),
  );

  app.get(
    '/eu-threshold-ledgers/:year',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve the ledger of a year: totals, bounds, movements',
        params: yearParams,
        response: { 200: Type.Ref('EuThresholdLedger') },
      },
    },
    async (request) => getLedger(deps, authOf(request).scope, request.params.year, authOf(request).now),
  );

  app.post(
    '/eu-threshold-ledgers/:year/adjustments',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Record other-channel figures and the day they are complete up to',
        description:
          'An adjustment never lowers the total (`eu_threshold_decrease_not_sourced`); `coveredUntil` is in the year and not in the future.',
        params: yearParams,
        body: Type.Object(
          {
            reference,
            distanceSales: Type.Optional(cents('Cents to add (zero or more).')),
            electronicServices: Type.Optional(cents('Cents to add (zero or more).')),
            coveredUntil: date('Other channels are declared complete up to this day.'),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('EuThresholdLedger') },
      },
    },
    async (request) => recordAdjustment(deps, callContext(request), request.params.year, request.body),
  );

  app.post(
    '/eu-threshold-ledgers/:year/corrections',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Give back part of one movement (a qualified correction)',
        description: 'Names the movement corrected and the amount given back, at most its `remainingMin`.',
        params: yearParams,
        body: Type.Object(
          {
            reference,
            entryId: Type.String({ minLength: 1, maxLength: 255, description: 'The movement corrected (`ledg_`).' }),
            distanceSales: Type.Optional(cents('Cents given back.')),
            electronicServices: Type.Optional(cents('Cents given back.')),
            reason: Type.Optional(Type.String({ maxLength: 500 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('EuThresholdLedger') },
      },
    },
    async (request) => recordCorrection(deps, callContext(request), request.params.year, request.body),
  );

  app.post(
    '/eu-threshold-ledgers/:year/reconciliations',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Close a review with verified totals',
        description: 'Stale when a movement occurred after `lastEntryId`; a mismatch returns both figures.',
        params: yearParams,
        body: Type.Object(
          {
            lastEntryId: Type.String({ minLength: 1, maxLength: 255 }),
            distanceSales: cents('Verified total, cents.'),
            electronicServices: cents('Verified total, cents.'),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('EuThresholdLedger') },
      },
    },
    async (request) => reconcileLedger(deps, callContext(request), request.params.year, request.body),
  );
}
