/**
 * Runs the MDN HTTP Observatory's scanner (its programmatic `scan`, what its CLI
 * `mdn-http-observatory-scan` prints) on each host given, one after the other; prints one JSON
 * object: host -> { grade, score, tests: test name -> { result, pass, scoreModifier } } or
 * { error }. Started by ../headers.mjs with the world's DNS (world-dns.mjs) and CA
 * (NODE_EXTRA_CA_CERTS).
 */
import { scan } from "@mdn/mdn-http-observatory/src/scanner/index.js"

const out = {}
for (const host of process.argv.slice(2)) {
  try {
    const { scan: summary, tests } = await scan(host)
    out[host] = {
      grade: summary.grade,
      score: summary.score,
      tests: Object.fromEntries(
        Object.entries(tests).map(([name, t]) => [
          name,
          { result: t.result, pass: t.pass, modifier: t.scoreModifier }
        ])
      )
    }
  } catch (e) {
    out[host] = { error: e instanceof Error ? e.message : String(e) }
  }
}
console.log(JSON.stringify(out))
