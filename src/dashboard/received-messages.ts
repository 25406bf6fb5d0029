import type { Lang } from './language.js';
import type { ReceivedAction, ReceivedStatus } from '../received/service.js';

/** The texts of the received-invoices inbox, in English and French (same keys). */
const en = {
  title: 'Received invoices',
  invoiceTitle: (number: string) => `Received invoice ${number}`,
  groups: { new: 'New', to_answer: 'Waiting for an answer', answered: 'Answered' },
  statuses: {
    received: 'new',
    approved: 'approved',
    refused: 'refused',
    disputed: 'disputed',
    suspended: 'suspended',
    payment_transmitted: 'payment transmitted',
  } satisfies Record<ReceivedStatus, string>,
  supplier: 'Supplier',
  number: 'Number',
  date: 'Date',
  dueDate: 'Due date',
  total: 'Total incl. VAT',
  receivedAt: 'Received',
  status: 'Status',
  none: 'No received invoice in this state.',
  older: 'Older →',
  newest: '← Newest',
  pdf: 'The supplier’s invoice',
  noPdf: 'The file received could not be read: there is no visual to show.',
  downloadOriginal: 'Download the file as received',
  validation: 'Validation',
  conformant: 'The file passes the official checks.',
  notConformant: (count: number) => `The file breaks ${count} rule(s) of the official checks.`,
  notChecked: 'The file was not checked.',
  answer: 'Answer',
  answerHint: 'Each answer is sent to the supplier through your platform, as the API does.',
  actions: {
    approve: 'Approve',
    refuse: 'Refuse',
    dispute: 'Dispute',
    suspend: 'Suspend (a piece is missing)',
    'payment-transmitted': 'Payment transmitted',
  } satisfies Record<ReceivedAction, string>,
  reasonCode: 'Reason code',
  reasonOptional: 'Message to the supplier (optional)',
  reasonRequired: 'Message to the supplier',
  history: 'History',
  noAnswerPossible: 'No answer is possible in this state.',
  answered: 'Your answer is sent to the supplier through the platform.',
};

export type ReceivedMessages = typeof en;

const fr: ReceivedMessages = {
  title: 'Factures reçues',
  invoiceTitle: (number: string) => `Facture reçue ${number}`,
  groups: { new: 'Nouvelles', to_answer: 'En attente de réponse', answered: 'Répondues' },
  statuses: {
    received: 'nouvelle',
    approved: 'approuvée',
    refused: 'refusée',
    disputed: 'en litige',
    suspended: 'suspendue',
    payment_transmitted: 'paiement transmis',
  },
  supplier: 'Fournisseur',
  number: 'Numéro',
  date: 'Date',
  dueDate: 'Échéance',
  total: 'Total TTC',
  receivedAt: 'Reçue le',
  status: 'Statut',
  none: 'Aucune facture reçue dans cet état.',
  older: 'Plus anciennes →',
  newest: '← Les plus récentes',
  pdf: 'La facture du fournisseur',
  noPdf: 'Le fichier reçu n’a pas pu être lu : il n’y a pas de visuel à afficher.',
  downloadOriginal: 'Télécharger le fichier tel que reçu',
  validation: 'Validation',
  conformant: 'Le fichier passe les contrôles officiels.',
  notConformant: (count: number) => `Le fichier enfreint ${count} règle(s) des contrôles officiels.`,
  notChecked: 'Le fichier n’a pas été contrôlé.',
  answer: 'Répondre',
  answerHint: 'Chaque réponse part vers le fournisseur par votre plateforme, comme avec l’API.',
  actions: {
    approve: 'Approuver',
    refuse: 'Refuser',
    dispute: 'Contester',
    suspend: 'Suspendre (pièce manquante)',
    'payment-transmitted': 'Paiement transmis',
  },
  reasonCode: 'Motif',
  reasonOptional: 'Message au fournisseur (facultatif)',
  reasonRequired: 'Message au fournisseur',
  history: 'Historique',
  noAnswerPossible: 'Aucune réponse n’est possible dans cet état.',
  answered: 'Votre réponse part vers le fournisseur par la plateforme.',
};

const catalogues: Record<Lang, ReceivedMessages> = { en, fr };

export function receivedMessagesOf(lang: Lang): ReceivedMessages {
  return catalogues[lang];
}
