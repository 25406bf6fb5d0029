-- The one inbox per connection (issue 34): platform_readers, the deposits' readers, becomes the
-- reader of every flow of a connection (one cursor, one subscription); the received invoices'
-- readers bring their cursors into it, and keep only their subscription (its key authenticates the
-- callbacks a platform still sends to their path). Nothing is skipped: a connection read by both
-- keeps the older cursor (events read again apply once, by their receipt's key); nothing applies
-- twice: each received invoice gets the receipt of its flow.
--
-- A cursor is base64url JSON {after, page, latest} (platform/afnor-connector.ts): `after` is the
-- updatedAt its traversal reads from; `page` is the platform's cursor of one search, not valid for
-- another (the received readers searched incoming invoices only), so a received cursor moves over
-- without it. Unreadable, a cursor reads from the start, as the connector reads it.
create function pg_temp.cursor_after(value text) returns text language plpgsql immutable as $$
begin
  if value is null then return null; end if;
  return convert_from(decode(rpad(translate(value, '-_', '+/'), ((length(value) + 3) / 4) * 4, '='), 'base64'), 'utf8')::jsonb ->> 'after';
exception when others then
  return null;
end $$;
--> statement-breakpoint
create function pg_temp.cursor_from(after text) returns text language sql immutable as $$
  select case when after is null then null else
    translate(rtrim(replace(encode(convert_to(json_build_object('after', after, 'page', null, 'latest', after)::text, 'utf8'), 'base64'), E'\n', ''), '='), '+/', '-_')
  end
$$;
--> statement-breakpoint
-- A connection read by both: the older cursor; a connection that differs between them is read from the start.
update platform_readers p set
  connection_key = coalesce(r.connection_key, p.connection_key),
  cursor = case
    when r.connection_key is not null and p.connection_key is not null and r.connection_key <> p.connection_key then null
    when p.cursor is null or r.cursor is null then null
    when pg_temp.cursor_after(r.cursor) is null or pg_temp.cursor_after(p.cursor) is null then null
    when pg_temp.cursor_after(r.cursor) < pg_temp.cursor_after(p.cursor) then pg_temp.cursor_from(pg_temp.cursor_after(r.cursor))
    else p.cursor
  end
from received_readers r
where r.company_id = p.company_id and r.livemode = p.livemode and r.establishment_id = p.establishment_id;
--> statement-breakpoint
-- A connection only the received invoices read: its reader, from its cursor (its subscription stays where it is).
insert into platform_readers (company_id, livemode, establishment_id, connection_key, cursor, last_polled_at, last_error, created)
select r.company_id, r.livemode, r.establishment_id, r.connection_key, pg_temp.cursor_from(pg_temp.cursor_after(r.cursor)),
  r.last_polled_at, r.last_error, r.created
from received_readers r
on conflict (company_id, livemode, establishment_id) do nothing;
--> statement-breakpoint
-- The received readers read no more: their leases and cursors go, their subscriptions stay.
update received_readers set cursor = null, locked_until = null, lock_token = null;
--> statement-breakpoint
-- Each received invoice's flow has its receipt: listed or pushed again, it is not taken twice.
insert into platform_status_receipts (company_id, livemode, event_key, document_id, created)
select company_id, livemode, 'incoming:' || flow_id, id, created from received_invoices
on conflict do nothing;
--> statement-breakpoint
-- The two polling passes are the one inbox pass (platform.inbox) now.
delete from periodic_passes where name in ('invoices.platform_statuses', 'received.poll');
