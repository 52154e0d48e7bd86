/** `f`'s value, computed on the first call: an example costs nothing until something reads it. */
export const once = <A>(f: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: f() }).a
}
