/** The issue the post-quantum key-exchange check reports (docs/issues.md) and the knowledge base's advice on it. */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  pq_kex_classical: e(
    "security",
    "info",
    false,
    "No post-quantum key exchange",
    "Offered the hybrid post-quantum key exchanges first (X25519MLKEM768, codepoint 0x11EC), some or all of the domain's web or mail servers chose a classical one (such as X25519): traffic recorded today could be decrypted once a large quantum computer exists.",
    nl(
      "Geen post-quantum sleuteluitwisseling",
      "Toen hybride post-quantum sleuteluitwisselingen als eerste werden aangeboden (X25519MLKEM768, codepunt 0x11EC), kozen sommige of alle web- of mailservers van het domein een klassieke (zoals X25519): verkeer dat vandaag wordt opgenomen, kan worden ontsleuteld zodra er een grote quantumcomputer bestaat."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  pq_kex_classical: {
    impact:
      'Encrypted traffic recorded now ("harvest now, decrypt later") stays readable to whoever records it once quantum computers break elliptic-curve key exchange.',
    recommendation:
      "Run a TLS library with the hybrid groups (OpenSSL 3.5 or later, BoringSSL, recent Go or rustls) and list X25519MLKEM768 first among the server's groups."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
