/** What the sender-requirements check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { SenderRequirementsResult } from "./SenderRequirementsResult.ts"
import { declared, noRules } from "../../kernel/Declaration.ts"

export const about = declared({
  id: "sender-requirements",
  title: "Mailbox-provider sender requirements",
  category: "email",
  result: SenderRequirementsResult,
  rules: noRules,
  issues: {},
  advice: {},
  guidance: {},
  section: {
    key: "senderRequirements",
    title: "Mailbox-provider sender requirements",
    titleNl: "Eisen van mailboxaanbieders aan verzenders",
    rank: 130,
    sources: ["google_senders", "yahoo_senders"],
    facts: ["overallStatus", "passedCount", "failedCount", "summary"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["mail"],
  citations: {
    google_senders: {
      title: "Google: Email sender guidelines",
      url: "https://support.google.com/a/answer/81126"
    },
    yahoo_senders: {
      title: "Yahoo: Sender best practices",
      url: "https://senders.yahooinc.com/best-practices/"
    }
  }
})
