/** What the DNSSEC check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { UNSIGNED, item } from "../../kernel/Nis2Evidence.ts"
import { rfc } from "../../kernel/Source.ts"
import { DnssecResult } from "./DnssecResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { DNSSEC_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "dnssec",
  title: "DNSSEC",
  category: "dnssec",
  result: DnssecResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "dnssec",
    title: "DNSSEC",
    titleNl: "DNSSEC",
    rank: 30,
    sources: ["rfc4033", "rfc4034", "rfc4035", "rfc9904", "rfc9905", "rfc9276"],
    facts: ["status", "signed", "valid", "state", "zone", "issues"],
    generator: null
  },
  columns: [{ name: "dnssec", rank: 50, records: [DNSSEC_SPECS.signed.id, DNSSEC_SPECS.valid.id] }],
  nis2: [
    {
      measure: "e",
      record: DNSSEC_SPECS.rrsig.id,
      weight: 2,
      rank: 10,
      text: item(
        { en: "DNSSEC signatures kept fresh", nl: "DNSSEC-handtekeningen tijdig vernieuwd" },
        {
          en: "No signature expires within 7 days.",
          nl: "Geen handtekening verloopt binnen 7 dagen."
        },
        UNSIGNED
      )
    },
    {
      measure: "e",
      record: DNSSEC_SPECS.algorithm.id,
      weight: 1,
      rank: 20,
      text: item(
        { en: "Current DNSSEC algorithm", nl: "Actueel DNSSEC-algoritme" },
        {
          en: "The zone is signed with an algorithm the IANA registry recommends (RFC 9904).",
          nl: "De zone is ondertekend met een algoritme dat het IANA-register aanbeveelt (RFC 9904)."
        },
        UNSIGNED
      )
    },
    {
      measure: "e",
      record: DNSSEC_SPECS.nsec3.id,
      weight: 1,
      rank: 30,
      text: item(
        { en: "Current NSEC3 parameters", nl: "Actuele NSEC3-parameters" },
        {
          en: "NSEC, or NSEC3 without extra iterations or salt (RFC 9276).",
          nl: "NSEC, of NSEC3 zonder extra iteraties of salt (RFC 9276)."
        },
        UNSIGNED
      )
    },
    {
      measure: "h",
      record: DNSSEC_SPECS.signed.id,
      weight: 1,
      rank: 50,
      text: item(
        { en: "DNSSEC signed", nl: "DNSSEC-ondertekend" },
        {
          en: "The zone has DNSSEC keys and a DS record in its parent.",
          nl: "De zone heeft DNSSEC-sleutels en een DS-record in de bovenliggende zone."
        }
      )
    },
    {
      measure: "h",
      record: DNSSEC_SPECS.valid.id,
      weight: 2,
      rank: 60,
      text: item(
        { en: "DNSSEC validates", nl: "DNSSEC valideert" },
        {
          en: "Validating resolvers reach a secure answer.",
          nl: "Validerende resolvers komen tot een veilig (secure) antwoord."
        }
      )
    }
  ],
  deepScans: [],
  citations: Object.fromEntries([
    rfc(9904, "DNSSEC Cryptographic Algorithm Recommendation Update Process"),
    rfc(9905, "Deprecating the Use of SHA-1 in DNSSEC Signature Algorithms")
  ])
})
