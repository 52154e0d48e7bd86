// DKIM keys of a scenario's selectors, generated once and kept between runs (tests sign mail with
// the private keys, listed in the manifest).
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { generateKeyPairSync } from "node:crypto"
import { write } from "./util.mjs"

/**
 * Ensure the keys of `s.dkim` under root/dkim/<domain>; returns `records` (selector -> TXT payload)
 * and `keys` (`selector._domainkey.domain` -> private key path). RSA keys are published as
 * SubjectPublicKeyInfo, Ed25519 as the raw key (RFC 8463 4.2); `revoked` is an empty `p=`.
 */
export const ensureDkim = (root, s) => {
  const records = {}
  const keys = {}
  for (const d of s.dkim ?? []) {
    // The key type is in the file name, so changing a selector's key type makes a new key.
    const base = join(root, "dkim", s.domain, `${d.selector}.${d.key}`)
    if (d.key === "revoked") {
      records[d.selector] = "v=DKIM1; k=rsa; p="
      continue
    }
    if (!existsSync(`${base}.key`)) {
      const pair =
        d.key === "ed25519"
          ? generateKeyPairSync("ed25519")
          : generateKeyPairSync("rsa", { modulusLength: d.key === "rsa1024" ? 1024 : 2048 })
      write(`${base}.key`, pair.privateKey.export({ type: "pkcs8", format: "pem" }), 0o600)
      write(`${base}.pub`, pair.publicKey.export({ type: "spki", format: "pem" }))
    }
    const der = Buffer.from(readFileSync(`${base}.pub`, "utf8").replace(/-----[^-]+-----|\s/g, ""), "base64")
    const p = d.key === "ed25519" ? der.subarray(der.length - 32).toString("base64") : der.toString("base64")
    records[d.selector] = `v=DKIM1; k=${d.key === "ed25519" ? "ed25519" : "rsa"}; p=${p}`
    keys[`${d.selector}._domainkey.${s.domain}`] = `${base}.key`
  }
  return { records, keys }
}
