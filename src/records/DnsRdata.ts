/**
 * The record data of the DNS types we read, as plain JSON-friendly values (what `net/DnsWire.ts`
 * decodes answers into, and what checks and records read). Names carry no trailing dot.
 */

export interface MxData {
  readonly priority: number
  /** "" for a null MX (RFC 7505: "0 ."). */
  readonly exchange: string
}
export interface SoaData {
  readonly mname: string
  readonly rname: string
  readonly serial: number
  readonly refresh: number
  readonly retry: number
  readonly expire: number
  readonly minimum: number
}
export interface CaaData {
  readonly flags: number
  readonly tag: string
  readonly value: string
}
export interface SrvData {
  readonly priority: number
  readonly weight: number
  readonly port: number
  readonly target: string
}
export interface DnskeyData {
  readonly flags: number
  readonly protocol: number
  readonly algorithm: number
  /** Base64, as in the zone file. */
  readonly publicKey: string
}
export interface DsData {
  readonly keyTag: number
  readonly algorithm: number
  readonly digestType: number
  /** Upper-case hex. */
  readonly digest: string
}
export interface RrsigData {
  readonly typeCovered: string
  readonly algorithm: number
  readonly labels: number
  readonly originalTTL: number
  /** Seconds since the epoch (RFC 4034 3.1.5, serial arithmetic ignored: fine until 2106). */
  readonly expiration: number
  readonly inception: number
  readonly keyTag: number
  readonly signersName: string
  readonly signature: string
}
export interface Nsec3ParamData {
  readonly hashAlgorithm: number
  readonly flags: number
  readonly iterations: number
  /** Lower-case hex; "" when there is no salt (presented as "-"). */
  readonly salt: string
}
export interface TlsaData {
  readonly usage: number
  readonly selector: number
  readonly matchingType: number
  /** Lower-case hex of the certificate association data. */
  readonly certificate: string
}
