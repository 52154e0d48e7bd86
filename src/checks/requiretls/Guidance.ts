/** What a domain owner does about mail servers that differ on REQUIRETLS (docs/guidance.md). */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  requiretls_partial: guide({
    why: "Some of your mail servers accept mail whose sender requires encryption all the way (REQUIRETLS) and others do not. Such mail can only go to the servers that accept it, so when those are unavailable it is returned to the sender instead of waiting at a backup server.",
    steps: [
      "Read the report: it lists each mail server and whether it advertises REQUIRETLS.",
      "Give every mail server the same software and settings, with REQUIRETLS enabled on all of them (or on none).",
      "Scan again: every mail server should advertise REQUIRETLS after STARTTLS."
    ],
    references: ["rfc8689"],
    nl: {
      why: "Sommige van je mailservers accepteren mail waarvan de afzender versleuteling over de hele route eist (REQUIRETLS), andere niet. Zulke mail kan alleen naar de servers die haar accepteren; zijn die onbereikbaar, dan gaat ze terug naar de afzender in plaats van te wachten op een back-upserver.",
      steps: [
        "Lees het rapport: het noemt elke mailserver en of die REQUIRETLS aanbiedt.",
        "Geef alle mailservers dezelfde software en instellingen, met REQUIRETLS op allemaal aan (of op geen enkele).",
        "Scan opnieuw: elke mailserver hoort REQUIRETLS na STARTTLS aan te bieden."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
