/**
 * Proven post formats a `formats`-shaped Worker writes in (and a niche Worker falls back
 * to when no usable popular post is found: spec, Worker suggestion `fallback`). Each is an
 * example post whose shape the model copies (`draft`'s `mirror`: opener kind, list items
 * and marker, question ending), never its words.
 */

/** A named post format and an example post in it. */
export interface FormatTemplate {
  id: string;
  example: string;
}

/** The formats, in the order a Worker cycles through them. */
export const FORMAT_TEMPLATES: readonly FormatTemplate[] = [
  {
    id: "numbered_lessons",
    example: "3 things I wish I knew before launching:\n\n1. Talk to users first.\n2. Ship smaller.\n3. Price higher.\n\nWhich one did you learn the hard way?",
  },
  {
    id: "question_list",
    example: "What actually moves the needle?\n\n- Consistency.\n- Clear positioning.\n- A product people talk about.",
  },
  {
    id: "strong_take",
    example: "Most advice about growth is noise. Pick one channel and go deep. Everything else is a distraction.",
  },
  {
    id: "story_then_question",
    example:
      "Last year we had 12 customers. This year we have 400. The difference was one change in how we onboard people. What changed your numbers the most?",
  },
  {
    id: "checklist",
    example:
      "Before you ship anything, check this:\n\n- Does it solve one problem?\n- Can a new user explain it?\n- Would you pay for it?\n- Is the first minute delightful?",
  },
];
