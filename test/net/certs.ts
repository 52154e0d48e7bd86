/** A throw-away CA and leaf certificate made with the openssl CLI in a temporary directory. */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface TestPki {
  readonly caPem: string
  readonly leafPem: string
  readonly leafKey: string
  readonly dir: string
  readonly cleanup: () => void
}

const openssl = (cwd: string, ...args: Array<string>) =>
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] })

/** CA "Test Mail CA" issuing an EC P-256 leaf for `names` (first is the CN), valid `days` days. */
export const makePki = (names: ReadonlyArray<string>, days = 30): TestPki => {
  const dir = mkdtempSync(join(tmpdir(), "smtp-pki-"))
  openssl(
    dir,
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "365",
    "-subj",
    "/CN=Test Mail CA/O=domain-audit tests"
  )
  openssl(
    dir,
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "leaf.key",
    "-out",
    "leaf.csr",
    "-subj",
    `/CN=${names[0]}`
  )
  writeFileSync(join(dir, "ext.cnf"), `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}\n`)
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
    caPem: readFileSync(join(dir, "ca.pem"), "utf8"),
    leafPem: readFileSync(join(dir, "leaf.pem"), "utf8"),
    leafKey: readFileSync(join(dir, "leaf.key"), "utf8"),
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true })
  }
}
