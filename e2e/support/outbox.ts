import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The mail the root server wrote to `DATA_DIR/outbox` (no SMTP_URL in the suite): the first link
 * to `pathPrefix` in a message to `to`, waiting up to `timeoutMs` for it.
 */
export async function linkFromOutbox(to: string, pathPrefix: string, timeoutMs = 10_000): Promise<string> {
  const runDir = process.env.ODONTIA_E2E_RUN_DIR;
  if (!runDir) throw new Error('ODONTIA_E2E_RUN_DIR is not set (run through playwright.config.ts)');
  const outbox = path.join(runDir, 'data', 'root', 'outbox');
  const pattern = new RegExp(`https?://[^\\s"<>]+${pathPrefix.replace(/[/.]/g, '\\$&')}[A-Za-z0-9_-]+`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox).sort().reverse()) {
        // Quoted-printable: soft line breaks and `=3D`.
        const mail = readFileSync(path.join(outbox, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        if (!mail.includes(to)) continue;
        const link = pattern.exec(mail)?.[0];
        if (link) return new URL(link).pathname;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail to ${to} with a ${pathPrefix} link in ${outbox}`);
}
