// What the world serves for route-origin validation (docs/world.md, "RPKI"): origin zones in Team
// Cymru's convention (a TXT "ASN | prefix | CC | registry | date" under the reversed address) for
// every address of the world's scenarios and name servers, and a file of Validated ROA Payloads in
// rpki-client's JSON. The world's hosting network, AS64500, announces 127.0.0.0/8 and ::1/128 and
// holds ROAs for both; an MX with `"rpki": "invalid"` is announced as a /32 of its own by another
// AS (AS64511), as a more-specific hijack would be: RPKI-invalid.
import { join } from "node:path"
import { INFRA } from "./model.mjs"
import { write } from "./util.mjs"

export const ORIGIN_ZONES = { v4: "origin.asn.cymru.com", v6: "origin6.asn.cymru.com" }
export const WORLD_AS = 64500
export const HIJACK_AS = 64511
const V4_ROUTE = "127.0.0.0/8"
const V6_ROUTE = "::1/128"

/** The name of `ip` in its origin zone: reversed octets, or reversed nibbles of the full IPv6. */
export const originName = (ip) => {
  if (!ip.includes(":")) return `${ip.split(".").reverse().join(".")}.${ORIGIN_ZONES.v4}.`
  const [head, tail = ""] = ip.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === "" ? [] : tail.split(":")
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
  const hex = groups.map((g) => g.padStart(4, "0")).join("")
  return `${hex.split("").reverse().join(".")}.${ORIGIN_ZONES.v6}.`
}

const answer = (asn, prefix) => `"${asn} | ${prefix} | ZZ | world | 2026-01-01"`

/** Every address the scenarios and the name servers use, with the route that announces it. */
export const routes = (scenarios) => {
  const out = new Map()
  const add = (ip, route) => {
    if (ip && !out.has(ip)) out.set(ip, route)
  }
  for (const s of scenarios) {
    for (const m of s.mx)
      add(
        m.addr,
        m.rpki === "invalid"
          ? { asn: HIJACK_AS, prefix: `${m.addr}/32` }
          : { asn: WORLD_AS, prefix: V4_ROUTE }
      )
    if (s.web) add(s.web.addr, { asn: WORLD_AS, prefix: V4_ROUTE })
  }
  for (const ip of INFRA.knot) add(ip, { asn: WORLD_AS, prefix: V4_ROUTE })
  add("::1", { asn: WORLD_AS, prefix: V6_ROUTE })
  return out
}

/** The two origin zones' records (zone files are written by dns.mjs with their SOA and NS). */
export const originRecords = (scenarios) => {
  const v4 = []
  const v6 = []
  for (const [ip, r] of routes(scenarios))
    (ip.includes(":") ? v6 : v4).push(`${originName(ip)} TXT ${answer(r.asn, r.prefix)}`)
  return { [ORIGIN_ZONES.v4]: v4, [ORIGIN_ZONES.v6]: v6 }
}

/** The VRP file (rpki-client's JSON): the world's ROAs. Returns its path. */
export const writeVrps = (root) => {
  const path = join(root, "rpki", "vrps.json")
  const roas = [
    { asn: `AS${WORLD_AS}`, prefix: V4_ROUTE, maxLength: 8, ta: "world" },
    { asn: `AS${WORLD_AS}`, prefix: V6_ROUTE, maxLength: 128, ta: "world" }
  ]
  write(path, JSON.stringify({ metadata: { generated: "world" }, roas }, null, 1) + "\n")
  return path
}
