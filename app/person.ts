// People's names as the API answers them: an erased account is named DELETED_USER (the contract's
// constant, docs/product.md, Accounts and codes), which the screens say in the reader's language.
import { DELETED_USER } from "../contract/constants.ts";

export const personName = (name: string | null | undefined, t: (key: string) => string) =>
  !name || name === DELETED_USER ? t("common:deletedUser") : name;
