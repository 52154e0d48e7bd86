/** Builds VMC-like certificate chains for BIMI unit tests with the openssl CLI (a CA and a leaf). */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"

const derLength = (n: number) => {
  if (n < 0x80) return Buffer.from([n])
  const bytes: Array<number> = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}
const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), derLength(body.length), body])

/** A stand-in logotype value: a SEQUENCE holding the data: URI of the gzipped SVG, as RFC 3709 carries it. */
export const logotypeValue = (svg: string) =>
  tlv(
    0x30,
    tlv(0x16, Buffer.from(`data:image/svg+xml;base64,${gzipSync(Buffer.from(svg)).toString("base64")}`))
  )

export interface VmcOptions {
  readonly san?: ReadonlyArray<string>
  readonly eku?: boolean
  readonly logotype?: string | null
  readonly markType?: string
  readonly includeCa?: boolean
  readonly wrongIssuer?: boolean
  readonly days?: number
}

/** Returns the PEM file (leaf first, then the CA unless `includeCa` is false). */
export const makeVmc = (o: VmcOptions = {}): string => {
  const dir = mkdtempSync(join(tmpdir(), "vmc-"))
  const ssl = (...args: Array<string>) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" })
  try {
    const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    for (const ca of ["ca", "other"])
      ssl(
        "req",
        "-x509",
        ...key,
        "-keyout",
        `${ca}.key`,
        "-out",
        `${ca}.pem`,
        "-subj",
        "/CN=Test MVA",
        "-days",
        "3650",
        "-addext",
        "basicConstraints=critical,CA:TRUE"
      )
    // The mark type is a BIMI Group subject attribute openssl only knows through an oid_section.
    writeFileSync(
      join(dir, "req.cnf"),
      `oid_section = new_oids\n[new_oids]\nmarkType = 1.3.6.1.4.1.53087.1.13\n[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = Example Brand\nmarkType = ${o.markType ?? "Registered Mark"}\n`
    )
    ssl("req", "-new", "-config", "req.cnf", ...key, "-keyout", "leaf.key", "-out", "leaf.csr")
    const ext = [`subjectAltName=${(o.san ?? ["example.com"]).map((d) => `DNS:${d}`).join(",")}`]
    if (o.eku !== false) ext.push("extendedKeyUsage=1.3.6.1.5.5.7.3.31")
    if (o.logotype !== null)
      ext.push(`1.3.6.1.5.5.7.1.12=DER:${logotypeValue(o.logotype ?? "<svg/>").toString("hex")}`)
    writeFileSync(join(dir, "ext.cnf"), ext.join("\n") + "\n")
    // "other" has the same name as "ca" but its own key: the chain then links by name, not signature.
    const signer = o.wrongIssuer ? "other" : "ca"
    ssl(
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      `${signer}.pem`,
      "-CAkey",
      `${signer}.key`,
      "-set_serial",
      "2",
      "-days",
      String(o.days ?? 365),
      "-extfile",
      "ext.cnf",
      "-out",
      "leaf.pem"
    )
    const leaf = readFileSync(join(dir, "leaf.pem"), "utf8")
    return o.includeCa === false ? leaf : leaf + readFileSync(join(dir, "ca.pem"), "utf8")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
