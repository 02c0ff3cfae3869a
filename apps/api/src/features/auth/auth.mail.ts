import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml, patientMailHtml } from '../../lib/patient-mail.ts';

/**
 * The session mails in the user's language, with the clinic's name: activation (24 h),
 * password reset (60 min) and invitation. Plain text and a simple HTML twin; the portal's two
 * (the clinic's to its patient) in the patients' frame, `lib/patient-mail.ts`.
 */

/**
 * `activation_existing` and `invitation_existing` (issue 19): the address already signs in at
 * another clinic, so the person keeps their password; only its owner reads which one was sent.
 */
export type AuthMailKind =
  | 'activation'
  | 'reset'
  | 'invitation'
  | 'activation_existing'
  | 'invitation_existing'
  | PortalMailKind;

/**
 * The patient portal's one-time links (issue 37): the clinic's invitation (7 days) and the link a
 * patient asked for on the clinic's page (60 minutes). Patients are addressed formally (usted, vous).
 */
export type PortalMailKind = 'portal_invitation' | 'portal_link';
const portalMailKinds: readonly AuthMailKind[] = ['portal_invitation', 'portal_link'] satisfies PortalMailKind[];

/** A mail about one link: subject, greeting, body, the link's words and a footer (the signing mail's too). */
export interface LinkMailTemplate {
  subject: string;
  greeting: string;
  body: string;
  action: string;
  footer: string;
}

const templates: Record<Language, Record<AuthMailKind, LinkMailTemplate>> = {
  es: {
    portal_invitation: {
      subject: '{clinic} le invita a su portal de paciente',
      greeting: 'Hola, {name}:',
      body: '{clinic} le da acceso a su portal de paciente, donde puede consultar sus citas, sus documentos y su saldo. Abra este enlace para entrar (sirve una sola vez y vence en 7 días); una vez dentro, puede elegir una contraseña:',
      action: 'Entrar al portal',
      footer: 'Si no esperaba este correo, puede ignorarlo.',
    },
    portal_link: {
      subject: 'Su enlace para entrar al portal de {clinic}',
      greeting: 'Hola, {name}:',
      body: 'Recibimos su pedido de acceso al portal de paciente de {clinic}. Abra este enlace para entrar (sirve una sola vez y vence en 60 minutos):',
      action: 'Entrar al portal',
      footer: 'Si no lo pidió, ignore este correo: nadie entra sin este enlace.',
    },
    activation: {
      subject: 'Activa tu cuenta de {clinic} en Odontia',
      greeting: 'Hola, {name}:',
      body: 'Gracias por registrar {clinic} en Odontia. Para activar la cuenta, abre este enlace (vence en 24 horas):',
      action: 'Activar la cuenta',
      footer: 'Si no creaste esta cuenta, puedes ignorar este correo.',
    },
    reset: {
      subject: 'Restablece tu contraseña de Odontia ({clinic})',
      greeting: 'Hola, {name}:',
      body: 'Recibimos un pedido para restablecer tu contraseña en {clinic}. Abre este enlace para elegir una nueva (sirve una sola vez y vence en 60 minutos):',
      action: 'Restablecer la contraseña',
      footer: 'Si no lo pediste, ignora este correo: tu contraseña no cambia.',
    },
    invitation: {
      subject: '{clinic} te invita a Odontia',
      greeting: 'Hola, {name}:',
      body: '{clinic} te invitó a su equipo en Odontia. Abre este enlace para elegir tu contraseña:',
      action: 'Aceptar la invitación',
      footer: 'Si no esperabas esta invitación, puedes ignorar este correo.',
    },
    activation_existing: {
      subject: 'Activa {clinic} en Odontia',
      greeting: 'Hola, {name}:',
      body: 'Registraste {clinic} en Odontia con un correo que ya usas para entrar a otra clínica. Tu contraseña sigue siendo la de siempre (la que escribiste al registrarte no se usó; si no la recuerdas, pide restablecerla). Para activar la clínica, abre este enlace (vence en 24 horas):',
      action: 'Activar la clínica',
      footer: 'Si no registraste esta clínica, puedes ignorar este correo: nada cambia en tu cuenta.',
    },
    invitation_existing: {
      subject: '{clinic} te invita a Odontia',
      greeting: 'Hola, {name}:',
      body: '{clinic} te invitó a su equipo en Odontia. Entra con tu correo y tu contraseña de siempre: encontrarás la clínica en tu menú de usuario.',
      action: 'Entrar en Odontia',
      footer: 'Si no esperabas esta invitación, puedes ignorar este correo.',
    },
  },
  en: {
    portal_invitation: {
      subject: '{clinic} invites you to your patient portal',
      greeting: 'Hello {name},',
      body: '{clinic} gives you access to your patient portal, where you can see your appointments, your documents and your balance. Open this link to enter (it works once and expires in 7 days); once inside, you may choose a password:',
      action: 'Enter the portal',
      footer: 'If you were not expecting this e-mail, you can ignore it.',
    },
    portal_link: {
      subject: 'Your link to enter the {clinic} portal',
      greeting: 'Hello {name},',
      body: 'We received your request to access the patient portal of {clinic}. Open this link to enter (it works once and expires in 60 minutes):',
      action: 'Enter the portal',
      footer: 'If you did not ask for it, ignore this e-mail: nobody enters without this link.',
    },
    activation: {
      subject: 'Activate your {clinic} account on Odontia',
      greeting: 'Hello {name},',
      body: 'Thank you for signing {clinic} up to Odontia. To activate the account, open this link (it expires in 24 hours):',
      action: 'Activate the account',
      footer: 'If you did not create this account, you can ignore this e-mail.',
    },
    reset: {
      subject: 'Reset your Odontia password ({clinic})',
      greeting: 'Hello {name},',
      body: 'We received a request to reset your password at {clinic}. Open this link to choose a new one (it works once and expires in 60 minutes):',
      action: 'Reset the password',
      footer: 'If you did not ask for it, ignore this e-mail: your password stays the same.',
    },
    invitation: {
      subject: '{clinic} invites you to Odontia',
      greeting: 'Hello {name},',
      body: '{clinic} invited you to its team on Odontia. Open this link to choose your password:',
      action: 'Accept the invitation',
      footer: 'If you were not expecting this invitation, you can ignore this e-mail.',
    },
    activation_existing: {
      subject: 'Activate {clinic} on Odontia',
      greeting: 'Hello {name},',
      body: 'You signed {clinic} up to Odontia with an e-mail you already use to sign in at another clinic. Your password stays the one you have (the one typed at sign-up was not used; if you do not remember it, ask for a reset). To activate the clinic, open this link (it expires in 24 hours):',
      action: 'Activate the clinic',
      footer: 'If you did not sign this clinic up, you can ignore this e-mail: nothing changes in your account.',
    },
    invitation_existing: {
      subject: '{clinic} invites you to Odontia',
      greeting: 'Hello {name},',
      body: '{clinic} invited you to its team on Odontia. Sign in with your usual e-mail and password: you will find the clinic in your user menu.',
      action: 'Sign in to Odontia',
      footer: 'If you were not expecting this invitation, you can ignore this e-mail.',
    },
  },
  fr: {
    portal_invitation: {
      subject: '{clinic} vous invite à votre portail patient',
      greeting: 'Bonjour {name},',
      body: '{clinic} vous donne accès à votre portail patient, où vous pouvez consulter vos rendez-vous, vos documents et votre solde. Ouvrez ce lien pour entrer (il ne sert qu’une fois et expire dans 7 jours) ; une fois connecté, vous pourrez choisir un mot de passe :',
      action: 'Entrer dans le portail',
      footer: 'Si vous ne vous attendiez pas à cet e-mail, vous pouvez l’ignorer.',
    },
    portal_link: {
      subject: 'Votre lien pour entrer dans le portail de {clinic}',
      greeting: 'Bonjour {name},',
      body: 'Nous avons reçu votre demande d’accès au portail patient de {clinic}. Ouvrez ce lien pour entrer (il ne sert qu’une fois et expire dans 60 minutes) :',
      action: 'Entrer dans le portail',
      footer: 'Si vous n’avez rien demandé, ignorez cet e-mail : personne n’entre sans ce lien.',
    },
    activation: {
      subject: 'Activez le compte de {clinic} sur Odontia',
      greeting: 'Bonjour {name},',
      body: "Merci d'avoir inscrit {clinic} sur Odontia. Pour activer le compte, ouvrez ce lien (il expire dans 24 heures) :",
      action: 'Activer le compte',
      footer: "Si vous n'avez pas créé ce compte, vous pouvez ignorer cet e-mail.",
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe Odontia ({clinic})',
      greeting: 'Bonjour {name},',
      body: 'Nous avons reçu une demande de réinitialisation de votre mot de passe pour {clinic}. Ouvrez ce lien pour en choisir un nouveau (il ne sert qu’une fois et expire dans 60 minutes) :',
      action: 'Réinitialiser le mot de passe',
      footer: "Si vous n'avez rien demandé, ignorez cet e-mail : votre mot de passe ne change pas.",
    },
    invitation: {
      subject: '{clinic} vous invite sur Odontia',
      greeting: 'Bonjour {name},',
      body: '{clinic} vous a invité à rejoindre son équipe sur Odontia. Ouvrez ce lien pour choisir votre mot de passe :',
      action: "Accepter l'invitation",
      footer: 'Si vous ne vous attendiez pas à cette invitation, vous pouvez ignorer cet e-mail.',
    },
    activation_existing: {
      subject: 'Activez {clinic} sur Odontia',
      greeting: 'Bonjour {name},',
      body: "Vous avez inscrit {clinic} sur Odontia avec une adresse qui vous sert déjà à vous connecter à une autre clinique. Votre mot de passe reste le même (celui saisi à l'inscription n'a pas été utilisé ; si vous l'avez oublié, demandez une réinitialisation). Pour activer la clinique, ouvrez ce lien (il expire dans 24 heures) :",
      action: 'Activer la clinique',
      footer:
        "Si vous n'avez pas inscrit cette clinique, vous pouvez ignorer cet e-mail : rien ne change dans votre compte.",
    },
    invitation_existing: {
      subject: '{clinic} vous invite sur Odontia',
      greeting: 'Bonjour {name},',
      body: '{clinic} vous a invité à rejoindre son équipe sur Odontia. Connectez-vous avec votre adresse et votre mot de passe habituels : la clinique apparaîtra dans votre menu utilisateur.',
      action: 'Se connecter à Odontia',
      footer: 'Si vous ne vous attendiez pas à cette invitation, vous pouvez ignorer cet e-mail.',
    },
  },
  pt: {
    portal_invitation: {
      subject: 'Acesso ao seu portal do paciente de {clinic}',
      greeting: 'Olá, {name}!',
      body: '{clinic} lhe dá acesso ao portal do paciente, onde pode consultar suas consultas, seus documentos e seu saldo. Abra este link para entrar (ele funciona uma única vez e expira em 7 dias); depois de entrar, pode escolher uma senha:',
      action: 'Entrar no portal',
      footer: 'Se não esperava este e-mail, pode ignorá-lo.',
    },
    portal_link: {
      subject: 'Seu link para entrar no portal de {clinic}',
      greeting: 'Olá, {name}!',
      body: 'Recebemos o seu pedido de acesso ao portal do paciente de {clinic}. Abra este link para entrar (ele funciona uma única vez e expira em 60 minutos):',
      action: 'Entrar no portal',
      footer: 'Se não pediu, ignore este e-mail: ninguém entra sem este link.',
    },
    activation: {
      subject: 'Ative a conta de {clinic} no Odontia',
      greeting: 'Olá, {name}!',
      body: 'Obrigado por cadastrar {clinic} no Odontia. Para ativar a conta, abra este link (ele expira em 24 horas):',
      action: 'Ativar a conta',
      footer: 'Se você não criou esta conta, pode ignorar este e-mail.',
    },
    reset: {
      subject: 'Redefina sua senha do Odontia ({clinic})',
      greeting: 'Olá, {name}!',
      body: 'Recebemos um pedido para redefinir sua senha em {clinic}. Abra este link para escolher uma nova (ele funciona uma única vez e expira em 60 minutos):',
      action: 'Redefinir a senha',
      footer: 'Se você não pediu, ignore este e-mail: sua senha continua a mesma.',
    },
    invitation: {
      subject: '{clinic} convida você para o Odontia',
      greeting: 'Olá, {name}!',
      body: '{clinic} convidou você para a equipe no Odontia. Abra este link para escolher sua senha:',
      action: 'Aceitar o convite',
      footer: 'Se você não esperava este convite, pode ignorar este e-mail.',
    },
    activation_existing: {
      subject: 'Ative {clinic} no Odontia',
      greeting: 'Olá, {name}!',
      body: 'Você cadastrou {clinic} no Odontia com um e-mail que já usa para entrar em outra clínica. Sua senha continua a mesma (a digitada no cadastro não foi usada; se não lembrar dela, peça para redefini-la). Para ativar a clínica, abra este link (ele expira em 24 horas):',
      action: 'Ativar a clínica',
      footer: 'Se você não cadastrou esta clínica, pode ignorar este e-mail: nada muda na sua conta.',
    },
    invitation_existing: {
      subject: '{clinic} convida você para o Odontia',
      greeting: 'Olá, {name}!',
      body: '{clinic} convidou você para a equipe no Odontia. Entre com seu e-mail e sua senha de sempre: a clínica aparecerá no seu menu de usuário.',
      action: 'Entrar no Odontia',
      footer: 'Se você não esperava este convite, pode ignorar este e-mail.',
    },
  },
};

export function authMail(options: {
  kind: AuthMailKind;
  language: Language;
  to: string;
  name: string;
  clinicName: string;
  /** A portal mail's clinic brand colour ('#rrggbb'; null: the product's). */
  clinicColor?: string | null | undefined;
  link: string;
}): MailMessage {
  const template = templates[options.language][options.kind];
  // A portal mail is the clinic's to its patient: its frame, colour and signature (issue 37).
  const portal = portalMailKinds.includes(options.kind);
  const signature = portal ? options.clinicName : 'Odontia';
  const fill = (text: string, html: boolean) =>
    text
      .replaceAll('{clinic}', html ? escapeHtml(options.clinicName) : options.clinicName)
      .replaceAll('{name}', html ? escapeHtml(options.name) : options.name);
  const text = [
    fill(template.greeting, false),
    '',
    fill(template.body, false),
    '',
    options.link,
    '',
    template.footer,
    '',
    `— ${signature}`,
  ].join('\n');
  const link = escapeHtml(options.link);
  const html = portal
    ? patientMailHtml(options, [
        { html: fill(template.greeting, true) },
        { html: fill(template.body, true) },
        { actions: [{ label: template.action, url: options.link }] },
        { note: link },
        { note: escapeHtml(template.footer) },
      ])
    : `<!doctype html><html lang="${options.language}"><body style="font-family:sans-serif">
<p>${fill(template.greeting, true)}</p>
<p>${fill(template.body, true)}</p>
<p><a href="${link}">${escapeHtml(template.action)}</a></p>
<p>${link}</p>
<p style="color:#666">${escapeHtml(template.footer)}</p>
<p>— Odontia</p>
</body></html>`;
  return { to: options.to, subject: fill(template.subject, false), text, html, link: options.link };
}
