// The world's private CA and host certificates, made with openssl. Keys and certificates are kept
// between runs (generated only when missing), so the CA root, TLSA digests and pins stay stable.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { createHash, X509Certificate } from "node:crypto"
import { gzipSync } from "node:zlib"
import { mkdirp, run, write } from "./util.mjs"

const CA_CNF = (dir) => `[ca]
default_ca = world
[world]
dir = ${dir}
database = ${dir}/index.txt
serial = ${dir}/serial
new_certs_dir = ${dir}/issued
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
organizationName = optional
`

/** Create (once) the CA: an EC P-256 root valid for 20 years. Returns its paths. */
export const ensureCa = (root) => {
  const dir = join(root, "pki")
  mkdirp(join(dir, "issued"))
  mkdirp(join(dir, "hosts"))
  write(join(dir, "ca.cnf"), CA_CNF(dir))
  if (!existsSync(join(dir, "index.txt"))) write(join(dir, "index.txt"), "")
  if (!existsSync(join(dir, "serial"))) write(join(dir, "serial"), "1000\n")
  const key = join(dir, "ca.key")
  const pem = join(dir, "ca.pem")
  if (!existsSync(pem)) {
    run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
    run("openssl", [
      "req", "-x509", "-new", "-key", key, "-sha256", "-days", "7300", "-out", pem,
      "-subj", "/O=Domain Audit World/CN=Domain Audit World Root CA",
      "-addext", "basicConstraints=critical,CA:TRUE",
      "-addext", "keyUsage=critical,keyCertSign,cRLSign"
    ]) // prettier-ignore
  }
  return { dir, key, pem, cnf: join(dir, "ca.cnf") }
}

const stamp = (date) => date.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z"

/**
 * A host certificate. kind: "valid" (CA-signed, 398 days), "expired" (CA-signed, ended 2025-01-01),
 * "selfsigned". `names` go into the SAN; the first is the CN. Returns { key, cert, spkiSha256 }.
 */
export const ensureCert = (ca, id, names, kind) => {
  const base = join(ca.dir, "hosts", id)
  const key = `${base}.key`
  const cert = `${base}.pem`
  // A kept certificate that is (nearly) out of date is made anew, except the deliberately expired one.
  const stale =
    kind !== "expired" &&
    existsSync(cert) &&
    new Date(new X509Certificate(readFileSync(cert)).validTo).getTime() < Date.now() + 7 * 86400e3
  if (!existsSync(cert) || !existsSync(key) || stale) {
    run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
    const san = names.map((n) => `DNS:${n}`).join(",")
    if (kind === "selfsigned") {
      run("openssl", [
        "req", "-x509", "-new", "-key", key, "-sha256", "-days", "398", "-out", cert, "-subj", `/CN=${names[0]}`,
        "-addext", `subjectAltName=${san}`, "-addext", "basicConstraints=CA:FALSE"
      ]) // prettier-ignore
    } else {
      const csr = `${base}.csr`
      const ext = `${base}.ext`
      run("openssl", ["req", "-new", "-key", key, "-out", csr, "-subj", `/CN=${names[0]}`])
      write(
        ext,
        `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`
      )
      const now = new Date()
      const start = kind === "expired" ? new Date("2024-01-01T00:00:00Z") : new Date(now.getTime() - 86400e3)
      const end =
        kind === "expired" ? new Date("2025-01-01T00:00:00Z") : new Date(now.getTime() + 397 * 86400e3)
      run("openssl", [
        "ca", "-batch", "-config", ca.cnf, "-cert", ca.pem, "-keyfile", ca.key, "-in", csr, "-out", cert,
        "-notext", "-startdate", stamp(start), "-enddate", stamp(end), "-extfile", ext
      ]) // prettier-ignore
    }
  }
  return { key, cert, spkiSha256: spkiSha256(readFileSync(cert, "utf8")) }
}

/**
 * The certificate an MX host presents, by its TLS situation (docs/world.md, `mx[].tls`): `wrongname`
 * is CA-issued for another name; `none` still gets one (its TLSA record may name it).
 */
export const ensureMxCert = (ca, m) => {
  const tls = m.tls ?? "valid"
  const names = tls === "wrongname" ? [`mail.some-other-name.net`] : [m.host]
  return ensureCert(ca, `mx-${m.host}-${tls}`, names, tls === "none" || tls === "wrongname" ? "valid" : tls)
}

/** The web certificate of a domain: its apex and every name under it. */
export const ensureWebCert = (ca, domain) => ensureCert(ca, `web-${domain}`, [domain, `*.${domain}`], "valid")

/** SHA-256 of the certificate's SubjectPublicKeyInfo: the TLSA 3 1 1 association data (RFC 6698 2.1). */
export const spkiSha256 = (pem) =>
  createHash("sha256")
    .update(new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" }))
    .digest("hex")

// ---- BIMI Verified Mark Certificate ------------------------------------------------------------
const tlv = (tag, ...parts) => {
  const body = Buffer.concat(parts)
  const n = body.length
  const len =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : n < 0x10000
          ? Buffer.from([0x82, n >> 8, n & 255])
          : Buffer.from([0x83, n >> 16, (n >> 8) & 255, n & 255])
  return Buffer.concat([Buffer.from([tag]), len, body])
}
const ia5 = (s) => tlv(0x16, Buffer.from(s, "ascii"))
const SHA256_OID = Buffer.from("0609608648016503040201", "hex")

/**
 * The logotype extension (RFC 3709 4.1, as profiled for VMCs): subjectLogo [2] EXPLICIT, direct [0]
 * LogotypeData with one image: image/svg+xml, its SHA-256, and a data: URI of the gzipped SVG.
 */
export const logotypeExtension = (svg) => {
  const gz = gzipSync(Buffer.from(svg, "utf8"))
  const hash = createHash("sha256").update(gz).digest()
  const details = tlv(
    0x30,
    ia5("image/svg+xml"),
    tlv(0x30, tlv(0x30, tlv(0x30, SHA256_OID), tlv(0x04, hash))),
    tlv(0x30, ia5(`data:image/svg+xml;base64,${gz.toString("base64")}`))
  )
  const image = tlv(0x30, details)
  const logotypeData = tlv(0xa0, tlv(0x30, image))
  return tlv(0x30, tlv(0xa2, logotypeData))
}

/** A VMC for `domain`: EKU id-kp-BrandIndicatorforMessageIdentification, the logo embedded. */
export const ensureVmc = (ca, domain, svg) => {
  const base = join(ca.dir, "hosts", `vmc-${domain}`)
  const key = `${base}.key`
  const cert = `${base}.pem`
  if (!existsSync(cert)) {
    run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
    const csr = `${base}.csr`
    run("openssl", ["req", "-new", "-key", key, "-out", csr, "-subj", `/O=${domain} Brand/CN=${domain}`])
    write(
      `${base}.ext`,
      [
        "basicConstraints=CA:FALSE",
        "keyUsage=critical,digitalSignature",
        "extendedKeyUsage=1.3.6.1.5.5.7.3.31",
        `subjectAltName=DNS:${domain}`,
        `1.3.6.1.5.5.7.1.12=DER:${logotypeExtension(svg).toString("hex")}`
      ].join("\n") + "\n"
    )
    run("openssl", [
      "ca", "-batch", "-config", ca.cnf, "-cert", ca.pem, "-keyfile", ca.key, "-in", csr, "-out", cert,
      "-notext", "-days", "365", "-extfile", `${base}.ext`
    ]) // prettier-ignore
  }
  // Served as the chain: VMC first, then the issuing CA (the BIMI draft's PEM bundle).
  return readFileSync(cert, "utf8") + readFileSync(ca.pem, "utf8")
}
