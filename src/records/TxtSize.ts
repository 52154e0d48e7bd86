/**
 * The size of TXT records on the wire: how many character-strings a value needs (RFC 1035
 * 3.3.14, at most 255 characters each) and how large the UDP answer carrying it is (RFC 7208 3.4
 * asks SPF answers to fit 512 bytes). Shared by the SPF flattener and the SPF generator.
 */

const STRING_MAX = 255

const nameWireLength = (name: string) =>
  name
    .replace(/\.$/, "")
    .split(".")
    .reduce((n, label) => n + 1 + label.length, 1)

export const stringsFor = (value: string) => Math.max(1, Math.ceil(value.length / STRING_MAX))

/** Bytes of one TXT RR in an answer: compressed owner (2), type, class, TTL, rdlength, strings. */
const txtRrBytes = (value: string) => 2 + 10 + value.length + stringsFor(value)

/** RFC 1035 4.1: header, the question, then one RR per TXT record at the name. */
export const answerBytes = (name: string, values: ReadonlyArray<string>) =>
  12 + nameWireLength(name) + 4 + values.reduce((n, v) => n + txtRrBytes(v), 0)
