/**
 * A throw-away CA and one leaf certificate made with the openssl CLI in a temporary directory, for the
 * tests that run real TLS servers (SMTP STARTTLS, HTTPS) or need real certificate bytes (DANE digests,
 * certificate facts checked against openssl's own output).
 *
 * One helper for every test, so that all of them get the same kind of chain: EC P-256 keys, a CA with
 * explicit basicConstraints/keyUsage, a leaf with DNS (and optionally IP) SANs and serverAuth.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface PkiOptions {
  /** DNS SANs of the leaf; the first is also its subject CN. A name outside this list must mismatch. */
  readonly names: readonly [string, ...Array<string>]
  /** IP SANs of the leaf (RFC 5280 §4.2.1.6 iPAddress), for servers reached by address. Default none. */
  readonly ips?: ReadonlyArray<string>
  /** Leaf validity in days from now. Default 30. */
  readonly days?: number
  /** CA validity in days. Default 365, and never shorter than the leaf, so the leaf is what expires first. */
  readonly caDays?: number
  /** CA subject in openssl `-subj` form. Tests that assert the issuer name set it. */
  readonly caSubject?: string
  /** An OCSP responder the leaf names in its Authority Information Access (RFC 5280 4.2.2.1). Default none. */
  readonly ocspUrl?: string
}

export interface TestPki {
  /** The temporary directory holding ca.pem, ca.key, leaf.pem, leaf.key (tests run openssl in it). */
  readonly dir: string
  readonly caPem: string
  readonly caFile: string
  readonly leafPem: string
  readonly leafFile: string
  readonly leafKey: string
  readonly leafKeyFile: string
  /** Removes the directory; safe to call more than once. */
  readonly cleanup: () => void
}

export const defaultCaSubject = "/CN=domain-audit test CA/O=domain-audit tests"

const openssl = (cwd: string, ...args: Array<string>) =>
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] })

/** openssl options for a fresh unencrypted EC P-256 key written to `keyFile`. */
const newKey = (keyFile: string) => [
  "-newkey",
  "ec",
  "-pkeyopt",
  "ec_paramgen_curve:P-256",
  "-nodes",
  "-keyout",
  keyFile
]

export const makePki = (options: PkiOptions): TestPki => {
  const days = options.days ?? 30
  const caDays = Math.max(options.caDays ?? 365, days)
  const dir = mkdtempSync(join(tmpdir(), "test-pki-"))
  const file = (name: string) => join(dir, name)
  // The CA extensions are spelled out rather than left to the distribution's openssl.cnf ([v3_ca]), so
  // the CA is the same on every machine: CA:TRUE and keyCertSign (RFC 5280 §4.2.1.9, §4.2.1.3).
  openssl(
    dir,
    "req",
    "-x509",
    ...newKey("ca.key"),
    "-out",
    "ca.pem",
    "-days",
    String(caDays),
    "-subj",
    options.caSubject ?? defaultCaSubject,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign"
  )
  openssl(dir, "req", ...newKey("leaf.key"), "-out", "leaf.csr", "-subj", `/CN=${options.names[0]}`)
  const san = [...options.names.map((n) => `DNS:${n}`), ...(options.ips ?? []).map((ip) => `IP:${ip}`)]
  const aia = options.ocspUrl ? `authorityInfoAccess=OCSP;URI:${options.ocspUrl}\n` : ""
  writeFileSync(file("ext.cnf"), `subjectAltName=${san.join(",")}\nextendedKeyUsage=serverAuth\n${aia}`)
  openssl(
    dir,
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.pem",
    "-days",
    String(days),
    "-extfile",
    "ext.cnf"
  )
  return {
    dir,
    caPem: readFileSync(file("ca.pem"), "utf8"),
    caFile: file("ca.pem"),
    leafPem: readFileSync(file("leaf.pem"), "utf8"),
    leafFile: file("leaf.pem"),
    leafKey: readFileSync(file("leaf.key"), "utf8"),
    leafKeyFile: file("leaf.key"),
    cleanup: () => rmSync(dir, { recursive: true, force: true })
  }
}
