/**
 * The ALPN question: TLS handshakes with a web host offering each protocol alone (RFC 7301),
 * through the web client's address policy (WebAlpn.ts): what an HTTPS record's `alpn` (RFC 9460
 * 7.1) is checked against. The host is resolved through the scan's own look-up.
 */
import { Effect } from "effect"
import { normaliseName } from "../../records/DomainName.ts"
import { Question, ScanLookup } from "../Question.ts"
import { Web } from "../Web.ts"

export interface AlpnArgs {
  readonly host: string
  readonly protocols: ReadonlyArray<string>
  /** The HTTPS record's port (RFC 9460 7.2); 443 when it names none. */
  readonly port?: number
}

export const Alpn = Question.define({
  name: "alpn",
  key: ({ host, protocols, port }: AlpnArgs) =>
    `${normaliseName(host)}\u0000${port ?? 443}\u0000${protocols.join(",")}`,
  run: ({ host, protocols, port }: AlpnArgs) =>
    Effect.flatMap(Web, (web) =>
      Effect.flatMap(ScanLookup, (lookup) =>
        web.alpn(host, protocols, { ...(port === undefined ? {} : { port }), lookup })
      )
    )
})
