/**
 * The certificate chain a TLS peer sent, leaf first, as DER. Shared by the SMTP STARTTLS probe and
 * the web client, which both report the chain as the server presented it (RFC 8446 4.4.2).
 */
import type * as tls from "node:tls"

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
