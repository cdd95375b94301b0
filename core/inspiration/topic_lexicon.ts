/**
 * The weighted lexicon the topic classifier scores with (topic_classifier.ts). Each
 * feature's weight is how strongly it points at the topic, in the spirit of a naive-Bayes
 * log-odds table: a decisive word (`bitcoin`, `onlyfans`) is worth the threshold alone, an
 * ambiguous one (`token`, `campaign`, `policy`) needs a second cue, and negative weights
 * mark the contexts that make an ambiguous word innocent (`access token`, `privacy policy`).
 * Tuned by hand against test/fixtures/topic_examples.ts, which holds hard negatives for
 * every ambiguous entry here.
 */

/** A topic `exclude_topics` can name; the order is the bit order of the stored mask. */
export const INSPIRATION_TOPICS = ["crypto", "politics", "nsfw", "selfpromo"] as const;

/** One of INSPIRATION_TOPICS. */
export type InspirationTopic = (typeof INSPIRATION_TOPICS)[number];

/** A topic's features: single words (plural `s` folded), phrases of words, raw patterns. */
export interface TopicLexicon {
  words: Readonly<Record<string, number>>;
  phrases: Readonly<Record<string, number>>;
  patterns: readonly (readonly [RegExp, number])[];
}

/** The score at which a post is classified into a topic. */
export const TOPIC_THRESHOLD = 1;

/** The selfpromo score at which a post is a plug, dropped from search results. */
export const PROMOTIONAL_THRESHOLD = 2;

/** The lexicon of every topic. */
export const TOPIC_LEXICONS: Readonly<Record<InspirationTopic, TopicLexicon>> = {
  crypto: {
    words: {
      bitcoin: 1.2, btc: 1.2, ethereum: 1.2, eth: 1, crypto: 1.2, cryptocurrency: 1.2, stablecoin: 1.1,
      defi: 1.2, nft: 1.1, blockchain: 1, onchain: 1.1, web3: 1.2, altcoin: 1.2, solana: 1.2, airdrop: 1,
      hodl: 1.2, memecoin: 1.2, satoshi: 1.2, sats: 0.7, coinbase: 1.2, binance: 1.2, dogecoin: 1.2,
      staking: 0.8, tvl: 1, dao: 1, reentrancy: 0.6, token: 0.45, wallet: 0.45, gas: 0.2, mining: 0.3, ledger: 0.3,
      yield: 0.3, exchange: 0.2, etf: 0.4, rug: 0.6, degen: 1, bullish: 0.4, bearish: 0.4, halving: 1,
      // Contexts where "token", "wallet" and "ledger" are software or accounting.
      jwt: -0.8, oauth: -0.8, auth: -0.5, llm: -0.6, gpt: -0.4, prompt: -0.4, leather: -0.8, accounting: -0.6, java: -0.6, orm: -0.6,
    },
    phrases: {
      "smart contract": 0.9, "layer 2": 0.6, "self custody": 1, "not your keys": 1, "to the moon": 0.6,
      "gas fees": 0.9, "seed phrase": 1, "token launch": 0.8, "crypto regulation": 1,
      "access token": -1, "api token": -1, "tokens per second": -1, "context window": -0.6, "data mining": -0.6,
    },
    patterns: [[/\$(btc|eth|sol|doge|xrp|pepe|usdc|usdt)\b/, 1.2]],
  },
  politics: {
    words: {
      election: 1.2, vote: 0.7, voting: 0.8, voter: 0.8, ballot: 1, congress: 1.2, senate: 1.2, senator: 1.2,
      president: 0.8, presidential: 1.2, democrat: 1.2, republican: 1.2, gop: 1.2, liberal: 0.6, conservative: 0.6,
      politic: 1.2, politics: 1.2, political: 1, politician: 1.2, government: 0.7, legislation: 1, legislature: 1.2,
      immigration: 1, zoning: 0.7, tax: 0.4, taxe: 0.4, parliament: 1.2, minister: 0.8, governor: 1, mayor: 0.8,
      partisan: 1.2, yimby: 1, nimby: 0.9, policy: 0.45, policie: 0.45, housing: 0.4, regulation: 0.4, reform: 0.4,
      trump: 1.2, biden: 1.2, impeachment: 1.2, protest: 0.6, lawmaker: 1.2, campaign: 0.25, bill: 0.2,
      candidate: 0.4, tariff: 0.8, budget: 0.2, healthcare: 0.3, transit: 0.3, civic: 0.6,
      // Where "campaign" and "policy" are marketing or software.
      email: -0.3, marketing: -0.5, cache: -0.6, retry: -0.6, cors: -0.8,
    },
    phrases: {
      "city council": 1, "city hall": 0.8, "supreme court": 1.2, "white house": 1, "the election": 0.6,
      "left wing": 1, "right wing": 1, "free speech": 0.8, "housing policy": 0.7, "climate policy": 0.8,
      "tax policy": 0.7, "immigration reform": 0.5, "public transit": 0.4, "local government": 0.6, "trade policy": 0.7,
      "privacy policy": -1, "return policy": -1, "refund policy": -1, "cancellation policy": -1, "retention policy": -1,
      "ad campaign": -0.6, "email campaign": -0.6, "marketing campaign": -0.6, "vote of confidence": -0.8,
    },
    patterns: [],
  },
  nsfw: {
    words: {
      porn: 1.5, nsfw: 1.5, nudes: 1.5, nude: 0.8, naked: 0.5, sex: 1, sexy: 0.6, onlyfans: 1.5, xxx: 1.3,
      horny: 1.3, erotic: 1.3, fetish: 1.3, lingerie: 0.9, boobs: 1.3, hookup: 1, escort: 1.2, stripper: 1.2,
      nipple: 1, explicit: 0.4, kinky: 1.3, thirsty: 0.5, spicy: 0.4, uncensored: 0.6, slutty: 1.5, bdsm: 1.5,
      // Software and design senses of "naked", "nude", "explicit", "strip".
      api: -0.5, types: -0.4, palette: -0.6, whitespace: -0.6, css: -0.6, code: -0.4, typescript: -0.6, font: -0.5,
    },
    phrases: {
      "dm for content": 1.2, "spicy content": 1.2, "thirst trap": 1.2, "link in bio": 0.3, "adult content": 1.2,
      "18 only": 1, "no minors": 1,
    },
    patterns: [[/\b18\+/, 0.9]],
  },
  selfpromo: {
    words: {
      subscribe: 0.6, giveaway: 0.6, discount: 0.6, coupon: 1, affiliate: 0.8, sponsored: 1, enroll: 0.8,
      waitlist: 0.6, preorder: 0.9, webinar: 0.6, masterclass: 0.8, ebook: 0.8, promo: 0.8, shop: 0.3,
      // Technical and finance senses of "subscribe", "discount", "sign up".
      webhook: -0.6, websocket: -0.6, rxjs: -0.8, observable: -0.6, dcf: -0.8, valuation: -0.4, onboarding: -0.3,
    },
    phrases: {
      "link in bio": 1.2, "check out my": 1, "my new course": 1.2, "my course": 0.9, "my newsletter": 0.9,
      "my new book": 1, "my book": 0.6, "my ebook": 1.2, "my podcast": 0.8, "new episode": 0.6, "use code": 1.2,
      "promo code": 1.2, "limited time": 0.8, "follow me": 1, "dm me": 0.8, "join my": 1, "buy now": 1.2,
      "pre order": 0.9, "launching today": 0.8, "we just launched": 0.8, "book a call": 1, "grab your": 0.8,
      "free trial": 0.6, "spots left": 1, "sign up": 0.5, "affiliate link": 0.6, "for more": 0.5, "if this helped": 0.6,
      "rt and follow": 1.2, "like and retweet": 1, "get it here": 1, "only a few": 0.4, "my product": 0.6,
      "my template": 0.8, "my templates": 0.8, "my community": 0.8, "my discord": 0.8, "subscribe to my": 0.6,
      "discount rate": -1, "follow up": -0.6, "follow the money": -0.8, "sign up flow": -0.8, "sign up form": -0.6,
    },
    patterns: [
      [/\b\d{1,2}% off\b/, 1.1],
      [/\bonly \$\d/, 0.7],
      [/https?:\/\/\S+/, 0.4],
      [/\bfollow @\w+ for more\b/, 0.8],
    ],
  },
};
