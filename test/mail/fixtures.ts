/** Messages and authentication verdicts for the pure tests of src/mail. */
import { type Message, parseMessage } from "../../src/mail/Message.ts"
import type { AuthVerdicts } from "../../src/mail/Verdicts.ts"

export const NOW = Date.UTC(2026, 10, 23, 20, 0, 0)
export const HOUR = 3_600_000

/** An RFC 5322 date-time for epoch ms (RFC 5322 3.3). */
export const rfcDate = (ms: number) => new Date(ms).toUTCString().replace("GMT", "+0000")

/** A well-formed message as perfect.com's MX handed it to unsigned.net's. */
export const GOOD_HEADERS: ReadonlyArray<string> = [
  "Return-Path: <bounce@perfect.com>",
  `Received: from mx.perfect.com (mx.perfect.com [127.25.0.1])\r\n\tby mail.unsigned.net with ESMTPS id 1; ${rfcDate(NOW)}`,
  "From: Alice <alice@perfect.com>",
  "To: bob@unsigned.net",
  "Subject: Quarterly report",
  `Date: ${rfcDate(NOW)}`,
  "Message-ID: <20261123.1@perfect.com>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=utf-8"
]

export const build = (headers: ReadonlyArray<string>, body = "Hello Bob.\r\n"): Message =>
  parseMessage([...headers, "", body].join("\r\n"))

const nameOf = (line: string) => line.slice(0, line.indexOf(":")).toLowerCase()

/** GOOD_HEADERS without the named fields. */
export const without = (...names: ReadonlyArray<string>) =>
  GOOD_HEADERS.filter((line) => !names.map((n) => n.toLowerCase()).includes(nameOf(line)))

/** GOOD_HEADERS with the named field replaced by (or, when absent, extended with) `line`. */
export const withField = (line: string) => [...without(nameOf(line)), line]

export const PASSING: AuthVerdicts = {
  spf: {
    result: "pass",
    domain: "perfect.com",
    ip: "127.25.0.1",
    helo: "mx.perfect.com",
    mailFrom: "bounce@perfect.com",
    details: "pass for client 127.25.0.1"
  },
  dkim: [
    {
      domain: "perfect.com",
      selector: "selector1",
      result: "pass",
      aligned: true,
      comment: undefined,
      signedHeaders: ["from", "to", "subject", "date", "message-id"]
    }
  ],
  dmarc: {
    result: "pass",
    policy: "reject",
    domain: "perfect.com",
    spfAligned: true,
    dkimAligned: true,
    details: "pass"
  },
  arc: { result: "none", details: "no ARC chain" }
}

export const withSpf = (result: AuthVerdicts["spf"]["result"], domain = "perfect.com"): AuthVerdicts => ({
  ...PASSING,
  spf: { ...PASSING.spf, result, domain }
})

export const withDkim = (
  ...signatures: ReadonlyArray<Partial<AuthVerdicts["dkim"][number]>>
): AuthVerdicts => ({
  ...PASSING,
  dkim: signatures.map((s) => ({ ...PASSING.dkim[0]!, ...s }))
})

export const withDmarc = (
  result: AuthVerdicts["dmarc"]["result"],
  policy: AuthVerdicts["dmarc"]["policy"] = "reject"
): AuthVerdicts => ({
  ...PASSING,
  dmarc: { ...PASSING.dmarc, result, policy, spfAligned: result === "pass", dkimAligned: result === "pass" }
})
