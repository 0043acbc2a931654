import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { MailOutboxRepository } from '../../repositories/mail-outbox.ts';
import { OutboxMailer } from './outbox-mailer.ts';
import type { MailMessage } from './port.ts';

describe('OutboxMailer', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await createTestDatabase();
  });
  afterAll(() => dbh?.close());

  const message = (to: string, extra: Partial<MailMessage> = {}): MailMessage => ({
    to,
    kind: 'NOTIFICATION',
    subject: 'Token deployed',
    text: 'Your token is on the chain.',
    ...extra,
  });

  it('writes and sends a message with a dedupe key once, however often it is sent', async () => {
    const sent: string[] = [];
    const mailer = new OutboxMailer(dbh.db, 'portal@example.com', pino({ level: 'silent' }), {
      sendMail: async (mail) => void sent.push(mail.to),
    });
    const to = 'once@example.com';
    await mailer.send(message(to, { dedupeKey: 'event:1:user' }));
    await mailer.send(message(to, { dedupeKey: 'event:1:user', subject: 'Again' }));
    await mailer.send(message(to, { dedupeKey: 'event:2:user' }));

    expect(sent).toEqual([to, to]);
    const rows = await new MailOutboxRepository(dbh.db).sentTo(to);
    expect(rows.map((row) => [row.dedupeKey, row.subject, row.sentAt !== null])).toEqual([
      ['event:1:user', 'Token deployed', true],
      ['event:2:user', 'Token deployed', true],
    ]);
  });

  it('writes every message without a key (sign-up codes may be asked for twice)', async () => {
    const mailer = new OutboxMailer(dbh.db, 'portal@example.com', pino({ level: 'silent' }));
    const to = 'twice@example.com';
    await mailer.send(message(to, { kind: 'SIGN_UP_CODE', code: '123456' }));
    await mailer.send(message(to, { kind: 'SIGN_UP_CODE', code: '123456' }));
    expect(await new MailOutboxRepository(dbh.db).sentTo(to)).toHaveLength(2);
  });
});
