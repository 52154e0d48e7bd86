/**
 * The names a domain's owner lists for the takeover check (`names=`): host names of the domain that
 * DNS cannot enumerate (`shop.`, `status.`, `docs.`), each examined for a dangling or unclaimed
 * CNAME as `www.` is. Normalised as the `domain` parameter is (`normaliseDomain`: lower case, no
 * trailing dot, IDNs as A-labels), duplicates removed, sorted (so one set of names is one scan
 * whatever order it was typed in), at most `MAX_LISTED_NAMES`. Each must be the domain itself or a
 * name under it: a takeover of somebody else's name is not this domain's risk. Pure and total.
 */
import { Either } from "effect"
import { normaliseDomain } from "./DomainName.ts"

/** How many names one request may list: each is a DNS question and perhaps a fetch of the scan. */
export const MAX_LISTED_NAMES = 20

const shown = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text)

/** The names of a comma-separated list (or of several values), normalised; or why one is not a name. */
export const parseListedNames = (
  raw: string | ReadonlyArray<string>
): Either.Either<ReadonlyArray<string>, string> => {
  const items = (typeof raw === "string" ? [raw] : raw)
    .flatMap((value) => value.split(","))
    .map((item) => item.trim())
    .filter((item) => item !== "")
  const names = new Set<string>()
  for (const item of items) {
    const normalised = normaliseDomain(item)
    if (Either.isLeft(normalised))
      return Either.left(
        `names: '${shown(item)}' is not a host name (${normalised.left.replace(/^.*\((.*)\)$/s, "$1")})`
      )
    names.add(normalised.right)
    if (names.size > MAX_LISTED_NAMES)
      return Either.left(`names: at most ${MAX_LISTED_NAMES} names may be listed`)
  }
  return Either.right([...names].sort())
}

/** Whether `name` is `domain` or a name under it (both normalised). */
export const isUnder = (domain: string, name: string): boolean =>
  name === domain || name.endsWith(`.${domain}`)

/** The first of `names` that is not `domain` or under it, with the message a 400 carries. */
export const nameOutside = (domain: string, names: ReadonlyArray<string>): string | null => {
  const outside = names.find((name) => !isUnder(domain, name))
  return outside === undefined
    ? null
    : `names: '${outside}' is not ${domain} or a name under it (only the scanned domain's own names are its takeover risk)`
}
