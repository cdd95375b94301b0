/**
 * Word swaps and line templates of the style presets. Templates take `{topic}` (the
 * post's key phrase) or `{Topic}` (capitalised); a template is picked by a hash of the
 * text, so the same post always gets the same line and different posts vary.
 */

/** Complaints reframed: `positive`. */
export const POSITIVE_SWAPS: Readonly<Record<string, string>> = {
  problem: "challenge",
  problems: "challenges",
  failure: "lesson",
  failures: "lessons",
  failed: "fell short",
  terrible: "rough",
  awful: "tough",
  horrible: "rough",
  hate: "don't love",
  impossible: "hard",
  worst: "toughest",
  annoying: "tricky",
  stupid: "odd",
  boring: "quiet",
  struggle: "stretch",
  struggling: "stretching",
  "gave up": "paused",
  "can't stand": "am not a fan of",
};

/** Heavier words lifted: `inspirational`. */
export const INSPIRATIONAL_SWAPS: Readonly<Record<string, string>> = {
  difficult: "challenging",
  hard: "demanding",
  problem: "challenge",
  problems: "challenges",
  failed: "learned",
  mistake: "lesson",
  mistakes: "lessons",
};

/** Plain words exaggerated: `humorous`. */
export const HUMOROUS_SWAPS: Readonly<Record<string, string>> = {
  "very hard": "absurdly hard",
  "a lot": "an unreasonable amount",
  tired: "running on fumes",
  busy: "busier than a one-person startup",
  meeting: "meeting (that could have been an email)",
  meetings: "meetings (that could have been emails)",
  coffee: "coffee (cup number four)",
  bug: "bug (a feature in disguise)",
  bugs: "bugs (features in disguise)",
  deadline: "deadline (more of a suggestion, really)",
  monday: "Monday (again)",
};

/** Closing lines of each preset. */
export const CLOSERS = {
  positive: ["That's progress worth celebrating.", "Onward.", "Every step with {topic} counts.", "Grateful for what {topic} keeps teaching me."],
  inspirational: [
    "Keep showing up for {topic}. It compounds.",
    "Start small with {topic}. Start today.",
    "The best time to start with {topic} was yesterday. The next best is now.",
    "Your future self will thank you for the work you put into {topic} today.",
  ],
  humorous: ["Send coffee.", "{Topic} and I are in a complicated relationship.", "Score so far: {topic} 1, me 0.", "Anyway, that's my TED talk on {topic}."],
  sarcastic: ["Totally didn't see that coming.", "What a twist.", "Groundbreaking stuff, I know.", "Surely nobody has ever noticed this about {topic} before."],
  creative: [
    "Think of {topic} as a garden, not a machine.",
    "Picture {topic} as a long walk, not a sprint.",
    "{Topic}: a story still being written.",
    "Every draft about {topic} is a map, not the territory.",
  ],
} as const;

/** Openers of `sarcastic`, put before the first sentence. */
export const SARCASTIC_OPENERS = ["Oh great, ", "Shocking news: ", "Who could have guessed: ", "Breaking: "] as const;

/**
 * Interchangeable words: when the account's favourite words include one of a group, the
 * others become it (its own voice: "folks" stays "folks").
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ["people", "folks", "everyone"],
  ["great", "awesome", "amazing", "fantastic"],
  ["ship", "launch", "release"],
  ["customers", "users", "clients"],
  ["team", "crew"],
  ["huge", "massive", "big"],
  ["start", "begin"],
  ["idea", "concept"],
];

/** Markers of a contrarian claim (hook and question choice). */
export const CONTRARIAN =
  /\b(?:most people|everyone|nobody|stop|don't|doesn't|never|myth|wrong|overrated|underrated|actually|unpopular|hot take|isn't|aren't)\b/i;

/** Markers of a first-person story (hook and question choice). */
export const STORY =
  /\b(?:I|we)\s+(?:\w+\s+)?(?:was|were|had|did|went|quit|lost|got|made|started|launched|built|spent|tried|learned|learnt|failed|moved|hired|fired|left|joined|sold|raised)\b|\b(?:years? ago|last (?:week|month|year)|yesterday|back in (?:19|20)\d\d)\b/i;
