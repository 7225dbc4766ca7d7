/** The search parameter of the patients page's book dialog that names the patient it books for (?patient=<id>&book=<doctorId>). */
export const BOOK_FOR = "patient";
