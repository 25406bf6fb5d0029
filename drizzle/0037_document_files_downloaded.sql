-- The contract's trigger of `invoice.sent`: "sent through the platform or manual download". A
-- document outside e-invoicing (B2C, international) is sent by the seller, from its downloaded
-- file: its first download records the sending once (src/invoices/files.ts).
ALTER TABLE "document_files" ADD COLUMN "downloaded_at" timestamptz;
