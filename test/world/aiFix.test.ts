/**
 * `POST /ai/fix` against the world: for domains whose SPF, DMARC or DANE is broken, the proposed
 * record is judged valid by the project's own analysers (the check named in `validation`, and
 * again here by parsing it with src/records), and keeps what already worked.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createHash, X509Certificate } from "node:crypto"
import { readFileSync } from "node:fs"
import { PLACEHOLDER_RUA } from "../../src/ai/FixDmarc.ts"
import { parseDmarc } from "../../src/records/DmarcRecord.ts"
import { parse as parseSpf } from "../../src/records/SpfParse.ts"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const App = Layer.unwrapEffect(Effect.sync(() => testApp(worldEnv())))

const fix = (issue: string, domain: string, current_config?: object) =>
  Effect.map(
    call("POST", "/api/ai/fix", { issue, domain, ...(current_config ? { current_config } : {}) }),
    (r) => {
      if (r.status !== 200) throw new Error(`${issue} ${domain}: ${r.status} ${r.text}`)
      return r.json
    }
  )

/** A proposed SPF record: valid for the SPF check (lookups included) and for the parser. */
const validSpf = (body: any, domain: string) => {
  expect(body.success, JSON.stringify(body)).toBe(true)
  expect(body.fix).toMatchObject({ dns_record: domain, record_type: "TXT" })
  expect(body.validation).toMatchObject({ check: "SPF", valid: true })
  expect(body.validation.lookups).toBeLessThanOrEqual(10)
  expect(parseSpf(body.fix.value).errors).toEqual([])
  return parseSpf(body.fix.value).terms.map((t) => t.text)
}

const validDmarc = (body: any, domain: string) => {
  expect(body.success).toBe(true)
  expect(body.fix).toMatchObject({ dns_record: `_dmarc.${domain}`, record_type: "TXT" })
  expect(body.validation).toMatchObject({ check: "DMARC", valid: true })
  const parsed = parseDmarc(body.fix.value)
  expect(parsed.errors).toEqual([])
  return parsed
}

layer(App, { timeout: 120_000, excludeTestServices: true })("POST /ai/fix in the world", (it) => {
  it.effect("too many lookups: the first includes stay, the rest is listed directly, within 10", () =>
    Effect.gen(function* () {
      const terms = validSpf(yield* fix("spf_too_many_lookups", "spf-toomany.com"), "spf-toomany.com")
      expect(terms).toContain("include:a._spf.spf-toomany.com")
      expect(terms).toContain("include:b._spf.spf-toomany.com")
      expect(terms).not.toContain("include:c._spf.spf-toomany.com")
      expect(terms.at(-1)).toBe("-all")
    })
  )

  it.effect("void lookups, several records, +all, ~all: fixed, the rest kept", () =>
    Effect.gen(function* () {
      const voids = validSpf(yield* fix("spf_too_many_void_lookups", "spf-void.com"), "spf-void.com")
      expect(voids.some((t) => t.includes("nothing"))).toBe(false)
      const merged = validSpf(yield* fix("spf_multiple_records", "spf-multiple.org"), "spf-multiple.org")
      expect(merged).toEqual(expect.arrayContaining(["ip4:192.0.2.10", "include:unsigned.net"]))
      const plus = validSpf(yield* fix("spf-plus-all", "spf-passall.com"), "spf-passall.com")
      expect(plus.at(-1)).toBe("~all")
      const soft = validSpf(yield* fix("spf_softfail_all", "spf-softfail.com"), "spf-softfail.com")
      expect(soft).toEqual(["ip4:192.0.2.20", "-all"])
    })
  )

  it.effect(
    "DMARC: none without reports gets reports first, an invalid record is repaired, a leading space removed",
    () =>
      Effect.gen(function* () {
        // staged: p=none without rua stays none and gains a report address; quarantine comes after
        const staged = yield* fix("dmarc_policy_none", "dmarc-none.com")
        const none = validDmarc(staged, "dmarc-none.com")
        expect(none.p).toBe("none")
        expect(none.rua.length).toBe(1)
        expect(JSON.stringify(staged)).toMatch(/reports first/)
        // dmarc-invalid.net takes no mail: its own rua is dropped, never proposed beside a note that it
        // cannot receive; with no receiver of this service configured, a placeholder to replace
        const invalid = yield* fix("dmarc_invalid", "dmarc-invalid.net")
        const repaired = validDmarc(invalid, "dmarc-invalid.net")
        expect(repaired.p).toBe("reject")
        expect(repaired.rua.map((u) => u.uri)).toEqual([PLACEHOLDER_RUA])
        expect(JSON.stringify(invalid)).toMatch(
          /removed rua mailto:dmarc@dmarc-invalid.net: .* takes no mail/
        )
        expect(JSON.stringify(invalid)).toMatch(/replace your-mail-domain.example/)
        // the proposal's own words (its preview, in `compared`, does say the placeholder receives nothing)
        expect(JSON.stringify({ fix: invalid.fix, validation: invalid.validation })).not.toMatch(
          /cannot receive|your-mail-domain.example must publish/
        )
        expect(invalid.compared.summary).toContain("New issue: DMARC report address cannot receive mail.")
        expect(repaired.unknownTags).toEqual([])
        const space = validDmarc(yield* fix("dmarc_leading_space", "dmarc-space.com"), "dmarc-space.com")
        expect(space.p).toBe("reject")
        expect(space.rua.map((u) => u.uri)).toEqual(["mailto:dmarc@perfect.com"])
      })
  )

  it.effect("missing records: -all for a domain without MX; a subdomain keeps the policy it inherits", () =>
    Effect.gen(function* () {
      expect(validSpf(yield* fix("spf_missing", "nomx.net"), "nomx.net")).toEqual(["-all"])
      const sub = validDmarc(yield* fix("dmarc_missing", "sub.dmarc-org.com"), "sub.dmarc-org.com")
      expect(sub.p).toBe("reject")
    })
  )

  it.effect("an unauthorised external rua: the authorisation record the collector publishes", () =>
    Effect.gen(function* () {
      const body = yield* fix("dmarc_external_rua_unauthorised", "dmarc-external-rua.org")
      expect(body.fix).toMatchObject({
        dns_record: "dmarc-external-rua.org._report._dmarc.dmarc-collector.net",
        record_type: "TXT",
        value: "v=DMARC1"
      })
    })
  )

  it.effect("DANE mismatch: TLSA 3 1 1 of the key the MX presents", () =>
    Effect.gen(function* () {
      const manifest = JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8"))
      const mx = manifest.scenarios.find((s: any) => s.domain === "dane-mismatch.com").mx[0]
      const spki = new X509Certificate(readFileSync(mx.cert)).publicKey.export({
        type: "spki",
        format: "der"
      })
      const body = yield* fix("dane_invalid", "dane-mismatch.com")
      expect(body.fix).toMatchObject({
        dns_record: `_25._tcp.${mx.host}`,
        record_type: "TLSA",
        value: `3 1 1 ${createHash("sha256").update(spki).digest("hex")}`
      })
    })
  )

  it.effect("a security header from the generator; an issue no record fixes gets steps, not a record", () =>
    Effect.gen(function* () {
      const hsts = yield* fix("hsts_missing", "perfect.com")
      expect(hsts.fix.record_type).toBe("HTTP header")
      expect(hsts.fix.value).toMatch(/^Strict-Transport-Security: max-age=\d+/)
      const ns = yield* fix("ns_single", "perfect.com")
      expect(ns).toMatchObject({ success: false, fix: { value: "", record_type: "" } })
      expect(ns.fix.steps.length).toBeGreaterThan(0)
    })
  )
})
