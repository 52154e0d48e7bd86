/**
 * The example domain's scan: every registered check's outcome (ExampleChecks.ts) in the shape the
 * Scanner produces; a day-earlier scan of the same domain that still had DMARC at p=none and no
 * MTA-STS (the history, diff, evidence and alert examples compare the two); and a week-later one
 * with the MTA-STS policy enforced (graded A+, the hall of fame's example).
 */
import { exampleCaa, exampleRpki } from "../../checks/caa/Example.ts"
import { registry } from "../../checks/index.ts"
import type { CheckOutcome, ScanResult } from "../../scan/ScanResult.ts"
import { analyseDmarc } from "../../checks/dmarc/Dmarc.ts"
import { analyseMtaSts } from "../../checks/mta-sts/MtaSts.ts"
import { once } from "../../kernel/examples/Once.ts"
import { exampleChecks, mtaStsIn } from "./ExampleChecks.ts"
import { BEFORE_ISO, DOMAIN, NOW, NOW_ISO } from "../../kernel/examples/ExampleZone.ts"

const LATER_ISO = new Date(NOW.getTime() + 7 * 86_400_000).toISOString()

type Results = {
  readonly [Id in keyof ScanResult["checks"]]: NonNullable<ScanResult["checks"][Id]["result"]>
}

/** Each check's share of a 1.9 s scan, as the Scanner measures it. */
const DURATION_MS: Readonly<Record<string, number>> = { "smtp-tls": 1240, dane: 1260, "dns-records": 18 }

const scanOf = (results: Results, computedAt: string): ScanResult => ({
  domain: DOMAIN,
  computedAt,
  cached: false,
  durationMs: 1_912,
  deadlineMs: 25_000,
  criticalPathMs: 1_604,
  checks: Object.fromEntries(
    registry.map((check): [string, CheckOutcome<unknown>] => [
      check.id,
      {
        id: check.id,
        title: check.title,
        category: check.category,
        status: "done",
        reason: null,
        durationMs: DURATION_MS[check.id] ?? 64,
        needs: [],
        result: results[check.id as keyof Results]
      }
    ])
  ) as ScanResult["checks"]
})

/** example.com now, and a day earlier: DMARC at p=none (reports only) and no MTA-STS record yet. */
export const exampleScans = once(() => {
  const C = exampleChecks()
  const results: Results = {
    "dns-records": C.lookup,
    nameservers: C.nameServers,
    fcrdns: C.fcrdns,
    dnssec: C.dnssec,
    spf: C.spf,
    dmarc: C.dmarc,
    dkim: C.dkim,
    bimi: C.bimi,
    "mta-sts": C.mtaSts,
    "smtp-tls": C.smtpTls,
    dane: C.tlsa,
    blocklist: C.blocklist,
    "sender-requirements": C.senderRequirements,
    headers: C.headers,
    "web-tls": C.webTls,
    caa: exampleCaa(),
    rpki: exampleRpki(),
    "http-redirect": C.httpRedirect,
    "security-txt": C.securityTxt,
    registration: C.registration,
    takeover: C.takeover,
    "https-record": C.httpsRecord
  }

  const scan = scanOf(results, NOW_ISO)
  const earlier = scanOf(
    {
      ...results,
      dmarc: analyseDmarc({
        domain: DOMAIN,
        direct: {
          name: `_dmarc.${DOMAIN}`,
          records: ["v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com"]
        },
        organisationalDomain: null,
        organisational: null,
        authorisations: []
      }),
      "mta-sts": analyseMtaSts({
        domain: DOMAIN,
        txt: { name: `_mta-sts.${DOMAIN}`, records: [] },
        policy: null,
        mx: { hosts: ["mx1.example.com"], nullMx: false, implicit: false },
        tlsRpt: { name: `_smtp._tls.${DOMAIN}`, records: ["v=TLSRPTv1; rua=mailto:tls-reports@example.com"] }
      })
    },
    BEFORE_ISO
  )
  // A week later: the MTA-STS policy moved to enforce.
  const enforced = scanOf({ ...results, "mta-sts": mtaStsIn("enforce") }, LATER_ISO)
  return { scan, earlier, enforced }
})
