/**
 * Every spam rule has a message that triggers it and one that does not: the table below is checked
 * against SPAM_RULES, so a rule added without both cases fails here.
 */
import { describe, expect, it } from "vitest"
import type { Message } from "../../src/mail/Message.ts"
import { SPAM_RULES, SPAM_THRESHOLD, spamScore } from "../../src/mail/SpamRules.ts"
import type { AuthVerdicts } from "../../src/mail/Verdicts.ts"
import {
  build,
  GOOD_HEADERS,
  HOUR,
  NOW,
  PASSING,
  rfcDate,
  withDkim,
  withDmarc,
  withField,
  without,
  withSpf
} from "./fixtures.ts"

interface Case {
  readonly message: Message
  readonly auth: AuthVerdicts
}
const good = (auth: AuthVerdicts = PASSING): Case => ({ message: build(GOOD_HEADERS), auth })
const headers = (lines: ReadonlyArray<string>, body?: string): Case => ({
  message: build(lines, body),
  auth: PASSING
})
const dated = (hours: number) => headers(withField(`Date: ${rfcDate(NOW + hours * HOUR)}`))
const received = (clause: string) =>
  headers(withField(`Received: ${clause}\r\n\tby mail.unsigned.net with ESMTP id 2; ${rfcDate(NOW)}`))

/** DATE_IN_FUTURE/PAST bands: inside the band, and half an hour short of it (the band before). */
const band = (sign: 1 | -1, from: number, to: number) => ({
  fires: dated(sign * (Number.isFinite(to) ? (from + to) / 2 : from + 10)),
  quiet: dated(sign * (from - 0.5))
})

const CASES: Record<string, { readonly fires: Case; readonly quiet: Case }> = {
  MISSING_MID: { fires: headers(without("Message-ID")), quiet: good() },
  INVALID_MSGID: { fires: headers(withField("Message-ID: 12345")), quiet: good() },
  MISSING_DATE: { fires: headers(without("Date")), quiet: good() },
  INVALID_DATE: { fires: headers(withField("Date: yesterday at noon")), quiet: good() },
  DATE_IN_FUTURE_03_06: band(1, 3, 6),
  DATE_IN_FUTURE_06_12: band(1, 6, 12),
  DATE_IN_FUTURE_12_24: band(1, 12, 24),
  DATE_IN_FUTURE_24_48: band(1, 24, 48),
  DATE_IN_FUTURE_48_96: band(1, 48, 96),
  DATE_IN_PAST_03_06: band(-1, 3, 6),
  DATE_IN_PAST_06_12: band(-1, 6, 12),
  DATE_IN_PAST_12_24: band(-1, 12, 24),
  DATE_IN_PAST_24_48: band(-1, 24, 48),
  DATE_IN_PAST_96_XX: band(-1, 96, Infinity),
  MISSING_SUBJECT: { fires: headers(without("Subject")), quiet: good() },
  MISSING_HEADERS: { fires: headers(without("To")), quiet: good() },
  REPLYTO_WITHOUT_TO_CC: {
    fires: headers([...without("To"), "Reply-To: alice@perfect.com"]),
    quiet: headers([...GOOD_HEADERS, "Reply-To: alice@perfect.com"])
  },
  SUBJ_ALL_CAPS: { fires: headers(withField("Subject: WIN A FREE CRUISE TODAY")), quiet: good() },
  RDNS_NONE: {
    fires: received("from mx.perfect.com (unknown [127.25.0.1])"),
    // Exim's form with rDNS: the name first, the HELO inside the comment
    quiet: received("from mx.perfect.com ([127.25.0.1] helo=mx.perfect.com)")
  },
  RCVD_NUMERIC_HELO: { fires: received("from [127.25.0.1] (mx.perfect.com [127.25.0.1])"), quiet: good() },
  HELO_LOCALHOST: { fires: received("from localhost (mx.perfect.com [127.25.0.1])"), quiet: good() },
  EMPTY_MESSAGE: { fires: headers(GOOD_HEADERS, "\r\n  \r\n"), quiet: good() },
  MIME_HTML_ONLY: {
    fires: headers(withField("Content-Type: text/html; charset=utf-8"), "<p>Hello</p>\r\n"),
    quiet: good()
  },
  SPF_PASS: { fires: good(), quiet: good(withSpf("fail")) },
  SPF_FAIL: { fires: good(withSpf("fail")), quiet: good() },
  SPF_SOFTFAIL: { fires: good(withSpf("softfail")), quiet: good() },
  SPF_NEUTRAL: { fires: good(withSpf("neutral")), quiet: good() },
  SPF_NONE: { fires: good(withSpf("none")), quiet: good(withSpf("temperror")) },
  DKIM_SIGNED: { fires: good(), quiet: good(withDkim()) },
  DKIM_VALID: { fires: good(), quiet: good(withDkim({ result: "fail" })) },
  DKIM_VALID_AU: { fires: good(), quiet: good(withDkim({ domain: "esp-mailer.net", aligned: false })) },
  DKIM_VALID_EF: { fires: good(), quiet: good(withSpf("pass", "bounces.esp-mailer.net")) },
  DKIM_INVALID: {
    fires: good(withDkim({ result: "neutral", comment: "body hash did not verify" })),
    // a key that could not be looked up is no evidence of a bad signature
    quiet: good(withDkim({ result: "temperror" }))
  },
  DMARC_PASS: { fires: good(), quiet: good(withDmarc("none")) },
  DMARC_REJECT: { fires: good(withDmarc("fail", "reject")), quiet: good(withDmarc("fail", "quarantine")) },
  DMARC_QUAR: { fires: good(withDmarc("fail", "quarantine")), quiet: good(withDmarc("fail", "none")) },
  DMARC_NONE: { fires: good(withDmarc("fail", "none")), quiet: good(withDmarc("pass", "none")) },
  DMARC_MISSING: { fires: good(withDmarc("none", undefined)), quiet: good(withDmarc("temperror", undefined)) }
}

describe("spam rules", () => {
  it("the table covers exactly the rule set", () => {
    expect(Object.keys(CASES).sort()).toEqual(SPAM_RULES.map((r) => r.name).sort())
  })

  for (const rule of SPAM_RULES)
    it(`${rule.name} (${rule.score}): fires on its case, not on the other`, () => {
      const cases = CASES[rule.name]
      expect(cases, `${rule.name} has no test cases`).toBeDefined()
      expect(rule.fires(cases!.fires)).toBe(true)
      expect(rule.fires(cases!.quiet)).toBe(false)
      expect(spamScore(cases!.fires).rules.map((r) => r.name)).toContain(rule.name)
      expect(spamScore(cases!.quiet).rules.map((r) => r.name)).not.toContain(rule.name)
    })

  it("words the date rules as SpamAssassin's 50_scores.cf does", () => {
    const described = (name: string) => SPAM_RULES.find((r) => r.name === name)?.description
    expect(described("DATE_IN_FUTURE_03_06")).toBe("Date: is 3 to 6 hours after Received: date")
    expect(described("DATE_IN_PAST_24_48")).toBe("Date: is 24 to 48 hours before Received: date")
    expect(described("DATE_IN_PAST_96_XX")).toBe("Date: is 96 hours or more before Received: date")
  })

  it("names are unique and every rule has a description", () => {
    expect(new Set(SPAM_RULES.map((r) => r.name)).size).toBe(SPAM_RULES.length)
    for (const rule of SPAM_RULES) expect(rule.description.length).toBeGreaterThan(5)
  })

  it("the score is the sum of the rules that fire, against SpamAssassin's default threshold", () => {
    const result = spamScore({
      message: build(without("Message-ID", "Date", "Subject")),
      auth: withSpf("fail")
    })
    expect(result.threshold).toBe(SPAM_THRESHOLD)
    expect(SPAM_THRESHOLD).toBe(5)
    expect(result.rules.map((r) => r.name).sort()).toEqual(
      [
        "DKIM_SIGNED",
        "DKIM_VALID",
        "DKIM_VALID_AU",
        "DKIM_VALID_EF",
        "DMARC_PASS",
        "MISSING_DATE",
        "MISSING_MID",
        "MISSING_SUBJECT",
        "SPF_FAIL"
      ].sort()
    )
    expect(result.score).toBeCloseTo(0.14 + 1.396 + 1.767 + 0.919 + 0.1 - 0.1 - 0.1 - 0.1 - 0.001, 3)
  })

  it("a well-formed, aligned message scores below zero", () => {
    expect(spamScore(good()).score).toBeLessThan(0)
  })
})
