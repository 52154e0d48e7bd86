/**
 * The batch on Node.js 24 (docs/batch.md, "Which Node.js": where it takes a fifth less CPU) against
 * the world's TLS scenarios, beside the same batch on the Node.js running the tests: the same TLS
 * findings and the same scores. Node.js 24's OpenSSL 3.5 leads with the hybrid X25519MLKEM768
 * unless our contexts pin the groups (src/net/TlsPeer.ts), and then the post-quantum server's suites
 * had no key exchange; its cipher list and security levels differ from OpenSSL 3.0's too.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { withoutTimings } from "../../scripts/bench/batchRecords.ts"
import { worldEnv } from "./env.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "node24-world-"))

/** Old and weak TLS, current TLS, no Extended Master Secret, NULL suites, the hybrid key exchange. */
const DOMAINS = [
  "perfect.com",
  "tls-legacy.com",
  "tls-weak-cipher.com",
  "tls-modern.com",
  "tls-no-ems.com",
  "mx-tls-legacy.com",
  "mx-tls-null.com",
  "mx-tls-no-ems.com",
  "pq-hybrid.com"
]

interface Scanned {
  readonly domain: string
  readonly scan: { readonly checks: Record<string, { readonly status: string; readonly result: unknown }> }
  readonly score: { readonly grade: string; readonly percentage: number }
}

/** The batch's JSONL records of DOMAINS, by domain, from `node` running the launcher. */
const batchOn = (node: string, name: string): Map<string, Scanned> => {
  const list = join(dir, "list.txt")
  const out = join(dir, `${name}.jsonl`)
  writeFileSync(list, DOMAINS.join("\n") + "\n")
  execFileSync(node, ["bin/domain-audit.mjs", "batch", list, "-q", "-c", "9", "-o", out], {
    cwd: root,
    env: { ...process.env, ...worldEnv(), LOG_LEVEL: "Error" },
    stdio: "ignore"
  })
  const records = readFileSync(out, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Scanned)
  return new Map(records.map((r) => [r.domain, r]))
}

let here: Map<string, Scanned>
let on24: Map<string, Scanned>

beforeAll(() => {
  // Once, here: both runs find the bundle fresh instead of racing to rebuild it.
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root })
  // Installed when missing (the world's `up` installs it for its post-quantum servers); its path.
  const node24 = execFileSync(join(root, "scripts/node24/install"), { encoding: "utf8" }).trim()
  expect(execFileSync(node24, ["--version"], { encoding: "utf8" })).toMatch(/^v24\./)
  here = batchOn(process.execPath, "here")
  on24 = batchOn(node24, "node24")
}, 240_000)

describe(`the batch on Node.js 24 and on ${process.version}`, () => {
  it.each(DOMAINS)("%s: the same TLS findings and the same score", (domain) => {
    const [a, b] = [here.get(domain)!, on24.get(domain)!]
    expect(b.score.grade).toBe(a.score.grade)
    expect(b.score.percentage).toBe(a.score.percentage)
    for (const check of ["web-tls", "smtp-tls", "pq-kex"]) {
      expect(b.scan.checks[check]!.status).toBe(a.scan.checks[check]!.status)
      expect(withoutTimings(b.scan.checks[check]!.result)).toEqual(
        withoutTimings(a.scan.checks[check]!.result)
      )
    }
  })

  it("pq-hybrid.com's TLS 1.3 suites have their key exchange on both", () => {
    for (const run of [here, on24]) {
      const result = run.get("pq-hybrid.com")!.scan.checks["web-tls"]!.result as {
        servers: Array<{ ciphers: Array<{ version: string; keyExchange: { name: string } | null }> }>
      }
      const tls13 = result.servers[0]!.ciphers.filter((c) => c.version === "TLSv1.3")
      expect(tls13.length).toBeGreaterThan(0)
      for (const c of tls13) expect(c.keyExchange?.name).toBe("X25519")
    }
  })
})
