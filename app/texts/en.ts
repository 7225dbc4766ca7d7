// The en texts of the pages, one file for the browser to load after a page is interactive
// (app/page-texts.ts) and for the server to translate with (i18n.server.ts).
import common from "../../locales/en/common.json";
import auth from "../../locales/en/auth.json";
import patient from "../../locales/en/patient.json";
import doctor from "../../locales/en/doctor.json";
import admin from "../../locales/en/admin.json";
import reception from "../../locales/en/reception.json";

export default { common, auth, patient, doctor, admin, reception };
