/** The text of a PDF, extracted by unpdf (PDF.js): what a reader or a screen reader gets out of it. */
import { extractText, getDocumentProxy } from "unpdf"

export const pdfText = async (bytes: Uint8Array): Promise<string> => {
  // PDF.js may take over (detach) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  const { text } = await extractText(pdf, { mergePages: true })
  return text
}

export const pdfPages = async (bytes: Uint8Array): Promise<number> =>
  (await getDocumentProxy(new Uint8Array(bytes))).numPages
