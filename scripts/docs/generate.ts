/**
 * `npm run docs`: rewrites the generated regions of the docs (scripts/docs/Regions.ts) from the
 * registry, and nothing outside their markers. `npm run docs -- --check` writes nothing: it names
 * each doc whose region differs and exits 1.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { registry } from "../../src/checks/index.ts"
import { pathOf, regions, rendered, splice } from "./Regions.ts"

const check = process.argv.includes("--check")
const stale: Array<string> = []

for (const region of regions) {
  const path = pathOf(region.file)
  const text = readFileSync(path, "utf8")
  const next = splice(text, region.name, await rendered(region, registry))
  if (next === text) continue
  stale.push(region.file)
  if (!check) writeFileSync(path, next)
}

if (check && stale.length > 0) {
  for (const file of stale) console.error(`${file} is stale: run npm run docs`)
  process.exit(1)
}
console.log(stale.length === 0 ? "docs: up to date" : `docs: rewrote ${stale.join(", ")}`)
