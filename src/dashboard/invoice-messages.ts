import type { Lang } from './language.js';
import type { RejectionCategory } from '../platform/rejection-classification.js';

/** The texts of the invoice and credit-note pages, in English and French (same keys). */
const en = {
  invoices: 'Invoices',
  creditNotes: 'Credit notes',
  invoice: 'Invoice',
  creditNote: 'Credit note',
  documentTitle: (kind: 'invoice' | 'credit_note', number: string | null) =>
    `${kind === 'invoice' ? 'Invoice' : 'Credit note'} ${number ?? '(draft)'}`,
  number: 'Number',
  customer: 'Customer',
  customerId: 'Customer id',
  date: 'Date',
  dueDate: 'Due date',
  total: 'Total',
  amountDue: 'Amount due',
  status: 'Status',
  allStatuses: 'All statuses',
  from: 'From',
  to: 'To',
  search: 'Search by number',
  filter: 'Filter',
  none: (kind: 'invoice' | 'credit_note', filtered: boolean): string =>
    filtered ? 'Nothing matches these filters.' : kind === 'invoice' ? 'No invoice yet.' : 'No credit note yet.',
  older: 'Older →',
  newest: '← Newest',
  statuses: {
    draft: 'draft',
    cancelled: 'cancelled',
    refunded: 'refunded',
    partially_refunded: 'partially refunded',
    paid: 'paid',
    refused: 'refused',
    credit_refused: 'refused',
    rejected: 'rejected',
    suspended: 'suspended',
    partially_paid: 'partially paid',
    approved: 'approved',
    received: 'received',
    available: 'available',
    transmitted: 'transmitted',
    deposited: 'deposited',
    sending: 'sending',
    finalized: 'finalized',
  },
  pdf: 'The document',
  pdfPending: 'The files are being generated: reload the page in a moment.',
  noFilesDraft: 'A draft has no file: finalize it to number it and make its files.',
  files: 'Files',
  download: 'Download',
  fileKinds: { facturx: 'Factur-X (PDF with its XML)', xml: 'CII XML', pdf: 'Readable PDF', ubl: 'UBL XML' },
  ruleSet: (set: string) => `Validated by the official rules in force on the issue date: FNFE-MPE ${set}.`,
  timeline: 'Status timeline',
  createdAt: 'Created',
  finalizedAt: 'Finalized (numbered)',
  fromPlatform: 'platform',
  fromBuyer: 'buyer',
  fromSeller: 'seller',
  reasonLabel: 'Reason',
  noStatusYet: 'No status received from the platform yet.',
  rejection: 'Rejection',
  category: 'Category',
  nextStep: 'Next step',
  rejectionSources: { platform: 'the platform', buyer: 'the buyer', service: 'the service' },
  rejectedBy: 'Rejected by',
  actions: 'Actions',
  finalize: 'Finalize (number it)',
  send: 'Send to the platform',
  resend: 'Send again after the rejection',
  recordPayment: 'Record a payment',
  amount: 'Amount',
  paidAt: 'Received on (optional)',
  record: 'Record',
  issueCreditNote: 'Issue a credit note for this invoice',
  creditNoteHint:
    'The draft credits the whole invoice, its lines as issued; edit its lines through the API for a part, then finalize it here.',
  creditReason: 'Reason (optional, printed on the credit note)',
  corrects: 'Corrects the invoice',
  lines: 'Lines',
  description: 'Description',
  quantity: 'Quantity',
  unitPrice: 'Unit price',
  notices: {
    finalized: 'The invoice is finalized: its number is taken and its files are being generated.',
    sent: 'The document is on its way to the platform.',
    payment_recorded: 'The payment is recorded.',
    credit_note_created: 'The credit note is drafted for the whole invoice: check it, then finalize it to number it.',
  },
};

export type InvoiceMessages = typeof en;

const fr: InvoiceMessages = {
  invoices: 'Factures',
  creditNotes: 'Avoirs',
  invoice: 'Facture',
  creditNote: 'Avoir',
  documentTitle: (kind: 'invoice' | 'credit_note', number: string | null) =>
    `${kind === 'invoice' ? 'Facture' : 'Avoir'} ${number ?? '(brouillon)'}`,
  number: 'Numéro',
  customer: 'Client',
  customerId: 'Identifiant client',
  date: 'Date',
  dueDate: 'Échéance',
  total: 'Total TTC',
  amountDue: 'Reste dû',
  status: 'Statut',
  allStatuses: 'Tous les statuts',
  from: 'Du',
  to: 'Au',
  search: 'Rechercher par numéro',
  filter: 'Filtrer',
  none: (kind: 'invoice' | 'credit_note', filtered: boolean): string =>
    filtered
      ? 'Rien ne correspond à ces filtres.'
      : kind === 'invoice'
        ? 'Aucune facture pour l’instant.'
        : 'Aucun avoir pour l’instant.',
  older: 'Plus anciennes →',
  newest: '← Les plus récentes',
  statuses: {
    draft: 'brouillon',
    cancelled: 'annulée',
    refunded: 'remboursée',
    partially_refunded: 'partiellement remboursée',
    paid: 'payée',
    refused: 'refusée',
    credit_refused: 'refusé',
    rejected: 'rejetée',
    suspended: 'suspendue',
    partially_paid: 'partiellement payée',
    approved: 'approuvée',
    received: 'reçue',
    available: 'mise à disposition',
    transmitted: 'transmise',
    deposited: 'déposée',
    sending: 'en cours d’envoi',
    finalized: 'finalisée',
  },
  pdf: 'Le document',
  pdfPending: 'Les fichiers sont en cours de génération : rechargez la page dans un instant.',
  noFilesDraft: 'Un brouillon n’a pas de fichier : finalisez-le pour le numéroter et produire ses fichiers.',
  files: 'Fichiers',
  download: 'Télécharger',
  fileKinds: { facturx: 'Factur-X (PDF avec son XML)', xml: 'XML CII', pdf: 'PDF lisible', ubl: 'XML UBL' },
  ruleSet: (set: string) => `Validés par les règles officielles en vigueur à la date d’émission : FNFE-MPE ${set}.`,
  timeline: 'Historique des statuts',
  createdAt: 'Créée',
  finalizedAt: 'Finalisée (numérotée)',
  fromPlatform: 'plateforme',
  fromBuyer: 'acheteur',
  fromSeller: 'vendeur',
  reasonLabel: 'Motif',
  noStatusYet: 'Aucun statut reçu de la plateforme pour l’instant.',
  rejection: 'Rejet',
  category: 'Catégorie',
  nextStep: 'Prochaine étape',
  rejectionSources: { platform: 'la plateforme', buyer: 'l’acheteur', service: 'le service' },
  rejectedBy: 'Rejetée par',
  actions: 'Actions',
  finalize: 'Finaliser (numéroter)',
  send: 'Envoyer à la plateforme',
  resend: 'Renvoyer après le rejet',
  recordPayment: 'Enregistrer un paiement',
  amount: 'Montant',
  paidAt: 'Reçu le (facultatif)',
  record: 'Enregistrer',
  issueCreditNote: 'Émettre un avoir pour cette facture',
  creditNoteHint:
    'Le brouillon crédite toute la facture, ses lignes telles qu’émises ; pour une partie, modifiez ses lignes par l’API, puis finalisez-le ici.',
  creditReason: 'Motif (facultatif, imprimé sur l’avoir)',
  corrects: 'Corrige la facture',
  lines: 'Lignes',
  description: 'Désignation',
  quantity: 'Quantité',
  unitPrice: 'Prix unitaire',
  notices: {
    finalized: 'La facture est finalisée : son numéro est attribué et ses fichiers sont en cours de génération.',
    sent: 'Le document part vers la plateforme.',
    payment_recorded: 'Le paiement est enregistré.',
    credit_note_created:
      'Le brouillon d’avoir couvre toute la facture : vérifiez-le, puis finalisez-le pour le numéroter.',
  },
};

/** The contract's "Next step by rejection category", in words, per language. */
const categories: Record<Lang, Record<RejectionCategory, { meaning: string; next: string }>> = {
  en: {
    buyer_not_in_directory: {
      meaning: 'No active directory address for the buyer; the content was not validated.',
      next: 'The service watches the directory and resumes the deposit once an active, eligible address exists.',
    },
    addressing_error: {
      meaning: 'The routing address is inconsistent with the directory.',
      next: 'Handled by the service; nothing to do.',
    },
    other: { meaning: 'A reason without a code, explained in the note.', next: 'Handled by the service.' },
    format_invalid: { meaning: 'The file failed the reception checks.', next: 'Handled by the service.' },
    semantic_error: {
      meaning: 'The content breaks an e-invoicing rule (EN 16931, BR-FR).',
      next: 'Handled by the service.',
    },
    duplicate: {
      meaning: 'The platform signals a duplicate.',
      next: 'The service looks for the proof of reception before any new sending.',
    },
    platform_auth: {
      meaning: 'The platform refused the establishment’s credentials.',
      next: 'Handled by the service.',
    },
    platform_unavailable: { meaning: 'The platform could not process it.', next: 'Automatic retry by the service.' },
    refused_by_buyer: {
      meaning: 'The buyer refused the invoice (fr:210).',
      next: 'Contact the customer; no new deposit is made automatically.',
    },
    suspended: {
      meaning: 'The buyer suspended it, waiting for more (fr:207 / fr:208).',
      next: 'Answer the customer; the invoice resumes on the buyer’s platform.',
    },
    unknown: { meaning: 'An unrecognized reason.', next: 'Handled by the service.' },
  },
  fr: {
    buyer_not_in_directory: {
      meaning: 'Aucune adresse active de l’acheteur dans l’annuaire ; le contenu n’a pas été validé.',
      next: 'Le service surveille l’annuaire et reprend le dépôt dès qu’une adresse active et éligible existe.',
    },
    addressing_error: {
      meaning: 'L’adresse de routage ne concorde pas avec l’annuaire.',
      next: 'Pris en charge par le service ; rien à faire.',
    },
    other: { meaning: 'Un motif non codifié, expliqué dans la note.', next: 'Pris en charge par le service.' },
    format_invalid: {
      meaning: 'Le fichier a échoué aux contrôles de réception.',
      next: 'Pris en charge par le service.',
    },
    semantic_error: {
      meaning: 'Le contenu enfreint une règle de la facturation électronique (EN 16931, BR-FR).',
      next: 'Pris en charge par le service.',
    },
    duplicate: {
      meaning: 'La plateforme signale un doublon.',
      next: 'Le service recherche la preuve de réception avant tout nouvel envoi.',
    },
    platform_auth: {
      meaning: 'La plateforme a refusé les identifiants de l’établissement.',
      next: 'Pris en charge par le service.',
    },
    platform_unavailable: {
      meaning: 'La plateforme n’a pas pu traiter le dépôt.',
      next: 'Nouvelle tentative automatique par le service.',
    },
    refused_by_buyer: {
      meaning: 'L’acheteur a refusé la facture (fr:210).',
      next: 'Contactez le client ; aucun nouveau dépôt n’est fait automatiquement.',
    },
    suspended: {
      meaning: 'L’acheteur l’a suspendue dans l’attente de compléments (fr:207 / fr:208).',
      next: 'Répondez au client ; la facture reprend sur la plateforme de l’acheteur.',
    },
    unknown: { meaning: 'Un motif non reconnu.', next: 'Pris en charge par le service.' },
  },
};

/** The life-cycle statuses of the reform, by code, and who reports each. */
const lifecycle: Record<Lang, Record<string, string>> = {
  en: {
    'fr:200': 'Deposited',
    'fr:201': 'Issued by the platform',
    'fr:202': 'Received by the platform',
    'fr:203': 'Made available',
    'fr:204': 'Taken over',
    'fr:205': 'Approved',
    'fr:206': 'Partly approved',
    'fr:207': 'Disputed',
    'fr:208': 'Suspended',
    'fr:209': 'Completed',
    'fr:210': 'Refused',
    'fr:211': 'Payment transmitted',
    'fr:212': 'Paid (cashed)',
    'fr:213': 'Rejected',
  },
  fr: {
    'fr:200': 'Déposée',
    'fr:201': 'Émise par la plateforme',
    'fr:202': 'Reçue par la plateforme',
    'fr:203': 'Mise à disposition',
    'fr:204': 'Prise en charge',
    'fr:205': 'Approuvée',
    'fr:206': 'Approuvée partiellement',
    'fr:207': 'En litige',
    'fr:208': 'Suspendue',
    'fr:209': 'Complétée',
    'fr:210': 'Refusée',
    'fr:211': 'Paiement transmis',
    'fr:212': 'Encaissée',
    'fr:213': 'Rejetée',
  },
};

/** Who reports a status: the platforms (deposit to availability, rejection), else the buyer or the seller. */
export function reporterOf(code: string): 'platform' | 'buyer' | 'seller' {
  if (['fr:200', 'fr:201', 'fr:202', 'fr:203', 'fr:213'].includes(code)) return 'platform';
  return code === 'fr:212' ? 'seller' : 'buyer';
}

export function lifecycleLabel(lang: Lang, code: string): string {
  return lifecycle[lang][code] ?? code;
}

export function rejectionWords(lang: Lang, category: RejectionCategory): { meaning: string; next: string } {
  return categories[lang][category];
}

const catalogues: Record<Lang, InvoiceMessages> = { en, fr };

export function invoiceMessagesOf(lang: Lang): InvoiceMessages {
  return catalogues[lang];
}
