/**
 * Where a web request may go: the URL's scheme and host checked before anything else, then every
 * address of the host resolved and vetted by the address policy (`Targets.ts`). Separate from the
 * exchange so the SSRF / DNS-rebinding rules read in one place and each redirect hop reuses them.
 */
import { Effect } from "effect"
import { type Refusal, vet } from "./Targets.ts"
import { formatIp, hostLiteral, parseIp } from "../records/IpAddress.ts"
import { type AddressLookup, webError, WebError, type WebSettings } from "./WebTypes.ts"

/**
 * Names the host the caller gave and the class of address, never the address it resolved to: the
 * caller learns that the target is refused, not what the service's network looks like.
 */
const refusedMessage = (host: string, refusal: Refusal) =>
  `refusing to connect to ${host}: it is or resolves to a ${refusal} address, which the address policy does not allow`

/** The port a URL connects to: its own, else its scheme's default. */
export const portOf = (url: URL) =>
  url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80

/** Parse and vet a URL's scheme and literal host; names are resolved later. */
export const parseTarget = (text: string): { readonly url: URL } | WebError => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return webError(text, "invalid-url", `not a URL: ${text}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return webError(text, "invalid-url", `unsupported scheme ${url.protocol}`)
  url.username = ""
  url.password = ""
  url.hash = ""
  return { url }
}

/** The host without IPv6 brackets, as DNS, SNI and the address policy want it. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "")

/** Resolve (unless a literal) and vet every address of the URL's host; refuse if any is refused. */
export const vettedAddresses = (
  settings: WebSettings,
  lookup: AddressLookup,
  url: URL
): Effect.Effect<ReadonlyArray<string>, WebError> => {
  const host = bareHost(url)
  const literal = hostLiteral(host)
  const refuse = (address: string, refusal: Refusal) =>
    new WebError({
      url: url.href,
      reason: "refused-address",
      message: refusedMessage(host, refusal),
      address,
      refusal
    })
  const port = portOf(url)
  if (!settings.allowedPort(port) && !(url.protocol === "http:" && port === 80))
    return Effect.fail(
      new WebError({
        url: url.href,
        reason: "refused-address",
        message: `refusing to connect to port ${port}: web sites are fetched on the standard HTTPS port only`,
        refusal: "port"
      })
    )
  if (literal === "invalid") return Effect.fail(webError(url.href, "invalid-url", `invalid address ${host}`))
  if (literal !== undefined) {
    const verdict = vet(literal, settings.allow)
    return verdict.ok
      ? Effect.succeed([formatIp(literal)])
      : Effect.fail(refuse(formatIp(literal), verdict.refusal))
  }
  if (/(^|\.)localhost\.?$/i.test(host)) return Effect.fail(refuse(host, "loopback"))
  return lookup(host).pipe(
    // The resolver's own words may name upstream servers: the caller gets the kind of failure only.
    Effect.mapError((e) => webError(url.href, "dns", `the name ${host} could not be resolved (${e.reason})`)),
    Effect.flatMap(({ v4, v6 }) => {
      const all = [...v4, ...v6]
      if (all.length === 0)
        return Effect.fail(webError(url.href, "no-address", `${host} has no A or AAAA record`))
      // One refused address refuses the name: mixing public and internal answers is how rebinding starts.
      for (const address of all) {
        const ip = parseIp(address)
        if (!ip) return Effect.fail(refuse(address, "reserved"))
        const verdict = vet(ip, settings.allow)
        if (!verdict.ok) return Effect.fail(refuse(address, verdict.refusal))
      }
      return Effect.succeed(all)
    })
  )
}
