// The fr texts of the pages, one file for the browser to load after a page is interactive
// (app/page-texts.ts) and for the server to translate with (i18n.server.ts).
import common from "../../locales/fr/common.json";
import auth from "../../locales/fr/auth.json";
import patient from "../../locales/fr/patient.json";
import doctor from "../../locales/fr/doctor.json";
import admin from "../../locales/fr/admin.json";
import reception from "../../locales/fr/reception.json";

export default { common, auth, patient, doctor, admin, reception };
