import { message, param } from '../message-text';

/** The answer pack of a closed request (core/requests/answer-pack.ts): when it cannot be made, and where the CLI writes it. */
export const ANSWER_PACK_MESSAGES = {
  'answerPack.requestOpen': message('Request {{id}} is still open ({{status}}): its answer pack is made once it is answered or refused. Close it, or refuse it with its ground, then make the pack. Nothing was written.', {
    id: param.text,
    status: param.text,
  }),
  'answerPack.badLanguage': message('An answer pack is written in English (en) or French (fr), not {{language}}. Nothing was written.', { language: param.text }),
  'answerPack.noFolder': message('{{dir}} is not a folder this account can write into: give an existing folder for the answer pack. Nothing was written.', { dir: param.text }),
  'answerPack.fileExists': message('{{path}} already exists, and an answer pack never replaces a file: give another folder, or move that file away. Nothing of the pack was written.', { path: param.text }),
  'answerPack.written': message(
    {
      one: 'Answer pack of {{id}} written to {{dir}}: the receipt of {{count}} act ({{receipt}}) and the letter ({{letter}}). Head hash of the audit chain: {{head}}.',
      other: 'Answer pack of {{id}} written to {{dir}}: the receipt of {{count}} acts ({{receipt}}) and the letter ({{letter}}). Head hash of the audit chain: {{head}}.',
    },
    { id: param.text, dir: param.text, count: param.count, receipt: param.text, letter: param.text, head: param.text },
  ),
  'answerPack.withContact': message('The letter holds the requester’s name and contact, as asked: keep it safe, and delete it once sent.'),
  'answerPack.contactUnreadable': message('The letter does not name the requester: their name and contact were not given, were purged, or are encrypted with a key this computer or session does not hold.'),
  'answerPack.chainNotVerified': message('Warning: the audit trail’s chain does not verify; the receipt and the letter say so. Run "privacy-desk audit verify" for where it breaks.'),
} as const;
