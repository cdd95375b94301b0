/**
 * The audience section's data (docs/areas.md "Audience"): one account with
 * `count` contacts whose names and handles come from a seeded PRNG (so every run searches
 * the same people), realistic engagement (most people 0, a power-law tail), all of them in
 * one user list. Loaded with bulk SQL (`unnest` of arrays), never through the API, then
 * vacuumed and analyzed as a live database would be.
 */
import type { Sql } from "../core/db/sql.ts";

/** What the seed made and what the searches look for. */
export interface AudienceWorld {
  listId: number;
  /** A fragment of a common last name, as a user would type it. */
  commonQ: string;
  /** A handle only one person's handle or name contains. */
  oneQ: string;
  /** People the common fragment matches (handle or name). */
  commonMatches: number;
  /** People with any engagement. */
  engaged: number;
}

/**
 * The surname a user searches for: "Garcia" is the 6th of the 50 weighted surnames below,
 * which together name a fifth of the people (the rest carry generated names), so it lands
 * near 0.8%, about what a common surname is in a real audience.
 */
const COMMON_Q = "garci";
const REAL_SURNAMES = [
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez",
  "Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark",
  "Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams",
  "Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts",
]
  .join(" ")
  .split(" ");
const PREFIXES = "Al Bor Cal Dan Ev Fen Hal Har Is Jor Kel Lin Mar Nor Ost Pel Quin Ros Sol Tal Ul Vor Wes Yar Zel".split(" ");
const SUFFIXES = "berg ton ley son ford wick man dale field ski ova ez ini sen ard hurst mont stad well by".split(" ");
const FIRST_NAMES = [
  "Anna Ben Chloe David Elena Farid Grace Hiro Ines Jonas Kira Liam Maya Noah Olga Priya Quentin Rosa",
  "Sam Tara Umar Vera Will Xena Yusuf Zoe Amir Bea Carlos Dana Emil Fatima Gus Hana Ivan Julia Kofi",
  "Lena Marco Nina Omar Paula Rafael Sofia Tom Uma Victor Wen",
]
  .join(" ")
  .split(" ");
const LOCATIONS = ["", "", "", "Berlin", "London", "New York", "San Francisco", "Lagos", "São Paulo", "Tokyo", "Toronto", "Madrid"];
const REAL_SHARE = 0.2;
const ENGAGED_SHARE = 0.2;
const CHUNK = 20_000;

/** Seeds `count` contacts of `accountId`, one user list holding all of them, and analyzes the tables. */
export async function seedAudience(sql: Sql, accountId: string, count: number, now: Date): Promise<AudienceWorld> {
  const people = generatePeople(count);
  for (let start = 0; start < count; start += CHUNK) {
    const chunk = people.slice(start, start + CHUNK);
    const column = <K extends keyof Person>(key: K) => sql.array(chunk.map((person) => person[key]) as never);
    await sql`
      insert into contacts (account_id, x_user_id, username, name, location, followers_count, following_count,
                            replies_count, reposts_count, last_engaged_at, profile_read_at, created_at)
      select ${accountId}, x, u, n, l, f, g, r, p,
             case when r + p > 0 then ${now}::timestamptz - d * interval '1 hour' end, ${now}, ${now} - d * interval '1 day'
        from unnest(${column("xUserId")}::text[], ${column("username")}::text[], ${column("name")}::text[], ${column("location")}::text[],
                    ${column("followers")}::int[], ${column("following")}::int[], ${column("replies")}::int[], ${column("reposts")}::int[],
                    ${column("hoursAgo")}::int[]) as t (x, u, n, l, f, g, r, p, d)`;
  }
  const [list] = await sql<{ id: number }[]>`
    insert into contact_lists (account_id, name, kind, member_count, created_at, updated_at)
    values (${accountId}, 'Bench audience', 'custom', ${count}, ${now}, ${now}) returning id`;
  // Added over the past months in an order unrelated to the ids, so "newest first" is real work.
  await sql`
    insert into contact_list_members (list_id, account_id, x_user_id, source, added_at)
    select ${list.id}, account_id, x_user_id, 'bulk', ${now}::timestamptz - ((hashtext(x_user_id) & 16777215) * interval '1 second')
      from contacts where account_id = ${accountId}`;
  // VACUUM as well as ANALYZE: a bulk load leaves up to gin_pending_list_limit (4 MB) of
  // trigram entries in the GIN pending list, which every search scans (about 10 ms here)
  // until autovacuum merges it, as it soon would on a live database.
  await sql`vacuum analyze contacts`;
  await sql`vacuum analyze contact_lists`;
  await sql`vacuum analyze contact_list_members`;
  const matching = (q: string) => people.filter((person) => person.searchText.includes(q)).length;
  return {
    listId: Number(list.id),
    commonQ: COMMON_Q,
    oneQ: uniqueHandle(people, matching),
    commonMatches: matching(COMMON_Q),
    engaged: people.filter((person) => person.replies + person.reposts > 0).length,
  };
}

interface Person {
  xUserId: string;
  username: string;
  name: string;
  location: string;
  followers: number;
  following: number;
  replies: number;
  reposts: number;
  hoursAgo: number;
  /** Handle and name lowercased, as the search sees them (ILIKE). */
  searchText: string;
}

/** The people, the same on every run (mulberry32 with a fixed seed). */
function generatePeople(count: number): Person[] {
  const random = mulberry32(13);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const realWeights = REAL_SURNAMES.map((_, rank) => 1 / (rank + 3));
  const realTotal = realWeights.reduce((sum, weight) => sum + weight, 0);
  const realSurname = () => {
    let left = random() * realTotal;
    for (let i = 0; i < REAL_SURNAMES.length; i++) {
      left -= realWeights[i];
      if (left <= 0) return REAL_SURNAMES[i];
    }
    return REAL_SURNAMES[REAL_SURNAMES.length - 1];
  };
  // Pareto tail (alpha 1.2): most engagers once or twice, a few hundreds of times.
  const tail = () => Math.min(5_000, Math.floor(1 / (1 - random()) ** (1 / 1.2)));
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST_NAMES);
    const last = random() < REAL_SHARE ? realSurname() : `${pick(PREFIXES)}${pick(SUFFIXES)}`;
    const digits = random() < 0.7 ? String(Math.floor(random() * 10 ** (1 + Math.floor(random() * 4)))) : "";
    const shape = random();
    const handleBase = shape < 0.35 ? `${first}${last}` : shape < 0.6 ? `${first}_${last}` : shape < 0.8 ? `${first[0]}${last}` : `${last}${first}`;
    const username = `${handleBase.toLowerCase()}${digits}`.slice(0, 15);
    const name = `${first} ${last}`;
    const engaged = random() < ENGAGED_SHARE;
    let replies = engaged && random() < 0.7 ? tail() : 0;
    const reposts = engaged && (replies === 0 || random() < 0.4) ? tail() : 0;
    if (engaged && replies + reposts === 0) replies = 1;
    return {
      xUserId: String(1_600_000_000_000_000_000n + BigInt(i) * 7919n),
      username,
      name,
      location: pick(LOCATIONS),
      followers: Math.floor(10 ** (random() * 5.5)),
      following: Math.floor(10 ** (random() * 3.5)),
      replies,
      reposts,
      hoursAgo: Math.floor(random() * 90 * 24),
      searchText: `${username}\n${name}`.toLowerCase(),
    };
  });
}

/** A handle with digits that exactly one person's handle or name contains (the person searched for by name). */
function uniqueHandle(people: readonly Person[], matching: (q: string) => number): string {
  for (let i = Math.floor(people.length * 0.77); i < people.length; i++) {
    const { username } = people[i];
    if (/[0-9]{3}$/.test(username) && matching(username) === 1) return username;
  }
  throw new Error("No person has a handle of their own to search for");
}

/** mulberry32: a small seeded PRNG, so the data is the same on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
