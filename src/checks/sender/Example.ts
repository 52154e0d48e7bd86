/**
 * What the sender-requirements check gathers for the example domain: the verdicts it builds on,
 * each its check's own example.
 */
import { Dkim } from "../dkim/Dkim.ts"
import { Dmarc } from "../dmarc/Dmarc.ts"
import { Fcrdns } from "../fcrdns/Fcrdns.ts"
import { SmtpTls } from "../smtp-tls/SmtpTls.ts"
import { Spf } from "../spf/Spf.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = () => ({
  domain: DOMAIN,
  spf: Spf.example(),
  dkim: Dkim.example(),
  dmarc: Dmarc.example(),
  fcrdns: Fcrdns.example(),
  tls: SmtpTls.example()
})
