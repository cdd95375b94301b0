-- Per-plan daily and monthly cover caps (supplement: Articles, cover `429` with
-- `remaining_day`/`remaining_month`) count an owner's generations since a day or month start.
create index cover_generations_by_owner on cover_generations (credit_owner_id, created_at);
