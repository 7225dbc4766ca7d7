// People's names as the API answers them: an erased account is written 'Deleted user' (docs/product.md,
// Accounts and codes), which the screens say in the reader's language.
const DELETED_USER = "Deleted user";

export const personName = (name: string | null | undefined, t: (key: string) => string) => (!name || name === DELETED_USER ? t("common:deletedUser") : name);
