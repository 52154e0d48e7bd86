/**
 * The rated parts of a TLS scan (net/TlsScan.ts) as results show them, shared by the HTTPS
 * (web-tls) and mail (smtp-tls) transport checks: each version, suite and key exchange with its
 * NCSC-NL rating (records/TlsRating.ts).
 */
import { Schema } from "effect"
import { Nullable } from "../records/Schemas.ts"
import { TLS_RATINGS } from "../records/TlsRating.ts"

export const Rating = Schema.Literal(...TLS_RATINGS).annotations({
  description:
    "NCSC-NL TLS guidelines v2.1: good / sufficient (both pass) / phase-out (replace soon) / insufficient"
})

export const VersionSupport = Schema.Literal("accepted", "refused", "unknown", "untested").annotations({
  description:
    "accepted / refused by the server; unknown: no answer; untested: this client cannot speak it (SSL 3), which is not the same as refused"
})

export const TlsVersionResult = Schema.Struct({
  version: Schema.String,
  support: VersionSupport,
  rating: Rating
}).annotations({ identifier: "TlsVersionResult" })

export const KeyExchangeResult = Schema.Struct({
  /** `ECDH` (a curve or X25519/X448) or `DH` (a finite-field group). */
  type: Schema.Literal("ECDH", "DH"),
  name: Nullable(Schema.String),
  bits: Schema.Int,
  rating: Rating
}).annotations({ identifier: "KeyExchangeResult" })

export const CipherResult = Schema.Struct({
  /** IANA name (RFC 8446 B.4, the TLS parameters registry). */
  name: Schema.String,
  version: Schema.String,
  rating: Rating,
  keyExchange: Nullable(KeyExchangeResult)
}).annotations({ identifier: "CipherResult" })
