/**
 * The `Content-Disposition` of a download whose name came from outside (a received file's name):
 * RFC 6266 with the RFC 5987 extended value. The name loses any folder part (`../../etc/passwd` is
 * `passwd`) and control characters; `filename=` carries an ASCII fallback (other characters become
 * `_`), `filename*=` the name itself in UTF-8, percent-encoded. A header value is Latin-1 at most:
 * a raw `é` or `日` in it makes Node refuse the whole response.
 */

const fallbackName = 'file';

/** The last part of a path (either slash), without control characters; `file` when nothing is left. */
export function baseNameOf(name: string): string {
  const base = name
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .split(/[/\\]/)
    .at(-1)!
    .trim();
  return base === '' || base === '.' || base === '..' ? fallbackName : base;
}

/** RFC 5987 `attr-char`: what an extended value may carry unencoded. */
const encodeExtended = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

export function attachmentDisposition(name: string): string {
  const base = baseNameOf(name);
  const ascii = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtended(base)}`;
}
