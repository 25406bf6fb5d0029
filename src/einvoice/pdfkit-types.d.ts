import type { Font } from 'fontkit';

/**
 * What pdfkit 0.20 accepts and @types/pdfkit 0.17 does not say: a parsed fontkit font where a font
 * source goes, and the AFRelationship of an attachment (PDF/A-3).
 */
declare global {
  namespace PDFKit {
    namespace Mixins {
      interface PDFAttachmentOptions {
        relationship?:
          'Source' | 'Data' | 'Alternative' | 'Supplement' | 'EncryptedPayload' | 'FormData' | 'Schema' | 'Unspecified';
      }
      interface PDFFont {
        registerFont(name: string, src: Font): this;
      }
    }
  }
}
