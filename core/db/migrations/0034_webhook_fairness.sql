-- Webhook fairness (docs/webhooks.md, "Fairness"): deliveries in flight are capped per
-- endpoint and per owner, counted from the live leases, and an endpoint that answers slowly
-- gets a smaller cap.
--
-- The claim counts each enabled endpoint's deliveries under a lease; a lease is dropped when
-- the attempt's outcome is recorded, so this index holds only the deliveries being posted
-- (and the few whose holder died, until their lease runs out and a claim takes them again).
create index webhook_deliveries_leased on webhook_deliveries (webhook_id, locked_until) where locked_until is not null;

-- The claim reads each endpoint's due deliveries oldest first, a few at a time (its free
-- slots), instead of every due delivery of every endpoint in one sorted scan; the index of
-- that scan has no reader left.
create index webhook_deliveries_due_by_webhook on webhook_deliveries (webhook_id, next_attempt_at, id) where status = 'pending';
drop index webhook_deliveries_due;

-- How long the endpoint takes to answer: an exponentially weighted average of its attempts'
-- durations in milliseconds (a time-out counts as the whole bound), updated as each outcome
-- is recorded. Above the slow threshold the endpoint's cap drops to one delivery in flight.
alter table webhooks add column latency_avg_ms integer not null default 0;
