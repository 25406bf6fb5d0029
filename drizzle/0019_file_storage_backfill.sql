-- The generated document files and the received invoices' files count against the plan's storage
-- from now on (counted in the transaction that stores them, given back when a sandbox reset deletes
-- them). The files stored before are counted here once, per company and environment, on top of
-- what the counter holds already (the exports' files).
INSERT INTO storage_usage (company_id, livemode, bytes)
SELECT company_id, livemode, sum(bytes)::bigint FROM (
  SELECT company_id, livemode,
    coalesce(octet_length(facturx), 0) + coalesce(octet_length(xml), 0) + coalesce(octet_length(pdf), 0) AS bytes
  FROM document_files
  UNION ALL
  SELECT company_id, livemode, size AS bytes FROM received_invoice_files
) files
GROUP BY company_id, livemode
HAVING sum(bytes) > 0
ON CONFLICT (company_id, livemode) DO UPDATE SET bytes = storage_usage.bytes + excluded.bytes;
