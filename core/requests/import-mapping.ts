import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';

/** What a spreadsheet column can hold, by the name `--column field=NAME` uses. */
export const IMPORT_FIELDS = ['reference', 'received', 'channel', 'action', 'uid', 'requester', 'contact', 'notes', 'status', 'answered', 'ground'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Without these a line cannot become a request (its clock needs the day; the register, what and whom). */
export const REQUIRED_IMPORT_FIELDS: readonly ImportField[] = ['received', 'action', 'uid'];

/** Field → the header of the column holding it, exactly as the file writes it. */
export type ImportMapping = Partial<Record<ImportField, string>>;

/**
 * Header names each field is known by, in English and French, compared normalised (see headerKey). Exact names
 * are tried first, so "date de réponse" goes to answered before "date" could take it for received.
 */
const KNOWN_NAMES: Record<ImportField, readonly string[]> = {
  reference: ['id', 'ref', 'reference', 'request id', 'request reference', 'ticket', 'case', 'no', 'n', 'number', 'numero', 'n de demande', 'numero de demande', 'dossier', 'identifiant de la demande'],
  received: ['received', 'received at', 'received on', 'date received', 'receipt date', 'date', 'recu', 'recue', 'recu le', 'recue le', 'date de reception', 'reception', 'date de la demande', 'date demande'],
  channel: ['channel', 'via', 'source', 'canal', 'moyen', 'origine', 'mode de reception'],
  action: ['action', 'actions', 'request', 'request type', 'type', 'what', 'demande', 'type de demande', 'nature', 'nature de la demande', 'objet'],
  uid: ['uid', 'uids', 'user', 'users', 'user id', 'user ids', 'userid', 'account', 'accounts', 'identifiant', 'identifiants', 'utilisateur', 'utilisateurs', 'compte', 'comptes', 'id utilisateur', 'identifiant utilisateur'],
  requester: ['requester', 'requester name', 'name', 'person', 'data subject', 'demandeur', 'demandeuse', 'nom', 'nom du demandeur', 'personne', 'personne concernee'],
  contact: ['contact', 'email', 'e mail', 'mail', 'address', 'courriel', 'adresse', 'adresse e mail', 'adresse electronique'],
  notes: ['notes', 'note', 'comment', 'comments', 'remarks', 'commentaire', 'commentaires', 'remarque', 'remarques', 'observations'],
  status: ['status', 'state', 'statut', 'etat', 'suite'],
  answered: ['answered', 'answered at', 'answered on', 'answer date', 'date answered', 'closed', 'closed on', 'repondu', 'repondu le', 'reponse', 'date de reponse', 'date de cloture', 'cloture', 'clos le', 'traite le'],
  ground: ['ground', 'refusal ground', 'reason', 'refusal reason', 'motif', 'motif de refus', 'motif du refus', 'fondement'],
};

/** A header as compared: lower case, accents and punctuation gone, spaces single ("Reçu le :" → "recu le"). */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The mapping: each field given by the DPO taken as is (checked), each other field guessed from the headers — an
 * exact known name first, else a header that starts with one ("Statut actuel", "E-mail du demandeur"). A column serves one field.
 */
export function importMapping(columns: readonly string[], given: ImportMapping = {}): ImportMapping {
  const mapping: ImportMapping = {};
  const taken = new Set<number>();
  for (const [field, column] of Object.entries(given) as Array<[string, string | undefined]>) {
    if (!(IMPORT_FIELDS as readonly string[]).includes(field)) throw invalidInput(msg('requestImport.unknownField', { field, fields: IMPORT_FIELDS.join(', ') }));
    if (column === undefined) continue;
    const exact = columns.findIndex((name) => name.trim() === column.trim());
    const found = exact === -1 ? columns.findIndex((name) => headerKey(name) === headerKey(column)) : exact;
    if (found === -1) throw invalidInput(msg('requestImport.unknownColumn', { column, field, columns: columnList(columns) }));
    mapping[field as ImportField] = columns[found];
    taken.add(found);
  }
  const keys = columns.map(headerKey);
  const guess = (matches: (key: string, names: readonly string[]) => boolean) => {
    for (const field of IMPORT_FIELDS) {
      if (mapping[field] !== undefined) continue;
      const index = keys.findIndex((key, at) => !taken.has(at) && key !== '' && matches(key, KNOWN_NAMES[field]));
      if (index === -1) continue;
      mapping[field] = columns[index];
      taken.add(index);
    }
  };
  guess((key, names) => names.includes(key));
  guess((key, names) => names.some((name) => key.startsWith(`${name} `)));
  return mapping;
}

/** Refuses a mapping that leaves out a field every request needs. */
export function checkRequiredColumns(columns: readonly string[], mapping: ImportMapping): void {
  const missing = REQUIRED_IMPORT_FIELDS.find((field) => mapping[field] === undefined);
  if (missing) throw invalidInput(msg('requestImport.missingColumn', { field: missing, columns: columnList(columns) }));
}

function columnList(columns: readonly string[]): string {
  return columns.map((column) => `"${column.slice(0, 60)}"`).join(', ');
}
