/**
 * POST /debug-email against the world: messages signed here with the world's DKIM keys (the
 * manifest lists them) and checked over the world's DNS through the real HTTP app.
 */
import { readFileSync } from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { dkimSign, sealMessage } from "mailauth"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const App = Layer.unwrapEffect(Effect.sync(() => testApp(worldEnv())))

/** The private key of a world DKIM selector, from the manifest. */
const worldKey = (domain: string, selector: string): string => {
  const manifest = JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")) as {
    scenarios: Array<{ domain: string; dkim?: Array<{ selector: string; privateKey: string | null }> }>
  }
  const file = manifest.scenarios
    .find((s) => s.domain === domain)
    ?.dkim?.find((d) => d.selector === selector)?.privateKey
  if (!file) throw new Error(`the world manifest has no private key for ${selector}._domainkey.${domain}`)
  return readFileSync(file, "utf8")
}

/** perfect.com's MX, the one address its SPF lists besides the MX (ip4:127.25.0.1). */
const PERFECT_MX = "127.25.0.1"
const UNLISTED = "127.9.9.9"

const rfcDate = (ms = Date.now()) => new Date(ms).toUTCString().replace("GMT", "+0000")

const message = (from: string, body = "Hello from the world.\r\n") =>
  [
    `From: Alice <${from}>`,
    "To: bob@unsigned.net",
    "Subject: Quarterly report",
    `Date: ${rfcDate()}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@${from.split("@")[1]}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body
  ].join("\r\n")

/** What the recipient's MX prepends: the trusted hop SPF is evaluated for, and the Return-Path. */
const received = (ip: string, helo: string, mailFrom: string) =>
  `Return-Path: <${mailFrom}>\r\nReceived: from ${helo} (${helo} [${ip}])\r\n\tby mail.unsigned.net with ESMTPS id 4ZqK1\r\n\tfor <bob@unsigned.net>; ${rfcDate()}\r\n`

const sign = (raw: string, domain: string, selector: string, key = worldKey(domain, selector)) =>
  Effect.promise(async () => {
    const signed = await dkimSign(raw, {
      canonicalization: "relaxed/relaxed",
      signatureData: [{ signingDomain: domain, selector, privateKey: key }]
    } as unknown as Parameters<typeof dkimSign>[1])
    if (signed.errors.length > 0) throw new Error(String(signed.errors[0]))
    return signed.signatures + raw
  })

const debug = (raw: string) =>
  Effect.map(call("POST", "/api/debug-email", { raw_email: raw }), (r) => ({
    status: r.status,
    body: r.json
  }))

const ruleNames = (body: any): Array<string> => body.spamScore.rules.map((r: { name: string }) => r.name)

layer(App, { timeout: 120_000, excludeTestServices: true })("POST /debug-email in the world", (it) => {
  it.effect("perfect.com signed with selector1, sent from its MX: everything passes aligned", () =>
    Effect.gen(function* () {
      const signed = yield* sign(message("alice@perfect.com"), "perfect.com", "selector1")
      const r = yield* debug(received(PERFECT_MX, "mx.perfect.com", "bounce@perfect.com") + signed)
      expect(r.status).toBe(200)
      expect(r.body.spf).toMatchObject({ status: "pass", aligned: true })
      expect(r.body.spf.details).toContain(PERFECT_MX)
      expect(r.body.dkim).toMatchObject({ status: "pass", aligned: true })
      expect(r.body.dkim.signatures).toEqual([
        { domain: "perfect.com", selector: "selector1", status: "pass", aligned: true, details: null }
      ])
      expect(r.body.dmarc).toMatchObject({
        status: "pass",
        alignment: { spf: true, dkim: true },
        policy: "reject"
      })
      expect(ruleNames(r.body)).toEqual(
        expect.arrayContaining([
          "SPF_PASS",
          "DKIM_SIGNED",
          "DKIM_VALID",
          "DKIM_VALID_AU",
          "DKIM_VALID_EF",
          "DMARC_PASS"
        ])
      )
      expect(r.body.spamScore.score).toBeLessThan(0)
      expect(r.body.spamScore.threshold).toBe(5)
      expect(r.body.headerAnalysis.issues).toEqual([])
    })
  )

  it.effect("the Ed25519 selector verifies too (RFC 8463)", () =>
    Effect.gen(function* () {
      const raw = message("alice@perfect.com")
      const signed = yield* Effect.promise(() =>
        dkimSign(raw, {
          signatureData: [
            {
              signingDomain: "perfect.com",
              selector: "ed25519",
              privateKey: worldKey("perfect.com", "ed25519"),
              algorithm: "ed25519-sha256"
            }
          ]
        } as unknown as Parameters<typeof dkimSign>[1])
      )
      const r = yield* debug(
        received(PERFECT_MX, "mx.perfect.com", "bounce@perfect.com") + signed.signatures + raw
      )
      expect(r.body.dkim.signatures[0]).toMatchObject({ selector: "ed25519", status: "pass" })
    })
  )

  it.effect("a body changed after signing: the signature no longer verifies (DKIM_INVALID)", () =>
    Effect.gen(function* () {
      const signed = yield* sign(message("alice@perfect.com"), "perfect.com", "selector1")
      const tampered = signed.replace("Hello from the world.", "Hello from a forger.")
      const r = yield* debug(received(PERFECT_MX, "mx.perfect.com", "bounce@perfect.com") + tampered)
      expect(r.body.dkim.status).not.toBe("pass")
      expect(r.body.dkim.signatures[0].details).toContain("body hash")
      expect(r.body.dmarc).toMatchObject({ status: "pass", alignment: { spf: true, dkim: false } })
      expect(ruleNames(r.body)).toContain("DKIM_INVALID")
      expect(ruleNames(r.body)).not.toContain("DKIM_VALID")
      expect(
        r.body.suggestions.some(
          (s: any) => s.priority === "high" && /DKIM signature d=perfect.com/.test(s.issue)
        )
      ).toBe(true)
    })
  )

  it.effect("signed with a key that is not the published one: bad signature", () =>
    Effect.gen(function* () {
      const wrongKey = worldKey("dkim-weak.com", "s1024")
      const signed = yield* sign(message("alice@perfect.com"), "perfect.com", "selector1", wrongKey)
      const r = yield* debug(received(PERFECT_MX, "mx.perfect.com", "bounce@perfect.com") + signed)
      expect(r.body.dkim.signatures[0]).toMatchObject({ status: "fail", details: "bad signature" })
      expect(ruleNames(r.body)).toContain("DKIM_INVALID")
    })
  )

  it.effect(
    "sent from a hop perfect.com's SPF does not list, unsigned: SPF fail, DMARC fail under p=reject",
    () =>
      Effect.gen(function* () {
        const r = yield* debug(
          received(UNLISTED, "relay.example-forger.net", "bounce@perfect.com") + message("alice@perfect.com")
        )
        expect(r.body.spf).toMatchObject({ status: "fail", aligned: false })
        expect(r.body.spf.details).toContain(UNLISTED)
        expect(r.body.dmarc).toMatchObject({
          status: "fail",
          policy: "reject",
          alignment: { spf: false, dkim: false }
        })
        expect(ruleNames(r.body)).toEqual(expect.arrayContaining(["SPF_FAIL", "DMARC_REJECT"]))
        expect(
          r.body.headerAnalysis.issues.some((i: string) => i.startsWith("DMARC fail (policy reject)"))
        ).toBe(true)
      })
  )

  it.effect("unsigned.net from an unlisted hop: DMARC fail under p=quarantine", () =>
    Effect.gen(function* () {
      const r = yield* debug(
        received(UNLISTED, "relay.example-forger.net", "news@unsigned.net") + message("news@unsigned.net")
      )
      expect(r.body.spf.status).toBe("fail")
      expect(r.body.dmarc).toMatchObject({ status: "fail", policy: "quarantine" })
      expect(ruleNames(r.body)).toEqual(expect.arrayContaining(["SPF_FAIL", "DMARC_QUAR"]))
    })
  )

  it.effect("an ARC chain sealed by a forwarder with a world key verifies", () =>
    Effect.gen(function* () {
      const signed = yield* sign(message("alice@perfect.com"), "perfect.com", "selector1")
      const seal = yield* Effect.promise(() =>
        sealMessage(signed, {
          signingDomain: "synth-00001.com",
          selector: "selector1",
          privateKey: worldKey("synth-00001.com", "selector1"),
          i: 1,
          cv: "none",
          authResults:
            "mx.synth-00001.com; dkim=pass header.d=perfect.com; spf=pass smtp.mailfrom=perfect.com; dmarc=pass header.from=perfect.com"
        } as unknown as Parameters<typeof sealMessage>[1])
      )
      expect(seal.length).toBeGreaterThan(0)
      const r = yield* debug(
        received("127.77.0.1", "mx.synth-00001.com", "alice@perfect.com") + seal.toString() + signed
      )
      expect(r.body.arc.status, JSON.stringify(r.body.arc)).toBe("pass")
      expect(r.body.dkim.status, JSON.stringify(r.body.dkim)).toBe("pass")
    })
  )

  it.effect("a message with no authentication at all: nothing evaluated is reported as passing", () =>
    Effect.gen(function* () {
      const r = yield* debug(message("news@unsigned.net"))
      expect(r.status).toBe(200)
      expect(r.body.spf.status).toBe("not-evaluated")
      expect(r.body.dkim).toMatchObject({ status: "none", aligned: false, signatures: [] })
      expect(r.body.dmarc).toMatchObject({ status: "fail", policy: "quarantine" })
      expect(r.body.arc.status).toBe("none")
      expect(r.body.headerAnalysis.issues).toContain("The message has no DKIM signature")
      expect(ruleNames(r.body)).not.toContain("DKIM_SIGNED")
    })
  )
})
