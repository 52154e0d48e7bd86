#!/usr/bin/env node
// Does any world server use the machine's resolver? Audits the generated configs under a world
// root (default data/world; see lib/loopback.mjs). Exit 0 when none does, 4 when one would.
//   scripts/world/loopback.mjs [WORLD_DIR]
import { existsSync, readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { auditWorld, machineResolvers } from "./lib/loopback.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(process.argv[2] ?? resolve(here, "../../data/world"))
const problems = auditWorld(root)
const machine = existsSync("/etc/resolv.conf")
  ? machineResolvers(readFileSync("/etc/resolv.conf", "utf8"))
  : []
if (problems.length === 0) {
  console.log(
    `loopback: every world server resolves only through the world (machine resolver: ${machine.join(", ") || "none"})`
  )
} else {
  console.log(
    `loopback: ${problems.length} setting(s) would reach the machine's resolver (${machine.join(", ") || "none"}):`
  )
  for (const p of problems) console.log(`  ${p}`)
  process.exit(4)
}
