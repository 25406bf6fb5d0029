-- Invoice and credit-note deposits are flows of the platform's outbox (platform_flows, kind
-- `invoices.deposit`, src/invoices/deposit-flow.ts): every deposit job moves there, its state, tries
-- and due time kept. A job watching the directory is a pending flow (the document's `depositWait`
-- says it watches); a job held by a worker loses its lease, and as its tries count at least one,
-- its next try searches the platform by its tracking id first (one deposit per attempt).
insert into platform_flows (company_id, livemode, kind, owner_id, tracking_id, establishment_id, file, name, syntax,
  detail, state, tries, next_attempt_at, locked_until, lock_token, flow_id, last_error, created, updated)
select company_id, livemode, 'invoices.deposit', document_id, tracking_id, establishment_id, ''::bytea, '', 'Factur-X',
  jsonb_build_object('attempt', attempt, 'documentKind', document_kind, 'duplicates', duplicates),
  case state when 'pending' then 'pending' when 'waiting_directory' then 'pending' when 'deposited' then 'deposited'
    when 'rejected' then 'failed' else 'abandoned' end,
  tries, coalesce(next_attempt_at, updated), null, null, flow_id, last_error, created, updated
from document_deposits
on conflict do nothing;--> statement-breakpoint
drop table document_deposits;
