/**
 * Examples of the web, ai and misc groups: the headers verdict and generator, the CSP crawler over
 * the example site, the knowledge base's explanation, a staged DMARC fix proposed and judged over
 * the example zone, a raw message's analysis, the hall of fame and the health answer.
 */
import { Either } from "effect"
import { normaliseDomain } from "../../records/DomainName.ts"
import { knowledgeBaseAnswer } from "../../ai/Explain.ts"
import { explainIssue } from "../../ai/Knowledge.ts"
import { fix } from "../../ai/Fix.ts"
import { analyseDmarc } from "../../checks/dmarc/Dmarc.ts"
import { previewAnswer } from "../../composite/Preview.ts"
import { crawlAndAnalyse } from "../../composite/CspScanner.ts"
import { parseMessage } from "../../mail/Message.ts"
import { reportOf } from "../../mail/DebugEmail.ts"
import { generate as generateHeaders } from "../../records/SecurityHeaders.ts"
import { score } from "../../score/Score.ts"
import { HALL_OF_FAME_GRADE } from "../../store/HallOfFame.ts"
import type { Example } from "./Example.ts"
import { overExample } from "./ExampleNet.ts"
import { exampleScans } from "./ExampleScan.ts"
import { DOMAIN, MX_HOST, MX_V4, NOW_ISO } from "../../kernel/examples/ExampleZone.ts"

/**
 * The DMARC fix for example.com while it publishes p=none (the day-earlier example scan), and its
 * preview: that scan with the proposed record analysed by the DMARC check in place of the live one.
 */
const previewedFix = () => {
  const { earlier } = exampleScans()
  const answer = overExample(
    fix("dmarc_policy_none", Either.getOrThrow(normaliseDomain(DOMAIN)), undefined),
    {
      [`_dmarc.${DOMAIN} TXT`]: ["v=DMARC1; p=none; rua=mailto:dmarc-reports@example.com"]
    }
  )
  const dmarc = analyseDmarc({
    domain: DOMAIN,
    direct: { name: answer.fix.dns_record, records: [answer.fix.value] },
    organisationalDomain: null,
    organisational: null,
    authorisations: []
  })
  const previewed = {
    ...earlier,
    checks: { ...earlier.checks, dmarc: { ...earlier.checks.dmarc, result: dmarc } }
  }
  const { grade, percentage, compared } = previewAnswer(previewed, earlier, [])
  return {
    ...answer,
    compared: { ...compared, preview: { grade, percentage }, notJudged: [] },
    comparedReason: null
  }
}

/** A newsletter from example.com as its recipient's mailbox received it. */
const MESSAGE = [
  `Received: from ${MX_HOST} (${MX_HOST} [${MX_V4}]) by mx.example.org with ESMTPS id 4dH2kq0Zz1; Tue, 1 Dec 2026 08:59:58 +0000`,
  "Authentication-Results: mx.example.org; spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com; dmarc=pass header.from=example.com",
  "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.com; s=selector1; h=from:to:subject:date:message-id; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b=dGhpcyBpcyBub3QgYSByZWFsIHNpZ25hdHVyZQ==",
  "From: Example News <news@example.com>",
  "To: reader@example.org",
  "Subject: December news",
  "Date: Tue, 1 Dec 2026 08:59:57 +0000",
  "Message-ID: <20261201085957.4dH2kq0Zz1@example.com>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Hello, this is the December newsletter."
].join("\r\n")

const debugEmail = () => {
  const message = parseMessage(MESSAGE)
  return reportOf(message, {
    spf: {
      result: "pass",
      domain: DOMAIN,
      ip: MX_V4,
      helo: MX_HOST,
      mailFrom: `bounces@${DOMAIN}`,
      details: `${MX_V4} is authorised by the SPF record of ${DOMAIN} (mx)`
    },
    dkim: [
      {
        domain: DOMAIN,
        selector: "selector1",
        result: "pass",
        aligned: true,
        comment: undefined,
        signedHeaders: ["from", "to", "subject", "date", "message-id"]
      }
    ],
    dmarc: {
      result: "pass",
      policy: "reject",
      domain: DOMAIN,
      spfAligned: true,
      dkimAligned: true,
      details: "DMARC pass: SPF and DKIM aligned with example.com (p=reject)"
    },
    arc: { result: "none", details: "no ARC chain" }
  })
}

export const webAiExamples: Readonly<Record<string, Example>> = {
  "web.headersGenerate": {
    request: "the recommended preset",
    answer: () => Either.getOrThrow(generateHeaders({ preset: "recommended" }))
  },
  "web.cspScan": {
    request: "https://www.example.com/ (two pages, a CDN script and an embedded video)",
    answer: () =>
      overExample(
        crawlAndAnalyse(new URL(`https://www.${DOMAIN}/`), false, { maxPages: 20, budgetMs: 45_000 })
      )
  },
  "ai.explain": {
    request: "issue_type dmarc_policy_none, no model configured",
    answer: () => knowledgeBaseAnswer(explainIssue("dmarc_policy_none"))
  },
  "ai.fix": {
    request: "dmarc_policy_none for example.com while it publishes p=none",
    answer: () => previewedFix()
  },
  "ai.debugEmail": { request: "a newsletter from example.com, authenticated", answer: debugEmail },
  "misc.hallOfFame": {
    request: "example.com, once its MTA-STS policy is enforced",
    answer: () => {
      const { enforced } = exampleScans()
      const { grade, percentage } = score(enforced)
      if (grade !== HALL_OF_FAME_GRADE) throw new Error(`the enforced example scan is graded ${grade}`)
      return {
        entries: [{ domain: DOMAIN, score: percentage, grade, addedAt: Date.parse(enforced.computedAt) }],
        total: 1
      }
    }
  },
  "misc.health": {
    request: "a healthy service",
    answer: () => ({
      status: "healthy",
      timestamp: NOW_ISO,
      uptime: 3600,
      // What the background checks last found (http/edge/Health.ts): a database write read back in
      // WAL mode, the resolver's answer to the root's NS set, the admission queue.
      services: {
        database: { status: "healthy", journalMode: "wal", latencyMs: 1, checkedAt: NOW_ISO, ageMs: 4_000 },
        resolver: {
          status: "healthy",
          answered: true,
          detail: "the root's NS set was answered",
          latencyMs: 12
        },
        admission: { status: "healthy", active: 1, waiting: 0, permits: 8, refused: {} }
      }
    })
  }
}
