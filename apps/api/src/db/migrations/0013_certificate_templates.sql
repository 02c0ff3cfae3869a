ALTER TABLE "authorization_templates" ADD COLUMN "kind" text DEFAULT 'consent' NOT NULL;--> statement-breakpoint
ALTER TABLE "authorization_templates" ADD CONSTRAINT "authorization_templates_kind" CHECK ("authorization_templates"."kind" in ('consent', 'attendance', 'rest', 'fitness', 'free'));--> statement-breakpoint
-- Every clinic gets the product's certificate templates, one per kind, in its first user's language
-- (Spanish when none): written as its own templates, which it may edit from now on.
INSERT INTO "authorization_templates" ("account_id", "id", "kind", "title", "body")
SELECT a."id", gen_random_uuid(), t."kind", t."title", t."body"
FROM "accounts" a
JOIN (VALUES
  ('es', 'attendance', $t$Certificado de asistencia$t$, $t$A {{addressee}}:

Certifico que {{patient}}, DNI {{idNumber}}, fue atendido/a en {{clinic}} el día {{date}} a las {{time}} horas.

Se extiende el presente a pedido del interesado para ser presentado ante quien corresponda.$t$),
  ('es', 'rest', $t$Certificado de reposo$t$, $t$A {{addressee}}:

Certifico que {{patient}}, DNI {{idNumber}}, fue atendido/a en {{clinic}} el día {{date}} y debe guardar reposo durante {{days}}, desde el {{from}} hasta el {{to}} inclusive.

Diagnóstico: {{diagnosis}}.$t$),
  ('es', 'fitness', $t$Certificado de aptitud$t$, $t$A {{addressee}}:

Certifico que {{patient}}, DNI {{idNumber}}, fue examinado/a en {{clinic}} el día {{date}} y se encuentra apto/a, desde el punto de vista odontológico, para: {{activity}}.$t$),
  ('es', 'free', $t$Certificado libre$t$, $t$A {{addressee}}:

Certifico que {{patient}}, DNI {{idNumber}}, $t$),
  ('en', 'attendance', $t$Attendance certificate$t$, $t$To {{addressee}}:

I certify that {{patient}}, ID number {{idNumber}}, was seen at {{clinic}} on {{date}} at {{time}}.

This certificate is issued at the patient's request.$t$),
  ('en', 'rest', $t$Rest certificate$t$, $t$To {{addressee}}:

I certify that {{patient}}, ID number {{idNumber}}, was seen at {{clinic}} on {{date}} and must rest for {{days}}, from {{from}} to {{to}} inclusive.

Diagnosis: {{diagnosis}}.$t$),
  ('en', 'fitness', $t$Fitness certificate$t$, $t$To {{addressee}}:

I certify that {{patient}}, ID number {{idNumber}}, was examined at {{clinic}} on {{date}} and is fit, from a dental point of view, for: {{activity}}.$t$),
  ('en', 'free', $t$Free-text certificate$t$, $t$To {{addressee}}:

I certify that {{patient}}, ID number {{idNumber}}, $t$),
  ('fr', 'attendance', $t$Certificat de présence$t$, $t$À {{addressee}} :

Je certifie que {{patient}}, pièce d'identité {{idNumber}}, a été reçu(e) à {{clinic}} le {{date}} à {{time}}.

Certificat délivré à la demande de l'intéressé(e).$t$),
  ('fr', 'rest', $t$Certificat de repos$t$, $t$À {{addressee}} :

Je certifie que {{patient}}, pièce d'identité {{idNumber}}, a été reçu(e) à {{clinic}} le {{date}} et doit observer un repos de {{days}}, du {{from}} au {{to}} inclus.

Diagnostic : {{diagnosis}}.$t$),
  ('fr', 'fitness', $t$Certificat d'aptitude$t$, $t$À {{addressee}} :

Je certifie que {{patient}}, pièce d'identité {{idNumber}}, a été examiné(e) à {{clinic}} le {{date}} et est apte, du point de vue dentaire, à : {{activity}}.$t$),
  ('fr', 'free', $t$Certificat libre$t$, $t$À {{addressee}} :

Je certifie que {{patient}}, pièce d'identité {{idNumber}}, $t$),
  ('pt', 'attendance', $t$Atestado de comparecimento$t$, $t$A {{addressee}}:

Atesto que {{patient}}, documento {{idNumber}}, foi atendido(a) em {{clinic}} no dia {{date}} às {{time}}.

O presente atestado é emitido a pedido do(a) interessado(a).$t$),
  ('pt', 'rest', $t$Atestado de repouso$t$, $t$A {{addressee}}:

Atesto que {{patient}}, documento {{idNumber}}, foi atendido(a) em {{clinic}} no dia {{date}} e deve permanecer em repouso por {{days}}, de {{from}} a {{to}} inclusive.

Diagnóstico: {{diagnosis}}.$t$),
  ('pt', 'fitness', $t$Atestado de aptidão$t$, $t$A {{addressee}}:

Atesto que {{patient}}, documento {{idNumber}}, foi examinado(a) em {{clinic}} no dia {{date}} e está apto(a), do ponto de vista odontológico, para: {{activity}}.$t$),
  ('pt', 'free', $t$Atestado livre$t$, $t$A {{addressee}}:

Atesto que {{patient}}, documento {{idNumber}}, $t$)
) AS t("language", "kind", "title", "body")
  ON t."language" = coalesce(
    (SELECT u."system_language" FROM "users" u WHERE u."account_id" = a."id" AND u."system_language" IN ('es', 'en', 'fr', 'pt') ORDER BY u."created_at", u."id" LIMIT 1),
    'es'
  );
