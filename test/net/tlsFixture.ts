/** A throw-away CA and server certificate made with openssl in a temp dir, for local HTTPS tests. */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export interface TlsFixture {
  readonly dir: string
  readonly caFile: string
  readonly key: string
  readonly cert: string
  readonly cleanup: () => void
}

/** Leaf for `names` (DNS SANs) and 127.0.0.1, signed by a fresh CA. */
export const makeTlsFixture = (names: ReadonlyArray<string>): TlsFixture => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-tls-"))
  const run = (...args: Array<string>) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" })
  run(
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
    "2",
    "-subj",
    "/CN=web test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign"
  )
  run(
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
    `/CN=${names[0] ?? "localhost"}`
  )
  const san = [...names.map((n) => `DNS:${n}`), "IP:127.0.0.1"].join(",")
  fs.writeFileSync(path.join(dir, "ext.cnf"), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`)
  run(
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
    "2",
    "-extfile",
    "ext.cnf"
  )
  return {
    dir,
    caFile: path.join(dir, "ca.pem"),
    key: fs.readFileSync(path.join(dir, "leaf.key"), "utf8"),
    cert: fs.readFileSync(path.join(dir, "leaf.pem"), "utf8"),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}
