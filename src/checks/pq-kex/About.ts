/** What the post-quantum key-exchange check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { PqKexResult } from "./PqKexResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { rules } from "./Rules.ts"

export const about = declared({
  id: "pq-kex",
  title: "Post-quantum key exchange",
  category: "security",
  result: PqKexResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "pqKex",
    title: "Post-quantum key exchange",
    titleNl: "Post-quantum sleuteluitwisseling",
    rank: 145,
    sources: ["mlkem_hybrid", "rfc8446", "rfc3207"],
    facts: ["web", "mail", "servers"],
    generator: null
  },
  columns: [],
  nis2: [],
  deepScans: ["web", "mail"],
  citations: {
    mlkem_hybrid: {
      title: "IETF draft-ietf-tls-ecdhe-mlkem: Post-quantum hybrid ECDHE-MLKEM key agreement for TLS 1.3",
      url: "https://datatracker.ietf.org/doc/draft-ietf-tls-ecdhe-mlkem/"
    }
  }
})
