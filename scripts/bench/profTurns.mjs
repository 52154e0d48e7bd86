/**
 * What the server's long turns of the event loop were made of: reads a CPU profile of the server
 * (`SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR"`) and the turns `loopDelay.mjs` recorded
 * (`LONG_TURNS_FILE`), and prints for each turn at least `min` ms long its length, the profile's
 * samples in it (about 1 ms of CPU each: the rest of the turn the thread waited for a core) and
 * the time by what the samples were doing.
 *
 *   node scripts/bench/profTurns.mjs PROFILE TURNS_FILE [min=50]
 */
import { readFileSync } from "node:fs"

const [profileFile, turnsFile, minArg] = process.argv.slice(2)
if (!profileFile || !turnsFile) {
  console.error("usage: node scripts/bench/profTurns.mjs PROFILE TURNS_FILE [min_ms]")
  process.exit(2)
}
const profile = JSON.parse(readFileSync(profileFile, "utf8"))
const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const frame = (n) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*\//, "")}`

/** First match wins, tested against the sample's stack from the root, frames joined by " | ". */
const KINDS = [
  ["garbage collection", /\(garbage collector\)/],
  ["costly work's slices (Slices.ts)", /processImmediate[^|]*\| slice /],
  ["Effect's own timers (starveInternal)", /starveInternal/],
  ["held requests released (Gatekeeper.ts)", /\| drain /],
  ["request event: gatekeeper", /\| handle /],
  ["request event: the app's fiber started", /parserOnIncoming.*\| emit events/],
  ["request event: other", /parserOnIncoming/],
  ["reading sockets, parsing", /onStreamRead|parserOnHeadersComplete|onParserExecute/],
  ["microtasks", /runMicrotasks|processTicksAndRejections/],
  ["other timers", /listOnTimeout/],
  ["accepting connections", /onconnection/],
  ["idle", /\(idle\)/]
]
const kindCache = new Map()
const kindOf = (id) => {
  if (kindCache.has(id)) return kindCache.get(id)
  const stack = []
  for (let at = id; at !== undefined; at = parent.get(at)) stack.push(frame(nodes.get(at)))
  const names = stack.reverse().join(" | ")
  const kind = KINDS.find(([, re]) => re.test(names))?.[0] ?? `other: ${stack.slice(1, 3).join(" > ")}`
  kindCache.set(id, kind)
  return kind
}

const times = []
let t = profile.startTime
for (let i = 0; i < profile.samples.length; i++) times.push((t += profile.timeDeltas[i] ?? 0))

for (const line of readFileSync(turnsFile, "utf8").trim().split("\n")) {
  const [at, ms] = line.split(" ").map(Number)
  if (!(ms >= Number(minArg ?? 50))) continue
  const by = new Map()
  let samples = 0
  for (let i = 0; i < times.length; i++) {
    if (times[i] <= at || times[i] > at + ms * 1000) continue
    const d = Math.min(profile.timeDeltas[i] ?? 0, times[i] - at)
    const kind = kindOf(profile.samples[i])
    by.set(kind, (by.get(kind) ?? 0) + d)
    samples++
  }
  const parts = [...by]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, us]) => `${kind} ${(us / 1000).toFixed(0)}`)
    .join(", ")
  console.log(`+${((at - profile.startTime) / 1e6).toFixed(2)} s: ${ms} ms, ${samples} samples: ${parts}`)
}
