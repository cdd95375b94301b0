/** SQL for accounts, shares and the accounts a user can reach. */
import type { Queryable } from "../db/sql.ts";

/** An account as listed, with how the user reaches it. */
export interface ReachableAccountRow {
  id: string;
  username: string;
  name: string;
  avatar_url: string;
  x_premium: boolean;
  relation: "main" | "linked" | "shared" | "linked_shared";
  permission: "owner" | "viewer" | "editor";
  workspace_id: string;
}

/**
 * Every account `userId` can reach: own main and linked accounts, accounts shared
 * with the user, and accounts linked to a shared main account. An account reachable
 * two ways keeps the strongest relation (own beats shared, editor beats viewer).
 * Ordered main, linked, shared, linked-shared, then by username.
 */
export async function reachableAccounts(sql: Queryable, userId: number, onlyId?: string): Promise<ReachableAccountRow[]> {
  return sql<ReachableAccountRow[]>`
    with reach as (
      select a.id, case when a.main_account_id is null then 'main' else 'linked' end as relation,
             'owner' as permission, 0 as rank
        from accounts a where a.user_id = ${userId}
      union all
      select a.id, 'shared', s.permission, case s.permission when 'editor' then 1 else 2 end
        from account_shares s join accounts a on a.id = s.account_id
       where s.user_id = ${userId}
      union all
      select l.id, 'linked_shared', s.permission, case s.permission when 'editor' then 3 else 4 end
        from account_shares s
        join accounts m on m.id = s.account_id and m.main_account_id is null
        join accounts l on l.main_account_id = m.id
       where s.user_id = ${userId}
    ), best as (
      select distinct on (id) id, relation, permission from reach order by id, rank
    )
    select a.id, a.username, a.name, a.avatar_url, a.x_premium, b.relation, b.permission,
           coalesce(a.main_account_id, a.id) as workspace_id
      from best b join accounts a on a.id = b.id
     where ${onlyId === undefined} or a.id = ${onlyId ?? ""}
     order by case b.relation when 'main' then 0 when 'linked' then 1 when 'shared' then 2 else 3 end,
              lower(a.username), a.id`;
}

/** One account by id with its owner, or undefined. */
export async function accountById(sql: Queryable, id: string) {
  const [row] = await sql<
    { id: string; user_id: number; main_account_id: string | null; username: string; name: string; avatar_url: string; x_premium: boolean }[]
  >`
    select id, user_id, main_account_id, username, name, avatar_url, x_premium from accounts where id = ${id}`;
  return row;
}
