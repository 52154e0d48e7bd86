/**
 * The one rate limiter: token buckets per client, for every limit the service applies (the edge's
 * costly and cheap routes, CSP scans, snapshots, deep scans), and the IETF header fields that tell a
 * client where it stands (draft-ietf-httpapi-ratelimit-headers, Structured Fields, RFC 9651):
 *
 *     RateLimit-Policy: "costly";q=30;w=30
 *     RateLimit: "costly";r=0;t=1
 *
 * A policy's quota `q` is the bucket's burst and its window `w` the seconds the bucket takes to fill
 * from empty: a client that spends `q` requests in a burst has them all back after `w` seconds, and a
 * steady `q` per `w` is never refused. `r` is the whole tokens left; `t` is the seconds until the
 * next token when none is left (the same instant as `Retry-After`, as the draft asks of a refusal),
 * else until the bucket is full again.
 */

/** A limit: `burst` requests at once, refilled at `perMinute`. `name` is its RateLimit-Policy key. */
export interface Policy {
  readonly name: string
  readonly burst: number
  readonly perMinute: number
}

/** Where one client stands under one policy after (or without) taking a token. */
export interface Reading {
  readonly policy: Policy
  /** Whole tokens left. */
  readonly remaining: number
  /** Seconds to the next token when `remaining` is 0, else to a full bucket. */
  readonly resetS: number
  /** 0 when the request was admitted, else the whole seconds until a token is back (>= 1). */
  readonly retryAfterS: number
}

/** Seconds for an empty bucket to fill: the policy's window `w`. */
export const windowSeconds = (policy: Policy) =>
  policy.perMinute > 0 ? Math.max(1, Math.ceil((policy.burst * 60) / policy.perMinute)) : 0

/** One quota policy item (a Structured Fields String with parameters). */
const policyItem = (policy: Policy) => `"${policy.name}";q=${policy.burst};w=${windowSeconds(policy)}`

/** The two header fields for `readings`, one list item per policy. */
export const rateLimitHeaders = (readings: ReadonlyArray<Reading>): Record<string, string> =>
  readings.length === 0
    ? {}
    : {
        "RateLimit-Policy": readings.map((r) => policyItem(r.policy)).join(", "),
        RateLimit: readings.map((r) => `"${r.policy.name}";r=${r.remaining};t=${r.resetS}`).join(", ")
      }

/**
 * The bucket key of a client that presented a usable API key (KeyClients.ts): its own bucket under
 * the key quota, in place of its address's.
 */
export const KEY_CLIENT = "key:"

/** `policy` with its quota and rate multiplied by `factor` (an API key's quota). */
export const scaled = (policy: Policy, factor: number): Policy => ({
  name: policy.name,
  burst: policy.burst * factor,
  perMinute: policy.perMinute * factor
})

/** One policy's arithmetic: refill, and where a bucket stands. */
const meter = (policy: Policy) => {
  const perMs = policy.perMinute / 60_000
  const refill = (entry: { tokens: number; at: number }, now: number) => {
    // Rounded to a billionth: a rate like 0.3 a minute must give back exactly one token in 200 s.
    const tokens = entry.tokens + Math.max(0, now - entry.at) * perMs
    entry.tokens = Math.min(policy.burst, Math.round(tokens * 1e9) / 1e9)
    entry.at = now
  }
  // (less a hair: 1 / (0.3 / 60000) / 1000 is 200.00000000000003 in floating point)
  const secondsFor = (tokens: number) =>
    perMs > 0 ? Math.max(1, Math.ceil(tokens / perMs / 1000 - 1e-9)) : 60
  const reading = (tokens: number, retryAfterS: number): Reading => {
    const remaining = Math.floor(tokens)
    const resetS =
      remaining === 0
        ? secondsFor(1 - tokens)
        : tokens >= policy.burst
          ? 0
          : secondsFor(policy.burst - tokens)
    return { policy, remaining, resetS, retryAfterS }
  }
  return { policy, refill, secondsFor, reading } as const
}

/**
 * Token buckets per client key under `policy`, and under `keyPolicy` for the clients that presented
 * an API key (their bucket keys start with `KEY_CLIENT`). Full buckets are forgotten (they carry no
 * information), so memory is bounded by the clients active within one refill period, and by
 * `maxKeys` at worst.
 */
export const makeLimiter = (policy: Policy, maxKeys = 100_000, keyPolicy: Policy = policy) => {
  const state = new Map<string, { tokens: number; at: number }>()
  const anonymous = meter(policy)
  const keyed = meter(keyPolicy)
  const meterOf = (key: string) => (key.startsWith(KEY_CLIENT) ? keyed : anonymous)
  const prune = (now: number) => {
    for (const [key, entry] of state) {
      const m = meterOf(key)
      m.refill(entry, now)
      if (entry.tokens >= m.policy.burst) state.delete(key)
    }
    // Still full of active keys (an address sweep): start over rather than grow without bound.
    if (state.size >= maxKeys) state.clear()
  }
  /** Take a token for `key`: admitted when `retryAfterS` is 0. */
  const take = (key: string, now: number): Reading => {
    const m = meterOf(key)
    let entry = state.get(key)
    if (entry === undefined) {
      if (state.size >= maxKeys) prune(now)
      entry = { tokens: m.policy.burst, at: now }
      state.set(key, entry)
    } else m.refill(entry, now)
    if (entry.tokens >= 1) {
      entry.tokens -= 1
      return m.reading(entry.tokens, 0)
    }
    return m.reading(entry.tokens, m.secondsFor(1 - entry.tokens))
  }
  /** Where `key` stands now, taking nothing. */
  const peek = (key: string, now: number): Reading => {
    const m = meterOf(key)
    const entry = state.get(key)
    if (entry === undefined) return m.reading(m.policy.burst, 0)
    m.refill(entry, now)
    return m.reading(entry.tokens, 0)
  }
  return { policy, take, peek, size: () => state.size } as const
}

export type Limiter = ReturnType<typeof makeLimiter>
