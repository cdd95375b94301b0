/**
 * Renders post text from a template, the author's topic and a seeded generator. Every
 * choice comes from `random`, so the same seed writes the same words.
 */
import type { Random } from "./prng.ts";
import type { Topic } from "./vocabulary_topics.ts";
import {
  FEELINGS,
  FOREIGN_TEMPLATES,
  MENTION_TEMPLATES,
  ORIGINAL_TEMPLATES,
  QUOTE_TEMPLATES,
  REPLY_BACK_TEMPLATES,
  REPLY_TEMPLATES,
  THREAD_CLOSERS,
  THREAD_OPENERS,
  THREAD_PARTS,
} from "./post_templates.ts";

/** What a piece of text is about and who it names. */
export interface TextSubject {
  topic: Topic;
  subject: string;
  lang: string;
  /** `{m}`, `{a}` and `{me}` handles. */
  handles?: { m?: string; a?: string; me?: string };
  /** Part number for thread parts. */
  part?: number;
}

/** The kinds of text the world writes. */
export type TextKind = "original" | "mention" | "thread_opener" | "thread_part" | "thread_closer" | "reply" | "reply_back" | "quote";

const ENGLISH_TEMPLATES: Record<TextKind, readonly string[]> = {
  original: ORIGINAL_TEMPLATES,
  mention: MENTION_TEMPLATES,
  thread_opener: THREAD_OPENERS,
  thread_part: THREAD_PARTS,
  thread_closer: THREAD_CLOSERS,
  reply: REPLY_TEMPLATES,
  reply_back: REPLY_BACK_TEMPLATES,
  quote: QUOTE_TEMPLATES,
};

/** Writes one text of `kind` about `about`. */
export function writeText(random: Random, kind: TextKind, about: TextSubject): string {
  const foreign = about.lang === "en" ? undefined : FOREIGN_TEMPLATES[about.lang];
  const templates = foreign ? (kind === "reply" || kind === "reply_back" ? foreign.replies : foreign.posts) : ENGLISH_TEMPLATES[kind];
  return fill(random, random.pick(templates), about);
}

function fill(random: Random, template: string, about: TextSubject): string {
  const lessons = shuffledLessons(random, about.topic);
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => placeholderValue(random, key, about, lessons));
  // Sentence-initial subjects ("fine-tuning in one sentence") start upper case.
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function placeholderValue(random: Random, key: string, about: TextSubject, lessons: string[]): string {
  const { topic } = about;
  switch (key) {
    case "s":
      return about.subject;
    case "s2":
      return otherSubject(random, topic, about.subject);
    case "thing":
      return random.pick(topic.things);
    case "outcome":
      return random.pick(topic.outcomes);
    case "lesson":
      return lessons[0];
    case "lesson2":
      return lessons[1];
    case "lesson3":
      return lessons[2];
    case "opinion":
      return random.pick(topic.opinions);
    case "tag":
      return random.pick(topic.hashtags);
    case "n":
      return String(3 + random.int(8));
    case "years":
      return String(2 + random.int(12));
    case "feeling":
      return random.pick(FEELINGS);
    case "i":
      return String(about.part ?? 1);
    case "m":
      return about.handles?.m ?? "someone";
    case "a":
      return about.handles?.a ?? "someone";
    case "me":
      return about.handles?.me ?? "me";
    default:
      return key;
  }
}

function otherSubject(random: Random, topic: Topic, not: string): string {
  const choice = random.pick(topic.subjects);
  return choice === not ? topic.subjects[(topic.subjects.indexOf(choice) + 1) % topic.subjects.length] : choice;
}

function shuffledLessons(random: Random, topic: Topic): string[] {
  const start = random.int(topic.lessons.length);
  return [0, 1, 2].map((offset) => topic.lessons[(start + offset) % topic.lessons.length]);
}
