/** The conformance run's French: exactly the keys of conformance-en.ts (the type and i18n-keys.test.ts both check). */
import type { Messages } from './en';

export const conformanceFr: Messages['conformance'] = {
  title: 'Série de conformité',
  hint: 'Un jeton fabriqué par règle de validation des jetons de déconnexion (OpenID Connect Back-Channel Logout 1.0 §2.6)\u00a0: ce qu’exige la règle, ce qu’a fait le service, et un verdict. Chaque envoi est inscrit au journal d’audit.',
  sandboxNote: 'Sur le bac à sable, une session est ouverte avant chaque jeton et comptée après, si bien qu’une acceptation est prouvée par la fermeture des sessions.',
  liveNote: 'Sur ce service, les sessions ne peuvent pas être comptées\u00a0: un refus est un verdict, une acceptation ne dit pas si les sessions se sont fermées. Les jetons valides ferment les vraies sessions de cet uid.',
  run: 'Lancer les vérifications de conformité',
  running: 'Vérifications en cours…',
  needUid: 'Saisissez un uid valide ci-dessus pour lancer les vérifications.',
  failed: 'La série de conformité n’a pas pu aller à son terme',
  summary: 'Conformes\u00a0: {{conformant}} · non conformes\u00a0: {{notConformant}} · non concluants\u00a0: {{inconclusive}}',
  overall: {
    conformant: 'Toutes les règles de la documentation du service sont respectées.',
    'not-conformant': 'Une règle de la documentation du service n’est pas respectée\u00a0: un défaut à signaler.',
    inconclusive: 'Aucune règle de la documentation du service n’a échoué, mais l’une d’elles n’a pas pu être jugée.',
  },
  sessionsNotChecked: 'Les sessions n’ont pas été vérifiées sur ce service.',
  sessionsNoUser: 'Aucune session n’a pu être ouverte pour {{uid}}\u00a0: le bac à sable n’a aucun utilisateur actif avec cet uid, si bien qu’une acceptation ne peut pas montrer la fermeture des sessions.',
  ranFor: 'Ces résultats concernent {{uid}} sur {{host}}, {{when}}.',
  otherUid: 'L’uid ci-dessus a changé depuis\u00a0: ces résultats concernent {{uid}}. Relancez les vérifications pour l’uid ci-dessus.',
  columns: { case: 'Règle', source: 'Source', expected: 'Attendu', actual: 'Ce qu’a fait le service', verdict: 'Verdict' },
  sources: { 'service-docs': 'Documentation du service', 'oidc-spec': 'Spécification OIDC', 'good-practice': 'Bonne pratique' },
  sourceHints: {
    'service-docs': 'La documentation du service énonce cette règle\u00a0: ne pas la respecter est un défaut.',
    'oidc-spec': 'La spécification OpenID Connect (ou les normes JOSE sur lesquelles elle repose) énonce cette règle, pas la documentation du service\u00a0: une remarque.',
    'good-practice': 'Une bonne pratique, pas une exigence de la documentation du service\u00a0: une remarque.',
  },
  verdicts: { conformant: 'Conforme', 'not-conformant': 'Non conforme', inconclusive: 'Non concluant' },
  serviceSaid: 'Le service a répondu\u00a0: «\u00a0{{text}}\u00a0»',
  filters: { label: 'Filtrer les cas', verdict: 'Verdict', source: 'Source', any: 'Tous' },
  noneMatch: 'Aucun cas ne correspond à ces filtres.',
  export: { label: 'Exporter', json: 'JSON', junit: 'JUnit XML', csv: 'CSV' },
  confirm: {
    title: 'Lancer les vérifications de conformité sur des données réelles\u00a0?',
    body: 'Cette série envoie une vingtaine de jetons de déconnexion pour {{uid}} à {{host}}. Les jetons valides ferment les vraies sessions de {{uid}}, sans retour possible.',
    otherSub: 'Un jeton nomme {{other}} (le même uid dans une autre casse, pour vérifier que le service les distingue)\u00a0: un utilisateur ayant cet uid, s’il existe, perd aussi ses sessions.',
    field: 'Tapez l’uid pour confirmer',
    go: 'Lancer sur les données réelles',
  },
};
