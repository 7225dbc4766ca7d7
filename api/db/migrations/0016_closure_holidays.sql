-- The fixed public holidays of migration 0010 carry both languages in one reason ('Labour Day /
-- Fête du Travail'); the page shows a closed day in its own language only, so each holiday is named
-- by a key the page translates (locales/*/admin.json, closures.holidays). A day the admin adds has
-- no key: its reason is shown as written.
ALTER TABLE "clinic_closures" ADD COLUMN "holiday" text;--> statement-breakpoint
UPDATE "clinic_closures" SET "holiday" = h.key
FROM (VALUES
	('New Year''s Day / Jour de l''An', 'new_year'),
	('Youth Day / Fête de la Jeunesse', 'youth_day'),
	('Labour Day / Fête du Travail', 'labour_day'),
	('National Day / Fête nationale', 'national_day'),
	('Assumption / Assomption', 'assumption'),
	('Christmas / Noël', 'christmas')
) AS h(reason, key)
WHERE "clinic_closures"."reason" = h.reason;
