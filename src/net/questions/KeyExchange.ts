/**
 * The key-exchange question: which group a web server (port 443, with SNI) or a mail server
 * address (after STARTTLS, without SNI) takes when a client offers the hybrid post-quantum groups
 * first (KeyExchangeProbe.ts; RFC 8446 4.1.3, 4.2.8). The Web and Smtp services run the probe
 * under their own destination permits, address policy and probe cache; a scan asks each
 * (servers, host, address) once.
 */
import { Effect } from "effect"
import { normaliseName } from "../../records/DomainName.ts"
import type { KeyExchangeOutcome } from "../KeyExchangeProbe.ts"
import { Question } from "../Question.ts"
import { Smtp } from "../Smtp.ts"
import { Web } from "../Web.ts"

export interface KeyExchangeArgs {
  /** The web server on port 443, or the mail server on the SMTP port. */
  readonly servers: "web" | "mail"
  readonly host: string
  readonly address: string
}

export const KeyExchange = Question.define({
  name: "keyExchange",
  key: ({ servers, host, address }: KeyExchangeArgs) =>
    `${servers}\u0000${normaliseName(host)}\u0000${address}`,
  run: ({ servers, host, address }: KeyExchangeArgs): Effect.Effect<KeyExchangeOutcome, never, Web | Smtp> =>
    servers === "web"
      ? Effect.flatMap(Web, (web) => web.keyExchange(host, address))
      : Effect.flatMap(Smtp, (smtp) => smtp.keyExchange(host, address))
})
