/**
 * The words of a NIS2 evidence item, in every language of the scorecard (English and Dutch): each
 * check declares them with the evidence it gives (`about.nis2`), and `score/Nis2Text.ts` holds the
 * rest of the scorecard's texts.
 */
export const Languages = ["en", "nl"] as const
export type Lang = (typeof Languages)[number]

/** One text in every language. */
export type Text = { readonly [L in Lang]: string }

export interface EvidenceText {
  readonly label: Text
  /** The detail of a passing item. */
  readonly pass: Text
  /** The detail of an item that does not apply to this domain (why). */
  readonly notApplicable: Text
}

export const NO_MAIL: Text = {
  en: "The domain receives no mail (null MX or no mail servers), so this does not apply.",
  nl: "Het domein ontvangt geen mail (null MX of geen mailservers), dus dit is niet van toepassing."
}
export const UNSIGNED: Text = {
  en: "The zone is not DNSSEC-signed, so this does not apply (the lack of signing is judged under measure h).",
  nl: "De zone is niet met DNSSEC ondertekend, dus dit is niet van toepassing (het ontbreken van ondertekening telt bij maatregel h)."
}
export const NO_WEB: Text = {
  en: "The domain has no web address (no A or AAAA record), so this does not apply.",
  nl: "Het domein heeft geen webadres (geen A- of AAAA-record), dus dit is niet van toepassing."
}
export const NOT_APPLICABLE: Text = {
  en: "Does not apply to this domain.",
  nl: "Niet van toepassing op dit domein."
}

export const item = (label: Text, pass: Text, notApplicable: Text = NOT_APPLICABLE): EvidenceText => ({
  label,
  pass,
  notApplicable
})
