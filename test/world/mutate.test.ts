/**
 * scripts/world/mutate on the running world: a domain no other test reads (the last synthetic copy
 * of perfect.com) turns into another scenario and back, and the service, asked through the world's
 * validating resolver, sees each change: DMARC policy, DNSSEC state, the MX's certificate, the web
 * headers, a file served with --file. Each phase builds the app anew, so no cache of the service's own
 * carries an old answer.
 * Also: what mutate refuses (exit 2), and, on a world generated in a scratch directory, that a
 * mutation touches no other domain's entries and `--reset` gives back every file (byte for byte,
 * but for where the domain's own entries stand in the files all domains share).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { createHash } from "node:crypto"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Web } from "../../src/net/Web.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv, worldEnvFile } from "./env.ts"
import { mutateRun } from "./mutateWorld.ts"
import { getJson } from "./world-http.ts"

const scripts = fileURLToPath(new URL("../../scripts/world/", import.meta.url))
const env = worldEnv()
const worldDir = dirname(worldEnvFile() ?? "")

interface Entry {
  readonly domain: string
  readonly about?: string
  readonly synthetic?: boolean
  readonly mutatedAs?: string
  readonly mx: ReadonlyArray<{ readonly addr: string }>
}
const manifest = (): { scenarios: Array<Entry> } =>
  JSON.parse(readFileSync(join(worldDir, "manifest.json"), "utf8"))

/** The last synthetic copy of perfect.com: signed, passing, and read by no other test by name. */
const domain = manifest()
  .scenarios.filter((s) => s.synthetic === true && s.about === "synthetic copy of perfect.com")
  .at(-1)?.domain

/** GETs against a newly built app (its DNS and check caches empty). */
const ask = <A>(
  f: (get: (url: string) => Effect.Effect<any, unknown, any>) => Effect.Effect<A, unknown, any>
) => Effect.runPromise(Effect.provide(f(getJson), testApp(env)) as Effect.Effect<A, unknown, never>)

/** What a GET of `url` gets from the world's web servers (world DNS and CA, a new client each time). */
const fetched = (url: string) =>
  Effect.runPromise(
    Effect.flatMap(Web, (web) => web.get(url, { followRedirects: false })).pipe(
      Effect.map((r) => ({ status: r.status, body: new TextDecoder().decode(r.body) })),
      Effect.provide(
        Web.Default.pipe(
          Layer.provide(Resolver.Default),
          Layer.provide(AppConfig.Default),
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
        )
      )
    )
  )

const dmarcAndDnssec = (d: string) =>
  ask((get) =>
    Effect.all({
      dmarc: get(`/api/email/dmarc?domain=${d}`),
      dnssec: get(`/api/dns/dnssec?domain=${d}`)
    })
  )

describe("scripts/world/mutate on the running world", () => {
  // Whatever fails, the domain serves its own scenario again afterwards.
  afterAll(async () => {
    if (domain !== undefined) await mutateRun(domain, "--reset")
  })

  it("the world has a synthetic copy of perfect.com to mutate (globalSetup starts --synthetic 200)", () => {
    expect(domain).toBeDefined()
  })

  it("a passing domain serves dmarc-none.com's scenario, then its own again", async () => {
    const d = domain!
    expect((await mutateRun(d, "--reset")).status).toBe(0)
    const before = await dmarcAndDnssec(d)
    expect(before.dmarc).toMatchObject({ status: "pass", policy: "reject" })
    expect(before.dnssec).toMatchObject({ signed: true, state: "secure" })

    const changed = await mutateRun(d, "--as", "dmarc-none.com")
    expect(changed.out).toContain(`${d} serves dmarc-none.com's scenario`)
    expect(changed.status).toBe(0)
    const after = await dmarcAndDnssec(d)
    expect(after.dmarc).toMatchObject({ status: "warning", policy: "none", reportingEnabled: false })
    expect(after.dmarc.findings.map((f: { id: string }) => f.id)).toContain("dmarc-p-none")
    // dmarc-none.com is unsigned, so the domain is now too: no DS in the TLD, no RRSIG.
    expect(after.dnssec).toMatchObject({ signed: false })
    expect(manifest().scenarios.find((s) => s.domain === d)).toMatchObject({
      mutatedAs: "dmarc-none.com",
      mx: []
    })
    const status = spawnSync(join(scripts, "status"), [], {
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, WORLD_DIR: worldDir }
    })
    expect(status.stdout).toContain(`mutated: ${d} serves the scenario of dmarc-none.com since `)

    expect((await mutateRun(d, "--reset")).status).toBe(0)
    const restored = await dmarcAndDnssec(d)
    expect(restored.dmarc).toMatchObject({ status: "pass", policy: "reject" })
    expect(restored.dnssec).toMatchObject({ signed: true, state: "secure" })
    expect(manifest().scenarios.find((s) => s.domain === d)?.mutatedAs).toBeUndefined()
  }, 300_000)

  it("signed with another algorithm (rsasha1.net's scenario), the chain still validates", async () => {
    const d = domain!
    expect((await mutateRun(d, "--as", "rsasha1.net")).status).toBe(0)
    const r = await ask((get) => get(`/api/dns/dnssec?domain=${d}`))
    expect(r).toMatchObject({ signed: true, valid: true, state: "secure" })
    expect(r.chain.find((c: any) => c.type === "DNSKEY").algorithmName).toBe("RSASHA1")
    expect((await mutateRun(d, "--reset")).status).toBe(0)
    const back = await ask((get) => get(`/api/dns/dnssec?domain=${d}`))
    expect(back.chain.find((c: any) => c.type === "DNSKEY").algorithmName).toBe("ECDSAP256SHA256")
  }, 300_000)

  it("mail and web servers follow: a self-signed MX certificate, a site without headers", async () => {
    const d = domain!
    expect((await mutateRun(d, "--as", "mx-selfsigned.com")).status).toBe(0)
    const smtp = await ask((get) => get(`/api/email/smtp-tls?domain=${d}`))
    expect(smtp.servers[0]).toMatchObject({ host: `mx.${d}`, starttls: true, trusted: false })
    expect(smtp.servers[0].certificate.selfIssued).toBe(true)

    expect((await mutateRun(d, "--as", "web-noheaders.com")).status).toBe(0)
    const headers = await ask((get) => get(`/api/security-headers/analyze?domain=${d}`))
    expect(headers.httpsAvailable).toBe(true)
    expect(headers.missing).toHaveLength(6)

    expect((await mutateRun(d, "--reset")).status).toBe(0)
    const trusted = await ask((get) => get(`/api/email/smtp-tls?domain=${d}`))
    expect(trusted.servers[0]).toMatchObject({ host: `mx.${d}`, trusted: true, certificateValid: true })
  }, 300_000)

  it("with --ttl, a service that keeps running sees the change once the short TTL has passed", async () => {
    const d = domain!
    // Short TTLs before the service first asks: its DNS cache keeps answers for their TTL.
    expect((await mutateRun(d, "--reset", "--ttl", "2")).status).toBe(0)
    const [before, after] = await ask((get) =>
      Effect.gen(function* () {
        const before = yield* get(`/api/email/dmarc?domain=${d}`)
        expect(
          (yield* Effect.promise(() => mutateRun(d, "--as", "dmarc-none.com", "--ttl", "2"))).status
        ).toBe(0)
        yield* Effect.sleep("3 seconds")
        return [before, yield* get(`/api/email/dmarc?domain=${d}`)] as const
      })
    )
    expect(before.policy).toBe("reject")
    expect(after.policy).toBe("none")
    expect((await mutateRun(d, "--reset")).status).toBe(0)
  }, 300_000)

  it("--file serves a body at a URL of the domain, a new name too, until --reset", async () => {
    const d = domain!
    const policy = `version: STSv1\r\nmode: testing\r\nmx: *.mail.${d}\r\nmax_age: 86400\r\n`
    const policyFile = join(mkdtempSync(join(tmpdir(), "mutate-file-")), "policy.txt")
    writeFileSync(policyFile, policy)
    const changed = await mutateRun(
      d,
      ...["--file", `https://mta-sts.${d}/.well-known/mta-sts.txt`, `@${policyFile}`],
      ...["--file", `https://files.${d}/.well-known/hello.txt`, "hello from --file\n"]
    )
    expect(changed.status, changed.out).toBe(0)
    expect(await fetched(`https://mta-sts.${d}/.well-known/mta-sts.txt`)).toEqual({
      status: 200,
      body: policy
    })
    // a name the scenario's web host did not serve: its A record and server block come with it
    expect(await fetched(`https://files.${d}/.well-known/hello.txt`)).toEqual({
      status: 200,
      body: "hello from --file\n"
    })
    const sts = await ask((get) => get(`/api/email/mta-sts?domain=${d}`))
    expect(sts.policy).toMatchObject({ mode: "testing", mx: [`*.mail.${d}`] })
    expect(JSON.parse(readFileSync(join(worldDir, "mutations.json"), "utf8"))[d].files).toEqual([
      { url: `https://mta-sts.${d}/.well-known/mta-sts.txt`, body: policy },
      { url: `https://files.${d}/.well-known/hello.txt`, body: "hello from --file\n" }
    ])

    expect((await mutateRun(d, "--reset")).status).toBe(0)
    // the scenario's own policy again, and the file gone from the site every name serves
    const own = await fetched(`https://mta-sts.${d}/.well-known/mta-sts.txt`)
    expect(own.body).toContain(`mx: mx.${d}\r\n`)
    expect((await fetched(`https://${d}/.well-known/hello.txt`)).status).toBe(404)
    const back = await ask((get) => get(`/api/email/mta-sts?domain=${d}`))
    expect(back.policy).toMatchObject({ mode: "enforce", mx: [`mx.${d}`] })
    rmSync(dirname(policyFile), { recursive: true, force: true })
  }, 300_000)

  it("refuses, with exit 2 and a reason, what it cannot do", async () => {
    const d = domain!
    const cases: Array<[Array<string>, RegExp]> = [
      [["no-such-domain.com", "--as", "perfect.com"], /no-such-domain\.com is not a domain of this world/],
      [[d, "--as", "no-such-scenario.com"], /no-such-scenario\.com is not a scenario of this world/],
      [[d, "--as", "mx-slow.com"], /mx-slow\.com cannot be moved: its slow servers/],
      [[d, "--as", "propagation-lag.com"], /propagation-lag\.com cannot be moved: its older zone version/],
      [[d, "--ttl", "0", "--reset"], /--ttl takes a number of seconds/],
      [[d, "--file", "https://perfect.com/x.txt", "x"], /is not on .* or a name one label under it/],
      [[d, "--file", "/a/../b.txt", "x"], /the path names a file/],
      [[d, "--file", `/missing-body.txt`], /--file takes a URL \(or a path\) and a body/],
      [[d, "--as", "dmarc-none.com", "--file", "/x.txt", "x"], /has no web host to serve/],
      [[d], /usage: scripts\/world\/mutate DOMAIN/]
    ]
    for (const [args, message] of cases) {
      const r = await mutateRun(...args)
      expect(r.status, args.join(" ")).toBe(2)
      expect(r.out).toMatch(message)
    }
  })
})

// ---- on a generated world in a scratch directory (no server needed) ----------------------------

const files = (root: string): Array<string> =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((f) => join(root, f))
    .filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile() === true)

/**
 * A shared file's entries: a line with the lines that continue it (blank, indented deeper than
 * `indent`, or its closing brace at `indent`): a master.cf service (0), a knot.conf zone (2), an nginx server
 * block (4); a zone file's entries are its lines.
 */
const entries = (text: string, indent: number | null): Array<string> => {
  if (indent === null) return text.split("\n")
  const out: Array<Array<string>> = []
  for (const line of text.split("\n")) {
    const depth = /^ */.exec(line)![0].length
    const continues = depth > indent || line.trim() === "" || line === `${" ".repeat(indent)}}`
    if (continues && out.length > 0) out.at(-1)!.push(line)
    else out.push([line])
  }
  return out.map((e) => e.join("\n"))
}

const SHARED: ReadonlyArray<readonly [string, number | null]> = [
  ["dns/knot.conf", 2],
  ["dns/zones/net.zone", null],
  ["dns/zones/127.in-addr.arpa.zone", null],
  ["dns/zones/zen.spamhaus.org.zone", null],
  ["dns/zones/bl.spamcop.net.zone", null],
  ["dns/zones/b.barracudacentral.org.zone", null],
  ["postfix/master.cf", 0],
  ["postfix/main.cf", null],
  ["nginx/nginx.conf", 4]
]

describe("mutate's edits of a generated world", () => {
  const scratch = mkdtempSync(join(tmpdir(), "world-mutate-"))
  const built = join(scratch, "built")
  const changed = join(scratch, "changed")
  // Postfix's state lives outside the world directory (lib/mail.mjs stateDir): removed with it.
  const state = (root: string) =>
    join("/var/lib/domain-audit-world", createHash("sha256").update(root).digest("hex").slice(0, 12))
  // A file of either world, both directories written as ROOT: the copy's files name the original's.
  const read = (root: string, file: string) =>
    readFileSync(join(root, file), "utf8").split(built).join("ROOT").split(changed).join("ROOT")
  const node = (script: string, ...args: Array<string>) => {
    const r = spawnSync(process.execPath, [join(scripts, script), ...args], {
      encoding: "utf8",
      timeout: 300_000
    })
    if (r.status !== 0) throw new Error(`${script} ${args.join(" ")}: ${r.stderr}`)
    return r.stdout
  }

  it("touch no other domain's entries, and --reset gives back every file", () => {
    try {
      node("gen.mjs", "--root", built)
      cpSync(built, changed, { recursive: true })
      const d = "unsigned.net"
      const own = JSON.parse(read(built, "manifest.json")).scenarios.find((s: Entry) => s.domain === d)
      // The domain's names and addresses (its own, and spare ones from 127.25.250.x / 127.80.250.x),
      // forwards and in reverse-DNS order.
      const addrs = [
        ...own.mx.map((m: { addr: string }) => m.addr),
        own.web?.addr,
        "127.25.250.",
        "127.80.250."
      ]
        .filter((a): a is string => a !== undefined)
        .flatMap((a) => [a, a.split(".").reverse().join(".")])
      const mine = (entry: string) => entry.includes(d) || addrs.some((a) => entry.includes(a))
      for (const target of ["perfect.com", "expired-sig.com", "mx-listed.com", "dmarc-none.com"]) {
        expect(node("mutate.mjs", "--root", changed, d, "--as", target)).toContain(`verify ${d} `)
        for (const [file, indent] of SHARED) {
          // main.cf names the domain in relay_domains only while it has MX hosts.
          const others = (root: string) =>
            entries(read(root, file).split(`, ${d}`).join(""), indent).filter((e) => !mine(e))
          expect(others(changed), `${file} after --as ${target}`).toEqual(others(built))
        }
      }
      node("mutate.mjs", "--root", changed, d, "--reset")
      // Keys, certificates and KASP data made for the other scenarios stay (kept for the next time).
      const kept = files(built)
        .map((f) => relative(built, f))
        .filter((f) => !/^(pki|dkim|dns\/keys|dns\/ldns)\//.test(f) && f !== `dns/zones/${d}.zone`)
      // Shared files come back up to the order of their entries (the domain's return last, and
      // last in relay_domains); the others byte for byte.
      const shared = new Map(SHARED)
      const relaySorted = (text: string) =>
        text.replace(/^relay_domains = (.*)$/m, (_, list: string) => list.split(", ").sort().join(", "))
      for (const f of kept) {
        const indent = shared.get(f)
        if (indent === undefined) expect(read(changed, f), f).toBe(read(built, f))
        else {
          const sorted = (root: string) => entries(relaySorted(read(root, f)), indent).sort()
          expect(sorted(changed), f).toEqual(sorted(built))
        }
      }
      // The zone is the same but for its serial, which only goes up.
      const zone = (root: string) => read(root, `dns/zones/${d}.zone`).replace(/ (\d{10}) /, " SERIAL ")
      expect(zone(changed)).toBe(zone(built))
      expect(JSON.parse(read(changed, "mutations.json"))).toEqual({})
    } finally {
      for (const root of [built, changed]) rmSync(state(root), { recursive: true, force: true })
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 600_000)
})
