// What the TLS cross-checks (starttls.mjs for the MX hosts, web-tls.mjs for the web hosts) share:
// running a tool, testssl.sh's findings for one address, and its protocol verdicts in our terms.
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** Run a tool with stdin at EOF (s_client ends its session then); its output, whatever its exit. */
export const tool = (command, args, timeoutMs) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    child.on("close", () => resolve(out))
  })

/**
 * testssl.sh's findings for one address, by id: protocols (-p), server defaults (-S) and cipher
 * categories (-s), trusting the world's CA; `extra` before them (`-t smtp` for STARTTLS). Null when
 * it wrote no file (testssl itself failed: the address then counts as unknown, and disagrees).
 */
export const testssl = async (ca, dir, host, ip, port, extra = []) => {
  const file = join(dir, `${host}-${ip.replaceAll(":", "_")}.json`)
  // testssl exits non-zero when it found problems; the JSON file has them
  await tool(
    "testssl",
    [
      ...["--quiet", "--color", "0", ...extra, "--ip", ip, "--nodns", "min", "--add-ca", ca],
      ...(ip.includes(":") ? ["-6"] : []),
      ...["-p", "-S", "-s", "--warnings", "off", "--connect-timeout", "5", "--openssl-timeout", "10"],
      ...["--jsonfile", file, `${host}:${port}`]
    ],
    240_000
  )
  return existsSync(file) ? new Map(JSON.parse(readFileSync(file, "utf8")).map((f) => [f.id, f])) : null
}

/** testssl's protocol ids and ours. */
export const PROTOCOLS = [
  ["TLS1", "TLSv1"],
  ["TLS1_1", "TLSv1.1"],
  ["TLS1_2", "TLSv1.2"],
  ["TLS1_3", "TLSv1.3"]
]

/** testssl's "offered" / "not offered" (with or without remarks) as true / false; anything else null. */
export const offered = (finding) =>
  finding === undefined
    ? null
    : /^not offered/.test(finding.finding)
      ? false
      : /^offered/.test(finding.finding)
        ? true
        : null
