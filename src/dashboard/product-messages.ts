import type { Lang } from './language.js';
import { units, type UnitCode } from '../products/units.js';

/** The texts of the product pages, in English and French (same keys). */
const en = {
  products: 'Products',
  newProduct: 'New product',
  editProduct: 'Edit the product',
  deleteProduct: 'Delete the product',
  deleteQuestion: (name: string) => `Delete the product ${name}?`,
  deleteExplanation:
    'It stays on the documents that use it, but can no longer be changed nor chosen for a new line. This cannot be undone.',
  none: 'No product yet.',
  older: 'Older →',
  newest: '← Newest',
  allNatures: 'All natures',
  filter: 'Filter',
  name: 'Name',
  description: 'Description (optional)',
  unitPrice: 'Unit price excl. VAT',
  unitPriceHint: 'A decimal such as 12.50 or 12,50 (at most 6 decimals).',
  unit: 'Unit',
  nature: 'Nature',
  natures: { goods: 'Goods', services: 'Services', electronic_service: 'Electronic service' },
  vatCategory: 'VAT rate',
  vatCategories: {
    standard: 'Standard (20 % in mainland France)',
    intermediate: 'Intermediate (10 %)',
    reduced: 'Reduced (5.5 %)',
    super_reduced: 'Super-reduced (2.1 %)',
    zero: 'Zero-rated (0 %)',
    exempt: 'Exempt',
  },
  /** The English names are the products module's own (UN/ECE Recommendation 20). */
  units: units as Record<UnitCode, string>,
  created: 'Created',
  updated: 'Updated',
  deleted: 'This product is deleted: it stays on its documents but can no longer be changed.',
  create: 'Create the product',
  save: 'Save',
  cancel: 'Cancel',
  notices: {
    product_created: 'The product is created.',
    product_updated: 'The product is saved.',
    product_deleted: 'The product is deleted.',
  },
};

export type ProductMessages = typeof en;

const fr: ProductMessages = {
  products: 'Produits',
  newProduct: 'Nouveau produit',
  editProduct: 'Modifier le produit',
  deleteProduct: 'Supprimer le produit',
  deleteQuestion: (name: string) => `Supprimer le produit ${name} ?`,
  deleteExplanation:
    'Il reste sur les documents qui l’utilisent, mais ne peut plus être modifié ni choisi pour une nouvelle ligne. C’est définitif.',
  none: 'Aucun produit pour l’instant.',
  older: 'Plus anciens →',
  newest: '← Les plus récents',
  allNatures: 'Toutes les natures',
  filter: 'Filtrer',
  name: 'Désignation',
  description: 'Description (facultative)',
  unitPrice: 'Prix unitaire HT',
  unitPriceHint: 'Un nombre décimal comme 12,50 ou 12.50 (6 décimales au plus).',
  unit: 'Unité',
  nature: 'Nature',
  natures: { goods: 'Biens', services: 'Services', electronic_service: 'Service électronique' },
  vatCategory: 'Taux de TVA',
  vatCategories: {
    standard: 'Normal (20 % en métropole)',
    intermediate: 'Intermédiaire (10 %)',
    reduced: 'Réduit (5,5 %)',
    super_reduced: 'Particulier (2,1 %)',
    zero: 'Taux zéro (0 %)',
    exempt: 'Exonéré',
  },
  units: {
    C62: 'unité',
    H87: 'pièce',
    EA: 'chacun',
    SET: 'lot',
    PR: 'paire',
    LS: 'forfait',
    E48: 'unité de service',
    SEC: 'seconde',
    MIN: 'minute',
    HUR: 'heure',
    DAY: 'jour',
    WEE: 'semaine',
    MON: 'mois',
    ANN: 'année',
    GRM: 'gramme',
    KGM: 'kilogramme',
    TNE: 'tonne',
    MMT: 'millimètre',
    CMT: 'centimètre',
    MTR: 'mètre',
    KMT: 'kilomètre',
    MTK: 'mètre carré',
    MTQ: 'mètre cube',
    MLT: 'millilitre',
    LTR: 'litre',
    KWH: 'kilowattheure',
    MWH: 'mégawattheure',
  },
  created: 'Créé',
  updated: 'Modifié',
  deleted: 'Ce produit est supprimé : il reste sur ses documents mais ne peut plus être modifié.',
  create: 'Créer le produit',
  save: 'Enregistrer',
  cancel: 'Annuler',
  notices: {
    product_created: 'Le produit est créé.',
    product_updated: 'Le produit est enregistré.',
    product_deleted: 'Le produit est supprimé.',
  },
};

const catalogues: Record<Lang, ProductMessages> = { en, fr };

export function productMessagesOf(lang: Lang): ProductMessages {
  return catalogues[lang];
}
