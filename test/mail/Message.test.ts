/** The header reader and the header analysis: RFC 5322 readings, and totality on any input. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyseHeaders } from "../../src/mail/HeaderAnalysis.ts"
import {
  mailboxes,
  parseDateTime,
  parseMessage,
  parseReceived,
  trustedHop,
  values
} from "../../src/mail/Message.ts"
import { spamScore } from "../../src/mail/SpamRules.ts"
import { build, GOOD_HEADERS, PASSING, withDkim, withField, without } from "./fixtures.ts"
import { runs } from "../support/runs.ts"

const texts = (headers: ReadonlyArray<string>, body?: string, auth = PASSING) => {
  const findings = analyseHeaders(build(headers, body), auth)
  return {
    issues: findings.filter((f) => f.level === "issue").map((f) => f.text),
    warnings: findings.filter((f) => f.level === "warning").map((f) => f.text)
  }
}

describe("parseMessage", () => {
  it("unfolds continuation lines (RFC 5322 2.2.3) and keeps field order", () => {
    const m = parseMessage("Subject: one\r\n two\r\nX-A: 1\r\nX-A: 2\r\n\r\nbody")
    expect(values(m, "subject")).toEqual(["one two"])
    expect(values(m, "X-A")).toEqual(["1", "2"])
    expect(m.body).toBe("body")
    expect(m.malformed).toEqual([])
  })

  it("records lines that are not fields instead of failing", () => {
    const m = parseMessage("From: a@perfect.com\nthis is not a header\n\nbody")
    expect(m.malformed).toEqual(["this is not a header"])
  })

  it("reads the trusted hop from the newest Received field with a from clause", () => {
    const m = parseMessage(
      [
        "Received: by 2002:a05:6a10 with SMTP id x; Mon, 23 Nov 2026 20:00:02 +0000",
        "Received: from mx.perfect.com (mx.perfect.com [127.25.0.1])\r\n\tby mail.unsigned.net (envelope-from <b@perfect.com>); Mon, 23 Nov 2026 20:00:01 +0000",
        "Received: from forged.example (forged.example [192.0.2.66]) by mx.perfect.com; Mon, 23 Nov 2026 20:00:00 +0000",
        "",
        ""
      ].join("\r\n")
    )
    expect(trustedHop(m)).toEqual({
      ip: "127.25.0.1",
      helo: "mx.perfect.com",
      rdns: "mx.perfect.com",
      envelopeFrom: "b@perfect.com",
      at: Date.UTC(2026, 10, 23, 20, 0, 1),
      by: "mail.unsigned.net"
    })
  })

  it("reads the client, HELO and rDNS as Postfix, Sendmail and Exim write them", () => {
    const hop = (clause: string) => {
      const { ip, helo, rdns } = parseReceived(
        `${clause} by mail.unsigned.net; Mon, 23 Nov 2026 20:00:01 +0000`
      )
      return { ip, helo, rdns }
    }
    expect(hop("from helo.test (unknown [192.0.2.7])")).toEqual({
      ip: "192.0.2.7",
      helo: "helo.test",
      rdns: null
    })
    expect(hop("from helo.test ([192.0.2.7])")).toEqual({ ip: "192.0.2.7", helo: "helo.test", rdns: null })
    expect(hop("from helo.test (rdns.test. [IPv6:2001:db8::7])")).toEqual({
      ip: "2001:db8::7",
      helo: "helo.test",
      rdns: "rdns.test"
    })
    expect(hop("from rdns.test ([192.0.2.7] helo=helo.test)")).toEqual({
      ip: "192.0.2.7",
      helo: "helo.test",
      rdns: "rdns.test"
    })
    expect(hop("from [192.0.2.7] (helo=helo.test)")).toEqual({
      ip: "192.0.2.7",
      helo: "helo.test",
      rdns: null
    })
    expect(hop("from helo.test")).toEqual({ ip: undefined, helo: "helo.test", rdns: undefined })
  })

  it("reads RFC 5322 dates with zones, obsolete zone names and two-digit years", () => {
    expect(parseDateTime("Mon, 23 Nov 2026 21:30:00 +0130")).toBe(Date.UTC(2026, 10, 23, 20, 0, 0))
    expect(parseDateTime("23 Nov 26 15:00 EST")).toBe(Date.UTC(2026, 10, 23, 20, 0, 0))
    expect(parseDateTime("Mon, 23 Nov 2026 20:00:00 +0000 (UTC)")).toBe(Date.UTC(2026, 10, 23, 20, 0, 0))
    expect(parseDateTime("31 Feb 2026 10:00:00 +0000")).toBeUndefined()
    expect(parseDateTime("2026-11-23T20:00:00Z")).toBeUndefined()
  })

  it("finds addresses outside comments and quoted names", () => {
    expect(mailboxes('"Smith, J (a@b.c)" <j@perfect.com> (work)')).toEqual(["j@perfect.com"])
    expect(mailboxes("a@perfect.com, b@unsigned.net")).toEqual(["a@perfect.com", "b@unsigned.net"])
  })
})

describe("analyseHeaders", () => {
  it("a well-formed, authenticated message has no issue and no warning", () => {
    expect(texts(GOOD_HEADERS)).toEqual({ issues: [], warnings: [] })
  })

  it("RFC 5322 3.6 counts: missing Date/From and duplicated single fields", () => {
    const { issues } = texts([...without("Date"), "Subject: again", "From: eve@perfect.com"])
    expect(issues).toEqual(
      expect.arrayContaining([
        "No Date header (RFC 5322 3.6 requires exactly one)",
        "2 From headers (RFC 5322 3.6 allows exactly one)",
        "2 Subject headers (RFC 5322 3.6 allows at most one)"
      ])
    )
  })

  it("Message-ID missing or malformed", () => {
    expect(texts(without("Message-ID")).issues[0]).toMatch(/^No Message-ID header/)
    expect(texts(withField("Message-ID: no-brackets")).issues[0]).toMatch(/is not of the form <id@domain>/)
  })

  it("Return-Path and DKIM d= not aligned with From", () => {
    const r = texts(
      withField("Return-Path: <bounce@esp-mailer.net>"),
      undefined,
      withDkim({ domain: "esp-mailer.net", aligned: false })
    )
    expect(r.warnings[0]).toMatch(
      /Return-Path domain esp-mailer.net differs from the From domain perfect.com/
    )
    expect(r.issues[0]).toMatch(/No valid DKIM signature aligned with perfect.com \(d= esp-mailer.net\)/)
  })

  it("a DKIM key that could not be looked up is a warning, never a verdict on the signature", () => {
    const r = texts(
      GOOD_HEADERS,
      undefined,
      withDkim({ result: "temperror", comment: "DNS failure: ETIMEOUT" })
    )
    expect(r.issues).toEqual([])
    expect(r.warnings).toEqual([
      "DKIM signature d=perfect.com s=selector1: temperror (DNS failure: ETIMEOUT)"
    ])
    const missing = texts(GOOD_HEADERS, undefined, withDkim({ result: "neutral", comment: "no key" }))
    expect(missing.issues).toEqual([
      "No valid DKIM signature aligned with perfect.com (d= perfect.com)",
      "DKIM signature d=perfect.com s=selector1: neutral (no key)"
    ])
  })

  it("bulk mail: List-Unsubscribe with https, one-click (RFC 8058) and both covered by DKIM", () => {
    const list = [...GOOD_HEADERS, "List-Id: <news.perfect.com>"]
    expect(texts(list).issues[0]).toMatch(/Bulk message without List-Unsubscribe/)
    const mailtoOnly = texts([...list, "List-Unsubscribe: <mailto:unsub@perfect.com>"]).issues
    expect(mailtoOnly).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/has no https URI/),
        expect.stringMatching(/No List-Unsubscribe-Post/),
        expect.stringMatching(/covers List-Unsubscribe/)
      ])
    )
    const complete = [
      ...list,
      "List-Unsubscribe: <https://perfect.com/u/1>",
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click"
    ]
    const signed = withDkim({ signedHeaders: ["from", "list-unsubscribe", "list-unsubscribe-post"] })
    expect(texts(complete, undefined, signed).issues).toEqual([])
    expect(texts(complete).issues).toEqual([expect.stringMatching(/No valid DKIM signature covers/)])
  })

  it("malformed MIME: multipart without boundary, boundary never used, unknown transfer encoding", () => {
    expect(texts(withField("Content-Type: multipart/mixed")).issues[0]).toMatch(/without a boundary/)
    expect(
      texts(withField('Content-Type: multipart/mixed; boundary="b1"'), "no parts\r\n").issues[0]
    ).toMatch(/boundary never appears/)
    expect(
      texts(withField('Content-Type: multipart/mixed; boundary="b1"'), "--b1\r\n\r\nx\r\n--b1--\r\n").issues
    ).toEqual([])
    expect(texts([...GOOD_HEADERS, "Content-Transfer-Encoding: uuencode"]).issues[0]).toMatch(
      /Unknown Content-Transfer-Encoding/
    )
  })
})

describe("totality", () => {
  const anyMessage = fc.oneof(
    fc.string({ maxLength: 2000 }),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            "From",
            "Date",
            "Received",
            "Message-ID",
            "Content-Type",
            "DKIM-Signature",
            "List-Unsubscribe",
            "x"
          ),
          fc.string({ maxLength: 200 })
        ),
        { maxLength: 20 }
      )
      .map((fields) => fields.map(([n, v]) => `${n}: ${v}`).join("\r\n") + "\r\n\r\nbody")
  )
  it("parsing, analysis and scoring never throw", () => {
    fc.assert(
      fc.property(anyMessage, (raw) => {
        const m = parseMessage(raw)
        analyseHeaders(m, PASSING)
        const score = spamScore({ message: m, auth: PASSING })
        return Number.isFinite(score.score)
      }),
      { numRuns: runs(500) }
    )
  })
})
