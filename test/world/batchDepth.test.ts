/**
 * The batch at `--depth quick` against the world, as a user runs it (one child process): every
 * record says its depth; the web servers were shown one handshake each, for their certificate, and
 * the mail servers none beyond the STARTTLS probe; the TLS configuration records are not checked,
 * named in the score's `depth` rather than failed or unknown (docs/batch.md "Depth").
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"
import { CLI } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** Good and broken setups: a trusted site and MX, an expired MX certificate (no site), a copy of perfect.com. */
const DOMAINS = ["perfect.com", "mx-expired.com", "synth-00001.com"]

interface Server {
  readonly handshakes?: number
  readonly notChecked?: string
  readonly certificate?: unknown
  readonly reachable?: boolean | null
}
interface Line {
  readonly domain: string
  readonly depth: string
  readonly scan: {
    readonly depth?: string
    readonly checks: Record<string, { readonly status: string; readonly result: { servers?: Array<Server> } }>
  }
  readonly score: {
    readonly grade: string
    readonly depth?: { level: string; notChecked: Array<{ id: string }> }
    readonly categories: Record<string, { checks: Array<{ id: string; status: string }> }>
  }
}

const batch = (args: ReadonlyArray<string>, stdin: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [...CLI, "batch", ...args], {
      cwd: root,
      env: { ...process.env, ...worldEnv(), LOG_LEVEL: "Error" },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    child.stdin.end(stdin)
    child.on("exit", (code) => done({ code, stdout, stderr }))
  })

describe("batch --depth quick", () => {
  it("says its depth in every record, asks no TLS enumeration, and leaves those records out of the score", async () => {
    const run = await batch(["-", "--depth", "quick", "--quiet"], DOMAINS.join("\n") + "\n")
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Line)
    expect(lines.map((l) => l.domain).sort()).toEqual([...DOMAINS].sort())
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 2)).toEqual(["domain", "depth"])
      expect(line.depth).toBe("quick")
      expect(line.scan.depth).toBe("quick")
      expect(line.score.depth?.notChecked.map((r) => r.id)).toEqual(["security.mx.tls", "security.web.tls"])
      const records = Object.values(line.score.categories).flatMap((c) => c.checks.map((r) => r.id))
      expect(records).not.toContain("security.web.tls")
      expect(records).not.toContain("security.mx.tls")
      // The STARTTLS and certificate records are asked at every depth.
      expect(records).toContain("security.mx.starttls")

      const web = line.scan.checks["web-tls"]!
      expect(web.status).toBe("done")
      for (const s of web.result.servers ?? []) {
        expect(s.handshakes).toBeLessThanOrEqual(1)
        expect(s.notChecked).toMatch(/not checked/)
      }
      const mail = line.scan.checks["smtp-tls"]!.result.servers ?? []
      for (const s of mail.filter((m) => m.reachable === true)) {
        expect(s.handshakes).toBe(0)
        expect(s.notChecked).toMatch(/not checked/)
      }
    }
    // perfect.com has a site (apex and www., IPv4 and IPv6) and two MX addresses: each was asked.
    const perfect = lines.find((l) => l.domain === "perfect.com")!
    const site = perfect.scan.checks["web-tls"]!.result.servers ?? []
    expect(site.length).toBeGreaterThanOrEqual(2)
    expect(site.every((s) => s.handshakes === 1 && s.certificate !== null)).toBe(true)
    expect(perfect.score.grade).toBe("A+")
    expect(perfect.scan.checks["smtp-tls"]!.result.servers!.length).toBeGreaterThan(0)
    // An expired MX certificate is found at every depth: the probe's handshake shows it.
    const expired = lines.find((l) => l.domain === "mx-expired.com")!
    const cert = Object.values(expired.score.categories)
      .flatMap((c) => c.checks)
      .find((r) => r.id === "security.mx.cert")
    expect(cert?.status).toBe("fail")
  }, 60_000)
})
