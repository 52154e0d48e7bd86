// What the TLS cross-checks (starttls.mjs for the MX hosts, web-tls.mjs for the web hosts) share:
// running a tool, openssl's verification and testssl.sh's findings for one address, testssl run once
// per TLS situation, and its protocol verdicts in our terms.
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

/**
 * openssl s_client's session with one address (`-starttls smtp` when `starttls`): `established`
 * true/false/null (a handshake / "Didn't find STARTTLS" / no answer), and `verified`, openssl's
 * verification of chain, name (-verify_hostname) and dates against the world's CA. A few
 * milliseconds of CPU, so it runs on every address; testssl.sh (seconds) once per situation.
 */
export const openssl = async (ca, host, ip, port, { starttls = false } = {}) => {
  const address = ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`
  const args = [
    "s_client",
    ...(starttls ? ["-starttls", "smtp"] : []),
    "-connect",
    address,
    "-servername",
    host
  ]
  const out = await tool("openssl", [...args, "-verify_hostname", host, "-CAfile", ca, "-brief"], 20_000)
  const established = out.includes("CONNECTION ESTABLISHED")
  return {
    established: established ? true : out.includes("Didn't find STARTTLS") ? false : null,
    verified: established ? /^Verification: OK/m.test(out) : null
  }
}

/**
 * testssl.sh's findings for each of `servers`, run once per TLS situation: `situationOf(server)`
 * names the world's TLS knobs the server was built with (protocols, suites, certificate kind,
 * server software), and servers of one situation differ only in names and addresses. testssl
 * costs about 45 s of CPU per address (hundreds of openssl processes), and the world has 29 web
 * hosts and 15 MX hosts of one situation each. Each server gets `{ findings, own }`: the findings
 * of its situation's first server, `own` true on that server. The protocol and suite verdicts hold
 * for the whole situation; certificate verdicts are compared only where `own` (openssl verifies
 * every address's certificate). `eligible(server, index)`: false where testssl is not to run at all.
 */
export const testsslBySituation = async (servers, situationOf, run, eligible = () => true) => {
  const first = new Map()
  servers.forEach((s, i) => {
    if (eligible(s, i) && !first.has(situationOf(s))) first.set(situationOf(s), s)
  })
  const representatives = [...first.values()]
  const findings = new Map()
  // three addresses at a time: testssl is a few hundred openssl processes per address
  for (let i = 0; i < representatives.length; i += 3)
    await Promise.all(representatives.slice(i, i + 3).map(async (s) => findings.set(s, await run(s))))
  return servers.map((s, i) => {
    const representative = eligible(s, i) ? first.get(situationOf(s)) : undefined
    return representative === undefined
      ? { findings: null, own: false }
      : { findings: findings.get(representative) ?? null, own: representative === s }
  })
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

/**
 * Extended Master Secret (RFC 7627) on TLS 1.2 as testssl.sh 3.0 reports it: not a finding of its
 * own (3.2 adds one), but "extended master secret" among the ServerHello extensions of its
 * server-defaults run (`TLS_extensions`). Null where TLS 1.2 is not offered (nothing to ask) or the
 * run wrote no extensions.
 */
export const emsOffered = (t) => {
  if (offered(t.get("TLS1_2")) !== true) return null
  const extensions = t.get("TLS_extensions")?.finding
  return extensions === undefined ? null : /extended master secret/i.test(extensions)
}

/**
 * The key exchanges testssl's forward-secrecy run (-f) found offered: the curves of PFS_ECDHE_curves
 * by their OpenSSL names (X25519, prime256v1, ...) and the sizes in bits of the finite-field groups
 * of DH_groups (ffdhe2048, or a group it names by its size); null without that run's findings.
 */
export const keyExchangesOffered = (t) => {
  const curves = t.get("PFS_ECDHE_curves")?.finding
  const groups = t.get("DH_groups")?.finding
  if (curves === undefined && groups === undefined) return null
  return {
    curves: new Set((curves ?? "").split(/\s+/).filter((c) => c !== "")),
    dhBits: new Set([...(groups ?? "").matchAll(/(\d{4})/g)].map((m) => Number(m[1])))
  }
}

/** testssl's OCSP stapling finding ("offered" / "not offered") as true / false; null without one. */
export const staplingOffered = (t) => offered(t.get("OCSP_stapling"))
