/**
 * Post shapes. Placeholders: {s} the post's subject, {s2} another subject of the topic,
 * {thing}, {outcome}, {lesson}/{lesson2}/{lesson3}, {opinion}, {tag}, {n}, {years},
 * {feeling}, {m} a mentioned handle, {a} the handle answered, {me} the author.
 */

/** Stand-alone English posts. */
export const ORIGINAL_TEMPLATES = [
  "{opinion}",
  "Hot take: {opinion}",
  "{n} lessons from {years} years of {s}:\n\n1. {lesson}\n2. {lesson2}\n3. {lesson3}",
  "Shipped {thing} today. {feeling}",
  "What's the most underrated tool for {s}? Asking for a friend.",
  "Everyone talks about {s}. Nobody talks about {s2}.",
  "We {outcome}. The secret was boring: {lesson}",
  "Unpopular opinion: {s} is overrated. {lesson}",
  "Spent the weekend on {s}. {lesson}",
  "If you're working on {s}, read this twice: {lesson}",
  "Reminder: {lesson}",
  "{s} in one sentence: {lesson}",
  "I asked 50 people about {s}. The answer surprised me. {opinion}",
  "Stop overthinking {s}. {lesson} {tag}",
  "Just {outcome}. Still can't believe it. {tag}",
  "Quick question for people doing {s}: how do you handle {s2}?",
  "The best {s} advice I ever got: {lesson}",
  "{s} is 20% tools and 80% habits. {lesson}",
] as const;

/** English posts that name another account. */
export const MENTION_TEMPLATES = [
  "Great conversation with @{m} about {s} today. {lesson}",
  "@{m} has the clearest thinking on {s} right now. Worth a follow.",
  "Stole this from @{m}: {lesson}",
] as const;

/** First part of a thread. */
export const THREAD_OPENERS = [
  "How we {outcome}. A thread 🧵",
  "{n} things I learned about {s} the hard way 🧵",
  "Everything I know about {s}, in one thread:",
  "I spent a year on {s}. Here is what actually worked 🧵",
] as const;

/** Middle parts of a thread ({i} is the part number). */
export const THREAD_PARTS = ["{i}/ {lesson}", "{i}/ On {s2}: {lesson}", "{i}/ The mistake: ignoring {s2}. {lesson}"] as const;

/** Last part of a thread. */
export const THREAD_CLOSERS = ["{i}/ That's it. If this helped, follow @{me} for more on {s}.", "{i}/ Summary: {lesson} Questions welcome below."] as const;

/** Replies to someone's post. */
export const REPLY_TEMPLATES = [
  "@{a} This is so true.",
  "@{a} Agree on {s}. We saw the same thing.",
  "@{a} Curious how you think about {s2} here?",
  "@{a} Saving this.",
  "@{a} Counterpoint: {opinion}",
  "@{a} 100%. {lesson}",
  "@{a} Great thread, thanks for writing it up.",
  "@{a} How long did that take you?",
  "@{a} Hard disagree on {s}, but I see the argument.",
  "@{a} Needed this today 🙏",
  "@{a} Would love a deeper dive on {s}.",
  "@{a} This matches what we saw with {s2}.",
] as const;

/** The author answering a reply. */
export const REPLY_BACK_TEMPLATES = [
  "@{a} Thanks! Appreciate it 🙏",
  "@{a} Great question. Short answer: {lesson}",
  "@{a} Ha, fair point.",
  "@{a} Yes! Exactly this.",
  "@{a} Writing a longer post on {s} soon.",
] as const;

/** Commentary on a quoted post. */
export const QUOTE_TEMPLATES = [
  "This 👇",
  "Everyone working on {s} should read this.",
  "Strong take. {opinion}",
  "Adding to this: {lesson}",
  "Not sure I agree, but worth reading.",
  "Bookmark this if you care about {s}.",
] as const;

/** Posts and replies in other languages (only {s}, {a} and {m}: subjects read the same everywhere). */
export const FOREIGN_TEMPLATES: Record<string, { posts: readonly string[]; replies: readonly string[] }> = {
  es: {
    posts: [
      "Mi opinión sobre {s}: menos teoría y más práctica.",
      "Hoy aprendí algo nuevo sobre {s}.",
      "¿Alguien más trabajando en {s}? Me encantaría hablar.",
      "Tres cosas que aprendí sobre {s} este año 🧵",
    ],
    replies: ["@{a} ¡Totalmente de acuerdo!", "@{a} Muy buen punto sobre {s}.", "@{a} Gracias por compartir."],
  },
  pt: {
    posts: [
      "Minha opinião sobre {s}: menos teoria, mais prática.",
      "Alguém mais trabalhando com {s}?",
      "Hoje aprendi algo novo sobre {s}.",
      "Três coisas que aprendi sobre {s} este ano 🧵",
    ],
    replies: ["@{a} Concordo totalmente!", "@{a} Ótimo ponto sobre {s}.", "@{a} Valeu por compartilhar."],
  },
  fr: {
    posts: [
      "Mon avis sur {s} : moins de théorie, plus de pratique.",
      "Quelqu'un d'autre travaille sur {s} ?",
      "Trois choses que j'ai apprises sur {s} cette année 🧵",
    ],
    replies: ["@{a} Tout à fait d'accord !", "@{a} Très bon point sur {s}.", "@{a} Merci pour le partage."],
  },
  de: {
    posts: ["Meine Meinung zu {s}: weniger Theorie, mehr Praxis.", "Arbeitet noch jemand an {s}?", "Drei Dinge, die ich dieses Jahr über {s} gelernt habe 🧵"],
    replies: ["@{a} Absolut richtig!", "@{a} Guter Punkt zu {s}.", "@{a} Danke fürs Teilen."],
  },
  ja: {
    posts: ["{s}について最近考えていること。理論より実践。", "{s}に取り組んでいる人いますか？", "今年{s}について学んだこと3つ🧵"],
    replies: ["@{a} 本当にそう思います！", "@{a} {s}の話、参考になります。", "@{a} 共有ありがとうございます。"],
  },
};

/** How people feel after shipping. */
export const FEELINGS = ["Feels good.", "Terrifying and exciting.", "Long week.", "More soon.", "Feedback welcome!", "Let me know what breaks."] as const;
