/** Realistic, mixed-language seed vocabulary (French, English and others, accents included). */

export const FIRST_NAMES = [
  'Camille', 'Léa', 'Chloé', 'Hélène', 'Amélie', 'Zoé', 'Inès', 'Margaux', 'Émilie', 'Noémie',
  'Jean', 'François', 'Mathéo', 'Jérôme', 'Loïc', 'Benoît', 'Théo', 'Étienne', 'Gaël', 'Raphaël',
  'Olivia', 'Emma', 'Grace', 'Hannah', 'Sophie', 'James', 'Oliver', 'Harry', 'William', 'Jack',
  'Søren', 'Björn', 'Åsa', 'Jürgen', 'Müge', 'Łukasz', 'Zofia', 'Dvořák', 'Ioana', 'Tomás',
  'María José', 'José', 'Núria', 'João', 'Aïcha', 'Yasmine', 'Karim', 'Mehdi', 'Fatoumata', 'Moussa',
  'Kenji', 'Yuki', 'Mei', 'Wei', 'Priya', 'Arjun', 'Siobhán', 'Niamh', 'Eoin', 'Ciarán',
] as const;

export const LAST_NAMES = [
  'Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Girard', 'Fournier', 'Lambert', 'Bonnet', 'François',
  'Mercier', 'Lefebvre', 'Rousseau', 'Faure', 'André', 'Garçon', 'Hébert', 'Boucher', 'Côté', 'Gagné',
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Evans', 'Thomas', 'Johnson', 'Roberts',
  'Müller', 'Schröder', 'Weiß', 'Jørgensen', 'Nyström', 'Kowalski', 'Nowak', 'Novák', 'Popescu', 'Horváth',
  'García', 'Fernández', 'López', 'Peña', 'Gonçalves', 'Ben Ali', 'El Amrani', 'Diallo', 'Traoré', 'N\'Diaye',
  'Tanaka', 'Suzuki', 'Chen', 'Wang', 'Sharma', 'Patel', 'O\'Brien', 'Ní Bhriain', 'MacLeod', 'de la Fontaine',
] as const;

export const CITIES = [
  'Paris', 'Lyon', 'Marseille', 'Montréal', 'Québec', 'Genève', 'Liège', 'Besançon', 'Orléans', 'Nîmes',
  'London', 'Manchester', 'Dublin', 'Edinburgh', 'New York', 'Toronto', 'Berlin', 'München', 'Zürich', 'Köln',
  'Kraków', 'Praha', 'Bucureşti', 'São Paulo', 'Málaga', 'Lisboa', 'Dakar', 'Casablanca', 'Tōkyō', 'Mumbai',
] as const;

export const OCCUPATIONS = [
  'Enseignante', 'Infirmier', 'Développeuse', 'Journalist', 'Student', 'Retired', 'Architecte', 'Librarian',
  'Urbaniste', 'Pharmacienne', 'Farmer', 'Civil servant', 'Designer', 'Électricien', 'Nurse', 'Chef',
] as const;

export const INTERESTS = [
  'écologie', 'urbanisme', 'sport', 'culture', 'transport', 'éducation', 'santé', 'numérique',
  'democracy', 'housing', 'cycling', 'music', 'budget participatif', 'climate', 'gardening', 'libraries',
] as const;

export const DESCRIPTIONS = [
  'Habitant du quartier depuis vingt ans.',
  'Passionnée par la vie locale et les espaces verts.',
  'I mostly read, sometimes I vote.',
  'Parent of two, cyclist, occasional grumbler about bus timetables.',
  'Membre du conseil de quartier.',
  'Ici pour débattre, pas pour se battre.',
  'Retired teacher, still learning every day.',
  'Ich interessiere mich für Stadtplanung.',
] as const;

export const LEVELS = [
  { id: 1, name: 'Newcomer' },
  { id: 2, name: 'Contributor' },
  { id: 3, name: 'Regular' },
  { id: 4, name: 'Expert' },
  { id: 5, name: 'Ambassador' },
] as const;

export const EMAIL_DOMAINS = ['example.org', 'example.com', 'example.net', 'mail.example', 'courriel.example'] as const;

/**
 * uids a client application really chooses and that break naive clients:
 * spaces, `+`, unicode, `/`, `?`, `#`, `%`. Placed at fixed positions among
 * the first 15 users (index = position in the seed, 0-based).
 */
export const AWKWARD_UIDS: ReadonlyArray<{ index: number; uid: string }> = [
  { index: 0, uid: 'alice@example.org' },
  { index: 2, uid: 'bob+news@example.org' },
  { index: 3, uid: 'jean dupont' },
  { index: 5, uid: 'zoë.müller' },
  { index: 6, uid: '東京ユーザー' },
  { index: 7, uid: 'team/lead' },
  { index: 9, uid: 'what?really' },
  { index: 10, uid: 'hash#tag' },
  { index: 11, uid: '100%done' },
  { index: 13, uid: 'mixed /?#% ü+' },
];

/** Index of the user whose uid is exactly 1 024 characters (the longest a uid may be). */
export const LONG_UID_INDEX = 137;

export function longUid(): string {
  const prefix = 'sso|long-identifier|';
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789-';
  let uid = prefix;
  while (uid.length < 1024) uid += filler;
  return uid.slice(0, 1024);
}
