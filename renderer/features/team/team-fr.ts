import type { Messages } from '../../i18n/en';

/** The Team mode section's French (renderer/features/team/), spread into fr.ts under `teamMode`. */
export const teamModeFr: Messages['teamMode'] = {
  title: 'Mode équipe',
  introLocal: 'Le journal d’audit, les lots et le registre des demandes sont gardés dans le dossier de données de cet ordinateur. Une équipe de plusieurs postes peut les garder dans une seule base PostgreSQL à la place\u00a0: un journal, un registre, une vue des lots en cours.',
  introTeam: 'Le journal d’audit, les lots et le registre des demandes de ce dossier de données sont gardés dans la base PostgreSQL de l’équipe. Les profils, les identifiants et les aperçus de lots restent sur cet ordinateur.',
  header: 'Équipe\u00a0: {{where}}',
  headerLabel: 'Mode équipe\u00a0: le journal, les lots et le registre sont dans {{where}}',
  where: 'Base de données',
  connectedBy: 'Connecté le {{at}} par {{operator}} sur {{desktop}}',
  reachable: 'Joignable avec le rôle {{role}} depuis {{desktop}}',
  unreachable: 'Injoignable pour l’instant',
  schema: 'Schéma\u00a0: {{steps}} étapes, la dernière {{last}}',
  counts: '{{entries}} entrées d’audit, {{requests}} demandes, {{jobs}} lots',
  password: {
    keychain: 'Mot de passe gardé dans le trousseau du système',
    session: 'Mot de passe gardé pour cette session seulement (pas de trousseau)',
    environment: 'Mot de passe lu dans PRIVACY_DESK_DATABASE_PASSWORD',
    missing: 'Mot de passe manquant\u00a0: connectez-vous de nouveau',
  },
  urlLabel: 'Adresse de la base',
  urlHint: 'postgres://UTILISATEUR@HÔTE:PORT/BASE, sans le mot de passe. TLS est exigé sauf si la base est sur cet ordinateur.',
  passwordLabel: 'Mot de passe',
  passwordHint: 'Gardé dans le trousseau du système seulement, jamais dans un fichier, jamais réaffiché.',
  connect: 'Connecter',
  connecting: 'Test de la base…',
  connectFailed: 'Le mode équipe n’a pas pu être activé',
  disconnect: 'Revenir aux fichiers locaux',
  disconnectHint: 'Les données de l’équipe restent dans la base\u00a0; cet ordinateur travaille de nouveau sur ses propres fichiers et le mot de passe est retiré du trousseau.',
  disconnectFailed: 'Le mode équipe n’a pas pu être désactivé',
  checkAgain: 'Vérifier de nouveau',
  loadFailed: 'Le mode équipe n’a pas pu être lu',
};
