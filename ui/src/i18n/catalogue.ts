/** A catalogue in another language: every message of the English one, none more. */
export type Catalogue<English> = { readonly [Id in keyof English]: string };
