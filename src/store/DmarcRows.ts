/**
 * A DMARC report's records as the store keeps them (`dmarc_row`, docs/reports-in.md "Privacy"),
 * and the INSERT that writes them.
 */

export interface DmarcRowInsert {
  readonly source_ip: string
  readonly count: number
  readonly disposition: string
  readonly dkim: string
  readonly spf: string
  readonly overrides: string
  readonly arc: number
  readonly header_from: string
  readonly dkim_auth: string
  readonly spf_auth: string
  /** The MAIL FROM domain (RFC 7489 C `envelope_from`); "" when not given. */
  readonly envelope_from: string
  /** JSON of the override reasons, `[{type, comment}]` (RFC 7489 C PolicyOverrideReason); "" when none. */
  readonly reasons: string
}

/** The columns of a row as written, in the order of the INSERT and of `packRows`. */
const DMARC_ROW_COLUMNS = [
  "source_ip",
  "count",
  "disposition",
  "dkim",
  "spf",
  "overrides",
  "arc",
  "header_from",
  "dkim_auth",
  "spf_auth",
  "envelope_from",
  "reasons"
] as const satisfies ReadonlyArray<keyof DmarcRowInsert>

const dmarcRowInserts = new Map<number, string>()

/**
 * The INSERT of `n` DMARC rows, its text made once per `n` (a report's rows are written with one
 * prepared statement of bound values, not one object per row through the statement compiler: the
 * rows of a report are most of what ingest allocates).
 */
export const dmarcRowInsert = (n: number) => {
  let text = dmarcRowInserts.get(n)
  if (text === undefined) {
    const one = `(${Array(DMARC_ROW_COLUMNS.length + 3)
      .fill("?")
      .join(", ")})`
    text = `INSERT INTO dmarc_row (report, domain, begin_at, ${DMARC_ROW_COLUMNS.join(", ")}) VALUES ${Array(n).fill(one).join(", ")}`
    dmarcRowInserts.set(n, text)
  }
  return text
}

/** The values of `dmarcRowInsert(rows.length)`: the rows of report `id`, on `domain`, beginning at `begin`. */
export const dmarcRowValues = (
  id: number,
  domain: string,
  begin: number,
  rows: ReadonlyArray<DmarcRowInsert>
) => {
  const values: Array<string | number> = []
  for (const r of rows) {
    values.push(id, domain, begin)
    for (const c of DMARC_ROW_COLUMNS) values.push(r[c])
  }
  return values
}

/** Values of a packed DMARC row: one per column. */
const PACKED_WIDTH = DMARC_ROW_COLUMNS.length

/**
 * DMARC rows as one flat array of their values, `DMARC_ROW_COLUMNS` in order for each row (how a
 * parse worker hands them to the service's thread, inbound/ParsePool.ts).
 */
export const packRows = (rows: ReadonlyArray<DmarcRowInsert>): Array<string | number> => {
  const values: Array<string | number> = []
  for (const r of rows) for (const c of DMARC_ROW_COLUMNS) values.push(r[c])
  return values
}

/** The rows `packRows` packed. */
export const unpackRows = (values: ReadonlyArray<string | number>): Array<DmarcRowInsert> => {
  const rows: Array<DmarcRowInsert> = []
  for (let i = 0; i + PACKED_WIDTH <= values.length; i += PACKED_WIDTH) {
    const row: Partial<Record<(typeof DMARC_ROW_COLUMNS)[number], string | number>> = {}
    for (let c = 0; c < PACKED_WIDTH; c++) row[DMARC_ROW_COLUMNS[c]!] = values[i + c]!
    // every column set, each to the value `packRows` took from it
    rows.push(row as DmarcRowInsert)
  }
  return rows
}
