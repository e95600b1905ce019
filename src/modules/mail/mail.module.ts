import type { Logger } from '../../shared/logger';
import { defineModule, type ModuleInfra, type ModuleParts } from '../module';
import { MailNotSentError, assertOneRecipient, type Mailer, type MailMessage } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/**
 * Mail (docs/operations.md, *Email*), one backend chosen at start:
 * - SMTP_URL set: SMTP through one pooled transport, closed at stop; the log gets recipient, subject and Message-ID only;
 * - the sandbox without SMTP: every message goes to the log in full, links and all, so a newcomer can click them
 *   (as Django's console backend does);
 * - production without SMTP: the service does not start (serviceStartProblems); an operator CLI that tries to send
 *   gets a MailNotSentError, and the message (its links are secrets) is not logged.
 */
export const mailModule = defineModule({
  name: 'mail',
  create: ({ logger, config }: Pick<ModuleInfra, 'logger' | 'config'>, _deps: object): ModuleParts<{ mailer: Mailer }> => {
    const { smtpUrl, from } = config.mail;
    if (smtpUrl !== undefined && from !== undefined) {
      const smtp = new SmtpMailer({ url: smtpUrl, from, production: config.env === 'production', logger });
      return { services: { mailer: smtp }, start: async () => smtp.start(), stop: () => smtp.stop() };
    }
    if (config.env === 'sandbox') return { services: { mailer: logMailer(logger) } };
    return { services: { mailer: unconfiguredMailer(logger) } };
  },
});

function logMailer(logger: Logger): Mailer {
  return {
    send: async (message: MailMessage) => {
      assertOneRecipient(message.to);
      logger.info({ mail: { to: message.to, subject: message.subject }, body: message.text }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}

function unconfiguredMailer(logger: Logger): Mailer {
  return {
    send: async (message: MailMessage) => {
      logger.warn({ mail: { to: message.to, subject: message.subject } }, 'mail not sent: production needs SMTP_URL and MAIL_FROM');
      throw new MailNotSentError('mail not sent: production needs SMTP_URL and MAIL_FROM (docs/operations.md, Email)', {
        code: 'NOT_CONFIGURED',
        permanent: true,
      });
    },
  };
}
