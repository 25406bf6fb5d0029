import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text layer of each page of a PDF, read by pdfjs. pdfjs gives the no-break spaces of French
 * amounts as such: they become plain spaces, so tests compare with plain spaces.
 */
export async function pageTexts(bytes: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\u00a0/g, ' '),
    );
  }
  await document.destroy();
  return pages;
}
