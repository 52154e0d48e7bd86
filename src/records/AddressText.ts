/**
 * Addresses as text, for comparing what DNS and reports hand us: IPv4 octets, IPv6 expanded to its
 * full form (RFC 4291 2.2, an embedded IPv4 tail included), one canonical text for both. Pure; shared
 * by the checks that compare addresses (the blocklist's query names, forward-confirmed reverse DNS).
 */
/** Full, lower-case, zero-padded IPv6 (8 groups of 4 hex digits); null when not IPv6. */
export const expandIPv6 = (text: string): string | null => {
  let address = text.toLowerCase().replace(/%.*$/, "")
  // an embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (v4) {
    const octets = ipv4Octets(v4[1]!)
    if (!octets) return null
    address =
      address.slice(0, v4.index) +
      ((octets[0]! << 8) | octets[1]!).toString(16) +
      ":" +
      ((octets[2]! << 8) | octets[3]!).toString(16)
  }
  if (!/^[0-9a-f:]+$/.test(address) || (address.match(/::/g) ?? []).length > 1) return null
  const [head = "", tail] = address.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined ? [] : tail === "" ? [] : tail.split(":")
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right]
  if (groups.some((g) => g.length === 0 || g.length > 4)) return null
  return groups.map((g) => g.padStart(4, "0")).join(":")
}

/** The four octets of a dotted-quad IPv4 address; null when it is not one. */
export const ipv4Octets = (text: string): ReadonlyArray<number> | null => {
  const parts = text.split(".")
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null
  return parts.map(Number)
}

/** Canonical text of an address (IPv4 as is, IPv6 expanded), for comparisons; null when invalid. */
export const canonicalAddress = (text: string): string | null =>
  ipv4Octets(text) ? ipv4Octets(text)!.join(".") : expandIPv6(text)
