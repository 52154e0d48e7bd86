/**
 * The example domain's scan: every registered check's own example (`check.example()`, from its
 * folder's Example.ts) in the shape the Scanner produces; a day-earlier scan of the same domain
 * that still had DMARC at p=none and no MTA-STS (the history, diff, evidence and alert examples
 * compare the two); and a week-later one with the MTA-STS policy enforced (graded A+, the hall of
 * fame's example).
 */
import { registry } from "../../checks/index.ts"
import type { CheckOutcome, ScanResult } from "../../scan/ScanResult.ts"
import { analyseDmarc } from "../../checks/dmarc/Dmarc.ts"
import { analyseMtaSts, MtaSts } from "../../checks/mta-sts/MtaSts.ts"
import { gatheredIn } from "../../checks/mta-sts/Example.ts"
import { once } from "../../kernel/examples/Once.ts"
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
  // Each result is typed by its check's own `define` (its `result` Schema); the entries lose that.
  const results = Object.fromEntries(registry.map((check) => [check.id, check.example()])) as Results

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
  const enforced = scanOf({ ...results, "mta-sts": MtaSts.analyse(gatheredIn("enforce"), NOW) }, LATER_ISO)
  return { scan, earlier, enforced }
})
