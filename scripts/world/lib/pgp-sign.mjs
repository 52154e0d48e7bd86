// A signed security.txt (RFC 9116 §2.3) and its signer's key in the Web Key Directory
// (draft-koch-openpgp-webkey-service §3.1, direct method), made at world build time with openpgp:
// `node pgp-sign.mjs <domain> <expires ISO>` prints { files: { path: base64 } } as JSON. A child
// process because openpgp is asynchronous and the site writer is not.
import { createHash } from "node:crypto"
import { createCleartextMessage, generateKey, readPrivateKey, sign } from "openpgp"

const [domain, expires] = process.argv.slice(2)
const address = `security@${domain}`
const { privateKey } = await generateKey({
  type: "curve25519",
  userIDs: [{ email: address }],
  keyExpirationTime: 400 * 86_400,
  format: "armored"
})
const key = await readPrivateKey({ armoredKey: privateKey })
const text = [
  "# Where to report a vulnerability",
  `Contact: mailto:${address}`,
  `Expires: ${expires}`,
  // Not an https URL: the scanner finds the key in the Web Key Directory of the Contact address.
  `Encryption: openpgp4fpr:${key.getFingerprint()}`,
  "Preferred-Languages: en, nl",
  `Canonical: https://${domain}/.well-known/security.txt`,
  ""
].join("\n")
const signed = await sign({ message: await createCleartextMessage({ text }), signingKeys: key })
const ZBASE32 = "ybndrfg8ejkmcpqxot1uwisza345h769"
const zbase32 = (bytes) => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ZBASE32[(buffer >> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return bits > 0 ? out + ZBASE32[(buffer << (5 - bits)) & 31] : out
}
const hu = zbase32(createHash("sha1").update("security").digest())
const files = {
  "/.well-known/security.txt": Buffer.from(signed),
  [`/.well-known/openpgpkey/hu/${hu}`]: Buffer.from(key.toPublic().write()),
  "/.well-known/openpgpkey/policy": Buffer.alloc(0)
}
process.stdout.write(
  JSON.stringify({
    files: Object.fromEntries(Object.entries(files).map(([p, b]) => [p, b.toString("base64")]))
  })
)
