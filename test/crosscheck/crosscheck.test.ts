/**
 * The standing cross-check against the reference tools (docs/crosscheck.md): DNSViz and Zonemaster
 * for DNSSEC, openssl and testssl.sh for STARTTLS and certificates, the MDN HTTP Observatory for
 * headers, each against a service started with the world's settings. Every disagreement must be a
 * documented exception (the scripts' EXCEPTIONS, each with its reason). The scripts install
 * their Debian packages (as root) and the pinned Observatory when missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const script = (name: string) => new URL(`../../scripts/crosscheck/${name}.mjs`, import.meta.url).href

interface Totals {
  readonly cases: number
  readonly agreed: number
  readonly explained: number
  readonly unexplained: number
}

let service: { api: string; stop: () => Promise<void> }

beforeAll(async () => {
  service = await (await import(script("lib"))).startService()
}, 120_000)

afterAll(async () => {
  await service?.stop()
})

/** Minutes, not seconds: testssl alone takes about 16 s per MX address. */
const LONG = 15 * 60_000

describe("cross-check against the reference tools, on the world", () => {
  for (const [name, tool] of [
    ["dnssec", "DNSViz"],
    ["zonemaster", "Zonemaster"],
    ["nameservers", "Zonemaster's name-server test cases"],
    ["starttls", "openssl and testssl.sh"],
    ["headers", "the MDN HTTP Observatory"],
    ["header-values", "the MDN HTTP Observatory's rules, on its test suite's header values"],
    ["web-tls", "testssl.sh on the web hosts"],
    ["content-values", "the MDN HTTP Observatory's cookie and SRI rules, on Set-Cookie headers and pages"]
  ] as const)
    it(
      `${tool}: no unexplained disagreement`,
      async () => {
        // the per-case lines stay quiet; the disagreements and the totals are printed
        const lines: Array<string> = []
        const totals: Totals = await (
          await import(script(name))
        ).run(service.api, (line: string) => lines.push(line))
        const disagreements = lines.filter((l) => !l.startsWith("agree"))
        console.log(disagreements.join("\n"))
        expect(totals.cases).toBeGreaterThan(0)
        expect(totals.agreed).toBeGreaterThan(0)
        expect(totals.unexplained, disagreements.join("\n")).toBe(0)
      },
      LONG
    )
})
