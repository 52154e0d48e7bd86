/** The part of `linebreak` (pdfkit's UAX #14 line breaker, which ships no types) PdfLayout uses. */
declare module "linebreak" {
  export default class LineBreaker {
    constructor(text: string)
    nextBreak(): { readonly position: number; readonly required: boolean } | null
  }
}
