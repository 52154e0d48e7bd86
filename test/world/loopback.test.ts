/**
 * The world never leaves loopback (docs/world.md, "Safety"): no world server may resolve through
 * the machine's resolver. scripts/world/lib/loopback.mjs audits the configs; here it audits the
 * generator's output (built in a temporary directory, no server started), the running world's
 * generated files, and configs that do leak, so that the audit is seen to fail.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"

interface Host {
  host: string
  addr: string
  server?: string
  tls?: string
  aaaa?: string
}
interface Planned {
  domain: string
  mx: Array<Host>
  web?: { addr: string; server?: string; files?: Record<string, string> }
  lagging?: Array<string>
}
type Audit = (text: string) => Array<string>
interface Loopback {
  auditWorld: (root: string) => Array<string>
  auditPostfix: (main: string, master: string) => Array<string>
  auditNginx: Audit
  auditKnot: Audit
  auditUnbound: (conf: string, hints: (path: string) => string | undefined) => Array<string>
  auditSlow: Audit
  auditEsmtp: Audit
  machineResolvers: (text: string) => Array<string>
}
const lib = (name: string) => fileURLToPath(new URL(`../../scripts/world/lib/${name}`, import.meta.url))
const load = async () => ({
  loopback: (await import(lib("loopback.mjs"))) as Loopback,
  model: (await import(lib("model.mjs"))) as {
    loadScenarioFile: (path: string) => Array<unknown>
    plan: (s: Array<unknown>) => Array<Planned>
    mxComponent: (m: Host) => string
    INFRA: { knot: Array<string> }
  },
  mail: (await import(lib("mail.mjs"))) as {
    postfixConfig: (root: string, hosts: Array<unknown>) => { main: string; master: string }
    esmtpConfig: (hosts: Array<unknown>, domains: Array<string>) => unknown
  },
  web: (await import(lib("web.mjs"))) as {
    generateNginx: (root: string, webs: Array<Planned>, certs: Record<string, unknown>) => string
    slowServers: (mx: Array<unknown>, webs: Array<Planned>, certs: Record<string, unknown>) => Array<unknown>
  },
  dns: (await import(lib("dns.mjs"))) as {
    generateResolvers: (root: string, rootDs: Array<string>, lagZones: Array<string>) => Array<string>
    knotConf: (dir: string, zones: Array<unknown>, listen: Array<string>, policies: boolean) => string
  }
})

const scratch = mkdtempSync(join(tmpdir(), "world-loopback-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe("no world server uses the machine's resolver", () => {
  it("in the generator's output for every scenario (Postfix, nginx, Knot, Unbound, node servers, esmtp)", async () => {
    const { loopback, model, mail, web, dns } = await load()
    const planned = model.plan(
      model.loadScenarioFile(fileURLToPath(new URL("../../scripts/world/scenarios.json", import.meta.url)))
    )
    const cert = { key: "/k.pem", cert: "/c.pem" }
    const certs = Object.fromEntries(planned.map((s) => [s.domain, cert]))
    const mx = planned.flatMap((s) =>
      s.mx.map((m) => ({ ...m, tls: m.tls ?? "valid", domain: s.domain, ...cert }))
    )
    // As gen.mjs: Postfix listens only for the MX hosts it serves (not slow.mjs's, not esmtp.mjs's).
    const postfix = mail.postfixConfig(
      scratch,
      mx.filter((m) => model.mxComponent(m) === "postfix")
    )
    const esmtp = JSON.stringify(
      mail.esmtpConfig(
        mx,
        planned.map((s) => s.domain)
      )
    )
    // gen.mjs puts a certificate where "@vmc" stands; the audit does not read file bodies.
    const webs = planned
      .filter((s) => s.web !== undefined)
      .map((s) => ({
        ...s,
        web: {
          ...s.web!,
          files: Object.fromEntries(
            Object.entries(s.web!.files ?? {}).map(([path, body]) => [path, body === "@vmc" ? "vmc" : body])
          )
        }
      }))
    web.generateNginx(scratch, webs, certs)
    dns.generateResolvers(
      scratch,
      [". DS 1 13 2 00"],
      planned.filter((s) => s.lagging).map((s) => s.domain)
    )
    const knot = dns.knotConf(join(scratch, "dns"), [], [...model.INFRA.knot, "::1"], true)
    const slow = JSON.stringify(web.slowServers(mx, planned, certs))
    expect(JSON.parse(slow)).not.toEqual([])
    expect(loopback.auditPostfix(postfix.main, postfix.master)).toEqual([])
    expect(loopback.auditNginx(readFileSync(join(scratch, "nginx", "nginx.conf"), "utf8"))).toEqual([])
    expect(loopback.auditKnot(knot)).toEqual([])
    for (const u of ["unbound", "unbound-propagation", "unbound-lag"])
      expect(
        loopback.auditUnbound(readFileSync(join(scratch, u, "unbound.conf"), "utf8"), (p) =>
          readFileSync(p, "utf8")
        )
      ).toEqual([])
    expect(loopback.auditSlow(slow)).toEqual([])
    expect(loopback.auditEsmtp(esmtp)).toEqual([])
  })

  // Needs the world restarted (scripts/world/down && scripts/world/up) after the change that
  // turned smtpd_peername_lookup off: until then the running Postfix still looks clients up.
  it("in the running world's generated configs (data/world; fails until the world is restarted)", async () => {
    const { loopback } = await load()
    const manifest = JSON.parse(readFileSync(worldEnv()["WORLD_MANIFEST"] ?? "", "utf8")) as { root: string }
    expect(loopback.auditWorld(manifest.root)).toEqual([])
  })

  it("the audit names each setting that would reach the machine's resolver", async () => {
    const { loopback } = await load()
    const main = [
      "default_transport = discard:x",
      "relay_transport = discard:x",
      "local_transport = discard:x",
      "virtual_transport = discard:x",
      "inet_interfaces = loopback-only"
    ].join("\n")
    expect(loopback.auditPostfix(main + "\nsmtpd_peername_lookup = no\n", "")).toEqual([])
    expect(loopback.auditPostfix(main, "").join()).toMatch(/smtpd_peername_lookup = no/)
    expect(loopback.auditPostfix(main.replace("relay_transport = discard:x", ""), "").join()).toMatch(
      /relay_transport/
    )
    // virtual(8) delivers the mailbox's mail into files; as the relay transport it would look up MX.
    const ok = main + "\nsmtpd_peername_lookup = no\n"
    expect(
      loopback.auditPostfix(ok.replace("virtual_transport = discard:x", "virtual_transport = virtual"), "")
    ).toEqual([])
    expect(
      loopback.auditPostfix(ok.replace("relay_transport = discard:x", "relay_transport = virtual"), "").join()
    ).toMatch(/relay_transport = virtual would deliver/)
    const leakyMaster =
      "127.25.0.1:25 inet n - n - - smtpd\n  -o smtpd_peername_lookup=yes\nsmtp unix - - n - - smtp\n"
    expect(loopback.auditPostfix(main + "\nsmtpd_peername_lookup = no\n", leakyMaster)).toHaveLength(2)
    expect(
      loopback.auditNginx("http { resolver 10.255.255.53; server { listen 127.80.0.1:443 ssl; } }")
    ).toEqual(["nginx: resolver 10.255.255.53 is not a world resolver"])
    expect(
      loopback.auditNginx("server { listen localhost:80; proxy_pass http://backend.example/; }")
    ).toHaveLength(2)
    expect(loopback.auditKnot("server:\n  listen: ns1.example@53\n")).toHaveLength(1)
    expect(loopback.auditUnbound("server:\n  port: 53\n", () => undefined).join()).toMatch(/internet's root/)
    expect(
      loopback.auditUnbound(
        'server:\n  root-hints: "h"\nforward-zone:\n  name: "."\n  forward-addr: 10.255.255.53\n',
        () => ". NS a.root-servers.net.\na.root-servers.net. A 198.41.0.4\n"
      )
    ).toHaveLength(2)
    expect(loopback.auditSlow('[{"kind":"smtp","host":"mx.example","port":25}]')).toHaveLength(1)
    expect(loopback.machineResolvers("# x\nnameserver 10.255.255.53\nnameserver ::1\n")).toEqual([
      "10.255.255.53",
      "::1"
    ])
  })
})
