/**
 * mailauth over a fake zone through our Resolver: a DNS failure is a temperror, never "none".
 * (The world test, test/world/debugEmail.test.ts, covers the passing and failing cases end to end.)
 */
import { generateKeyPairSync } from "node:crypto"
import { Effect } from "effect"
import { dkimSign } from "mailauth"
import { describe, expect, it } from "vitest"
import { toWireFormat, verdictsWith } from "../../src/mail/Authenticate.ts"
import { parseMessage } from "../../src/mail/Message.ts"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { mailauthResolver } from "../../src/net/MailauthResolver.ts"
import { Resolver } from "../../src/net/Resolver.ts"

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 })
const PUBLIC = keys.publicKey.export({ type: "spki", format: "der" }).toString("base64")
const PRIVATE = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString()

const HEALTHY: FakeZone = {
  "s1._domainkey.perfect.test TXT": [`v=DKIM1; k=rsa; p=${PUBLIC}`],
  "perfect.test TXT": ["v=spf1 ip4:192.0.2.1 -all"],
  "_dmarc.perfect.test TXT": ["v=DMARC1; p=reject"]
}

const RAW = [
  "Return-Path: <bounce@perfect.test>",
  "Received: from mx.perfect.test (mx.perfect.test [192.0.2.1])\n\tby mail.example.test; Mon, 23 Nov 2026 20:00:01 +0000",
  "From: alice@perfect.test",
  "To: bob@example.test",
  "Subject: hi",
  "Date: Mon, 23 Nov 2026 20:00:00 +0000",
  "Message-ID: <1@perfect.test>",
  "",
  "Hello",
  ""
].join("\n")

const verdicts = async (zone: FakeZone) => {
  const signed = await dkimSign(toWireFormat(RAW), {
    signatureData: [{ signingDomain: "perfect.test", selector: "s1", privateKey: PRIVATE }]
  } as unknown as Parameters<typeof dkimSign>[1])
  // pasted with bare LFs: authentication reads it as it travelled, with CRLF
  const pasted = (signed.signatures + toWireFormat(RAW)).replace(/\r\n/g, "\n")
  const resolver = await Effect.runPromise(
    Effect.map(Resolver, (r) => mailauthResolver((n, t) => r.query(n, t), new AbortController().signal)).pipe(
      Effect.provide(Resolver.Test(zone))
    )
  )
  return verdictsWith(toWireFormat(pasted), parseMessage(pasted), resolver)
}

describe("authentication over our Resolver", () => {
  it("all lookups answer: SPF, DKIM and DMARC pass", async () => {
    const v = await verdicts(HEALTHY)
    expect(v.spf).toMatchObject({ result: "pass", domain: "perfect.test", ip: "192.0.2.1" })
    expect(v.dkim).toMatchObject([{ domain: "perfect.test", selector: "s1", result: "pass", aligned: true }])
    expect(v.dmarc).toMatchObject({ result: "pass", policy: "reject", spfAligned: true, dkimAligned: true })
  })

  it("the DMARC lookup times out: temperror, not 'no DMARC record'", async () => {
    const v = await verdicts({ ...HEALTHY, "_dmarc.perfect.test TXT": "TIMEOUT" })
    expect(v.dmarc.result).toBe("temperror")
  })

  it("no DMARC record at all (NXDOMAIN) is none", async () => {
    const { ["_dmarc.perfect.test TXT"]: _, ...rest } = HEALTHY
    const v = await verdicts(rest)
    expect(v.dmarc.result).toBe("none")
  })

  it("the SPF lookup fails with SERVFAIL and the DKIM key lookup times out: both temperror", async () => {
    const v = await verdicts({
      ...HEALTHY,
      "perfect.test TXT": "SERVFAIL",
      "s1._domainkey.perfect.test TXT": "TIMEOUT"
    })
    expect(v.spf.result).toBe("temperror")
    expect(v.dkim[0]!.result).toBe("temperror")
  })
})
