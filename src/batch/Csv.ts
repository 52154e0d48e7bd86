/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field quoted when
 * it holds a comma, a double quote, CR or LF (or begins or ends with a space, which some readers
 * trim), with each double quote inside doubled (section 2, rules 5-7). Pure.
 */

/** One field, quoted when RFC 4180 requires it. */
export const csvField = (value: string): string =>
  /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value

/** One record with its CRLF. */
export const csvRecord = (fields: ReadonlyArray<string>): string => fields.map(csvField).join(",") + "\r\n"

/**
 * The fields of one record (its line end already removed), read back as `csvRecord` wrote them and
 * as RFC 4180 allows: quoted or bare fields, `""` inside quotes for a quote, CR and LF inside quotes.
 * Lenient where the RFC is silent: text after a closing quote is kept.
 */
export const parseCsvRecord = (record: string): Array<string> => {
  const fields: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < record.length; i++) {
    const c = record[i]!
    if (quoted) {
      if (c !== '"') field += c
      else if (record[i + 1] === '"') ((field += '"'), i++)
      else quoted = false
    } else if (c === '"') quoted = true
    else if (c === ",") (fields.push(field), (field = ""))
    else field += c
  }
  fields.push(field)
  return fields
}
