#!/usr/bin/env node
// Where the suite's time goes, from the report `npm test` writes (test-results/durations.json):
// the slowest files and tests, and how much of their time was spent waiting (wall minus the CPU of
// their worker: on a server, a timeout, a child process, or for a core) rather than computing.
//   node scripts/test/slowest.mjs [REPORT] [--top N]
import { readFileSync } from "node:fs"

const args = process.argv.slice(2)
const topAt = args.indexOf("--top")
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30
const file =
  args.find((a, i) => !a.startsWith("--") && (topAt < 0 || i !== topAt + 1)) ?? "test-results/durations.json"
const report = JSON.parse(readFileSync(file, "utf8"))

const s = (ms) => `${(ms / 1000).toFixed(1)} s`
const waited = (wall, cpu) => (cpu === null ? "?" : s(Math.max(0, wall - cpu)))
const sum = (xs) => xs.reduce((a, b) => a + b, 0)
const pad = (text, n) => String(text).padStart(n)

const files = report.files
const tests = files.flatMap((f) => f.tests.map((t) => ({ ...t, file: f.file })))
const wall = sum(files.map((f) => f.wallMs))
const cpu = sum(files.map((f) => f.cpuMs ?? f.wallMs))
const collect = sum(files.map((f) => f.collectMs))

console.log(
  `run: ${s(report.wallMs)} wall with ${report.workers} worker(s); ${files.length} files, ${tests.length} tests`
)
console.log(
  `files: ${s(wall)} in all (import ${s(collect)}), of which CPU ${s(cpu)} and waiting ${s(Math.max(0, wall - cpu))}`
)
console.log(`\nthe ${top} slowest files (wall, import, tests, waiting):`)
for (const f of files.slice(0, top))
  console.log(
    `${pad(s(f.wallMs), 9)} ${pad(s(f.collectMs), 8)} ${pad(s(f.testsMs), 8)} ${pad(waited(f.wallMs, f.cpuMs), 8)}  ${f.file}`
  )
console.log(`\nthe ${top} slowest tests (wall, waiting):`)
for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, top))
  console.log(`${pad(s(t.ms), 9)} ${pad(waited(t.ms, t.cpuMs), 8)}  ${t.file} > ${t.name}`)
