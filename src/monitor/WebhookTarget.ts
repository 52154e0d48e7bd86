/**
 * Which webhook URLs a monitor accepts: https anywhere the outbound address policy allows (the
 * delivery goes through the guarded client, `net/Web.ts`, which vets every address again at each
 * attempt), and plain http only to addresses inside `ALLOW_TARGETS` (a receiver on the operator's
 * own network, the test world's loopback): an alert and its signature are not sent in clear text
 * across the internet. And the secret: a Standard Webhooks signing key.
 */
import { Effect } from "effect"
import { type Cidr, contains, hostLiteral, parseIp } from "../records/IpAddress.ts"

/** The address look-up (the service's Resolver): names resolve as every fetch's do. */
export type Lookup = (
  host: string
) => Effect.Effect<{ readonly v4: ReadonlyArray<string>; readonly v6: ReadonlyArray<string> }, unknown>

/** Why `text` is not a webhook URL we send to, or null. */
export const webhookUrlProblem = (
  text: string,
  allow: ReadonlyArray<Cidr>,
  lookup: Lookup
): Effect.Effect<string | null> =>
  Effect.gen(function* () {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return `alerts[].url '${text.slice(0, 80)}' is not a URL`
    }
    if (url.username !== "" || url.password !== "") return "alerts[].url must not carry credentials"
    if (url.protocol === "https:") return null
    if (url.protocol !== "http:") return `alerts[].url must be https (got ${url.protocol})`
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const literal = hostLiteral(host)
    const addresses =
      literal === "invalid"
        ? []
        : literal !== undefined
          ? [literal]
          : yield* lookup(host).pipe(
              Effect.map(({ v4, v6 }) => [...v4, ...v6].flatMap((a) => parseIp(a) ?? [])),
              Effect.orElseSucceed(() => [])
            )
    const inside = addresses.length > 0 && addresses.every((ip) => allow.some((cidr) => contains(cidr, ip)))
    return inside
      ? null
      : `alerts[].url must be https: plain http is accepted only to an address inside ALLOW_TARGETS`
  })

/**
 * Standard Webhooks signing secrets are base64 of 24 to 64 random bytes, optionally prefixed
 * `whsec_` (make one with `echo whsec_$(openssl rand -base64 32)`).
 */
export const secretProblem = (secret: string): string | null => {
  const raw = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || raw.length % 4 !== 0)
    return "alerts[].secret must be a Standard Webhooks secret: whsec_ followed by base64 (e.g. whsec_$(openssl rand -base64 32))"
  const bytes = Buffer.from(raw, "base64").length
  return bytes < 24 || bytes > 64
    ? `alerts[].secret must hold 24 to 64 bytes (it holds ${bytes}); e.g. whsec_$(openssl rand -base64 32)`
    : null
}
