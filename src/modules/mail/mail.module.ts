import { defineModule, type ModuleInfra } from '../module';
import type { Mailer, MailMessage } from './mailer';

/**
 * Mail. Without SMTP (the sandbox's default) every message goes to the log in full, links and all,
 * so a newcomer can click them (as Django's console backend does).
 */
export const mailModule = defineModule({
  name: 'mail',
  create: ({ logger }: Pick<ModuleInfra, 'logger' | 'config'>, _deps: object) => {
    const mailer: Mailer = {
      send: async (message: MailMessage) => {
        logger.info({ mail: { to: message.to, subject: message.subject }, body: message.text }, `mail to ${message.to}: ${message.subject}`);
      },
    };
    return { services: { mailer } };
  },
});
