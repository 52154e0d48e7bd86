/**
 * The certificate chain a TLS peer sent, leaf first, as DER. Shared by the SMTP STARTTLS probe and
 * the web client, which both report the chain as the server presented it (RFC 8446 4.4.2).
 */
import { readFileSync } from "node:fs"
import * as tls from "node:tls"
import { Effect } from "effect"
import { type CertificateFacts, certificateFacts } from "./Certificate.ts"

const contexts = new WeakMap<ReadonlyArray<string>, Map<string, tls.SecureContext>>()

/**
 * The key-exchange groups every handshake of ours offers, in OpenSSL 3.0's default order, with a
 * key share for X25519 alone: what node 20 offers by default, pinned so that node 22 and 24
 * (OpenSSL 3.5) offer the same (RFC 8446 4.2.7, 4.2.8). OpenSSL 3.5 would lead with the hybrid
 * X25519MLKEM768 and send its ~1.2 KB key share too: a server that takes it makes node report no
 * key exchange at all (`getEphemeralKeyInfo` knows no hybrid), and the suites' key exchanges would
 * then depend on the runtime. Whether a server takes the hybrid is the pq-kex check's question,
 * asked with its own ClientHello (HybridShare.ts).
 */
export const CLASSIC_GROUPS =
  "X25519:P-256:X448:P-521:P-384:ffdhe2048:ffdhe3072:ffdhe4096:ffdhe6144:ffdhe8192"

/**
 * One SecureContext per trust store and options, built once. Passing `ca` to every connection made
 * node parse the whole bundle (the system roots plus EXTRA_CA_FILE, ~150 certificates) into a new
 * store per connection: under load that was 18 % of the process's CPU (docs/bench.md). The context
 * only holds the trust store and protocol settings; verification and SNI stay per connection.
 */
export const sharedSecureContext = (
  ca: ReadonlyArray<string>,
  options: {
    readonly minVersion: tls.SecureVersion
    readonly maxVersion?: tls.SecureVersion
    readonly ciphers?: string
  }
): tls.SecureContext => {
  let byOptions = contexts.get(ca)
  if (byOptions === undefined) contexts.set(ca, (byOptions = new Map()))
  const key = `${options.minVersion} ${options.maxVersion ?? ""} ${options.ciphers ?? ""}`
  let context = byOptions.get(key)
  if (context === undefined)
    byOptions.set(
      key,
      (context = tls.createSecureContext({ ...options, ca: [...ca], ecdhCurve: CLASSIC_GROUPS }))
    )
  return context
}

/** Contexts without a trust store of their own, by versions and suites (a few KB each). */
const probeContexts = new Map<string, tls.SecureContext>()
const PROBE_CONTEXTS = 512

/**
 * The context of a probe's handshake that pins versions and suites, built once per distinct offer,
 * since a TLS scan makes the same offers to every server configured alike. Building one per
 * handshake (OpenSSL's SSL_CTX_new) was ~25 % of a handshake's CPU on this client. Least recently
 * built dropped first past 512.
 * Its trust store is empty: what such a handshake measures (the version and suite the server
 * picks) does not depend on the chain, which is judged on the scan's ordinary handshake alone. A
 * chain that verified would make node read every certificate of it into objects and check the name
 * (`getPeerCertificate(true)`, `checkServerIdentity`), each handshake again: with a publicly
 * trusted server, ~0.45 ms of a ~1.4 ms handshake on this client (docs/bench.md, the batch). Not
 * verifying never refuses a handshake: the probes do not reject an unverified peer.
 */
export const probeSecureContext = (options: {
  readonly minVersion: tls.SecureVersion
  readonly maxVersion: tls.SecureVersion
  readonly ciphers: string
}): tls.SecureContext => {
  const key = `${options.minVersion} ${options.maxVersion} ${options.ciphers}`
  let context = probeContexts.get(key)
  if (context === undefined) {
    context = tls.createSecureContext({ ...options, ca: [], ecdhCurve: CLASSIC_GROUPS })
    probeContexts.set(key, context)
    if (probeContexts.size > PROBE_CONTEXTS) probeContexts.delete(probeContexts.keys().next().value!)
  }
  return context
}

/**
 * The peer's certificate as node read it for its own check of the name: when the chain verified,
 * node's handshake calls `getPeerCertificate(true)` and hands the result to the connection's
 * `checkServerIdentity` (node's `onConnectSecure`), and reading it again cost as much once more
 * (~2 % of the batch's CPU, docs/bench.md). Pass `checkServerIdentity` in the connection's
 * options; `leaf` is then node's reading, or undefined when it made none (a chain that did not
 * verify, a resumed session): `peerCertificates` reads the socket then.
 */
export class KeptPeer {
  leaf: tls.DetailedPeerCertificate | undefined = undefined
  // node's own check, unchanged: the authorisation error it reports is the same.
  readonly checkServerIdentity = (host: string, cert: tls.PeerCertificate): Error | undefined => {
    this.leaf = cert as tls.DetailedPeerCertificate
    return tls.checkServerIdentity(host, cert)
  }
}

/**
 * The peer's leaf as node describes it, and its chain as DER, leaf first, from one call to
 * `getPeerCertificate(true)` (each call builds every certificate's object again: it was the
 * largest single cost of a TLS connection in the batch's profile), or none when node's handshake
 * already made it (`kept`). Follows node's `issuerCertificate` links; node links a self-signed
 * root to itself and may close a cycle through certificates it completed from the trust store, so
 * each certificate is taken once.
 */
export const peerCertificates = (
  socket: tls.TLSSocket,
  kept?: KeptPeer
): { readonly leaf: tls.DetailedPeerCertificate | undefined; readonly chain: Array<Buffer> } => {
  const chain: Array<Buffer> = []
  const seen = new Set<string>()
  const detailed = kept?.leaf ?? socket.getPeerCertificate(true)
  const leaf = detailed && detailed.raw ? detailed : undefined
  let cert: tls.DetailedPeerCertificate | undefined = leaf
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256)
    chain.push(cert.raw)
    cert = cert.issuerCertificate
  }
  return { leaf, chain }
}

/** A peer's certificate as the checks judge it: an SMTP session's after STARTTLS, a TLS scan's. */
export interface PeerJudged {
  /** As presented by the server (leaf first); node may append the trust-store root it chained to. */
  readonly chain: ReadonlyArray<CertificateFacts>
  readonly trusted: boolean
  readonly trustError: string | null
  readonly hostnameMatch: boolean
  readonly hostnameError: string | null
}

/**
 * What the checks judge of the peer's certificate (the STARTTLS probe's, a TLS scan's ordinary
 * handshake), `judged`: its chain's facts, leaf first, whether the chain is trusted, and whether
 * the leaf names `host`; and `ders`, the chain as sent, for what needs the bytes.
 */
export const peerJudged = (
  socket: tls.TLSSocket,
  host: string,
  kept?: KeptPeer
): { readonly ders: ReadonlyArray<Buffer>; readonly judged: PeerJudged } => {
  const { leaf, chain: ders } = peerCertificates(socket, kept)
  const chain = ders.flatMap((der) => {
    try {
      return [certificateFacts(der)]
    } catch {
      return []
    }
  })
  const identity = leaf ? tls.checkServerIdentity(host, leaf) : new Error("no certificate")
  const authError = socket.authorizationError as unknown
  // node checks the name only after the chain verified, and reports a mismatch as the
  // authorization error: the chain is trusted then, the name is judged on its own.
  const trusted = socket.authorized || String(authError) === "ERR_TLS_CERT_ALTNAME_INVALID"
  return {
    ders,
    judged: {
      chain,
      trusted,
      trustError: trusted ? null : String(authError ?? "not trusted"),
      hostnameMatch: identity === undefined,
      hostnameError: identity?.message ?? null
    }
  }
}

/** PEM blocks of a CA bundle file; an unreadable file is logged and trusted as empty. */
export const readCaFile = (path: string): Effect.Effect<ReadonlyArray<string>> =>
  path === ""
    ? Effect.succeed([])
    : Effect.try(
        () =>
          readFileSync(path, "utf8").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ??
          []
      ).pipe(
        Effect.tapError((e) => Effect.logWarning(`EXTRA_CA_FILE ${path} unreadable: ${String(e)}`)),
        Effect.orElseSucceed(() => [])
      )
