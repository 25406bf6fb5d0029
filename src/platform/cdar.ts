import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { child, elements, text, textOf, XmlReadingError, xmlReader } from '../kernel/xml-reading.js';

/**
 * The life-cycle message (CDAR D22B, "CDV" in the French rules): one status of one invoice, sent
 * by a platform, the buyer or the seller. The builder writes what the BR-FR-CDV rules require
 * (guideline, phase, parties, the reason of 206/207/208/210/213/501, the amounts of 212); the
 * parser reads any CDAR tolerantly, one status per referenced document and status detail.
 */

export const cdarNamespaces = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

/** MDT-3: the profile of life-cycle messages exchanged between platforms and their users. */
export const cdarGuideline = 'urn.cpro.gouv.fr:1p0:CDV:invoice';

/** The statuses (MDT-105) the service sends or receives, with their official names. */
export const lifecycleStatusNames = {
  '200': 'Déposée',
  '201': 'Émise par la plateforme',
  '202': 'Reçue par la plateforme',
  '203': 'Mise à disposition',
  '204': 'Prise en charge',
  '205': 'Approuvée',
  '206': 'Approuvée partiellement',
  '207': 'En litige',
  '208': 'Suspendue',
  '209': 'Complétée',
  '210': 'Refusée',
  '211': 'Paiement transmis',
  '212': 'Encaissée',
  '213': 'Rejetée',
  '221': 'Erreur de routage',
  '501': 'Irrecevable',
} as const;
export type LifecycleStatusCode = keyof typeof lifecycleStatusNames;
export const isLifecycleStatusCode = (code: string): code is LifecycleStatusCode =>
  Object.hasOwn(lifecycleStatusNames, code);

/** BR-FR-CDV-15: these statuses carry a reason code (MDT-113). */
export const statusesRequiringReason: ReadonlySet<string> = new Set(['206', '207', '208', '210', '213', '501']);

/** BR-FR-CDV-CL-09: every reason code (MDT-113) a life-cycle message may carry. */
export const statusReasonCodes: ReadonlySet<string> = new Set(
  (
    'RETRAIT_MAN_SERV ST_CT_NON_DECLAR SUPPR_COMP_AVOIR TRANSF_PMNT_REGIE CONTACT_ACHTR NON_TRANSMISE JUSTIF_ABS ' +
    'ROUTAGE_ERR AUTRE COORD_BANC_ERR TX_TVA_ERR MONTANTTOTAL_ERR CALCUL_ERR NON_CONFORME DOUBLON DEST_INC DEST_ERR ' +
    'TRANSAC_INC EMMET_INC CONTRAT_TERM DOUBLE_FACT CMD_ERR ADR_ERR SIRET_ERR CODE_ROUTAGE_ERR REF_CT_ABSENT REF_ERR ' +
    'PU_ERR REM_ERR QTE_ERR ART_ERR MODPAI_ERR QUALITE_ERR LIVR_INCOMP REJ_SEMAN REJ_UNI REJ_COH REJ_ADR REJ_CONT_B2G ' +
    'REJ_REF_PJ REJ_ASS_PJ IRR_VIDE_F IRR_TYPE_F IRR_SYNTAX IRR_TAILLE_PJ IRR_NOM_PJ IRR_VID_PJ IRR_EXT_DOC IRR_TAILLE_F ' +
    'IRR_ANTIVIRUS IRR_NOM_F'
  ).split(' '),
);

/** BR-FR-CDV-CL-09, status by status: the reasons those statuses may carry (210: outside B2G). */
export const reasonsOfStatus: Readonly<Record<string, readonly string[]>> = {
  '200': ['NON_TRANSMISE'],
  '206': ['AUTRE', 'CMD_ERR', 'SIRET_ERR', 'CODE_ROUTAGE_ERR', 'REF_CT_ABSENT', 'REF_ERR', 'PU_ERR', 'REM_ERR'].concat([
    'QTE_ERR',
    'ART_ERR',
    'MODPAI_ERR',
    'QUALITE_ERR',
    'LIVR_INCOMP',
  ]),
  '207': ['AUTRE', 'COORD_BANC_ERR', 'TX_TVA_ERR', 'MONTANTTOTAL_ERR', 'CALCUL_ERR', 'NON_CONFORME', 'DOUBLON']
    .concat(['DEST_INC', 'DEST_ERR', 'TRANSAC_INC', 'EMMET_INC', 'CONTRAT_TERM', 'DOUBLE_FACT', 'CMD_ERR'])
    .concat(['ADR_ERR', 'SIRET_ERR', 'CODE_ROUTAGE_ERR', 'REF_CT_ABSENT', 'REF_ERR', 'PU_ERR', 'REM_ERR'])
    .concat(['QTE_ERR', 'ART_ERR', 'MODPAI_ERR', 'QUALITE_ERR', 'LIVR_INCOMP']),
  '208': ['JUSTIF_ABS', 'COORD_BANC_ERR', 'CMD_ERR', 'SIRET_ERR', 'CODE_ROUTAGE_ERR', 'REF_CT_ABSENT', 'REF_ERR'],
  '210': ['TX_TVA_ERR', 'MONTANTTOTAL_ERR', 'CALCUL_ERR', 'NON_CONFORME', 'DOUBLON', 'DEST_ERR', 'TRANSAC_INC'].concat([
    'EMMET_INC',
    'CONTRAT_TERM',
    'DOUBLE_FACT',
    'CMD_ERR',
    'ADR_ERR',
    'REF_CT_ABSENT',
  ]),
  '213': ['MONTANTTOTAL_ERR', 'CALCUL_ERR', 'DOUBLON', 'DEST_INC', 'ADR_ERR', 'REJ_SEMAN', 'REJ_UNI', 'REJ_COH'].concat(
    ['REJ_ADR', 'REJ_CONT_B2G', 'REJ_REF_PJ', 'REJ_ASS_PJ'],
  ),
  '221': ['ROUTAGE_ERR'],
  '501': ['IRR_VIDE_F', 'IRR_TYPE_F', 'IRR_SYNTAX', 'IRR_TAILLE_PJ', 'IRR_NOM_PJ', 'IRR_VID_PJ', 'IRR_EXT_DOC'].concat([
    'IRR_TAILLE_F',
    'IRR_ANTIVIRUS',
    'IRR_NOM_F',
  ]),
};

/**
 * Why a status cannot carry this reason in a valid life-cycle message (the rule broken and what it
 * allows), or null when it can: BR-FR-CDV-15 (a reason is required) and BR-FR-CDV-CL-09 (the closed
 * lists). What the schematron would refuse, answered in microseconds.
 */
export function reasonRefusal(status: string, reasonCode: string | null): string | null {
  const allowed = reasonsOfStatus[status];
  if (reasonCode === null)
    return statusesRequiringReason.has(status)
      ? `status ${status} carries a reason code (BR-FR-CDV-15): one of ${allowed!.join(', ')}`
      : null;
  if (!statusReasonCodes.has(reasonCode))
    return `${reasonCode} is not a life-cycle reason code (BR-FR-CDV-CL-09)${allowed ? `; status ${status} carries one of ${allowed.join(', ')}` : ''}`;
  if (allowed && !allowed.includes(reasonCode))
    return `status ${status} does not carry ${reasonCode} (BR-FR-CDV-CL-09): one of ${allowed.join(', ')}`;
  return null;
}

/**
 * The rows of the contract's rejection table that no conformant life-cycle message carries: a 213
 * alone (BR-FR-CDV-15; "never classed as semantic"), and a 213 with REJ_SYNT, REJ_XSD, REJ_DOUBLON
 * (no life-cycle reason codes) or AUTRE (not one of a 213's) (BR-FR-CDV-CL-09). A platform may
 * still send them so: the sandbox plays them when asked (`conformant: false`), as such a platform.
 */
const nonconformantContractRows: ReadonlySet<string> = new Set([
  '213:',
  '213:REJ_SYNT',
  '213:REJ_XSD',
  '213:REJ_DOUBLON',
  '213:AUTRE',
]);

export function isNonconformantContractRow(status: string, reasonCode: string | null): boolean {
  return nonconformantContractRows.has(`${status}:${reasonCode ?? ''}`);
}

/** The platforms' statuses, in the transmission phase (MDT-77 = 305); the others are processing (23). */
const transmissionPhase: ReadonlySet<string> = new Set(['200', '201', '202', '203', '213', '221', '501']);

/** Who issues a status: a platform (WK), the buyer (BY) or the seller (SE). */
export type CdarRole = 'WK' | 'BY' | 'SE';

export interface CdarParty {
  role: CdarRole;
  /** SIREN (scheme 0002) of the buyer or the seller; a platform is anonymous between platforms. */
  siren?: string | null;
  name?: string | null;
}

export interface CollectedAmount {
  /** The amount collected at this VAT rate, tax included, decimal string (`120.00`). */
  amount: string;
  /** The VAT rate in percent (`20`, `5.5`). */
  vatRate: string;
}

export interface CdarMessageInput {
  /** MDT-4, unique per message. */
  messageId: string;
  issuedAt: Date;
  status: LifecycleStatusCode;
  invoice: {
    number: string;
    /** `YYYY-MM-DD`. */
    issueDate: string;
    /** UNTDID 1001: 380 invoice, 381 credit note. */
    typeCode?: string;
    sellerSiren: string;
  };
  /** Who sets the status: a platform for 200-203, 213, 221, 501; the buyer for 204-211; the seller for 212. */
  issuer: CdarParty;
  /** The seller, addressee of the message, at its electronic address (BT-34, scheme 0225). */
  recipient: { siren: string; electronicAddress: string; name?: string | null };
  /** MDT-113 and its text; required for 206, 207, 208, 210, 213, 501. */
  reason?: { code: string; text?: string | null } | null;
  /** Free notes (MDT-126), kept verbatim. */
  notes?: readonly string[];
  /** 212: the amounts collected, one per VAT rate (BR-FR-CDV-14). */
  collected?: readonly CollectedAmount[];
  /**
   * false: written even without the reason BR-FR-CDV-15 requires, as an imperfect platform sends
   * it (a contract row no conformant message carries, played by the sandbox). Default true.
   */
  conformant?: boolean;
}

const pad = (value: number, size = 2) => String(value).padStart(size, '0');
/** UNTDID 2379 format 204: CCYYMMDDHHMMSS, in UTC. */
const timestamp204 = (date: Date) =>
  `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;

export class CdarInputError extends Error {}

/** The CDAR XML of one status. Throws CdarInputError for a status the rules would refuse. */
export function buildCdarMessage(input: CdarMessageInput): string {
  if (input.conformant !== false && statusesRequiringReason.has(input.status) && !input.reason?.code)
    throw new CdarInputError(`status ${input.status} needs a reason code (BR-FR-CDV-15)`);
  if (input.status === '212' && !input.collected?.length)
    throw new CdarInputError('status 212 needs the amounts collected per VAT rate (BR-FR-CDV-14)');
  const phase = transmissionPhase.has(input.status) ? '305' : '23';
  if (phase === '23' && (input.issuer.role === 'WK' || !input.issuer.siren))
    throw new CdarInputError(`status ${input.status} is set by the buyer or the seller, with its SIREN (BR-FR-CDV-07)`);

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    cdarNamespaces.rsm,
    'rsm:CrossDomainAcknowledgementAndResponse',
    { 'xmlns:ram': cdarNamespaces.ram, 'xmlns:qdt': cdarNamespaces.qdt, 'xmlns:udt': cdarNamespaces.udt },
  );
  const context = root.ele('rsm:ExchangedDocumentContext');
  context.ele('ram:BusinessProcessSpecifiedDocumentContextParameter').ele('ram:ID').txt('REGULATED');
  context.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(cdarGuideline);

  const exchanged = root.ele('rsm:ExchangedDocument');
  exchanged.ele('ram:ID').txt(input.messageId);
  exchanged.ele('ram:Name').txt(`${input.invoice.number} ${input.status} ${lifecycleStatusNames[input.status]}`);
  exchanged.ele('ram:IssueDateTime').ele('udt:DateTimeString', { format: '204' }).txt(timestamp204(input.issuedAt));
  // The sender is the platform that carries the message; in the transmission phase it is also the issuer.
  exchanged.ele('ram:SenderTradeParty').ele('ram:RoleCode').txt('WK');
  const issuer = exchanged.ele('ram:IssuerTradeParty');
  if (phase === '23') issuer.ele('ram:GlobalID', { schemeID: '0002' }).txt(input.issuer.siren!);
  if (input.issuer.name) issuer.ele('ram:Name').txt(input.issuer.name);
  issuer.ele('ram:RoleCode').txt(phase === '305' ? 'WK' : input.issuer.role);
  const recipient = exchanged.ele('ram:RecipientTradeParty');
  recipient.ele('ram:GlobalID', { schemeID: '0002' }).txt(input.recipient.siren);
  if (input.recipient.name) recipient.ele('ram:Name').txt(input.recipient.name);
  recipient.ele('ram:RoleCode').txt('SE');
  recipient
    .ele('ram:URIUniversalCommunication')
    .ele('ram:URIID', { schemeID: '0225' })
    .txt(input.recipient.electronicAddress);

  const acknowledgement = root.ele('rsm:AcknowledgementDocument');
  acknowledgement.ele('ram:MultipleReferencesIndicator').ele('udt:Indicator').txt('false');
  acknowledgement.ele('ram:TypeCode').txt(phase);
  acknowledgement
    .ele('ram:IssueDateTime')
    .ele('udt:DateTimeString', { format: '204' })
    .txt(timestamp204(input.issuedAt));
  const reference = acknowledgement.ele('ram:ReferenceReferencedDocument');
  reference.ele('ram:IssuerAssignedID').txt(input.invoice.number);
  reference.ele('ram:TypeCode').txt(input.invoice.typeCode ?? '380');
  reference
    .ele('ram:FormattedIssueDateTime')
    .ele('qdt:DateTimeString', { format: '102' })
    .txt(input.invoice.issueDate.replaceAll('-', ''));
  reference.ele('ram:ProcessConditionCode').txt(input.status);
  reference.ele('ram:ProcessCondition').txt(lifecycleStatusNames[input.status]);
  const seller = reference.ele('ram:IssuerTradeParty');
  seller.ele('ram:GlobalID', { schemeID: '0002' }).txt(input.invoice.sellerSiren);
  seller.ele('ram:RoleCode').txt('SE');

  const notes = (input.notes ?? []).filter((note) => note.trim() !== '');
  if (input.reason || notes.length > 0 || input.collected?.length) {
    const detail = reference.ele('ram:SpecifiedDocumentStatus');
    if (input.reason) {
      detail.ele('ram:ReasonCode').txt(input.reason.code);
      if (input.reason.text) detail.ele('ram:Reason').txt(input.reason.text);
    }
    detail.ele('ram:SequenceNumeric').txt('1');
    for (const note of notes) detail.ele('ram:IncludedNote').ele('ram:Content').txt(note);
    for (const line of input.collected ?? []) addCollected(detail, line);
  }
  return root.end({ prettyPrint: false });
}

function addCollected(detail: XMLBuilder, line: CollectedAmount): void {
  const characteristic = detail.ele('ram:SpecifiedDocumentCharacteristic');
  characteristic.ele('ram:TypeCode').txt('MEN');
  characteristic.ele('ram:ValueAmount').txt(line.amount);
  characteristic.ele('ram:ValuePercent').txt(line.vatRate);
}

/** One status read from a CDAR message. */
export interface CdarStatus {
  messageId: string | null;
  issuedAt: Date | null;
  /** MDT-105 (or MDT-115 of a detail), as written: `213`. */
  statusCode: string;
  /** The invoice the status is about (MDT-87) and its issue date (`YYYY-MM-DD`), when given. */
  invoiceNumber: string | null;
  invoiceIssueDate: string | null;
  sellerSiren: string | null;
  /** Who set it, as MDT-40 says (WK, BY, SE...). */
  issuerRole: string | null;
  /** MDT-113 codes and texts, in order; several details give several reasons. */
  reasons: { code: string; text: string | null }[];
  /** The notes, verbatim. */
  notes: string[];
  collected: CollectedAmount[];
}

export class CdarParseError extends Error {}

/** CDAR elements by namespace; the repeated ones are always lists. */
const readCdarTree = xmlReader({
  namespaces: Object.values(cdarNamespaces),
  repeated: [
    'AcknowledgementDocument',
    'ReferenceReferencedDocument',
    'SpecifiedDocumentStatus',
    'IncludedNote',
    'Content',
    'Reason',
    'GlobalID',
    'SpecifiedDocumentCharacteristic',
    'RecipientTradeParty',
  ],
});

function dateOf(value: unknown): Date | null {
  const raw = text(value, 'DateTimeString') ?? text(value, 'DateTime');
  if (!raw) return null;
  const compact = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?/.exec(raw);
  if (compact && !raw.includes('-'))
    return new Date(
      Date.UTC(
        +compact[1]!,
        +compact[2]! - 1,
        +compact[3]!,
        +(compact[4] ?? 0),
        +(compact[5] ?? 0),
        +(compact[6] ?? 0),
      ),
    );
  const parsed = new Date(raw);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function isoDay(value: unknown): string | null {
  const raw = text(value, 'DateTimeString');
  const match = raw ? /^(\d{4})-?(\d{2})-?(\d{2})/.exec(raw) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/** The statuses of a CDAR message. Throws CdarParseError when it is not one. */
export function parseCdarMessage(xml: string): CdarStatus[] {
  // A platform's answer is untrusted: a DOCTYPE (entity bomb, external DTD) is refused before the parser.
  let document: Record<string, unknown>;
  try {
    document = readCdarTree(xml);
  } catch (error) {
    if (!(error instanceof XmlReadingError)) throw error;
    throw new CdarParseError(error.kind === 'malformed' ? `not XML: ${error.reason}` : error.reason);
  }
  const root = document.CrossDomainAcknowledgementAndResponse;
  if (!root || typeof root !== 'object' || Array.isArray(root))
    throw new CdarParseError('not a CrossDomainAcknowledgementAndResponse');
  const exchanged = child(root, 'ExchangedDocument');
  const messageId = text(exchanged, 'ID');
  const issuedAt = dateOf(child(exchanged, 'IssueDateTime'));
  const issuerRole = text(exchanged, 'IssuerTradeParty', 'RoleCode');
  const statuses: CdarStatus[] = [];
  for (const acknowledgement of elements(child(root, 'AcknowledgementDocument'))) {
    for (const reference of elements(child(acknowledgement, 'ReferenceReferencedDocument'))) {
      const details = elements(child(reference, 'SpecifiedDocumentStatus'));
      const sellerSiren = text(reference, 'IssuerTradeParty', 'GlobalID');
      const base = {
        messageId,
        issuedAt: dateOf(child(acknowledgement, 'IssueDateTime')) ?? issuedAt,
        invoiceNumber: text(reference, 'IssuerAssignedID'),
        invoiceIssueDate: isoDay(child(reference, 'FormattedIssueDateTime')),
        sellerSiren,
        issuerRole,
      };
      const detailOf = (detail: unknown) => ({
        reasons: text(detail, 'ReasonCode')
          ? [{ code: text(detail, 'ReasonCode')!, text: text(detail, 'Reason') }]
          : ([] as CdarStatus['reasons']),
        notes: elements(child(detail, 'IncludedNote')).flatMap((note) =>
          elements(child(note, 'Content'))
            .map(textOf)
            .filter((t): t is string => !!t),
        ),
        collected: elements(child(detail, 'SpecifiedDocumentCharacteristic'))
          .filter((characteristic) => text(characteristic, 'TypeCode') === 'MEN')
          .map((characteristic) => ({
            amount: text(characteristic, 'ValueAmount') ?? '',
            vatRate: text(characteristic, 'ValuePercent') ?? '',
          })),
      });
      const documentCode = text(reference, 'ProcessConditionCode');
      // The document-level status (MDT-105) gathers the details without a status of their own.
      if (documentCode) {
        const own = details
          .filter((detail) => [null, documentCode].includes(text(detail, 'ProcessConditionCode')))
          .map(detailOf);
        statuses.push({
          ...base,
          statusCode: documentCode,
          reasons: own.flatMap((detail) => detail.reasons),
          notes: own.flatMap((detail) => detail.notes),
          collected: own.flatMap((detail) => detail.collected),
        });
      }
      for (const detail of details) {
        const code = text(detail, 'ProcessConditionCode');
        if (code && code !== documentCode) statuses.push({ ...base, statusCode: code, ...detailOf(detail) });
      }
    }
  }
  if (statuses.length === 0) throw new CdarParseError('the message carries no status (MDT-105)');
  return statuses;
}
