import * as vscode from 'vscode';
import type { SmtpSettings } from '../../core/reply/smtp';

/** The `kernelReview.reply.*` settings. */
export interface ReplySettings {
  /** "Name <addr>"; empty = git sendemail.from, else user.name/user.email. */
  from: string;
  sendMethod: 'git-send-email' | 'smtp';
  smtp: Omit<SmtpSettings, 'password'>;
}

export function readReplySettings(): ReplySettings {
  const c = vscode.workspace.getConfiguration('kernelReview.reply');
  const security = c.get<string>('smtp.security', 'starttls');
  return {
    from: c.get<string>('from', '').trim(),
    sendMethod: c.get<string>('sendMethod', 'git-send-email') === 'smtp' ? 'smtp' : 'git-send-email',
    smtp: {
      host: c.get<string>('smtp.host', '').trim(),
      port: c.get<number>('smtp.port', 587),
      security: security === 'tls' || security === 'none' ? security : 'starttls',
      user: c.get<string>('smtp.user', '').trim() || undefined,
    },
  };
}
