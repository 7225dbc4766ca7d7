// docs/product.md, Fee: 3000 XAF for a doctor with no speciality or a general/practice one, else 6000.
export const GENERAL_FEE = 3000;
const SPECIALIST_FEE = 6000;

export function consultationFee(specialities: { isGeneral: boolean }[]): number {
  if (specialities.length === 0 || specialities.some((s) => s.isGeneral)) return GENERAL_FEE;
  return SPECIALIST_FEE;
}
