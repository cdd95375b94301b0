/**
 * What the simulated media library is made of besides the world's topics
 * (adapters/x/simulated/vocabulary_topics.ts): each platform's traits (how often it posts
 * video, which engagement counts it shows, typical viral numbers, how its post URLs read)
 * and the content labels with the caption and summary templates that go with them.
 */
import type { MediaPlatform } from "../../core/ports/media_item_schema.ts";

/** How a platform's viral posts look. */
export interface PlatformTraits {
  /** Share of posts in the library (weights, summed and normalised). */
  weight: number;
  /** Chance a post is a video rather than an image. */
  videoShare: number;
  /** Median views of a viral post; null: the platform shows no view count (then `likesMedian` is used). */
  viewsMedian: number | null;
  /** Median likes when the platform shows no views. */
  likesMedian: number;
  /** Likes per view (when views are shown). */
  likeRate: number;
  /** Comments per like. */
  commentRate: number;
  /** Shares per like; null: the platform shows no share count. */
  shareRate: number | null;
}

/** Traits by platform (Threadline's choices: plausible orders of magnitude, not measurements). */
export const PLATFORM_TRAITS: Record<MediaPlatform, PlatformTraits> = {
  x: { weight: 3, videoShare: 0.45, viewsMedian: 600_000, likesMedian: 0, likeRate: 0.018, commentRate: 0.08, shareRate: 0.17 },
  instagram: { weight: 3, videoShare: 0.7, viewsMedian: 1_200_000, likesMedian: 0, likeRate: 0.045, commentRate: 0.02, shareRate: null },
  youtube: { weight: 2, videoShare: 1, viewsMedian: 2_000_000, likesMedian: 0, likeRate: 0.03, commentRate: 0.03, shareRate: null },
  threads: { weight: 1.5, videoShare: 0.3, viewsMedian: null, likesMedian: 12_000, likeRate: 0, commentRate: 0.06, shareRate: 0.09 },
  reddit: { weight: 2, videoShare: 0.35, viewsMedian: null, likesMedian: 25_000, likeRate: 0, commentRate: 0.05, shareRate: 0.004 },
  linkedin: { weight: 1.5, videoShare: 0.25, viewsMedian: 250_000, likesMedian: 0, likeRate: 0.012, commentRate: 0.09, shareRate: 0.05 },
};

/** A content label and how its captions and summaries read. `{subject}`, `{outcome}`, `{lesson}`, `{opinion}`, `{thing}`, `{role}`, `{seconds}`, `{count}` are filled in. */
export interface ContentLabel {
  label: string;
  captions: readonly string[];
  summary: string;
}

/** Labels of videos. */
export const VIDEO_LABELS: readonly ContentLabel[] = [
  {
    label: "tutorial",
    captions: ["How to get started with {subject} in {count} steps", "The {subject} workflow nobody shows you", "{subject}, explained in {seconds} seconds"],
    summary: "A {seconds}-second walkthrough of {subject}, step by step, ending on: {lesson}",
  },
  {
    label: "talking_head",
    captions: ["Unpopular opinion: {opinion}", "{lesson} Here is why.", "What I wish I knew about {subject}"],
    summary: "A creator speaks to camera for {seconds} seconds about {subject}: {opinion}",
  },
  {
    label: "behind_the_scenes",
    captions: ["Behind the scenes of {thing}", "How we {outcome}: the unfiltered version", "A day building {thing}"],
    summary: "Behind-the-scenes footage of a {role} working on {thing}, {seconds} seconds",
  },
  {
    label: "product_demo",
    captions: ["We built {thing}. Watch it work.", "{thing}, live demo", "Demo: {subject} without the boilerplate"],
    summary: "A {seconds}-second screen demo of {thing}, showing {subject} in use",
  },
  {
    label: "story",
    captions: ["How we {outcome}", "The mistake that taught me: {lesson}", "From zero to {outcome}"],
    summary: "A story-time video ({seconds} seconds) on how a team {outcome} with {subject}",
  },
  {
    label: "meme",
    captions: ["Every {role} when someone mentions {subject}", "Me explaining {subject} to my family", "POV: you just {outcome}"],
    summary: "A {seconds}-second skit poking fun at {subject}",
  },
  {
    label: "interview_clip",
    captions: ['"{opinion}"', 'A {role} on {subject}: "{lesson}"', "The best answer on {subject} I have heard"],
    summary: "A clip from a longer interview where a {role} says: {opinion}",
  },
];

/** Labels of images. */
export const IMAGE_LABELS: readonly ContentLabel[] = [
  {
    label: "infographic",
    captions: ["{subject} on one page", "The {subject} cheat sheet. Save this.", "{count} rules of {subject}"],
    summary: "An infographic laying out {count} points on {subject}, the first being: {lesson}",
  },
  {
    label: "carousel",
    captions: ["{count} lessons from {outcome}", "Swipe: {subject} in {count} slides", "How we {outcome} ({count} slides)"],
    summary: "A {count}-slide carousel on {subject}; slide one says: {lesson}",
  },
  {
    label: "meme",
    captions: ["{subject} expectations vs reality", "Nobody: ... Every {role}: {lesson}", "Tell me you work on {subject} without telling me"],
    summary: "A two-panel meme about {subject}",
  },
  {
    label: "screenshot",
    captions: ["This is how we {outcome}", "The chart that changed how I think about {subject}", "Receipts: {outcome}"],
    summary: "A screenshot of a dashboard after a team {outcome}",
  },
  {
    label: "quote_card",
    captions: ["{lesson}", "{opinion}", "Read this twice: {lesson}"],
    summary: "A quote card with the line: {opinion}",
  },
  {
    label: "before_after",
    captions: ["Before and after {subject}", "Same team, {count} months apart: we {outcome}", "What changed when we adopted {subject}"],
    summary: "A before-and-after image of a {role}'s work with {subject}",
  },
];

/** Every label, for documentation and tests. */
export const CONTENT_LABELS: readonly string[] = [...new Set([...VIDEO_LABELS, ...IMAGE_LABELS].map((label) => label.label))];

/** Words a search ignores. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  "a an and are as at be by for from how i in is it of on or the this to was what when with you your we our my".split(" "),
);
