/** The issue the post-quantum key-exchange check reports (docs/issues.md) and the knowledge base's advice on it. */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  pq_kex_partial: e(
    "security",
    "info",
    false,
    "Post-quantum key exchange on only some servers",
    "Offered the hybrid post-quantum key exchanges first (X25519MLKEM768, codepoint 0x11EC), some of the domain's web or mail servers took one and others chose a classical one (such as X25519): traffic through those could be decrypted once a large quantum computer exists.",
    nl(
      "Post-quantum sleuteluitwisseling op slechts een deel van de servers",
      "Toen hybride post-quantum sleuteluitwisselingen als eerste werden aangeboden (X25519MLKEM768, codepunt 0x11EC), kozen sommige web- of mailservers van het domein er een en andere een klassieke (zoals X25519): verkeer via die laatste kan worden ontsleuteld zodra er een grote quantumcomputer bestaat."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  pq_kex_partial: {
    impact:
      'Traffic through the servers without the hybrid, recorded now ("harvest now, decrypt later"), becomes readable to whoever recorded it once quantum computers break elliptic-curve key exchange.',
    recommendation:
      "Give every server the same TLS library with the hybrid groups (OpenSSL 3.5 or later, BoringSSL, recent Go or rustls) and list X25519MLKEM768 first among its groups."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
