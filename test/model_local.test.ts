/**
 * The local deterministic engine (ARCHITECTURE: "The local model is honest"): every
 * rephrase type is a real transform with checkable properties, the same input gives the
 * same output, translation is refused naming the model to configure, and costs are whole
 * positive credits. Also the voice profile, the price helper and the error mapping.
 */
import { describe, test } from "node:test";
import { tidy } from "../adapters/ai/local/text_tools.ts";
import assert from "node:assert/strict";
import { createLocalModel, LOCAL_MODEL_NAME } from "../adapters/ai/local/local_model.ts";
import { REPHRASE_TYPES, type RephraseType } from "../core/model/model_task.ts";
import type { ModelRequest } from "../core/model/model.ts";
import { ModelCapabilityError, ModelFailedError, ModelTimeoutError, ModelUnavailableError } from "../core/model/model_errors.ts";
import { modelApiError } from "../core/model/model_api_error.ts";
import { creditsForImage, creditsForUsage, estimateTokens } from "../core/model/model_pricing.ts";
import { splitFirstParagraph } from "../core/model/first_paragraph.ts";
import { parseTaskOutput } from "../core/model/task_output.ts";
import { voiceProfile, type VoiceProfile } from "../core/model/voice_profile.ts";
import { sentencesOf, wordsOf } from "../core/model/text_units.ts";

const model = createLocalModel();

/** A realistic post with something for every rule to do. */
const POST = [
  "Honestly, i think we basically shipped teh new onboarding flow in order to cut churn, and it really worked.",
  "We went from 40% drop-off to 12% in 3 weeks.",
  "",
  "The trick was removing every optional field. Most people add fields because they might be useful later, which means users pay the cost today for data nobody reads.",
  "",
  "Details: https://example.com/blog/onboarding",
].join("\n");

async function text(task: RephraseType, input: string, voice?: VoiceProfile): Promise<string> {
  return (await model.generate({ task, input: { text: input, voice } })).text;
}

const hasWord = (haystack: string, word: string) => new RegExp(`(?<![\\p{L}'])${word}(?![\\p{L}'])`, "iu").test(haystack);

describe("local rephrase: every type", () => {
  for (const type of REPHRASE_TYPES.filter((type) => type !== "translate")) {
    test(`${type} is a real transform: different from the input, deterministic, priced in whole credits`, async () => {
      const first = await model.generate({ task: type, input: { text: POST } });
      const second = await model.generate({ task: type, input: { text: POST } });
      assert.notEqual(first.text, POST);
      assert.ok(first.text.trim().length > 20, "not empty");
      assert.deepEqual(second, first);
      assert.ok(Number.isInteger(first.costCredits) && first.costCredits >= 1, `cost ${first.costCredits}`);
      assert.ok(first.usage.inputTokens > 0 && first.usage.outputTokens > 0);
      assert.equal(first.model, LOCAL_MODEL_NAME);
      // Links are never edited by any rule.
      assert.ok(first.text.includes("https://example.com/blog/onboarding"), type);
    });
  }

  test("translate is refused with a capability error naming the model to configure, answered as 503 without Retry-After", async () => {
    await assert.rejects(
      () => model.generate({ task: "translate", input: { text: POST } }),
      (error: unknown) => {
        assert.ok(error instanceof ModelCapabilityError);
        assert.equal(error.capability, "translate");
        assert.match(error.message, /AI_BASE_URL/);
        assert.match(error.message, /AI_MODEL/);
        const api = modelApiError(error);
        assert.equal(api?.status, 503);
        assert.equal(api?.code, "upstream_unavailable");
        assert.equal(api?.headers["Retry-After"], undefined);
        assert.deepEqual(api?.extra, { retryable: false, capability: "translate", requires: "AI_BASE_URL and AI_MODEL" });
        return true;
      },
    );
  });
});

describe("local rephrase: the rules", () => {
  test("concise is shorter and drops the listed fillers, hedges and wordy phrases, keeping facts", async () => {
    const input =
      "I think we just really need to basically ship faster in order to learn. It was, honestly, a very good week with 3 launches, I guess. This is not really done.";
    const out = await text("concise", input);
    assert.ok(out.length < input.length);
    for (const filler of ["just", "basically", "honestly", "very", "in order to", "I think", "I guess"])
      assert.ok(!hasWord(out, filler), `${filler} in ${out}`);
    assert.match(out, /^We need to ship faster to learn\./);
    assert.match(out, /3 launches/);
    assert.match(out, /not really done/, '"not really" carries meaning and stays');
  });

  test("grammar fixes the listed errors and nothing else", async () => {
    const input = "i think teh product is  great ,and i recieve alot of feedback.we should ship ship it now\n\nsee https://example.com/teh/recieve";
    const out = await text("grammar", input);
    assert.equal(out, "I think the product is great, and I receive a lot of feedback. We should ship it now.\n\nSee https://example.com/teh/recieve");
  });

  test("grammar leaves correct text alone", async () => {
    const input = "We shipped the dashboard today. It took 3 weeks.";
    assert.equal(await text("grammar", input), input);
  });

  test("clarity replaces jargon and splits sentences over 20 words", async () => {
    const input =
      "We need to leverage our strengths and utilize every channel across the team, which will help us move the needle on revenue this quarter and beyond for everyone involved.";
    const out = await text("clarity", input);
    assert.ok(!/leverage|utilize|move the needle/i.test(out), out);
    assert.match(out, /\buse\b/);
    assert.ok(sentencesOf(out).length >= 2, out);
    for (const sentence of sentencesOf(out)) assert.ok(wordsOf(sentence).length <= 20, sentence);
  });

  test("hook rewrites only the first paragraph and keeps the rest byte-identical", async () => {
    const out = await text("hook", POST);
    const before = splitFirstParagraph(POST);
    const after = splitFirstParagraph(out);
    assert.notEqual(after.first, before.first);
    assert.equal(after.rest, before.rest);
    assert.ok(out.endsWith(before.rest));
  });

  test("hook picks its pattern from the post's features", async () => {
    const list = await text("hook", "I have hired 40 engineers. Here's what I learned:\n\n- Hire for slope\n- Pay for speed\n- Fire fast");
    assert.match(list.split("\n")[0], /^3 lessons about /);
    assert.ok(list.endsWith("\n\n- Hire for slope\n- Pay for speed\n- Fire fast"));
    const question = await text("hook", "Pricing pages confuse people. Why do we hide the price?\n\nShow it.");
    assert.equal(question.split("\n")[0], "Why do we hide the price?");
    const contrarian = await text("hook", "Most startups don't need a CTO in year one.\n\nThey need a builder.");
    assert.match(contrarian, /^Unpopular opinion: most startups don't need a CTO in year one\./);
    const numbers = await text("hook", "We kept going. Revenue grew 3x in 6 months.\n\nHere is how.");
    assert.equal(numbers.split("\n")[0], "Revenue grew 3x in 6 months.");
  });

  test("engaging keeps the post and ends with a question that fits it", async () => {
    const input = "We cut our build times in half by caching dependencies.";
    const out = await text("engaging", input);
    assert.ok(out.startsWith(input));
    assert.match(out, /\?$/);
    const list = await text("engaging", "Tools I use daily:\n- Linear\n- Figma\n- Raycast");
    assert.match(list, /Which one would you add\?$/);
  });

  test("details adds structure from the post's own phrases and invents no numbers", async () => {
    const out = await text("details", POST);
    assert.ok(out.startsWith(POST.trimEnd()));
    assert.match(out, /^Why it matters: /m);
    assert.match(out, /^How to apply it: start with /m);
    const digits = (value: string) => new Set(value.match(/\d+/g) ?? []);
    for (const number of digits(out)) assert.ok(digits(POST).has(number), `invented ${number}`);
  });

  test("the tone presets swap words from their lexicons and add a line from their templates", async () => {
    const input = "Our launch had a terrible problem with billing. We fixed it in a day.";
    const positive = await text("positive", input);
    assert.match(positive, /rough challenge with billing/);
    const inspirational = await text("inspirational", input);
    assert.match(inspirational, /challenge with billing/);
    const sarcastic = await text("sarcastic", input);
    assert.match(sarcastic, /^(?:Oh great, |Shocking news: |Who could have guessed: |Breaking: )our launch/);
    const humorous = await text("humorous", "Another meeting about the deadline.");
    assert.match(humorous, /meeting \(that could have been an email\)/);
    const creative = await text("creative", input);
    assert.equal(creative.split("\n\n")[1], "Our launch had a terrible problem with billing.\nWe fixed it in a day.");
    assert.equal(new Set([positive, inspirational, sarcastic, creative]).size, 4);
  });

  test("style presets write in the account's voice: casing, favourite words, emoji", async () => {
    const voice = voiceProfile([
      "folks keep asking how we ship so fast. small team, tiny scope 🚀",
      "folks underestimate boring tech 🚀",
      "new feature today, folks loved it 🔥",
    ]);
    const out = await text("positive", "People hate slow onboarding. We fixed our problem with SSO.", voice);
    assert.ok(!/\p{Lu}/u.test(out.replace(/\bSSO\b/g, "")), `lowercase: ${out}`);
    assert.match(out, /\bSSO\b/, "acronyms keep their case");
    assert.match(out, /^folks /);
    assert.ok(out.endsWith("🚀"));
    // grammar leaves the voice alone.
    assert.equal(await text("grammar", "We fixed it.", voice), "We fixed it.");
  });

  test("improve fixes and tightens without removing the voice's hedges", async () => {
    const out = await text("improve", "I think we really need to utilize teh data in order to decide.");
    assert.equal(out, "I think we need to use the data to decide.");
  });
});

describe("voiceProfile()", () => {
  test("measures favourite words, sentence length, emoji use and casing", () => {
    const voice = voiceProfile([
      "shipping fast is the only moat 🚀",
      "folks keep asking how we ship. small team, tiny scope 🚀🚀",
      "folks underestimate boring tech. it works",
      "",
    ]);
    assert.equal(voice.posts, 3);
    assert.deepEqual(voice.favouriteWords, ["folks"]);
    // 6 + 6 + 4 + 4 + 2 words over 5 sentences.
    assert.equal(voice.averageSentenceWords, 4.4);
    assert.equal(voice.emojiPerPost, 1);
    assert.deepEqual(voice.topEmoji, ["🚀"]);
    assert.equal(voice.casing, "lowercase");
  });

  test("tells sentence case from mixed and copes with no posts", () => {
    assert.equal(voiceProfile(["We ship. It works.", "Big news today!", "Hello @bob, see https://x.com"]).casing, "sentence");
    assert.equal(voiceProfile(["We ship.", "big news", "Hello"]).casing, "mixed");
    assert.deepEqual(voiceProfile([]), { posts: 0, favouriteWords: [], averageSentenceWords: 0, emojiPerPost: 0, topEmoji: [], casing: "mixed" });
  });
});

describe("local engine: the other tasks", () => {
  const generate = async (request: ModelRequest) => (await model.generate(request)).text;

  test("inline_edit edits the selection by type or by instruction, and refuses instructions it cannot follow", async () => {
    assert.equal(await generate({ task: "inline_edit", input: { text: "I really just think this is basically right", editType: "concise" } }), "This is right");
    assert.equal(
      await generate({ task: "inline_edit", input: { text: "i think teh plan works", instruction: "please fix typos" } }),
      "I think the plan works.",
    );
    await assert.rejects(
      () => generate({ task: "inline_edit", input: { text: "some text", instruction: "say it like a pirate" } }),
      (error: unknown) => error instanceof ModelCapabilityError && error.message.includes('"say it like a pirate"'),
    );
    await assert.rejects(() => generate({ task: "inline_edit", input: { text: "hola", instruction: "translate to English" } }), ModelCapabilityError);
  });

  test("remix: close keeps the wording, far keeps the idea, someone else's post loses handles, links and numbers", async () => {
    const source = "We cut onboarding from 10 days to 2 by removing optional fields. Most teams add fields they never read. Thanks @jane! https://example.com";
    const close = await generate({ task: "remix", input: { text: source, closeness: 90, ownPost: true } });
    assert.notEqual(close, source);
    for (const word of wordsOf(source)) assert.ok(wordsOf(close).includes(word), word);
    const foreign = await generate({ task: "remix", input: { text: source, closeness: 10, ownPost: false } });
    assert.ok(!/@jane|https?:|\d/.test(foreign), foreign);
    assert.match(foreign, /Most teams add fields they never read\./);
    const own = await generate({ task: "remix", input: { text: source, closeness: 50, ownPost: true } });
    assert.match(own, /10 days to 2/);
  });

  test("draft writes from the brief and copies a mirror's shape, not its words", async () => {
    const brief = "Cold email tips. Keep it under 90 words. Lead with their problem. One clear ask.";
    const mirror = "Want better landing pages?\n\n1. Cut the hero copy\n2. One CTA\n3. Real screenshots\n\nWhat would you add?";
    const out = await generate({ task: "draft", input: { brief, mirror } });
    assert.match(out, /^1\. Keep it under 90 words\.$/m);
    assert.match(out, /^3\. One clear ask\.$/m);
    assert.match(out, /\?$/);
    assert.ok(!/landing|hero|screenshots/i.test(out));
    const free = await generate({ task: "draft", input: { brief: "Write a post about how we hired our first engineer. We got 140 applicants." } });
    assert.match(free, /140 applicants/);
    assert.ok(!/^Write a post/i.test(free));
  });

  test("reply_draft engages with the post's own content, without links or hashtags", async () => {
    const out = await generate({ task: "reply_draft", input: { post: "We grew MRR 3x in 6 months by killing our free plan. https://x.com/a #saas" } });
    assert.match(out, /^3x /);
    assert.ok(!/https?:|#/.test(out));
  });

  test("outreach_message personalises only with the hook and names only the recipient", async () => {
    const format = "I run a small studio that builds onboarding flows. Open to a quick chat?";
    const hooked = await generate({
      task: "outreach_message",
      input: { format, recipient: { name: "Ana Lopez", handle: "ana" }, hook: "Onboarding is where SaaS loses half its signups" },
    });
    assert.match(hooked, /^Hey Ana, your post "Onboarding is where SaaS loses half its signups" stuck with me\./);
    assert.ok(hooked.endsWith(format));
    const generic = await generate({
      task: "outreach_message",
      input: { format: "Hi {first_name}! Loved {hook}. Open to a chat?", recipient: { name: "Ana Lopez" }, hook: null },
    });
    assert.equal(generic, "Hi Ana! Open to a chat?");
  });

  test("keyword_suggestion and icp_expansion draw on the vocabulary passed in", async () => {
    const icp = "Founders of early-stage B2B SaaS startups hiring their first engineers";
    const vocabulary = ["crypto", "saas", "hiring", "b2b saas", "fitness", "startups"];
    const keywords = parseTaskOutput("keyword_suggestion", await generate({ task: "keyword_suggestion", input: { icp, vocabulary } }));
    assert.deepEqual(keywords.keywords, ["b2b saas", "saas", "hiring"]);
    const two = parseTaskOutput("keyword_suggestion", await generate({ task: "keyword_suggestion", input: { icp, vocabulary, max: 2 } }));
    assert.equal(two.keywords.length, 2);
    const fallback = parseTaskOutput(
      "keyword_suggestion",
      await generate({ task: "keyword_suggestion", input: { icp: "indie game developers", vocabulary: [] } }),
    );
    assert.ok(
      fallback.keywords.every((keyword) => keyword.split(" ").every((word) => /indie|game|developers/.test(word))),
      fallback.keywords.join(),
    );
    const expanded = parseTaskOutput("icp_expansion", await generate({ task: "icp_expansion", input: { icp, vocabulary } }));
    assert.ok(expanded.roles.includes("founders") && expanded.roles.includes("software engineers"));
    assert.ok(expanded.keywords.every((keyword) => vocabulary.includes(keyword)));
    assert.ok(expanded.description.startsWith(icp));
  });

  test("factcheck answers unknown with one sentence and no sources: the engine has no facts", async () => {
    const out = parseTaskOutput("factcheck", await generate({ task: "factcheck", input: { text: "The Great Wall is visible from space." } }));
    assert.equal(out.result, "unknown");
    assert.deepEqual(out.sources, []);
    assert.equal(sentencesOf(out.comment).length, 1);
  });

  test("style_guide states measured features of the posts", async () => {
    const out = await generate({ task: "style_guide", input: { posts: ["what's your stack?", "3 tools i use:\n- a\n- b", "ship it 🚀"] } });
    assert.match(out, /^Style guide measured from 3 posts:/);
    assert.match(out, /Casing: all lowercase\./);
    assert.match(out, /33% of posts use line breaks/);
    assert.match(out, /33% end with a question/);
  });

  test("generateImage returns a deterministic PNG of the requested size", async () => {
    const image = await model.generateImage({ prompt: "How we cut onboarding to two days", size: "320x180" });
    assert.deepEqual([...image.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const header = new DataView(image.bytes.buffer, image.bytes.byteOffset + 16, 8);
    assert.deepEqual([header.getUint32(0), header.getUint32(4)], [320, 180]);
    assert.equal(image.mimeType, "image/png");
    assert.ok(Number.isInteger(image.costCredits) && image.costCredits > 0);
    const again = await model.generateImage({ prompt: "How we cut onboarding to two days", size: "320x180" });
    assert.deepEqual(again.bytes, image.bytes);
    const other = await model.generateImage({ prompt: "A different article", size: "320x180" });
    assert.notDeepEqual(other.bytes, image.bytes);
    await assert.rejects(() => model.generateImage({ prompt: "x", size: "99999x1" }), ModelFailedError);
  });

  test("a cancelled call fails before output", async () => {
    await assert.rejects(() => model.generate({ task: "grammar", input: { text: "hi" }, signal: AbortSignal.abort() }), ModelFailedError);
  });
});

describe("prices and errors", () => {
  test("credits are the tokens' cents rounded up to a whole credit", () => {
    assert.equal(creditsForUsage({ inputTokens: 0, outputTokens: 0 }, { inputPer1K: 0.25, outputPer1K: 1 }), 0);
    assert.equal(creditsForUsage({ inputTokens: 400, outputTokens: 100 }, { inputPer1K: 0.25, outputPer1K: 1 }), 1);
    assert.equal(creditsForUsage({ inputTokens: 4000, outputTokens: 1000 }, { inputPer1K: 0.25, outputPer1K: 1 }), 2);
    assert.equal(creditsForUsage({ inputTokens: 4000, outputTokens: 1001 }, { inputPer1K: 0.25, outputPer1K: 1 }), 3);
    // 0.1 + 0.2 cents is a hair over 0.3 in floating point; exactly 3 whole cents must stay 3.
    assert.equal(creditsForUsage({ inputTokens: 10_000, outputTokens: 20_000 }, { inputPer1K: 0.1, outputPer1K: 0.1 }), 3);
    assert.equal(creditsForImage({ image: 4 }), 4);
    assert.equal(estimateTokens("12345678"), 2);
  });

  test("modelApiError maps each model failure to one API code", () => {
    const unavailable = modelApiError(new ModelUnavailableError("down", { reason: "rate_limited", retryAfterSeconds: 7 }));
    assert.deepEqual(
      [unavailable?.status, unavailable?.code, unavailable?.headers["Retry-After"], unavailable?.extra.retry_after],
      [503, "upstream_unavailable", "7", 7],
    );
    const failed = modelApiError(new ModelFailedError("bad"));
    assert.deepEqual([failed?.status, failed?.code], [502, "upstream_error"]);
    assert.equal(modelApiError(new ModelFailedError("bad"), { failedCode: "generation_failed" })?.code, "generation_failed");
    const timeout = modelApiError(new ModelTimeoutError("slow", { timeoutMs: 5 }));
    assert.deepEqual([timeout?.status, timeout?.code], [504, "upstream_timeout"]);
    assert.equal(modelApiError(new Error("not a model error")), undefined);
  });
});

describe("local text tools: hostile input stays linear", () => {
  test("a line of 100,000 blanks before a word is tidied in well under a second", () => {
    const line = `${" ".repeat(100_000)}word`;
    const started = performance.now();
    const tidied = tidy(`${line}\n${line}   `);
    assert.ok(performance.now() - started < 1000, `took ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(tidied, `${line}\n${line}`);
  });
});
