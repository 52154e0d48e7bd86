/**
 * The certificate chain a TLS peer sent, leaf first, as DER. Shared by the SMTP STARTTLS probe and
 * the web client, which both report the chain as the server presented it (RFC 8446 4.4.2).
 */
import * as tls from "node:tls"

/**
 * Follows node's `issuerCertificate` links. Node links a self-signed root to itself and may close a
 * cycle through certificates it completed from the trust store, so each certificate is taken once.
 */
export const peerChain = (socket: tls.TLSSocket): Array<Buffer> => {
  const out: Array<Buffer> = []
  const seen = new Set<string>()
  let cert: tls.DetailedPeerCertificate | undefined = socket.getPeerCertificate(true)
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256)
    out.push(cert.raw)
    cert = cert.issuerCertificate
  }
  return out
}

const contexts = new WeakMap<ReadonlyArray<string>, Map<string, tls.SecureContext>>()

/**
 * One SecureContext per trust store and protocol options, made once and reused by every connection.
 * Handing `ca` to each `tls.connect` makes node build a context and parse the whole store (the
 * ~140 roots plus EXTRA_CA_FILE) per connection: 7-9% of a batch's CPU (docs/bench.md, the batch scanner).
 */
export const secureContextFor = (
  ca: ReadonlyArray<string>,
  options: { readonly minVersion: tls.SecureVersion; readonly ciphers?: string }
): tls.SecureContext => {
  let byOptions = contexts.get(ca)
  if (!byOptions) contexts.set(ca, (byOptions = new Map()))
  const key = `${options.minVersion}|${options.ciphers ?? ""}`
  let context = byOptions.get(key)
  if (!context) {
    context = tls.createSecureContext({ ca: [...ca], ...options })
    byOptions.set(key, context)
  }
  return context
}
