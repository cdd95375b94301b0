-- Quick endpoints (docs/webhooks.md, "Fairness"): an endpoint that keeps answering quickly
-- gets a larger cap in flight than the default, once it has proven it: this counts its
-- successful attempts since its last failure (a failure sets it back to 0), so a new endpoint,
-- or one that just failed, starts at the default cap whatever its average.
alter table webhooks add column successes_in_row integer not null default 0;
