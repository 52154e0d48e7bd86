/**
 * The spam score of POST /debug-email: a header and authentication score, NOT a content filter.
 *
 * Rule names, descriptions and scores are SpamAssassin's (Apache-2.0), so a reader can compare them
 * with what SpamAssassin-based filters report:
 * - header rules: `rules/50_scores.cf`, score set 1 (network tests, no Bayes: the second column);
 * - SPF_*, DKIM_*, DMARC_*: the scores the SPF, DKIM and DMARC plugins ship with (the same file's
 *   plugin sections, and the DMARC plugin's documentation). SpamAssassin scores DMARC near zero:
 *   it leaves the policy to the MTA, which rejects or quarantines a failing message whatever its
 *   score. The analysis reports that disposition separately (dmarc.policy and a suggestion).
 * The threshold is SpamAssassin's `required_score` default, 5.0 (`rules/10_default_prefs.cf`).
 * Body rules (Bayes, URIs, phrases), network blocklists and reputation are not evaluated: a message
 * under 5 here can still be filtered for its content or its sender's reputation (docs/debug-email.md).
 */
import { authorDomain, first, type Message, parseDateTime, trustedHop, values } from "./Message.ts"
import type { AuthVerdicts } from "./Verdicts.ts"

export const SPAM_THRESHOLD = 5.0

export interface RuleInput {
  readonly message: Message
  readonly auth: AuthVerdicts
}

export interface SpamRule {
  readonly name: string
  readonly score: number
  readonly description: string
  readonly fires: (input: RuleInput) => boolean
}

const has = (m: Message, name: string) => values(m, name).length > 0
const HOUR = 3_600_000

/** Date minus the time the receiving server stamped in the trusted Received field, in ms. */
const dateSkew = (m: Message): number | undefined => {
  const date = first(m, "Date")
  const sent = date === undefined ? undefined : parseDateTime(date)
  const received =
    trustedHop(m)?.at ??
    values(m, "Received")
      .map((v) => v.slice(v.lastIndexOf(";") + 1))
      .map(parseDateTime)
      .find((t) => t !== undefined)
  return sent === undefined || received === undefined ? undefined : sent - received
}

/**
 * SpamAssassin's DATE_IN_FUTURE_* / DATE_IN_PAST_* rules: the Date field [from, to) hours after
 * (FUTURE) or before (PAST) the trusted Received time, named and worded as SpamAssassin does.
 */
const skewRule = (side: "FUTURE" | "PAST", from: number, to: number, score: number): SpamRule => {
  const hours = (h: number) => (h === Infinity ? "XX" : String(h).padStart(2, "0"))
  const span = to === Infinity ? `${from} hours or more` : `${from} to ${to} hours`
  return {
    name: `DATE_IN_${side}_${hours(from)}_${hours(to)}`,
    score,
    description: `Date: is ${span} ${side === "FUTURE" ? "after" : "before"} Received: date`,
    fires: (i) => {
      const skew = dateSkew(i.message)
      if (skew === undefined) return false
      const ahead = side === "FUTURE" ? skew : -skew
      return ahead >= from * HOUR && ahead < to * HOUR
    }
  }
}

/** A header rule that fires when the message has no `header` field at all. */
const missingRule = (name: string, score: number, header: string, description: string): SpamRule => ({
  name,
  score,
  description,
  fires: (i) => !has(i.message, header)
})

/** A header rule that fires when the message's first `header` field is there but not `valid`. */
const invalidRule = (
  name: string,
  score: number,
  header: string,
  valid: (value: string) => boolean,
  description: string
): SpamRule => ({
  name,
  score,
  description,
  fires: (i) => {
    const value = first(i.message, header)
    return value !== undefined && !valid(value)
  }
})

/** The SPF plugin's SPF_<RESULT> rules: the receiver's SPF result for the message was `result`. */
const spfRule = (result: AuthVerdicts["spf"]["result"], score: number, description: string): SpamRule => ({
  name: `SPF_${result.toUpperCase()}`,
  score,
  description,
  fires: (i) => i.auth.spf.result === result
})

/** SUBJ_ALL_CAPS: a subject of more than one word whose letters (ten or more) are all capitals. */
const subjectAllCaps = (m: Message) => {
  const subject = first(m, "Subject") ?? ""
  const letters = subject.replace(/[^\p{L}]/gu, "")
  return (
    subject.trim().split(/\s+/).length > 1 &&
    letters.length >= 10 &&
    letters === letters.toUpperCase() &&
    letters !== letters.toLowerCase()
  )
}

const textBody = (m: Message) => m.body.replace(/\s+/g, "")

export const SPAM_RULES: ReadonlyArray<SpamRule> = [
  // --- header rules (50_scores.cf, set 1)
  missingRule("MISSING_MID", 0.14, "Message-ID", "Missing Message-Id: header"),
  invalidRule(
    "INVALID_MSGID",
    1.167,
    "Message-ID",
    (id) => /^\s*<[^<>@\s]+@[^<>@\s]+>\s*$/.test(id),
    "Message-Id is not valid, according to RFC 2822"
  ),
  missingRule("MISSING_DATE", 1.396, "Date", "Missing Date: header"),
  invalidRule(
    "INVALID_DATE",
    0.432,
    "Date",
    (date) => parseDateTime(date) !== undefined,
    "Invalid Date: header (not RFC 2822)"
  ),
  skewRule("FUTURE", 3, 6, 2.426),
  skewRule("FUTURE", 6, 12, 0.001),
  skewRule("FUTURE", 12, 24, 2.489),
  skewRule("FUTURE", 24, 48, 1.248),
  skewRule("FUTURE", 48, 96, 0.813),
  skewRule("PAST", 3, 6, 1.076),
  skewRule("PAST", 6, 12, 1.103),
  skewRule("PAST", 12, 24, 0.804),
  skewRule("PAST", 24, 48, 0.485),
  skewRule("PAST", 96, Infinity, 2.07),
  missingRule("MISSING_SUBJECT", 1.767, "Subject", "Missing Subject: header"),
  missingRule("MISSING_HEADERS", 1.207, "To", "Missing To: header"),
  {
    name: "REPLYTO_WITHOUT_TO_CC",
    score: 1.946,
    description: "No description available.",
    fires: (i) => has(i.message, "Reply-To") && !has(i.message, "To") && !has(i.message, "Cc")
  },
  {
    name: "SUBJ_ALL_CAPS",
    score: 0.5,
    description: "Subject is all capitals",
    fires: (i) => subjectAllCaps(i.message)
  },
  {
    name: "RDNS_NONE",
    score: 1.274,
    description: "Delivered to internal network by a host with no rDNS",
    fires: (i) => {
      const hop = trustedHop(i.message)
      return hop?.ip !== undefined && hop.rdns === null
    }
  },
  {
    name: "RCVD_NUMERIC_HELO",
    score: 0.865,
    description: "Received: contains an IP address used for HELO",
    fires: (i) => {
      const helo = trustedHop(i.message)?.helo
      return helo !== undefined && /^\[?(?:ipv6:)?[0-9a-f:.]+\]?$/i.test(helo) && /[.:]/.test(helo)
    }
  },
  {
    name: "HELO_LOCALHOST",
    score: 3.603,
    description: "localhost as HELO",
    fires: (i) => /^localhost(\.localdomain)?$/i.test(trustedHop(i.message)?.helo ?? "")
  },
  {
    name: "EMPTY_MESSAGE",
    score: 2.344,
    description: "Message appears to have no textual parts",
    fires: (i) => textBody(i.message) === ""
  },
  {
    name: "MIME_HTML_ONLY",
    score: 0.1,
    description: "Message only has text/html MIME parts",
    fires: (i) => /^\s*text\/html\b/i.test(first(i.message, "Content-Type") ?? "")
  },
  // --- SPF plugin
  spfRule("pass", -0.001, "SPF: sender matches SPF record"),
  spfRule("fail", 0.919, "SPF: sender does not match SPF record (fail)"),
  spfRule("softfail", 0.972, "SPF: sender does not match SPF record (softfail)"),
  spfRule("neutral", 0.652, "SPF: sender does not match SPF record (neutral)"),
  spfRule("none", 0.001, "SPF: sender does not publish an SPF Record"),
  // --- DKIM plugin
  {
    name: "DKIM_SIGNED",
    score: 0.1,
    description: "Message has a DKIM or DK signature, not necessarily valid",
    fires: (i) => i.auth.dkim.length > 0
  },
  {
    name: "DKIM_VALID",
    score: -0.1,
    description: "Message has at least one valid DKIM or DK signature",
    fires: (i) => i.auth.dkim.some((s) => s.result === "pass")
  },
  {
    name: "DKIM_VALID_AU",
    score: -0.1,
    description: "Message has a valid DKIM or DK signature from author's domain",
    fires: (i) => i.auth.dkim.some((s) => s.result === "pass" && s.domain === authorDomain(i.message))
  },
  {
    name: "DKIM_VALID_EF",
    score: -0.1,
    description: "Message has a valid DKIM or DK signature from envelope-from domain",
    fires: (i) =>
      i.auth.spf.domain !== undefined &&
      i.auth.dkim.some((s) => s.result === "pass" && s.domain === i.auth.spf.domain)
  },
  {
    name: "DKIM_INVALID",
    score: 0.1,
    description: "DKIM or DK signature exists, but is not valid",
    fires: (i) =>
      i.auth.dkim.length > 0 && !i.auth.dkim.some((s) => s.result === "pass" || s.result === "temperror")
  },
  // --- DMARC plugin
  {
    name: "DMARC_PASS",
    score: -0.001,
    description: "DMARC pass policy",
    fires: (i) => i.auth.dmarc.result === "pass"
  },
  {
    name: "DMARC_REJECT",
    score: 0.001,
    description: "DMARC reject policy",
    fires: (i) => i.auth.dmarc.result === "fail" && i.auth.dmarc.policy === "reject"
  },
  {
    name: "DMARC_QUAR",
    score: 0.001,
    description: "DMARC quarantine policy",
    fires: (i) => i.auth.dmarc.result === "fail" && i.auth.dmarc.policy === "quarantine"
  },
  {
    name: "DMARC_NONE",
    score: 0.001,
    description: "DMARC none policy",
    fires: (i) => i.auth.dmarc.result === "fail" && i.auth.dmarc.policy === "none"
  },
  {
    name: "DMARC_MISSING",
    score: 0.001,
    description: "Missing DMARC policy",
    fires: (i) => i.auth.dmarc.result === "none"
  }
]

export interface SpamScore {
  readonly score: number
  readonly threshold: number
  readonly rules: ReadonlyArray<{
    readonly name: string
    readonly score: number
    readonly description: string
  }>
}

/** The rules that fire, and their sum rounded to SpamAssassin's three decimals. */
export const spamScore = (input: RuleInput): SpamScore => {
  const fired = SPAM_RULES.filter((rule) => rule.fires(input))
  const sum = fired.reduce((total, rule) => total + rule.score, 0)
  return {
    score: Math.round(sum * 1000) / 1000,
    threshold: SPAM_THRESHOLD,
    rules: fired.map(({ name, score, description }) => ({ name, score, description }))
  }
}
