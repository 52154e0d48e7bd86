/**
 * The extensions of a ClientHello record, by type (RFC 8446 4.1.2): the record and handshake
 * headers, version and random skipped, then the session id, the suites and the compression methods,
 * each by its length.
 */
export const extensionsOf = (record: Uint8Array) => {
  let at = 5 + 4 + 2 + 32
  at += 1 + record[at]!
  at += 2 + ((record[at]! << 8) | record[at + 1]!)
  at += 1 + record[at]!
  const end = at + 2 + ((record[at]! << 8) | record[at + 1]!)
  const found = new Map<number, Uint8Array>()
  for (at += 2; at < end;) {
    const type = (record[at]! << 8) | record[at + 1]!
    const length = (record[at + 2]! << 8) | record[at + 3]!
    found.set(type, record.subarray(at + 4, at + 4 + length))
    at += 4 + length
  }
  return found
}
