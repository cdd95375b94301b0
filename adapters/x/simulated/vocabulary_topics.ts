/**
 * What the world's people talk about. Each topic gives the phrases posts are built from,
 * so a search for "cold email" or "design system" finds the accounts that live there,
 * and inspiration, triage and lead search have a vocabulary to work with.
 */

/** One area of interest. */
export interface Topic {
  key: string;
  /** Noun phrases posts are about. */
  subjects: readonly string[];
  /** Who people in this topic are, for bios. */
  roles: readonly string[];
  /** Things people ship. */
  things: readonly string[];
  /** Results people report. */
  outcomes: readonly string[];
  /** One-line lessons (list posts, thread parts, replies). */
  lessons: readonly string[];
  /** Complete opinions. */
  opinions: readonly string[];
  hashtags: readonly string[];
  /** Names people give X lists on this topic. */
  listNames: readonly string[];
}

/** The topics, in a fixed order (users store the index). */
export const TOPICS: readonly Topic[] = [
  {
    key: "ai",
    subjects: ["AI agents", "LLM evals", "RAG pipelines", "fine-tuning", "prompt engineering", "open-weight models", "inference costs", "context windows", "tool calling", "AI coding assistants", "synthetic data", "model distillation", "vector databases", "multimodal models"],
    roles: ["ML engineer", "AI researcher", "Building AI agents", "Applied AI lead", "LLM tinkerer", "AI product manager"],
    things: ["an agent that books meetings", "an eval harness", "a RAG demo over our docs", "a fine-tuned support model", "a prompt library", "an open-source inference server"],
    outcomes: ["cut inference costs by 60%", "doubled eval accuracy", "shipped an agent to 10k users", "went from prototype to production in 3 weeks"],
    lessons: ["Evals before vibes.", "Most agent failures are retrieval failures.", "Smaller models with better context beat bigger models.", "Log every prompt and every output.", "Latency is a feature.", "Your users do not care which model you use."],
    opinions: ["Agents are just loops with good error handling.", "Prompt engineering is becoming software engineering.", "Open-weight models will win the long tail.", "Most AI startups are one API change away from zero."],
    hashtags: ["#AI", "#LLM", "#MachineLearning", "#GenAI"],
    listNames: ["AI builders", "ML researchers", "AI signal", "LLM people"],
  },
  {
    key: "startups",
    subjects: ["fundraising", "product-market fit", "founder burnout", "early hiring", "pricing", "YC applications", "seed rounds", "bootstrapping", "customer discovery", "churn", "cofounder conflict", "runway"],
    roles: ["Founder", "Cofounder & CEO", "Solo founder", "Startup advisor", "Operator", "Early-stage investor"],
    things: ["our pricing page", "a waitlist", "our first paid plan", "an onboarding flow", "a referral program", "version 2 of the product"],
    outcomes: ["hit $10k MRR", "closed our seed round", "reached ramen profitability", "signed our first enterprise customer", "grew 3x in a quarter"],
    lessons: ["Talk to users every week.", "Charge more than feels comfortable.", "Hire slow, fire fast.", "Distribution beats product.", "Default alive beats default dead.", "Your first 10 customers should feel like friends."],
    opinions: ["Most startups die from indigestion, not starvation.", "Fundraising is a distraction until it isn't.", "Bootstrapping is underrated.", "Founders should do sales until $1M ARR."],
    hashtags: ["#startups", "#buildinpublic", "#founders", "#SaaS"],
    listNames: ["Founders", "Indie hackers", "Startup people", "Operators"],
  },
  {
    key: "marketing",
    subjects: ["cold email", "content marketing", "SEO", "paid ads", "newsletter growth", "landing pages", "positioning", "copywriting", "LinkedIn growth", "brand building", "email sequences", "conversion rates"],
    roles: ["Growth marketer", "Head of Marketing", "Copywriter", "SEO consultant", "Demand gen", "Brand strategist"],
    things: ["a new landing page", "a cold email sequence", "our first lead magnet", "a content calendar", "a case study page", "a webinar funnel"],
    outcomes: ["doubled our reply rate", "grew the newsletter to 20k subscribers", "cut CAC by 35%", "ranked #1 for our main keyword", "booked 40 demos in a month"],
    lessons: ["Specific beats clever.", "Write the headline last.", "One call to action per email.", "Follow up at least three times.", "Positioning is choosing who to ignore.", "Your homepage is not for you."],
    opinions: ["Cold email is not dead; lazy cold email is.", "SEO is a long game most companies quit too early.", "Brand is what people say when you're not in the room.", "Most landing pages talk about features nobody asked for."],
    hashtags: ["#marketing", "#growth", "#copywriting", "#SEO"],
    listNames: ["Growth people", "Copywriters", "Marketing", "Newsletter operators"],
  },
  {
    key: "design",
    subjects: ["design systems", "UX research", "typography", "Figma workflows", "onboarding design", "accessibility", "dark mode", "micro-interactions", "design critique", "product design", "color palettes", "information architecture"],
    roles: ["Product designer", "Design lead", "UX researcher", "Brand designer", "Design engineer", "Type nerd"],
    things: ["a new design system", "our onboarding redesign", "an icon set", "a Figma plugin", "a component library", "a type scale"],
    outcomes: ["cut onboarding drop-off by half", "shipped the redesign", "made the app fully accessible", "got activation up 25%"],
    lessons: ["Design the empty state first.", "Consistency beats novelty.", "Accessibility is not optional.", "Name your components like your engineers do.", "Watch five users before you redesign anything.", "Whitespace is a feature."],
    opinions: ["Design systems are a set of decisions, not a component library.", "Most redesigns are procrastination.", "Good UX is invisible.", "Designers should write more."],
    hashtags: ["#design", "#UX", "#UIdesign", "#Figma"],
    listNames: ["Design inspo", "Designers", "UX people", "Design engineers"],
  },
  {
    key: "crypto",
    subjects: ["Bitcoin", "Ethereum", "stablecoins", "DeFi", "layer 2s", "onchain data", "self custody", "token launches", "airdrops", "crypto regulation", "ETF flows", "wallet UX"],
    roles: ["Crypto researcher", "DeFi builder", "Onchain analyst", "Web3 founder", "Crypto trader", "Protocol engineer"],
    things: ["a new onchain dashboard", "a wallet integration", "a stablecoin payments demo", "a DeFi strategy writeup", "a smart contract audit checklist"],
    outcomes: ["moved our payments to stablecoins", "cut gas costs by 80%", "grew TVL past $5M", "onboarded 1,000 wallets"],
    lessons: ["Not your keys, not your coins.", "Read the contract, not the thread.", "Liquidity is everything.", "Stablecoins are the killer app.", "Position sizing beats conviction."],
    opinions: ["Stablecoins will be bigger than everything else in crypto combined.", "Most tokens should have been equity.", "Wallet UX is the real bottleneck.", "Bitcoin is boring and that is the point."],
    hashtags: ["#Bitcoin", "#crypto", "#Ethereum", "#DeFi"],
    listNames: ["Crypto alpha", "Onchain", "DeFi builders", "Bitcoin"],
  },
  {
    key: "politics",
    subjects: ["housing policy", "the election", "immigration reform", "climate policy", "tax policy", "healthcare costs", "local government", "the budget", "zoning reform", "public transit", "free speech", "trade policy"],
    roles: ["Policy analyst", "Political reporter", "Campaign strategist", "Civic tech", "Think tank fellow", "City council watcher"],
    things: ["a policy explainer", "our voter guide", "a housing data tracker", "a budget breakdown", "a newsletter on city hall"],
    outcomes: ["got the zoning change passed", "reached 100k readers", "changed the committee vote"],
    lessons: ["Show up to local meetings.", "Read the bill, not the headline.", "Housing is a supply problem.", "Incentives explain most policy outcomes."],
    opinions: ["Zoning reform is the most underrated policy lever.", "Local elections matter more than national ones for your daily life.", "Most policy debates are really about housing.", "Transit should be boring and reliable."],
    hashtags: ["#politics", "#policy", "#housing", "#YIMBY"],
    listNames: ["Policy people", "Reporters", "Politics", "Housing nerds"],
  },
  {
    key: "fitness",
    subjects: ["marathon training", "strength training", "zone 2 cardio", "protein intake", "sleep", "mobility work", "running form", "recovery days", "home workouts", "creatine", "VO2 max", "habit building"],
    roles: ["Running coach", "Strength coach", "Personal trainer", "Marathoner", "Nutrition nerd", "Weekend athlete"],
    things: ["a 12-week training plan", "my first sub-3 marathon plan", "a home gym", "a mobility routine", "a meal prep system"],
    outcomes: ["ran a sub-3 marathon", "added 40kg to my deadlift", "lost 10kg in six months", "ran 1,000 miles this year"],
    lessons: ["Consistency beats intensity.", "Sleep is the best recovery tool.", "Eat more protein than you think.", "Most runners run their easy days too fast.", "Lift heavy things twice a week."],
    opinions: ["Zone 2 is overhyped but still worth doing.", "Walking is the most underrated exercise.", "You cannot out-train a bad diet.", "Rest days are training days."],
    hashtags: ["#fitness", "#running", "#marathon", "#strength"],
    listNames: ["Runners", "Fitness", "Coaches", "Strength training"],
  },
  {
    key: "productivity",
    subjects: ["deep work", "time blocking", "note-taking", "morning routines", "focus", "inbox zero", "weekly reviews", "habit tracking", "remote work", "meetings", "second brain", "calendar hygiene"],
    roles: ["Productivity writer", "Chief of staff", "Remote team lead", "Notion consultant", "Coach", "Systems thinker"],
    things: ["a new weekly review template", "my Notion setup", "a focus playlist", "a meeting-free day policy", "a habit tracker"],
    outcomes: ["cut my meetings in half", "wrote every day for a year", "got my inbox to zero for 90 days", "shipped twice as much this quarter"],
    lessons: ["Plan tomorrow tonight.", "Protect your mornings.", "Fewer meetings, better notes.", "Batch your shallow work.", "Your calendar is your strategy."],
    opinions: ["Most productivity advice is procrastination in disguise.", "Meetings should need a written agenda.", "Note-taking apps do not make you smarter.", "Remote work rewards good writers."],
    hashtags: ["#productivity", "#deepwork", "#remotework", "#habits"],
    listNames: ["Productivity", "Remote work", "Systems people", "Focus"],
  },
  {
    key: "writing",
    subjects: ["writing online", "newsletters", "storytelling", "hooks", "ghostwriting", "editing", "long-form essays", "writing habits", "audience building", "personal essays", "threads", "headlines"],
    roles: ["Writer", "Ghostwriter", "Newsletter author", "Editor", "Essayist", "Content strategist"],
    things: ["a new essay", "issue #100 of the newsletter", "a writing course", "a thread template", "my first ebook"],
    outcomes: ["grew to 50k followers by writing daily", "hit 10k newsletter subscribers", "sold 2,000 copies of the ebook", "wrote 365 days in a row"],
    lessons: ["Write like you talk.", "Cut the first paragraph.", "One idea per post.", "Specific stories beat general advice.", "Publish before you feel ready.", "The hook is half the work."],
    opinions: ["Writing online is the best career move nobody talks about.", "Most writing advice is about editing.", "Threads are dead; long posts won.", "Ghostwriting is just good editing with a byline."],
    hashtags: ["#writing", "#writingcommunity", "#newsletter", "#creators"],
    listNames: ["Writers", "Newsletter people", "Creators", "Writing"],
  },
  {
    key: "devtools",
    subjects: ["TypeScript", "Postgres", "developer experience", "CI pipelines", "monorepos", "Rust", "observability", "API design", "code review", "serverless", "local-first apps", "testing"],
    roles: ["Software engineer", "Staff engineer", "DevRel", "Open source maintainer", "Backend engineer", "Indie dev"],
    things: ["a new CLI", "our public API", "a Postgres extension", "an open-source SDK", "a faster test runner", "a VS Code extension"],
    outcomes: ["cut CI time from 20 minutes to 4", "hit 5k GitHub stars", "migrated to Postgres with zero downtime", "shipped v1.0"],
    lessons: ["Boring technology wins.", "Write the docs first.", "Delete code whenever you can.", "Fast tests get run.", "Every error message is UX.", "Just use Postgres."],
    opinions: ["Just use Postgres.", "Microservices are an org chart problem.", "TypeScript won and that is fine.", "Most teams do not need Kubernetes."],
    hashtags: ["#TypeScript", "#Postgres", "#devtools", "#opensource"],
    listNames: ["Devs", "Open source", "Postgres people", "DX"],
  },
];
