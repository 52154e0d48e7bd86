#!/usr/bin/env node
/**
 * Every cross-check against the reference tools (docs/crosscheck.md), one after the other, against
 * a service it starts with the running world's settings, or against a given API base. Prints each
 * tool's cases and totals; exit 1 when any unexplained disagreement remains.
 *
 *   node scripts/crosscheck/all.mjs [--only dnssec,zonemaster,nameservers,starttls,headers,header-values,web-tls,content-values] [API_BASE]
 *   npm run crosscheck
 */
import { startService } from "./lib.mjs"

const CHECKS = {
  dnssec: () => import("./dnssec.mjs"),
  zonemaster: () => import("./zonemaster.mjs"),
  nameservers: () => import("./nameservers.mjs"),
  starttls: () => import("./starttls.mjs"),
  headers: () => import("./headers.mjs"),
  "header-values": () => import("./header-values.mjs"),
  "web-tls": () => import("./web-tls.mjs"),
  "content-values": () => import("./content-values.mjs")
}

const args = process.argv.slice(2)
const onlyAt = args.indexOf("--only")
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1].split(",") : Object.keys(CHECKS)
const unknown = only.filter((name) => !(name in CHECKS))
if (unknown.length > 0) {
  console.error(`unknown cross-check(s): ${unknown.join(", ")}; known: ${Object.keys(CHECKS).join(", ")}`)
  process.exit(2)
}
const service = args[0] ? { api: args[0], stop: async () => {} } : await startService()
const totals = []
try {
  for (const name of only) {
    console.log(`\n== ${name}`)
    totals.push(await (await CHECKS[name]()).run(service.api))
  }
} finally {
  await service.stop()
}
console.log("\n== summary")
for (const t of totals)
  console.log(
    `${t.tool.padEnd(12)} ${t.cases} cases, ${t.agreed} agree, ${t.explained} documented exception(s), ${t.unexplained} unexplained`
  )
const unexplained = totals.reduce((n, t) => n + t.unexplained, 0)
console.log(
  unexplained === 0
    ? "full agreement, apart from documented exceptions"
    : `${unexplained} unexplained disagreement(s)`
)
process.exit(unexplained === 0 ? 0 : 1)
