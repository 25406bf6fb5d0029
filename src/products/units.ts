/**
 * Units of measure: the common codes of UN/ECE Recommendation 20 (what EN 16931 BT-130 takes),
 * with their English names. A product's `unit` must be one of them.
 */
export const units = {
  C62: 'one (unit)',
  H87: 'piece',
  EA: 'each',
  SET: 'set',
  PR: 'pair',
  LS: 'lump sum',
  E48: 'service unit',
  SEC: 'second',
  MIN: 'minute',
  HUR: 'hour',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  GRM: 'gram',
  KGM: 'kilogram',
  TNE: 'tonne',
  MMT: 'millimetre',
  CMT: 'centimetre',
  MTR: 'metre',
  KMT: 'kilometre',
  MTK: 'square metre',
  MTQ: 'cubic metre',
  MLT: 'millilitre',
  LTR: 'litre',
  KWH: 'kilowatt hour',
  MWH: 'megawatt hour',
} as const;

export type UnitCode = keyof typeof units;
export const unitCodes = Object.keys(units) as UnitCode[];
