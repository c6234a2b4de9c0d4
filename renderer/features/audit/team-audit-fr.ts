import type { teamAuditEn } from './team-audit-en';

/** Le journal d’audit en mode équipe (renderer/features/audit/team-audit-view.tsx), sous `teamAudit` dans fr.ts. */
export const teamAuditFr: Record<keyof typeof teamAuditEn, string> = {
  intro: 'Chaque effacement et chaque déconnexion de l’équipe, depuis tous les postes, du plus récent au plus ancien : lus dans la base de l’équipe page par page, au fil du défilement.',
  where: 'Journal de l’équipe dans {{where}}',
  total_one: '{{count}} entrée dans le journal de l’équipe',
  total_other: '{{count}} entrées dans le journal de l’équipe',
  matching_one: '{{count}} entrée correspond à ces filtres',
  matching_other: '{{count}} entrées correspondent à ces filtres',
  matchingMore: 'Plus de {{count}} entrées correspondent à ces filtres (non comptées au-delà)',
  shown_one: '{{count}} acte affiché',
  shown_other: '{{count}} actes affichés',
  more: 'Faites défiler pour les entrées plus anciennes',
  loadingMore: 'Lecture des entrées plus anciennes…',
  loadMore: 'Lire les entrées plus anciennes',
  allShown: 'Toutes les entrées correspondantes sont affichées.',
  notVerified: 'Pas encore vérifié dans cette vue',
  notVerifiedDetail_one: 'Le journal de l’équipe contient {{count}} entrée. Vérifier sa chaîne lit chaque entrée dans la base : appuyez sur Vérifier quand il vous faut le verdict.',
  notVerifiedDetail_other: 'Le journal de l’équipe contient {{count}} entrées. Vérifier sa chaîne lit chaque entrée dans la base : appuyez sur Vérifier quand il vous faut le verdict.',
  verify: 'Vérifier la chaîne',
  pageFailed: 'Ces entrées n’ont pas pu être lues dans la base de l’équipe',
  onDesktop: 'sur {{desktop}}',
  dbRole: 'rôle de base {{role}}',
  whoLabel: 'Écrit par {{operator}} sur {{desktop}} avec le rôle de base {{role}}',
};
