// The world's private CA and host certificates, made with openssl. Keys and certificates are kept
// between runs (generated only when missing), so the CA root, TLSA digests and pins stay stable.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { createHash, X509Certificate } from "node:crypto"
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
  if (!existsSync(cert) || !existsSync(key)) {
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

/** SHA-256 of the certificate's SubjectPublicKeyInfo: the TLSA 3 1 1 association data (RFC 6698 2.1). */
export const spkiSha256 = (pem) =>
  createHash("sha256")
    .update(new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" }))
    .digest("hex")
