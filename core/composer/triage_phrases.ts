/**
 * Stock phrases that mark a platitude in triage (spec: triage `answers`, "a platitude"):
 * lower-case substrings; a text containing one says nothing a reader has not heard.
 */

/** The platitude phrase list. */
export const PLATITUDES: readonly string[] = [
  "consistency is key",
  "just start",
  "just ship it",
  "work hard",
  "never give up",
  "believe in yourself",
  "success is a journey",
  "hustle",
  "your network is your net worth",
  "done is better than perfect",
  "focus on what matters",
  "it's a marathon",
  "keep going",
  "mindset is everything",
  "comfort zone",
  "be yourself",
  "small steps",
  "the grind",
  "dream big",
  "everything happens for a reason",
  "failure is not an option",
  "trust the process",
  "the best time to start",
  "fortune favors the bold",
  "stay hungry",
  "rome wasn't built",
  "no pain no gain",
  "follow your passion",
  "you miss 100% of the shots",
  "hard work pays off",
  "good things take time",
  "nobody is coming to save you",
];
