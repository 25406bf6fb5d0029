import type { FastifyRequest } from 'fastify';
import { readCookie } from './cookies.js';

/**
 * The dashboard's languages: French first (the language of the companies it serves), English
 * second. The choice is a cookie, so it holds across sessions and before log-in.
 */
export type Lang = 'fr' | 'en';
export const langs: readonly Lang[] = ['fr', 'en'];
export const defaultLang: Lang = 'fr';
export const langCookie = '__Host-facteur_lang';
/** A year: a language is chosen once. */
export const langCookieSeconds = 365 * 86_400;

export const isLang = (value: unknown): value is Lang => value === 'fr' || value === 'en';

export function langOf(request: FastifyRequest): Lang {
  const chosen = readCookie(request, langCookie);
  return isLang(chosen) ? chosen : defaultLang;
}

const locales: Record<Lang, string> = { fr: 'fr-FR', en: 'en-GB' };
/** Times are shown in France's time, where the companies and their deadlines are. */
const timeZone = 'Europe/Paris';

/** Dates, amounts and numbers written as the reader's locale writes them (Intl, no dependency). */
export class Formats {
  private readonly dateTime: Intl.DateTimeFormat;
  private readonly day: Intl.DateTimeFormat;
  private readonly numbers: Intl.NumberFormat;

  constructor(readonly lang: Lang) {
    const locale = locales[lang];
    this.dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone });
    // A calendar date (an issue date, a due date) has no time zone: read and written as UTC.
    this.day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    this.numbers = new Intl.NumberFormat(locale);
  }

  time(date: Date): string {
    return this.dateTime.format(date);
  }

  /** `2026-12-02` → "2 décembre 2026". */
  date(value: string | Date): string {
    return this.day.format(typeof value === 'string' ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : value);
  }

  number(value: number): string {
    return this.numbers.format(value);
  }

  /** A decimal amount (`"1234.56"`) in its currency: "1 234,56 €" in French. */
  amount(value: string | number, currency: string): string {
    const format = new Intl.NumberFormat(locales[this.lang], { style: 'currency', currency });
    return format.format(typeof value === 'string' ? Number(value) : value);
  }
}
